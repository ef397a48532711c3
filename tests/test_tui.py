"""The terminal table (``majiang play``): whole hands and matches played by key presses.

Textual's pilot drives the app headless. A test player reads what the app shows (its choices,
its hand layout, its hints) and answers with keys only: it claims every pung, kong and chow it
is offered and wins when it may, discards the tile the hints rank first (selected by its tile
key, pressed twice), throws and accepts bullets in Huangyan, and goes through the score sheets to
the standings. The remote test plays a seat of a real server (uvicorn in a thread).

``MAJIANG_SCREENSHOTS=1`` saves the screenshots into ``docs/screenshots/tui-*.svg``; otherwise
they go to a temporary directory (the code that takes them still runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import io
import os
import re
import shlex
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console, RenderableType
from textual import events
from textual.pilot import Pilot
from textual.widgets import Static

from majiang.cli import main
from majiang.cli import play as play_cmd
from majiang.hints import hints
from majiang.tiles import tile_name
from majiang.tui.app import DriverMessage, MajiangApp
from majiang.tui.driver import Driver, Sink
from majiang.tui.glyphs import cards
from majiang.tui.local import LocalDriver, final_tiles
from majiang.tui.model import (
    TILE_KEYS,
    Choices,
    HandEnded,
    MatchEnded,
    Problem,
    Snapshot,
    TableChanged,
    hand_layout,
    unique_names,
)
from majiang.tui.remote import (
    PlayError,
    RemoteDriver,
    base_url,
    join_room,
    seconds_left,
    websocket_url,
)
from majiang.tui.render import event_line, last_discarder, seat_panel
from majiang.tui.screens import ChoiceScreen, ScoreScreen, StandingsScreen
from majiang.tui.sheets import hints_text, score_sheet, standings
from server_helpers import ThreadedServer

SIZE = (110, 42)
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def plain(renderable: RenderableType, width: int = 120) -> str:
    """A renderable as plain text."""
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def _cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


async def screenshot(pilot: Pilot[int], name: str, tmp_path: Path) -> Path:
    """Save an SVG screenshot (into docs/screenshots with MAJIANG_SCREENSHOTS=1). Each text run
    is given the width of its terminal cells, so that Chinese characters (two cells each) are
    not squeezed into one cell each by the SVG's ``textLength``."""
    folder = SHOTS if os.environ.get("MAJIANG_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    await pilot.pause()  # everything drawn
    svg = pilot.app.export_screenshot(title="majiang play")

    def widen(match: re.Match[str]) -> str:
        length, content = float(match.group(2)), match.group(4)
        text = html.unescape(content)
        if not text or _cells(text) == len(text):
            return match.group(0)
        width = length / len(text) * _cells(text)
        return f"{match.group(1)}{width:g}{match.group(3)}{content}</text>"

    svg = re.sub(r'(<text [^>]*textLength=")([\d.]+)("[^>]*>)([^<]*)</text>', widen, svg)
    path = folder / f"tui-{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path


# ---------------------------------------------------------------------- the test player


class Player:
    """Plays the app's seat by key presses; keeps count of what it did."""

    def __init__(self, pilot: Pilot[int], app: MajiangApp, tmp_path: Path) -> None:
        self.pilot, self.app, self.tmp_path = pilot, app, tmp_path
        self.claims: list[str] = []
        self.sheets: list[str] = []
        self.standings: str | None = None
        self.did: list[str] = []
        self.shots: dict[str, Path] = {}

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until the app waits for the player (hints in, when shown)."""
        app = self.app
        deadline = time.monotonic() + timeout
        while app.is_running:
            if app.waiting_for_player and (
                not app.show_hints or app.hints is not None or not app.choices.any
                or not isinstance(app.screen, type(app.table_screen))
            ):
                return
            assert time.monotonic() < deadline, f"the app did not ask the player: {app.choices}"
            await asyncio.sleep(0.002)

    async def press(self, *keys: str) -> None:
        """Press keys, each handled before the next. (The key events go to the app as the
        terminal driver sends them; ``pilot.press`` would do the same but then wait for the
        process to look idle, 40 ms or more a key.)"""
        for key in keys:
            char = {"enter": "\r", "space": " ", "question_mark": "?"}.get(
                key, key if len(key) == 1 else None
            )
            self.app.post_message(events.Key(key, char))
            await self.pilot.pause(0)  # the app has forwarded it to the screen
            await self.pilot.pause(0)  # the screen has handled it
        self.did.extend(keys)

    async def step(self) -> bool:
        """Answer what the app asks; False once the app has exited."""
        await self.settle()
        app = self.app
        if not app.is_running:
            return False
        screen = app.screen
        if isinstance(screen, StandingsScreen):
            self.standings = plain(screen.table)
            if "standings" not in self.shots:
                self.shots["standings"] = await screenshot(self.pilot, "standings", self.tmp_path)
            await self.press("enter")
            return False
        if isinstance(screen, ScoreScreen):
            self.sheets.append(plain(screen.sheet))
            name = f"sheet-{app.driver.rules}"
            if name not in self.shots:
                self.shots[name] = await screenshot(self.pilot, name, self.tmp_path)
            await self.press("enter")
            return True
        if isinstance(screen, ChoiceScreen):
            await self.press("down", "up", "1")
            return True
        choices = app.choices
        if choices.win:
            self.claims.append("win")
            await self.press("w")
        elif choices.pung:
            self.claims.append("pung")
            await self.press("p")
        elif choices.kongs:
            self.claims.append("kong")
            await self.press("k")
        elif choices.chows:
            self.claims.append("chow")
            await self.press("c")
        elif choices.throws:
            await self.press("2")
        elif choices.accept:
            await self.press("y")
        elif choices.discards:
            await self.discard(choices)
        else:
            raise AssertionError(f"nothing to answer: {choices}")
        return True

    async def discard(self, choices: Choices) -> None:
        """The hints' first discard, picked with its tile key (twice), or ←→ and enter."""
        app = self.app
        tiles = app.layout.tiles
        tile = (app.hints or {}).get("discards", [{}])[0].get("tile") if app.hints else None
        if tile not in choices.discards:
            tile = tiles[-1]
        index = tiles.index(tile)
        if index < len(TILE_KEYS) and len(self.did) % 3:
            await self.press(TILE_KEYS[index], TILE_KEYS[index])
        else:
            moves = index - app.cursor
            await self.press(*(["right"] * moves if moves > 0 else ["left"] * -moves), "enter")

    async def play(self, limit: int = 2000) -> None:
        """Answer until the app exits."""
        for _ in range(limit):
            if not await self.step():
                break
        await self.pilot.pause()
        assert not self.app.is_running or self.standings is not None


def run_app(app: MajiangApp, body: Any) -> Any:
    """Run ``body(pilot, app)`` with the app headless."""

    async def go() -> Any:
        async with app.run_test(size=SIZE) as pilot:
            return await body(pilot)

    return asyncio.run(go())


# ---------------------------------------------------------------------- local tables


def test_guobiao_match_by_keys(tmp_path: Path) -> None:
    """Two hands of Guobiao against fan bots: hints on, claims made, score sheets, standings."""
    app = MajiangApp(LocalDriver("gb", seed=1, hands=2))
    seen: dict[str, Any] = {}

    async def body(pilot: Pilot[int]) -> Player:
        player = Player(pilot, app, tmp_path)
        await player.settle()
        await player.press("h")  # hints, asked again at every decision
        await player.settle()
        await pilot.pause()
        seen["hints"] = app.table_screen.shown("#hints").plain
        seen["help"] = str(app.table_screen.query_one("#help", Static).content)
        for _ in range(6):
            await player.step()
        await player.settle()
        for _ in range(40):  # to the player's turn to discard, the safety hint in
            if app.choices.discards and app.hints and app.hints.get("safety"):
                break
            await player.step()
            await player.settle()
        seen["safety"] = list(app.hints["safety"]) if app.hints else []
        seen["tiles"] = list(app.layout.tiles)
        seen["hand_rows"] = app.table_screen.shown("#hand").plain.split("\n")
        seen["table"] = await screenshot(pilot, "table-gb", tmp_path)
        seen["prompt"] = plain(app.prompt_text())
        seen["hand"] = app.layout
        await player.play()
        return player

    player = run_app(app, body)
    assert "Hints" in seen["hints"] and "ready" in seen["hints"]
    assert "w win" in seen["help"] and "p pung" in seen["help"]
    # the safety hint as a row of marks under the tiles, one per tile, as dangerous as it says
    assert seen["safety"], "no turn to discard with the safety hint"
    danger = {e["tile"]: e["danger"] for e in seen["safety"]}
    assert len(seen["hand_rows"]) == 4, seen["hand_rows"]
    notation = seen["hand_rows"][2].split()
    marks = seen["hand_rows"][3].split()
    assert notation == seen["tiles"] and len(marks) == len(seen["tiles"])
    assert marks == [("safe", "low", "mid", "HIGH")[danger[t]] for t in seen["tiles"]]
    assert seen["prompt"].strip()
    assert player.claims, "the player was never offered a claim"
    assert any(c in ("pung", "chow", "kong", "win") for c in player.claims)
    assert len(player.sheets) == 2
    for sheet in player.sheets:
        assert "Payments" in sheet
        assert "Fan" in sheet or "Exhaustive draw" in sheet
    assert any("Total" in s and "Points" in s for s in player.sheets)
    assert player.standings is not None and "Final standings" in player.standings
    assert app.return_code == 0 and app.failure is None
    totals = app.driver.match.totals  # type: ignore[attr-defined]
    assert sum(totals) == 0 and len(app.driver.match.results) == 2  # type: ignore[attr-defined]
    assert seen["table"].read_text(encoding="utf-8").startswith("<svg")


def test_huangyan_hands_by_keys(tmp_path: Path) -> None:
    """Huangyan: the wild tile shown, the dealer's bullets thrown by key, hands to standings."""
    app = MajiangApp(LocalDriver("huangyan", seed=6, hands=1))
    seen: dict[str, Any] = {}

    async def body(pilot: Pilot[int]) -> Player:
        player = Player(pilot, app, tmp_path)
        await player.settle()
        seen["bullets"] = plain(app.prompt_text())
        assert app.choices.throws, "seat 0 deals the first hand of seed 6"
        await player.step()  # throws 2
        await player.settle()
        seen["log"] = [line.plain for line in app.log_lines]
        await player.press("h")
        for _ in range(3):
            await player.step()
        await player.settle()
        await pilot.pause()
        seen["wild"] = app.table_screen.shown("#wild").plain
        seen["hand"] = app.hand_text().plain
        seen["hints"] = app.table_screen.shown("#hints").plain
        assert app.snapshot is not None and app.snapshot.observation is not None
        seen["wild_face"] = app.snapshot.observation["wild"]
        await screenshot(pilot, "table-huangyan", tmp_path)
        await player.play()
        return player

    player = run_app(app, body)
    assert "throw bullets" in seen["bullets"]
    assert "得" in seen["wild"] and seen["wild_face"] in seen["wild"]
    assert f"{seen['wild_face']}*" in seen["hand"] and "P=" in seen["hand"]  # a 得, a stand-in
    assert "Hints" in seen["hints"]
    assert "indicator" in seen["wild"]
    assert "You throw 2 bullets (抛弹)" in seen["log"]
    assert len(player.sheets) == 1 and player.standings is not None
    assert "Bullets" in player.standings
    assert app.return_code == 0
    match = app.driver.match  # type: ignore[attr-defined]
    if match.results[0].winner is None:
        assert "Exhaustive draw" in player.sheets[0]
    else:
        for words in ("Hu item", "Total: (hu + base)", "Losers' counts", "Gunner", "Transfers"):
            assert words in player.sheets[0]
    assert sum(match.totals) == 0 and sum(match.bullets) == 0


def test_quit_and_help_keys(tmp_path: Path) -> None:
    """? shows the help, q asks before leaving; n stays, y leaves with status 0."""
    app = MajiangApp(LocalDriver("gb", seed=3, hands=1))

    async def body(pilot: Pilot[int]) -> None:
        player = Player(pilot, app, tmp_path)
        await player.settle()
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("x")
        await pilot.press("q")
        assert type(app.screen).__name__ == "QuitScreen"
        await pilot.press("n")
        assert app.is_running and app.screen is app.table_screen
        await pilot.press("q", "y")
        await pilot.pause()

    run_app(app, body)
    assert app.return_code == 0 and not app.is_running


def test_refused_keys_say_why(tmp_path: Path) -> None:
    """Keys for actions that are not legal now change nothing and say so."""
    app = MajiangApp(LocalDriver("gb", seed=1, hands=1))

    async def body(pilot: Pilot[int]) -> None:
        player = Player(pilot, app, tmp_path)
        while True:
            await player.settle()
            if app.choices.discards and not app.choices.pung:
                break
            await player.step()
        decision = app.decision
        await pilot.press("p")
        assert "no pung" in (app.message or "")
        assert app.decision == decision and app.answered != decision

    run_app(app, body)


class ScriptedDriver(Driver):
    """Shows one snapshot and records what the app plays (or reports a lost table)."""

    rules = "gb"

    def __init__(self, snapshot: Snapshot | None, problem: Problem | None = None) -> None:
        self.snapshot, self.problem = snapshot, problem
        self.acts: list[dict[str, Any]] = []

    async def run(self, sink: Sink) -> None:
        if self.snapshot is not None:
            sink(TableChanged(self.snapshot, [], fresh=True))
        if self.problem is not None:
            sink(self.problem)
        await asyncio.Event().wait()  # until the app leaves

    async def act(self, action: dict[str, Any]) -> None:
        self.acts.append(action)

    async def request_hints(self) -> None:
        pass


def chow_choice() -> Snapshot:
    """A real table where seat 0 may chow the discard in two ways or more."""
    from majiang.bots import make_bot
    from majiang.engine.actions import Chow
    from majiang.engine.serialize import observation_to_json
    from majiang.engine.table import Table
    from majiang.rules.registry import make_rules

    rules = make_rules("gb")
    for seed in range(200):
        table = Table(rules, seed, dealer=1, prevalent_wind=0)
        bots = [make_bot("efficient", s) for s in range(4)]
        while not table.is_over:
            if sum(isinstance(a, Chow) for a in table.legal_actions(0)) >= 2:
                return Snapshot("gb", 0, observation_to_json(table.observation(0)), 1, 1,
                                len(table.history), ("You", "a", "b", "c"))
            seat = table.to_act()[0]
            table.apply(seat, bots[seat](table.observation(seat)))
    raise AssertionError("no table with two chows")


def test_several_chows_are_chosen_by_key() -> None:
    """c opens the list of chows; ↓ and a digit pick one; escape picks none."""
    snapshot = chow_choice()
    driver = ScriptedDriver(snapshot)
    app = MajiangApp(driver)
    chows = [a for a in snapshot.legal if a["type"] == "chow"]

    async def body(pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert app.waiting_for_player and len(app.choices.chows) == len(chows)
        assert "chow (吃) ×" in plain(app.prompt_text())
        await pilot.press("c")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")
        assert app.screen is app.table_screen and driver.acts == []
        await pilot.press("c", "down", "enter")
        await pilot.pause()
        assert driver.acts == [chows[1]]
        await pilot.press("p", "c")  # the decision is answered: nothing more is sent
        assert driver.acts == [chows[1]]

    run_app(app, body)


def test_a_lost_table_ends_the_app_with_status_1() -> None:
    app = MajiangApp(ScriptedDriver(None, Problem("the server closed the connection", True)))

    async def body(pilot: Pilot[int]) -> None:
        await pilot.pause()

    run_app(app, body)
    assert app.failure == "the server closed the connection" and app.return_code == 1


def test_events_after_the_table_is_gone_are_dropped() -> None:
    """A connection's last update can arrive while the app is closing: it is ignored, not
    drawn on a screen that is no longer there."""
    snapshot = chow_choice()
    app = MajiangApp(ScriptedDriver(snapshot))

    async def body(pilot: Pilot[int]) -> None:
        await pilot.pause()

    run_app(app, body)
    assert not app.screen_stack
    asyncio.run(app.on_driver_message(DriverMessage(TableChanged(snapshot, [], fresh=False))))
    app._redraw()
    assert app.snapshot is not None and app.snapshot.step == snapshot.step


# ---------------------------------------------------------------------- the server


class Server(ThreadedServer):
    """A uvicorn server of ``create_app`` in a background thread (``base``: no final slash)."""

    @property
    def base(self) -> str:
        return self.url.rstrip("/")

    def room(self, **settings: Any) -> str:
        settings = {"bot_seconds": 0, "next_seconds": 0, **settings}
        response = httpx.post(f"{self.base}/rooms", json=settings)
        assert response.status_code == 201, response.text
        return str(response.json()["code"])



@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "play.db")
    yield s
    s.stop()


def test_remote_seat_plays_a_hand(server: Server, tmp_path: Path) -> None:
    """Join seat 0 of a room with three bots; play the hand by keys to its sheet and the
    standings. Hints are asked of the server (shown if it answers the hint message)."""
    code = server.room(rules="gb", hands=1, seed=5, turn_seconds=600,
                       bots=[None, "fan", "efficient", "fan"])
    grant = join_room(server.base, code.lower(), None, "Ann")
    assert grant.seat == 0 and grant.rules == "gb" and grant.code == code
    assert websocket_url(grant).startswith(f"ws://127.0.0.1:{server.port}/ws/{code}?token=")
    app = MajiangApp(RemoteDriver(grant))
    seen: dict[str, Any] = {}

    async def body(pilot: Pilot[int]) -> Player:
        player = Player(pilot, app, tmp_path)
        await player.settle()
        await player.press("h")
        await player.settle()  # the hints are in (or the server said why not)
        seen["hints"] = app.hints
        await player.press("h")  # hints off: the rest does not depend on them
        seen["names"] = app.snapshot.names  # type: ignore[union-attr]
        for _ in range(3):
            await player.step()
        await player.settle()
        await screenshot(pilot, "table-remote", tmp_path)
        await player.play()
        return player

    player = run_app(app, body)
    assert seen["hints"] is not None
    assert "shanten" in seen["hints"] or "the server gives no hints" in seen["hints"]["error"]
    assert seen["names"] == ("Ann", "fan bot 1", "efficient bot", "fan bot 3")
    assert len(player.sheets) == 1 and "Payments" in player.sheets[0]
    assert player.standings is not None and "Ann" in player.standings
    assert app.failure is None and app.return_code == 0
    room = httpx.get(f"{server.base}/rooms/{code}").json()
    assert room["status"] == "finished"


def test_a_dropped_player_sits_down_again_with_his_token(server: Server, tmp_path: Path) -> None:
    """Leave mid-hand, come back with ``--token`` at the same seat, and finish the match."""
    code = server.room(rules="gb", hands=1, seed=5, turn_seconds=600, grace_seconds=600,
                       bots=[None, "fan", "efficient", "fan"])
    grant = join_room(server.base, code, None, "Ann")

    async def leave(pilot: Pilot[int]) -> bool:
        player = Player(pilot, first, tmp_path)
        await player.settle()
        for _ in range(3):
            await player.step()
        await player.settle()
        return first.snapshot is not None

    first = MajiangApp(RemoteDriver(grant))
    assert run_app(first, leave)
    assert httpx.get(f"{server.base}/rooms/{code}").json()["status"] == "playing"
    with pytest.raises(PlayError, match="--token needs --seat"):
        join_room(server.base, code, None, "Ann", token=grant.token)
    again = join_room(server.base, code, grant.seat, "Ann", token=grant.token)
    assert (again.seat, again.token, again.rules) == (grant.seat, grant.token, "gb")
    second = MajiangApp(RemoteDriver(again))

    async def finish(pilot: Pilot[int]) -> Player:
        player = Player(pilot, second, tmp_path)
        await player.settle()
        await player.play()
        return player

    player = run_app(second, finish)
    assert len(player.sheets) == 1 and player.standings is not None
    assert second.failure is None
    assert httpx.get(f"{server.base}/rooms/{code}").json()["status"] == "finished"


def test_remote_table_counts_down_and_names_seats(server: Server, tmp_path: Path) -> None:
    """In a server room the prompt counts down the seat's time, a seat whose player left says
    so, a win on the player's discard reads "on your tile", and the sheet shows the winner's
    tiles."""
    code = server.room(rules="gb", hands=1, seed=5, turn_seconds=120,
                       bots=[None, "fan", "efficient", "fan"])
    grant = join_room(server.base, code, None, "Ann")
    app = MajiangApp(RemoteDriver(grant))
    seen: dict[str, Any] = {}

    async def body(pilot: Pilot[int]) -> Player:
        player = Player(pilot, app, tmp_path)
        await player.settle()
        first = re.search(r"⏱ (\d+) s", app.prompt_text().plain)
        assert first, app.prompt_text().plain
        for _ in range(50):  # the prompt ticks on its own, without any frame
            await asyncio.sleep(0.1)
            shown = app.table_screen.shown("#prompt").plain
            later = re.search(r"⏱ (\d+) s", shown)
            if later and later[1] != first[1]:
                break
        assert later and int(later[1]) < int(first[1]) <= 120, (first, shown)
        seen["countdown"] = int(first[1])
        await player.play()
        return player

    player = run_app(app, body)
    assert 100 < seen["countdown"] <= 120
    assert len(player.sheets) == 1
    hands = httpx.get(f"{server.base}/rooms/{code}/hands").json()
    if hands[0]["result"]["winner"] is not None:
        assert "Winning hand" in player.sheets[0] and "◀ winning tile" in player.sheets[0]
    else:
        assert "Winning hand" not in player.sheets[0]

    assert seconds_left({"deadline": 1000.5, "now": 990.0}) == 10.5
    assert seconds_left({"deadline": 900.0, "now": 990.0}) == 0.0
    assert seconds_left({"type": "update"}) is None
    obs = {"dealer": 0, "phase": "turn", "current": 1, "deltas": [0] * 4, "hand_sizes": [13] * 4,
           "flowers": [[]] * 4, "melds": [[]] * 4, "discards": [[]] * 4, "wild": None}
    snap = Snapshot("gb", 0, obs, names=("Ann", "Bo", "fan bot 2", "fan bot 3"),
                    away=(False, True, False, False))
    assert "away (a bot plays)" in seat_panel(snap, 1).plain
    # the table's last discard is marked in its pond, until a claim takes it
    obs["discards"] = [["1m"], ["9p", "E"], [], []]
    events = [{"type": "discard", "seat": 0, "tile": "1m"},
              {"type": "discard", "seat": 1, "tile": "E"}]
    assert last_discarder(events) == 1
    assert last_discarder([{"type": "pung", "seat": 2, "tile": "E"}], 1) is None
    marked = seat_panel(snap, 1, last_discard=True).plain
    assert marked.endswith("pond  9p ▶东◀ last"), marked
    assert "last" not in seat_panel(snap, 0).plain
    assert seat_panel(snap, 1).plain.startswith("South 南 (Bo)")  # the seat wind on the name
    assert "away" not in seat_panel(snap, 2).plain
    mine = event_line({"type": "win", "seat": 1, "discarder": 0, "points": 9}, snap)
    theirs = event_line({"type": "win", "seat": 0, "discarder": 1, "points": 9}, snap)
    assert mine is not None and "on your tile" in mine.plain, mine
    assert theirs is not None and "on South 南 (Bo)'s tile" in theirs.plain, theirs
    assert "You's" not in mine.plain + theirs.plain


def test_join_errors(server: Server) -> None:
    """A wrong room, a taken seat, a started room, an unreachable server: one clear line."""
    with pytest.raises(PlayError, match="no room NOPE42"):
        join_room(server.base, "nope42", 0, "Ann")
    code = server.room(rules="gb", hands=1, bots=[None, "fan", "fan", "fan"])
    with pytest.raises(PlayError, match="seat 2 is taken"):
        join_room(server.base, code, 2, "Ann")
    with pytest.raises(PlayError, match="cannot reach the server"):
        join_room("http://127.0.0.1:1", code, 0, "Ann", timeout=2)
    with pytest.raises(PlayError, match="needs an http"):
        base_url("ftp://example.org")
    assert base_url("127.0.0.1:8000/") == "http://127.0.0.1:8000"
    full = server.room(rules="gb", hands=1, bots=["fan", "fan", "fan", "fan"])
    with pytest.raises(PlayError, match="no free seat"):
        join_room(server.base, full, None, "Ann")


# ---------------------------------------------------------------------- the command line


@pytest.fixture()
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if ``majiang play`` ran in a terminal (pytest captures standard output)."""
    monkeypatch.setattr(play_cmd, "is_terminal", lambda: True)


def _one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["--rules", "riichi"], 2, "invalid choice"),
        (["--seat", "7", "--server", "x", "--room", "A"], 2, "invalid choice"),
        (["--hands", "many"], 2, "invalid int"),
        (["--room", "ABC"], 2, "--room, --seat and --token need --server"),
        (["--server", "http://127.0.0.1:1", "--room", "ABC", "--token", "x"], 2,
         "--token needs --seat"),
        (["--server", "http://127.0.0.1:1"], 2, "--server needs --room"),
        (["--server", "http://127.0.0.1:1", "--room", "A", "--bots", "fan"], 2, "--bots is for"),
        (["--bots", "alphago"], 1, "unknown bot"),
        (["--rules", "huangyan", "--bots", "fan"], 1, "does not play huangyan"),
        (["--bots", "fan,fan"], 1, "3 names"),
        (["--hands", "0"], 1, "at least 1"),
        (["--option", "nonsense=1"], 1, "nonsense"),
        (["--server", "http://127.0.0.1:1", "--room", "ABCDEF"], 1, "cannot reach the server"),
    ],
)
def test_bad_arguments(
    argv: list[str], status: int, words: str, capsys: pytest.CaptureFixture[str], terminal: None
) -> None:
    try:
        code = main(["play", *argv])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == status
    line = _one_line(err)
    assert line.startswith("majiang")
    assert words in line


def test_bad_room_and_taken_seat_on_the_command_line(
    server: Server, capsys: pytest.CaptureFixture[str], terminal: None
) -> None:
    assert main(["play", "--server", server.base, "--room", "ZZZZZZ"]) == 1
    assert "no room ZZZZZZ" in _one_line(capsys.readouterr().err)
    code = server.room(rules="gb", hands=1, bots=[None, "fan", "fan", "fan"])
    assert main(["play", "--server", server.base, "--room", code, "--seat", "1"]) == 1
    assert "seat 1 is taken" in _one_line(capsys.readouterr().err)


def test_command_runs_the_app(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str], terminal: None) -> None:
    """``majiang play`` builds the driver and runs the app; a lost table is one error line."""
    apps: list[MajiangApp] = []

    def fake_run(self: MajiangApp, **_: Any) -> None:
        apps.append(self)
        if self.driver.rules == "huangyan":
            self.failure = "the server closed the connection"

    monkeypatch.setattr(MajiangApp, "run", fake_run)
    assert main(["play", "--seed", "4", "--bots", "efficient", "--hands", "2",
                 "--name", "Zoe"]) == 0
    driver = apps[0].driver
    assert isinstance(driver, LocalDriver)
    assert driver.names == ("Zoe", "efficient bot 1", "efficient bot 2", "efficient bot 3")
    assert driver.match.hands == 2 and driver.rules == "gb"
    assert main(["play", "--rules", "huangyan"]) == 1
    assert _one_line(capsys.readouterr().err) == (
        "majiang: error: the server closed the connection"
    )


def test_no_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal the table cannot be played: one line, status 1, no seat taken."""
    assert main(["play", "--server", "http://127.0.0.1:1", "--room", "ABCDEF"]) == 1
    assert _one_line(capsys.readouterr().err) == (
        "majiang: error: majiang play needs a terminal (standard input and output)"
    )


# ---------------------------------------------------------------------- the pieces


def test_hand_layout_and_choices() -> None:
    obs: dict[str, Any] = {
        "hand": ["1m", "2m", "7s", "3p", "3p", "E", "C", "P"], "drawn": "3p", "wild": "3p",
    }
    layout = hand_layout(obs)
    assert layout.tiles == ("3p", "1m", "2m", "7s", "E", "C", "P", "3p")
    assert layout.gaps == (1, 3, 4, 7) and layout.drawn == 7
    text = cards(layout.tiles, TILE_KEYS, gaps=layout.gaps, wild="3p", stand_in="3p").plain
    assert "三饼" in text and "P=3p" in text and "3p*" in text
    legal = [{"type": "chow", "tile": "3m"}, {"type": "chow", "tile": "4m"},
             {"type": "pung"}, {"type": "pass"}]
    choices = Choices.of(legal)
    assert len(choices.chows) == 2 and choices.pung and choices.any and not choices.only_pass
    assert Choices.of([{"type": "pass"}]).only_pass
    assert not Choices.of([]).any
    assert unique_names(["Ann", "fan bot", "fan bot", "wild bot"]) == (
        "Ann", "fan bot 1", "fan bot 2", "wild bot"
    )


def test_sheets_from_results() -> None:
    """The sheets show what the result says: Guobiao fans; Huangyan hu items and payments."""
    from majiang.bots import make_bot
    from majiang.engine.match import Match, play_hand
    from majiang.rules.registry import make_rules

    names = ("You", "a", "b", "c")
    for rules, bot, words in (
        ("gb", "fan", ["Fan", "Points", "Payments"]),
        ("huangyan", "wild", ["Hu item", "Doubling", "Losers' counts", "Gunner", "Transfers"]),
    ):
        match = Match(make_rules(rules), 1, hands=6)
        agents = [make_bot(bot, s) for s in range(4)]
        for spec in match.specs():
            table = match.table(spec)
            result = play_hand(table, agents)
            match.record(result)
            if result.winner is not None and (
                rules != "huangyan" or result.detail["winner"]["fans"]
            ):
                break
        text = plain(score_sheet(result.to_json(), names, dealer=spec.dealer, rules=rules,
                                 me=0, hand=spec.number, totals=match.totals,
                                 final=final_tiles(table)))
        # the winner's tiles as the hand ended, the winning tile marked
        shown = next(line for line in text.splitlines() if line.startswith("Winning hand"))
        assert "◀ winning tile" in shown and result.winning_tile is not None
        assert tile_name(result.winning_tile) in shown.split("◀")[0].split()[-1]
        for word in words:
            assert word in text, (word, text)
        if rules == "gb":
            for fan in result.detail["fans"]:
                assert fan["name"] in text and fan["en"] in text
        else:
            assert str(result.detail["winner"]["total"]) in text
        # the definitions d shows: every fan, or every doubling of the winner, in both languages
        from majiang.rules.guobiao.fan_definitions import definitions_by_name as gb_definitions
        from majiang.rules.huangyan.doubling_definitions import DEFINITIONS as DOUBLINGS
        from majiang.tui.sheets import fan_definitions

        defined = " ".join(plain(fan_definitions(result.to_json(), rules), width=400).split())
        if rules == "gb":
            wanted = [tuple(d.values()) for d in gb_definitions(
                [f["en"] for f in result.detail["fans"]]).values()]
            assert len(wanted) == len(result.detail["fans"])
        else:
            wanted = [DOUBLINGS[f["zh"]] for f in result.detail["winner"]["fans"]]
        for chinese, english in wanted:
            assert chinese in defined and " ".join(english.split()) in defined, (chinese, defined)
        board = plain(standings(match.totals, match.bullets, names, rules=rules, me=0))
        assert "Final standings" in board and "You ★" in board
        obs = table.observation(0)
        advice = hints(obs, table.rules)
        shown = plain(hints_text(advice))
        assert "Hints" in shown
        if advice.get("safety"):  # the safety hint: each tile with its danger
            line = next(x for x in shown.splitlines() if "safety:" in x)
            assert [e["level"] for e in advice["safety"]] == [
                w for w in line.split() if w in ("safe", "low", "medium", "high")]


def test_documented_errors(capsys: pytest.CaptureFixture[str], terminal: None) -> None:
    """docs/play.md's bad-input examples that need no server print what the page shows."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "play.md").read_text("utf-8")
    block = text.split("## Bad input", 1)[1].split("```", 2)[1]
    lines = block.strip().splitlines()
    checked = 0
    for command, expected in zip(lines[::2], lines[1::2], strict=True):
        assert command.startswith("$ majiang play ")
        if ":8765" in command:
            continue
        with contextlib.suppress(SystemExit):
            main(shlex.split(command)[2:])
        assert capsys.readouterr().err.strip() == expected
        checked += 1
    assert checked >= 4


def test_local_driver_alone() -> None:
    """The local driver without the app: with a delay, events as seat 0 may see them (no other
    seat's drawn tile), one snapshot per decision, a sheet, the end of the match."""
    driver = LocalDriver("gb", seed=9, bots=["random"], hands=1, delay=0.0005)
    seen: list[Any] = []

    def sink(event: Any) -> None:
        seen.append(event)
        if isinstance(event, TableChanged) and event.snapshot.legal:
            legal = event.snapshot.legal
            wins = [a for a in legal if a["type"] == "win"]
            asyncio.get_running_loop().create_task(driver.act((wins or legal)[0]))

    async def go() -> None:
        await asyncio.wait_for(driver.run(sink), 30)

    asyncio.run(go())
    changes = [e for e in seen if isinstance(e, TableChanged)]
    events = [e for change in changes for e in change.events]
    draws = [e for e in events if e["type"] == "draw"]
    assert draws and all(("tile" in e) == (e["seat"] == 0) for e in draws)
    assert any(e["type"] == "discard" and e["seat"] != 0 for e in events)
    assert isinstance(seen[-2], HandEnded) and isinstance(seen[-1], MatchEnded)
    assert seen[-1].names == ("You", "random bot 1", "random bot 2", "random bot 3")
    assert sum(seen[-1].totals) == 0


def test_d_on_the_score_sheet_shows_the_fans_definitions() -> None:
    """On a won Guobiao hand's sheet, d shows every fan's definition in Chinese and English
    under the sheet, and d again hides them; a draw's sheet has none to show."""
    from rich.text import Text
    from textual.app import App

    from majiang.bots import make_bot
    from majiang.engine.match import Match, play_hand
    from majiang.rules.guobiao.fan_definitions import DEFINITIONS
    from majiang.rules.guobiao.fans import FANS
    from majiang.rules.registry import make_rules
    from majiang.tui.sheets import fan_definitions

    match = Match(make_rules("gb"), 1, hands=8)
    agents = [make_bot("fan", s) for s in range(4)]
    for spec in match.specs():
        result = play_hand(match.table(spec), agents)
        match.record(result)
        if result.winner is not None:
            break
    assert result.winner is not None, "no hand won: choose another seed"
    data = result.to_json()
    by_name = {FANS[fan].en: (zh, en) for fan, (zh, en) in DEFINITIONS.items()}
    seen: dict[str, Any] = {}

    class Sheet(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ScoreScreen(Text("sheet"), False, 1,
                                         definitions=fan_definitions(data, "gb")))

    async def body(pilot: Pilot[None]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, ScoreScreen)
        shown = screen.query_one("#definitions", Static)
        seen["keys"] = str(screen.query_one("#sheet-keys", Static).content)
        seen["before"] = shown.display
        await pilot.press("d")
        seen["after"] = shown.display
        seen["text"] = " ".join(plain(shown.content, width=400).split())
        await pilot.press("d")
        seen["again"] = shown.display

    async def go() -> None:
        async with Sheet().run_test(size=SIZE) as pilot:
            await body(pilot)

    asyncio.run(go())
    assert "d: fan definitions" in seen["keys"]
    assert (seen["before"], seen["after"], seen["again"]) == (False, True, False)
    for fan in data["detail"]["fans"]:
        zh, en = by_name[fan["en"]]
        assert f"{fan['name']} {fan['en']}" in seen["text"]
        assert zh in seen["text"] and " ".join(en.split()) in seen["text"], fan["en"]
    assert fan_definitions({"winner": None, "detail": {}}, "gb") is None
