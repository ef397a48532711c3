"""Issue 7 end to end: the browser table driven by Playwright in Debian's Chromium.

The server runs in-process (uvicorn in a thread, SQLite in a temporary directory); Chromium is
``/usr/bin/chromium`` (never a downloaded browser), headless. A person creates a room in the
lobby, sits, and plays a hand against bots by clicking tiles and claim buttons (and the
keyboard), reloads the page mid-hand and goes on, reads the score sheet, switches to Chinese,
and sees the standings; a replay is stepped through; a phone-sized screen shows the table
without horizontal scrolling. With ``MAJIANG_SCREENSHOTS=1`` the tests write the screenshots of
``docs/browser.md`` into ``docs/screenshots/``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majiang.server.limits import UNLIMITED
from server_helpers import ThreadedServer

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's Chromium is not installed at /usr/bin/chromium (.ci/chromium.sh installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (extra 'e2e')"
)

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
DECIDE = "#my-hand .tile.playable, #action-bar button.act, #score-sheet"
"""What the page shows when the seat must decide (or the hand is over)."""
CLAIMS = ("act-win", "act-pung", "act-chow", "act-exposed_kong", "act-throw_bullets",
          "act-accept_bullets", "act-pass")
"""The test player's preference among the buttons offered."""
CJK = re.compile(r"[\u4e00-\u9fff]")


class Server(ThreadedServer):
    """The game server on a free loopback port, in a background thread."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("browser") / "browser.db")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=ARGS)
        yield chromium
        chromium.close()


class Page:
    """A browser page on the server, failing the test on any script error."""

    def __init__(self, browser: Any, server: Server, width: int = 1280, height: int = 800):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.server = server

    def _console(self, message: Any) -> None:
        # a refused request (a 404 the test asks for) is the server's answer, not a page error
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def goto(self, fragment: str = "") -> None:
        self.page.goto(self.server.url + fragment)

    def shot(self, name: str, height: int | None = None) -> None:
        """docs/screenshots/browser-NAME.png, when MAJIANG_SCREENSHOTS=1 (``height``: taller
        for the picture, for a long score sheet)."""
        if os.environ.get("MAJIANG_SCREENSHOTS") != "1":
            return
        SHOTS.mkdir(parents=True, exist_ok=True)
        size = self.page.viewport_size
        if height is not None:
            self.page.set_viewport_size({"width": size["width"], "height": height})
        self.page.screenshot(path=str(SHOTS / f"browser-{name}.png"))
        if height is not None:
            self.page.set_viewport_size(size)

    def no_horizontal_overflow(self) -> None:
        widths = self.page.evaluate(
            "[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
        assert max(widths[:2]) <= widths[2], widths

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture()
def page(browser: Any, server: Server) -> Iterator[Page]:
    p = Page(browser, server)
    yield p
    p.close()


def create_room(page: Page, rules: str, seed: int, name: str = "Ann") -> str:
    """Create a one-hand room in the lobby, sit in it, and press Ready; returns the code."""
    p = page.page
    p.wait_for_selector("#room-rules option", state="attached")
    p.fill("#player-name", name)
    p.select_option("#room-rules", rules)
    p.fill("#room-hands", "1")
    p.fill("#room-bot-seconds", "0")  # the bots' beat: none, for speed
    p.click("details.advanced summary")
    p.fill("#room-seed", str(seed))
    assert p.input_value("#seat-0") == "person"
    p.click("#create-room")
    p.wait_for_selector("button.ready")
    code = p.inner_text("#room-code")
    room = page.server.http.get(f"/rooms/{code}").json()
    assert (room["bot_seconds"], room["next_seconds"]) == (0, 15)  # the form's beat and pause
    stored = json.loads(p.evaluate("localStorage.getItem('majiang.seats')"))
    assert stored[code]["seat"] == 0 and stored[code]["token"]
    p.click("button.ready")
    p.wait_for_selector(".board")
    return code


def my_tiles(page: Page) -> list[str]:
    tiles: list[str] = page.page.locator("#my-hand .tile").evaluate_all(
        "ts => ts.map(t => t.dataset.tile)")
    return tiles


def check_table(page: Page) -> None:
    """The table's geometry: four ponds around a compass with every seat's wind (the dealer
    marked, the seat to act lit), the seat winds on the names, ponds in rows of six, at most
    one last discard marked, and tile faces drawn as pictures (or text, as a setting)."""
    p = page.page
    assert p.locator(".table-square .pond").count() == 4
    winds = p.locator("#compass .compass-wind").all_inner_texts()
    assert sorted(w[0] for w in winds) == sorted("東南西北"), winds
    assert p.locator("#compass .compass-wind.dealer sup").count() == 1
    assert p.locator("#compass .compass-wind.lit").count() >= 1
    heads = p.locator(".seat .seat-head .wind").all_inner_texts()
    assert sorted(h[0] for h in heads) == sorted("東南西北"), heads
    assert p.locator(".pond .tile.last").count() <= 1
    tops = p.locator(".table-square .pond-layer.rel-0 .tile").evaluate_all(
        "ts => ts.map(t => Math.round(t.getBoundingClientRect().top))")
    assert len(set(tops[:6])) <= 1 and (len(tops) <= 6 or tops[6] > tops[0]), tops
    # the square table: its ponds face the centre (the top one upside down)
    turned = p.locator(".pond-layer.rel-2").evaluate("e => getComputedStyle(e).transform")
    assert turned.startswith("matrix(-1"), turned
    if p.locator("#my-hand .tile.playable").count():  # the safety hint under every tile
        p.wait_for_selector("#my-hand .tile .danger")
        classes = p.locator("#my-hand .tile").evaluate_all("ts => ts.map(t => t.className)")
        assert all(re.search(r"danger-[0-3]", c) for c in classes), classes
        assert re.search(r"(Safe|danger|Dangerous): ",
                         p.locator("#my-hand .tile.danger-0, #my-hand .tile.danger-1, "
                                   "#my-hand .tile.danger-2, #my-hand .tile.danger-3")
                         .first.get_attribute("title"))
    dots = p.locator(".tile[data-tile$='p'] svg").first
    if dots.count():
        assert dots.locator("circle").count() >= 1  # pictures: dots as circles
    p.evaluate("""async () => { const s = await import('/static/settings.js');
                 s.setSetting('faces', 'text'); }""")
    p.wait_for_function("() => !document.querySelector('.tile[data-tile$=\"p\"] svg circle')")
    p.evaluate("""async () => { const s = await import('/static/settings.js');
                 s.setSetting('faces', 'pictures'); }""")


def check_raw_tiles(page: Page) -> None:
    """In the raw-tile phase, on the seat's turn, the tiles of the hand whose face lies in no
    pond are marked raw (生), and only those."""
    p = page.page
    p.wait_for_selector("#my-hand .tile .danger")
    ponds = set(p.locator(".pond .tile").evaluate_all("ts => ts.map(t => t.dataset.tile)"))
    tiles = p.locator("#my-hand .tile").evaluate_all(
        "ts => ts.map(t => [t.dataset.tile, t.classList.contains('raw')])")
    assert tiles and all(raw == (tile not in ponds) for tile, raw in tiles), (tiles, ponds)
    page.shot("huangyan-raw")


def play_hand(page: Page, *, reload_after: int | None = None, hints_at: int | None = 1,
              shot_at: int | None = None, check_at: int | None = None,
              raw_check: bool = False) -> dict[str, Any]:
    """Play the seat until the score sheet: the preferred claim button when one is offered
    (auto-pass answers the windows where passing is all the seat may do), otherwise discard
    the drawn tile (or the last tile), alternately by clicking and by the keyboard."""
    p = page.page
    seen: dict[str, Any] = {"discards": 0, "claims": [], "reloaded": False}
    decisions = 0
    while True:
        p.wait_for_selector(DECIDE)
        if p.locator("#score-sheet").count():
            return seen
        decisions += 1
        assert p.locator("#countdown").inner_text().endswith("s")
        if reload_after is not None and decisions == reload_after:
            before, step = my_tiles(page), p.get_attribute("body", "data-step")
            p.reload()
            p.wait_for_selector(DECIDE)
            assert p.get_attribute("body", "data-step") == step  # the same hand, same step
            assert my_tiles(page) == before
            seen["reloaded"] = True
        if shot_at is not None and decisions == shot_at:
            page.shot("table")
        if (raw_check and "raw" not in seen and p.locator(".raw-banner").count()
                and p.locator("#my-hand .tile.playable").count()):
            check_raw_tiles(page)
            seen["raw"] = True
        if (check_at is not None and decisions >= check_at and "checked" not in seen
                and p.locator("#my-hand .tile.playable").count()):
            check_table(page)  # on the seat's turn
            seen["checked"] = True
        buttons = p.locator("#action-bar button.act")
        kinds: list[str] = buttons.evaluate_all("bs => bs.map(b => b.className)")
        choice = next((i for want in CLAIMS for i, k in enumerate(kinds) if want in k.split()),
                      None)
        if choice is not None:
            kind = kinds[choice].split()[1]
            if kind != "act-pass":
                if not seen["claims"] and shot_at is not None:
                    page.shot("claim")  # the first claim prompt
                seen["claims"].append(kind)
            if len(seen["claims"]) % 2:  # the buttons' digit keys, or a click
                p.keyboard.press(str(choice + 1))
            else:
                buttons.nth(choice).click()
            continue
        if hints_at is not None and seen["discards"] == hints_at - 1 and "hints" not in seen:
            p.click("#hint-button")
            p.wait_for_selector("#hints .shanten")
            seen["hints"] = p.inner_text("#hints")
            p.click("#hints button.close")
        drawn = p.locator("#my-hand .tiles.drawn .tile.playable")
        by_keys = seen["discards"] % 2 == 1
        if drawn.count():
            if by_keys:
                p.keyboard.press("0")
            else:
                drawn.click()
        elif by_keys:
            p.keyboard.press("ArrowLeft")  # the cursor starts at the last tile
            assert p.locator("#my-hand .tile.cursor").count() == 1
            p.keyboard.press("Enter")
        else:
            p.locator("#my-hand .tile.playable").last.click()
        seen["discards"] += 1


def test_a_hand_from_the_lobby_to_the_standings(page: Page) -> None:
    page.goto()
    p = page.page
    code = create_room(page, "gb", seed=12)
    seen = play_hand(page, reload_after=4, shot_at=3, check_at=5)
    assert seen["reloaded"] and seen["discards"] >= 4 and seen["checked"]
    assert seen["claims"], "seed 12 no longer offers the seat a claim: choose another seed"
    assert re.search(r"shanten|Ready|Complete", seen["hints"]), seen["hints"]
    sheet = p.locator("#score-sheet")
    assert "Score sheet" in sheet.inner_text()
    rows = p.locator("#score-sheet .seat-payments tbody tr")
    assert rows.count() == 4
    deltas = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(4)]
    assert sum(deltas) == 0
    hands = page.server.http.get(f"/rooms/{code}/hands").json()
    result = hands[0]["result"]
    assert sorted(deltas) == sorted(result["deltas"])
    fans = p.locator("#score-sheet .fan-main")
    assert fans.count() == len(result["detail"].get("fans", []))
    if result["winner"] is not None:  # the hands it ended with, the winner's first
        p.wait_for_selector("#score-sheet .final-hand.winner")
        assert p.locator("#score-sheet .final-hand").count() == 4
    english = fans.first.inner_text() if fans.count() else None
    page.shot("score-sheet", height=1180)

    # the language switch: labels and fan names in Chinese, remembered over a reload
    p.click("#lang-toggle")
    assert "结算" in sheet.inner_text()
    if english is not None:
        chinese = fans.first.inner_text()
        assert not CJK.search(english) and CJK.search(chinese), (english, chinese)
        assert english in sheet.inner_text()  # the other name stays beside it
    p.click("#lang-toggle")
    assert "Score sheet" in sheet.inner_text()

    # then the match is over (one hand): the standings
    p.click("button.next-hand")
    standings = p.locator("#standings")
    assert standings.locator("tbody tr").count() == 4
    assert "Ann" in standings.inner_text()


def test_a_huangyan_hand_shows_the_wild_tile_and_bullets(page: Page) -> None:
    page.goto()
    p = page.page
    create_room(page, "huangyan", seed=10)  # seat 0 deals: the bullet buttons come first
    p.wait_for_selector("#action-bar button.act-throw_bullets")
    throws = p.locator("#action-bar button.act-throw_bullets")
    assert throws.count() == 6 and "Throw 0" in throws.first.inner_text()
    # each throw's key is its count, and the prompt says what bullets are
    assert throws.locator("kbd").all_inner_texts() == ["0", "1", "2", "3", "4", "5"]
    assert "side stake" in p.inner_text("#action-bar .prompt")
    assert p.locator("#hint-button").is_disabled()  # no tiles before the deal
    p.keyboard.press("h")  # asked anyway: the server's error, and the game goes on
    p.wait_for_selector(".toast")
    p.keyboard.press("0")  # throw none
    p.wait_for_selector(".wild-info .wild-tile .tile.wild")
    wild = p.locator(".wild-info .wild-tile .tile").get_attribute("data-tile")
    hands = page.server.http.get(f"/rooms/{p.inner_text('#room-code')}/hands").json()
    assert hands and "thrown" not in (hands[0].get("result") or {})
    if wild != "P":  # the white dragon stands in for the wild face: the table says so
        assert "白 plays as" in p.inner_text("#stand-in")
    assert p.locator(".wild-info .indicator .tile").count() == 1
    for tile in p.locator("#my-hand .tile.wild").all():
        assert tile.get_attribute("data-tile") == wild
    seen = play_hand(page, hints_at=1)
    assert "Huangyan" in p.inner_text(".room-rules")
    assert seen["hints"] and seen["claims"], seen
    sheet = p.locator("#score-sheet")
    for part in (".hu-items", ".doublings", ".arithmetic", ".losers", ".gunner", ".payment-list"):
        assert sheet.locator(part).count() == 1, part
    assert "Hu items" in sheet.inner_text()
    payments = sheet.locator(".payment-list").inner_text()
    assert "bullets B×n×z" in payments
    page.shot("huangyan-sheet", height=1400)
    p.click("#lang-toggle")
    assert "和数项目" in sheet.inner_text()
    # the reasons in Chinese as the rule set sends them (the browser translates no English)
    assert "子弹 B×庄数×自摸倍数" in sheet.locator(".payment-list").inner_text()
    assert "计算" in sheet.locator("#arithmetic").inner_text()
    # in Chinese, a doubling's (i) opens its definition, the Chinese first
    code = p.inner_text("#room-code")
    result = page.server.http.get(f"/rooms/{code}/hands").json()[0]["result"]
    doublings = (result["detail"].get("winner") or {}).get("fans") or []
    assert doublings, "this hand has no doubling: choose another seed"
    from majiang.rules.huangyan.doubling_definitions import DEFINITIONS as DOUBLINGS

    first = doublings[0]["zh"]
    sheet.locator(f".doublings tr[data-fan='{first}'] button.fan-info").click()
    definition = sheet.locator(".doublings tr.fan-definition")
    assert definition.locator(".def-main").inner_text() == DOUBLINGS[first][0]
    assert definition.locator(".def-other").inner_text() == DOUBLINGS[first][1]
    payments = sheet.locator(".payment-list").inner_text()
    assert "子弹 B×庄数×自摸倍数" in payments and "bullets" not in payments
    p.click("#lang-toggle")


def played_hand(server: Server, rules: str, seed: int) -> tuple[str, int]:
    """A one-hand room whose seat 0 is played over the websocket with the preference of
    :func:`play_hand` (the other seats are bots), to its end: (code, hand id)."""
    from websockets.sync.client import connect

    room = server.http.post("/rooms", json={"rules": rules, "hands": 1, "seed": seed,
                                          "bot_seconds": 0}).json()
    code = room["code"]
    grant = server.http.post(f"/rooms/{code}/seats/0", json={"name": "Ann"}).json()
    order = [kind.removeprefix("act-") for kind in CLAIMS]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{code}?token={grant['token']}") as ws:
        ws.send(json.dumps({"type": "ready"}))
        asked = None
        while (frame := json.loads(ws.recv()))["type"] != "match_end":
            obs = frame.get("observation")
            if frame["type"] not in ("state", "update") or not obs or not obs["legal_actions"]:
                asked = None
                continue
            legal = obs["legal_actions"]
            if json.dumps(legal) == asked:
                continue  # asked again while the others answer: answered already
            asked = json.dumps(legal)
            action = next((a for kind in order for a in legal if a["type"] == kind), None)
            if action is None:  # the drawn tile, or the last in the page's order
                hand = [(t != obs["wild"], "msp".find(t[-1]) if t[0].isdigit() else 3, i, t)
                        for i, t in enumerate(obs["hand"])]
                tile = obs["drawn"] or max(hand)[3]
                action = {"type": "discard", "tile": tile}
            ws.send(json.dumps({"type": "act", "action": action, "step": frame["step"]}))
    hands = server.http.get(f"/rooms/{code}/hands").json()
    assert hands[0]["finished"]
    return code, hands[0]["id"]


def test_the_replay_viewer_steps_through_a_finished_hand(page: Page) -> None:
    code, hand_id = played_hand(page.server, "gb", seed=7)  # ends with a bot's winning action
    steps = len(page.server.http.get(f"/hands/{hand_id}/record").json()) - 2
    page.goto(f"#/room/{code}/hands")
    p = page.page
    p.click("a.open-replay")
    counter = p.locator("#replay-step")
    counter.wait_for()
    assert counter.inner_text() == f"Step 0 / {steps}"
    faces = p.locator(".seat .concealed.face-up")
    assert faces.count() == 4  # every hand face up
    assert sorted(f.locator(".tile").count() for f in faces.all()) == [13, 13, 13, 14]
    p.click("button.rp-next")
    assert counter.inner_text() == f"Step 1 / {steps}"
    assert "discards" in p.inner_text("#replay-caption")
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"Step 3 / {steps}"
    p.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"Step 2 / {steps}"
    for _ in range(4):
        p.keyboard.press("PageDown")
    assert counter.inner_text() == f"Step 42 / {steps}"
    page.shot("replay")
    p.keyboard.press("End")
    assert counter.inner_text() == f"Step {steps} / {steps}"
    wins = last_caption(page, hand_id, won_by_last_action=True)
    assert p.locator("button.rp-next").is_disabled()
    assert p.locator("#score-sheet").count() == 1  # the result at the last step
    p.click("button.rp-first")
    assert counter.inner_text() == f"Step 0 / {steps}"
    assert p.locator("#score-sheet").count() == 0
    p.click("#lang-toggle")
    assert counter.inner_text() == f"第 0 / {steps} 步"
    p.click("#lang-toggle")
    page.goto("#/replay/999999")
    assert "no finished hand" in p.locator("#replay-error").inner_text()

    # a Huangyan hand that reached the raw-tile phase: its banner, the wild tile, the sheet
    _, hand_id = played_hand(page.server, "huangyan", seed=13)
    page.goto(f"#/replay/{hand_id}")
    counter.wait_for()
    assert p.locator(".seat .concealed.face-up .tile").count() == 0  # bullets before the deal
    p.keyboard.press("End")
    p.wait_for_selector(".raw-banner")
    wild = p.locator(".wild-info .wild-tile .tile.wild").get_attribute("data-tile")
    ringed = p.locator(".board .seat .tile.wild").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    assert ringed and set(ringed) == {wild}
    assert p.locator("#score-sheet .hu-items").count() == 1
    wins += last_caption(page, hand_id)
    assert wins == 2, "a replayed hand no longer ends in a win: choose other seeds"


def last_caption(page: Page, hand_id: int, won_by_last_action: bool = False) -> int:
    """The caption of a replay's last step says what ended the hand, a win with its points
    (never "wins ( points)"); 1 if it was a win."""
    caption = page.page.inner_text("#replay-caption")
    assert "( points)" not in caption and "()" not in caption, caption
    replay = page.server.http.get(f"/hands/{hand_id}/replay").json()
    if won_by_last_action:
        assert replay["steps"][-1]["action"]["type"] == "win"
    result = replay["result"]
    if result["winner"] is None:
        return 0
    assert re.search(rf"wins \({result['points']} points\)", caption), caption
    return 1


def test_a_phone_sized_screen_shows_the_table_without_horizontal_scrolling(
    browser: Any, server: Server
) -> None:
    page = Page(browser, server, width=390, height=844)
    try:
        p = page.page
        played_hand(server, "gb", seed=2)  # a room in the list
        page.goto()
        p.wait_for_selector(".room-list tbody tr")
        page.no_horizontal_overflow()
        # every room's Join/Watch/Replays button is on screen, not behind a scroll
        edges = p.locator(".room-list a.go").evaluate_all(
            "as => as.map(a => [a.getBoundingClientRect().left, a.getBoundingClientRect().right])")
        assert edges and all(left >= 0 and right <= 390 for left, right in edges), edges
        page.shot("lobby-phone")
        create_room(page, "huangyan", seed=4)
        while not p.locator("#my-hand .tile.playable").count():  # bullets and claims: pass
            p.wait_for_selector(DECIDE)
            if p.locator("#action-bar button.act-pass").count():
                p.click("#action-bar button.act-pass")
            elif p.locator("#action-bar button.act-throw_bullets").count():
                p.click("#action-bar button.act-throw_bullets >> nth=0")
        page.no_horizontal_overflow()
        # the hand laid out (a frame that arrives meanwhile redraws it: its tiles have no box
        # for a moment)
        p.wait_for_function("() => [...document.querySelectorAll('#my-hand .tile')]"
                            ".some(t => t.getBoundingClientRect().right > 0)")
        right = p.locator("#my-hand .tile").evaluate_all(
            "ts => Math.max(...ts.map(t => t.getBoundingClientRect().right))")
        assert 0 < right <= 390
        assert p.locator(".board .seat").count() == 4
        page.shot("phone")
    finally:
        page.close()


def test_no_room_without_a_name_and_a_player_away_is_marked(page: Page) -> None:
    """"Create and sit" with no name says so and creates nothing; at the table, a seat whose
    player has left is marked away while a bot plays it."""
    from websockets.sync.client import connect

    page.goto()
    p = page.page
    p.wait_for_selector("#room-rules option", state="attached")
    before = len(page.server.http.get("/rooms").json())
    p.fill("#player-name", "")
    p.click("#create-room")
    assert "Enter your name first" in p.locator(".lobby .error").inner_text()
    assert p.evaluate("document.activeElement.id") == "player-name"
    assert len(page.server.http.get("/rooms").json()) == before
    assert p.get_attribute("body", "data-page") == "LobbyPage"

    room = page.server.http.post("/rooms", json={"rules": "gb", "hands": 1, "seed": 3,
                                                 "grace_seconds": 0, "turn_seconds": 600,
                                                 "bots": [None, None, "fan", "fan"]}).json()
    code = room["code"]
    page.goto(f"#/room/{code}")
    p.fill("#sit-name", "Ann")
    p.locator("button.sit").first.click()
    p.wait_for_selector("button.ready")
    bo = page.server.http.post(f"/rooms/{code}/seats/1", json={"name": "Bo"}).json()
    with connect(f"ws://127.0.0.1:{page.server.port}/ws/{code}?token={bo['token']}") as ws:
        ws.send(json.dumps({"type": "ready"}))
        p.click("button.ready")
        p.wait_for_selector(".board")
        assert p.locator(".seat .away-mark").count() == 0
    # Bo has left: after the grace (none here) a bot plays his seat
    p.wait_for_selector(".seat[data-seat='1'] .away-mark")
    assert "away" in p.inner_text(".seat[data-seat='1'] .seat-head")
    assert p.locator(".seat .away-mark").count() == 1


def test_a_phone_held_sideways_plays_with_big_tiles_and_marks_raw_tiles(
    browser: Any, server: Server
) -> None:
    """Landscape on a phone: the hand's tiles at least 40 px wide and on screen, no sideways
    scrolling; a Huangyan hand played into the raw-tile phase marks the raw tiles of the hand."""
    page = Page(browser, server, width=844, height=390)
    try:
        p = page.page
        page.goto()
        create_room(page, "huangyan", seed=13)  # reaches the raw-tile phase
        p.wait_for_selector(DECIDE)
        seen: dict[str, Any] = {}

        def measure() -> None:
            p.wait_for_selector("#my-hand .tile")
            boxes = p.locator("#my-hand .tile").evaluate_all(
                "ts => ts.map(t => [t.getBoundingClientRect().width, "
                "t.getBoundingClientRect().right])")
            assert len(boxes) >= 13 and all(w >= 40 for w, _ in boxes), boxes
            assert max(right for _, right in boxes) <= 844, boxes
            page.no_horizontal_overflow()
            seen["measured"] = True

        while not p.locator("#my-hand .tile.playable").count():  # bullets and claims: pass
            p.wait_for_selector(DECIDE)
            for kind in ("act-pass", "act-accept_bullets", "act-throw_bullets"):
                if p.locator(f"#action-bar button.{kind}").count():
                    p.click(f"#action-bar button.{kind} >> nth=0")
                    break
        measure()
        page.shot("phone-landscape")
        played = play_hand(page, hints_at=None, raw_check=True)
        assert played.get("raw"), "the hand no longer reaches the raw-tile phase: another seed"
    finally:
        page.close()


def built_wall(dealer_hand: str) -> list[int]:
    """A Guobiao wall whose deal gives seat 0, the dealer, ``dealer_hand`` (14 tiles); the
    other tiles in order, flowers last (the deal takes 4 tiles a seat three times, then one
    each, then the dealer's 14th)."""
    from collections import Counter

    from majiang.notation import parse_tiles
    from majiang.rules.registry import make_rules

    mine = parse_tiles(dealer_hand)
    rest = Counter(make_rules("gb").wall_tiles())
    rest.subtract(mine)
    others = iter(sorted(rest.elements()))
    wall: list[int] = []
    for _ in range(3):
        wall += mine[len(wall) // 16 * 4:][:4] + [next(others) for _ in range(12)]
    wall += [mine[12]] + [next(others) for _ in range(3)] + [mine[13]]
    return wall + list(others)


def test_a_win_by_the_win_button_and_the_player_toggles(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-built wall deals seat 0 a winning hand: the Win button wins it, the score sheet
    marks the winning tile and pays by the formula. Then the toggles play a hand alone: no
    calls (every claim passed), auto-discard (the drawn tile), auto-win."""
    from majiang.engine.match import Match
    from majiang.engine.table import Table

    wall = built_wall("123456789m123p5s5s")
    dealt = Match.table

    def table(match: Match, spec: Any) -> Table:
        if match.seed != 772:  # seed 772: seat 0 deals the first hand
            return dealt(match, spec)
        assert spec.dealer == 0
        built["seed"] = spec.seed
        return Table(match.rules, spec.seed, dealer=0, stake=match.stake, wall=wall)

    monkeypatch.setattr(Match, "table", table)
    # the server keeps a hand as its seed and actions: its record (for the replay that gives the
    # sheet its final hands) is rebuilt on the same wall
    from majiang.server import records

    def rebuilt(rules: Any, seed: int, **settings: Any) -> Table:
        if seed == built.get("seed"):
            settings["wall"] = wall
        return Table(rules, seed, **settings)

    built: dict[str, Any] = {}
    monkeypatch.setattr(records, "Table", rebuilt)
    page.goto()
    p = page.page
    code = create_room(page, "gb", seed=772)
    win = p.locator("#action-bar button.act-win")
    win.wait_for()
    assert "Win" in win.inner_text()
    win.click()
    p.wait_for_selector("#score-sheet .final-hand.winner .tile.winning")
    assert p.get_attribute("#score-sheet .final-hand.winner .tile.winning", "data-tile") == "5s"
    result = page.server.http.get(f"/rooms/{code}/hands").json()[0]["result"]
    assert result["winner"] == 0 and result["self_drawn"]
    total = result["detail"]["total"]
    formula = p.inner_text("#payment-formula")
    assert f"(8 + {total}) × 1 = {8 + total}" in formula and f"+{3 * (8 + total)}" in formula
    # a fan under the pointer lights the tiles that make it; a tap keeps it lit
    straight = p.locator("#score-sheet .fans tr[data-fan='Pure Straight']")
    straight.hover()
    lit = p.locator("#score-sheet .final-hand.winner .tile.lit").evaluate_all(
        "ts => ts.map(t => t.dataset.tile)")
    assert sorted(lit) == [f"{rank}m" for rank in range(1, 10)], lit
    p.locator("#score-sheet .fans tr[data-fan='Fully Concealed Hand']").hover()
    assert p.locator("#score-sheet .final-hand.winner .tile.lit").count() == 14
    straight.click()
    p.mouse.move(5, 5)
    assert p.locator("#score-sheet .final-hand.winner .tile.lit").count() == 9
    page.shot("fan-highlight", height=1100)
    # the (i) of a fan line opens its definition, the page's language first, and closes it
    from majiang.rules.guobiao.fan_definitions import DEFINITIONS
    from majiang.rules.guobiao.fans import F

    zh, en = DEFINITIONS[F.PURE_STRAIGHT]
    straight.locator("button.fan-info").click()
    definition = p.locator("#score-sheet .fans tr.fan-definition")
    assert definition.count() == 1
    assert definition.locator(".def-main").inner_text() == en
    assert definition.locator(".def-other").inner_text() == zh
    assert straight.locator("button.fan-info").get_attribute("aria-expanded") == "true"
    assert p.locator("#score-sheet .final-hand.winner .tile.lit").count() == 9  # still lit
    straight.locator("button.fan-info").click()
    assert p.locator("#score-sheet .fans tr.fan-definition").count() == 0

    # the toggles, set in the settings panel at the table: a hand plays itself
    p.click("button.next-hand")
    page.goto()
    create_room(page, "gb", seed=12)  # offers the seat claims
    p.wait_for_selector(DECIDE)
    p.click("#settings-button")
    for toggle in ("#set-no-calls", "#set-auto-discard", "#set-auto-win"):
        p.check(toggle)
    stored = json.loads(p.evaluate("localStorage.getItem('majiang.settings')"))
    assert stored["no_calls"] and stored["auto_discard"] and stored["auto_win"]
    clicked = 0
    while not p.locator("#score-sheet").count():  # only a discard with no drawn tile waits
        p.wait_for_selector("#my-hand .tiles.group .tile.playable, #score-sheet")
        if p.locator("#my-hand .tile.playable").count() and not p.locator(
                "#my-hand .tiles.drawn").count():
            p.locator("#my-hand .tile.playable").last.click()
            clicked += 1
    hand = page.server.http.get(f"/rooms/{p.inner_text('#room-code')}/hands").json()[0]
    record = page.server.http.get(f"/hands/{hand['id']}/record").json()
    mine = [line for line in record[1:] if line.get("seat") == 0]
    assert not [x for x in mine if x["action"]["type"] in ("chow", "pung", "exposed_kong")]
    assert [x for x in mine if x["action"]["type"] == "pass"], "no claim was passed"
    drawn, tsumogiri, discards = None, 0, 0  # each discard by itself was the tile just drawn
    for line in record[1:]:
        if line.get("seat") == 0 and line["action"]["type"] == "discard":
            discards += 1
            tsumogiri += line["action"]["tile"] == drawn
        for event in line.get("events", []):
            if event["type"] == "draw" and event.get("seat") == 0:
                drawn = event.get("tile")
    assert discards and tsumogiri >= discards - clicked, (tsumogiri, discards, clicked)


def test_the_lobby_lists_rooms_and_joins_by_code(page: Page) -> None:
    code = page.server.http.post("/rooms", json={"rules": "huangyan", "hands": 2}).json()["code"]
    page.goto()
    p = page.page
    row = p.locator(f".room-list tr[data-code='{code}']")
    row.wait_for()
    assert "Huangyan" in row.inner_text()
    page.shot("lobby")
    p.fill("#join-code", code.lower())
    p.click("#join-room")
    p.wait_for_selector("button.sit")
    assert p.locator("button.sit").count() == 4
    p.fill("#sit-name", "Bo")
    p.locator("button.sit").nth(2).click()
    p.wait_for_selector("button.ready")
    assert re.search(r"Bo .*\(you\)", p.inner_text(".wait-seat[data-seat='2']"))
    p.reload()  # the seat is kept: still Bo's after a reload
    p.wait_for_selector("button.ready")
    p.click("#lang-toggle")
    assert p.inner_text("button.ready") == "准备"
    p.reload()
    p.wait_for_selector("button.ready")
    assert p.inner_text("button.ready") == "准备"  # the language is remembered
    p.click("#lang-toggle")


def test_an_error_frame_is_not_answered_by_a_storm_of_resyncs(page: Page) -> None:
    """The table answers an error frame by asking for the state again, and the server refuses
    more than two resyncs a second with another error frame: the page must not answer each
    refusal with a new resync at once (a loop that redraws the table without end)."""
    p = page.page
    sent: list[str] = []
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str) and '"resync"' in message:
                sent.append(message)
            server.send(message)

        ws.on_message(to_server)
        server.on_message(lambda message: ws.send(message))

    p.route_web_socket("**/ws/**", route)
    page.goto()
    create_room(page, "gb", seed=5)
    p.wait_for_selector(DECIDE)
    for _ in range(5):  # five error frames in a burst, as a flood of refusals would be
        sockets[-1].send(json.dumps({"type": "error", "message": "too many resyncs"}))
    p.wait_for_timeout(3000)
    assert 1 <= len(sent) <= 4, len(sent)  # one at once, then at most one a second
    p.wait_for_selector(DECIDE)  # the table is still there and asks the player


def test_the_clock_goes_on_over_a_reload_and_waits_between_hands(page: Page) -> None:
    """The dealer's first decision is timed; a reload continues the countdown from the
    server's deadline; between hands no clock runs: the score sheet counts the pause down and
    the next hand is dealt when the player presses Next."""
    room = page.server.http.post("/rooms", json={
        "rules": "gb", "hands": 2, "seed": 772, "turn_seconds": 40, "next_seconds": 60,
        "bots": [None, "fan", "fan", "fan"]}).json()  # seed 772: seat 0 deals
    code = room["code"]
    page.goto(f"#/room/{code}")
    p = page.page
    p.fill("#sit-name", "Ann")
    p.locator("button.sit").first.click()
    p.click("button.ready")
    p.wait_for_selector(DECIDE)

    def countdown() -> int:
        text = p.inner_text("#countdown")
        assert text.endswith(" s"), text
        return int(text.split()[0])

    first = countdown()
    assert 35 <= first <= 40, first
    p.wait_for_timeout(3000)
    p.reload()
    p.wait_for_selector(DECIDE)
    p.wait_for_function("() => document.querySelector('#countdown')?.textContent.endsWith(' s')")
    again = countdown()
    assert again <= first - 2, (first, again)  # continued, not restarted

    while not p.locator("#score-sheet").count():  # the drawn tile, or pass
        p.wait_for_selector(DECIDE)
        if p.locator("#action-bar button.act-pass").count():
            p.click("#action-bar button.act-pass")
        elif p.locator("#my-hand .tiles.drawn .tile.playable").count():
            p.click("#my-hand .tiles.drawn .tile.playable")
        elif p.locator("#my-hand .tile.playable").count():
            p.locator("#my-hand .tile.playable").last.click()
    p.wait_for_selector("#pause-line .next-countdown:not(:empty)")
    left = int(p.inner_text("#next-countdown").split()[-2])
    assert 50 <= left <= 60, left
    p.wait_for_timeout(2500)
    hands = page.server.http.get(f"/rooms/{code}/hands").json()
    assert len(hands) == 1, hands  # nothing dealt while the sheet is open
    assert int(p.inner_text("#next-countdown").split()[-2]) < left
    page.shot("pause")
    p.click("button.next-hand")  # the only person: the next hand at once
    p.wait_for_function(
        "() => document.body.dataset.step && document.body.dataset.step.startsWith('2:')")
    assert not p.locator("#score-sheet").count()


def test_the_creator_frees_a_seat_before_the_start(browser: Any, page: Page) -> None:
    """The browser that created a room keeps the creator's token and shows a "free the seat"
    button per taken seat before the start; a freed player's page forgets the seat's token and
    watches, with the reason shown; a page that did not create the room shows no such button."""
    p = page.page
    page.goto()
    p.wait_for_selector("#room-rules option", state="attached")
    p.fill("#player-name", "Ann")
    p.select_option("#seat-1", "person")
    p.click("#create-room")
    p.wait_for_selector("button.ready")
    code = p.inner_text("#room-code")
    p.wait_for_function(f"() => JSON.parse(localStorage.getItem('majiang.creators'))['{code}']")
    guest = Page(browser, page.server)
    try:
        g = guest.page
        guest.goto(f"#/room/{code}")
        g.fill("#sit-name", "Bo")
        g.locator(".wait-seat[data-seat='1'] button.sit").click()
        g.wait_for_selector("button.ready")
        assert g.locator("button.free-seat").count() == 0  # not the creator
        seat_1 = ".wait-seat[data-seat='1']"
        p.wait_for_selector(f"{seat_1} button.free-seat")
        assert p.locator("button.free-seat").count() == 2  # Ann's own seat and Bo's
        p.click(f"{seat_1} button.free-seat")
        p.wait_for_function(f"() => !document.querySelector(\"{seat_1}\").textContent"
                            ".includes('Bo')")
        assert p.locator(f"{seat_1} button.free-seat").count() == 0
        # Bo's page: told why, the token forgotten, back to watching with the seats open
        g.wait_for_function("() => !(JSON.parse(localStorage.getItem('majiang.seats') || '{}')"
                            f"['{code}'])")
        g.wait_for_selector(f"{seat_1} button.sit")
        assert g.locator("button.ready").count() == 0
        view = page.server.http.get(f"/rooms/{code}").json()
        assert view["seats"][1]["player"] is None and view["seats"][0]["player"] == "Ann"
    finally:
        guest.close()


def test_the_lobby_form_sets_the_ready_timeout(page: Page) -> None:
    p = page.page
    page.goto()
    p.wait_for_selector("#room-rules option", state="attached")
    assert p.input_value("#room-ready-seconds") == "300"  # the server's default
    p.fill("#player-name", "Ann")
    p.fill("#room-ready-seconds", "45")
    p.click("#create-room")
    p.wait_for_selector("button.ready")
    room = page.server.http.get(f"/rooms/{p.inner_text('#room-code')}").json()
    assert room["ready_seconds"] == 45
    assert room["seats"][0]["ready_by"] is not None


def test_the_lobby_shows_a_paused_match_and_the_table_its_resumption(
    browser: Any, tmp_path: Path
) -> None:
    """A match everyone left pauses once nobody has been connected for the server's
    ``unwatched_seconds``: the lobby says so (in both languages, with the chosen seed marked),
    and the page that opens it again says it goes on."""
    quick = Server(tmp_path / "paused.db",
                   limits=dataclasses.replace(UNLIMITED, unwatched_seconds=0.3))
    page = Page(browser, quick)
    try:
        p = page.page
        page.goto()
        p.wait_for_selector("#room-rules option", state="attached")
        p.fill("#player-name", "Ann")
        p.fill("#room-grace-seconds", "0")  # a bot stands in at once once Ann has gone
        p.click("details.advanced summary")
        p.fill("#room-seed", "7")
        p.click("#create-room")
        p.click("button.ready")
        p.wait_for_selector(".board")
        code = p.inner_text("#room-code")
        page.goto()  # Ann leaves the table for the lobby: nobody is connected
        deadline = time.monotonic() + 20
        while not quick.http.get(f"/rooms/{code}").json()["paused"]:
            assert time.monotonic() < deadline, "the match did not pause"
            time.sleep(0.1)
        p.click(".rooms button.small")  # Refresh
        status = p.locator(f".room-list tr[data-code='{code}'] td.room-status")
        status.locator(".paused").wait_for()
        assert status.locator(".paused").inner_text() == "paused: nobody connected"
        assert status.locator(".chosen-seed").inner_text() == "chosen seed"
        assert "Nobody has been connected" in status.locator(".paused").get_attribute("title")
        p.click("#lang-toggle")
        status.locator(".paused", has_text="已暂停").wait_for()
        assert status.locator(".paused").inner_text() == "已暂停：无人在线"
        assert status.locator(".chosen-seed").inner_text() == "指定种子"
        p.click("#lang-toggle")
        p.locator(f".room-list tr[data-code='{code}'] a.go").click()  # back to the table
        p.wait_for_selector(".toast")
        assert p.inner_text(".toast") == (
            "The match was paused while nobody was connected; it goes on now.")
        assert p.inner_text(".room-bar .room-status > span:first-child") == "playing"
        assert p.inner_text(".room-bar .room-status .chosen-seed") == "chosen seed"
        assert not quick.http.get(f"/rooms/{code}").json()["paused"]
    finally:
        page.close()
        quick.stop()
