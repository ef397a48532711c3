"""The organiser's pages in Debian's Chromium, driven by Playwright as a person would: a whole
16-hand Guobiao game entered by clicking (some hands by tiles, some by fans, some by their
total), one corrected, the CSV exported; a 12-player, 3-round tournament run to its standings,
with the public standings page following by itself. Any page or console error fails the test.
With ``MAJIANG_SCREENSHOTS=1`` the tests write docs/screenshots/organiser-*.png.

One server and one browser serve every test of the module.
"""

from __future__ import annotations

import csv
import io
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majiang.organiser.entries import parse_entry
from majiang.organiser.sheet import compute, game_settings
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
NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    s = ThreadedServer(tmp_path_factory.mktemp("organiser") / "organiser.db")
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
    """A page of the organiser, failing the test on any script error."""

    def __init__(self, browser: Any, server: ThreadedServer, width: int = 1280,
                 height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           accept_downloads=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.server = server

    def _console(self, message: Any) -> None:
        # a refused request (the 422 of a bad entry, asked for) is the server's answer
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def goto(self, fragment: str = "") -> None:
        self.page.goto(self.server.url + "organiser" + fragment)

    def shot(self, name: str, full: bool = False) -> None:
        if os.environ.get("MAJIANG_SCREENSHOTS") != "1":
            return
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"organiser-{name}.png"), full_page=full)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture()
def page(browser: Any, server: ThreadedServer) -> Iterator[Page]:
    p = Page(browser, server)
    yield p
    p.close()


# ---------------------------------------------------------------------------- the score sheet


def create_sheet(p: Any, names: list[str]) -> None:
    p.wait_for_selector("#sheet-rules option", state="attached")
    for seat, name in enumerate(names):
        p.fill(f"#sheet-name-{seat}", name)
    p.click("#create-sheet")


def wait_preview(p: Any, text: str | None = None) -> str:
    p.wait_for_selector("#preview-table")
    shown: str = p.inner_text("#entry-preview")
    if text is not None:
        assert text in shown, shown
    return shown


def save(p: Any, next_hand: int | None) -> None:
    p.wait_for_selector("#save-entry:not([disabled])")
    p.click("#save-entry")
    if next_hand is None:
        p.wait_for_selector("#sheet-now:has-text('Game over')")
    else:
        p.wait_for_selector(f"#sheet-now:has-text('Hand {next_hand} ')")


def win(p: Any, winner: int, discarder: int | None) -> None:
    p.click("#kind-win")
    p.click(f"#winner-{winner}")
    p.click("#from-self" if discarder is None else f"#from-{discarder}")


def by_points(p: Any, points: int) -> None:
    p.click("#by-points")
    p.fill("#points-input", str(points))


def by_clicks(p: Any, tiles: list[str]) -> None:
    p.click("#by-tiles")
    p.click("#clear-tiles")
    for tile in tiles:
        p.click(f".palette .tile-button[data-tile='{tile}']")


# what the game's hands are, as entered; the test enters each by clicking and checks the
# page's totals against the same entries settled here
HANDS: list[dict[str, Any]] = [
    {"kind": "win", "winner": 0, "discarder": 2, "tiles": "123456789m123p5s5s", "click": True},
    {"kind": "win", "winner": 1, "discarder": None, "points": 8},
    {"kind": "draw"},
    {"kind": "win", "winner": 3, "discarder": 0, "fans": {"28": 1, "62": 1}},
    {"kind": "win", "winner": 2, "discarder": None, "tiles": "[CCC,1][SSS,2]123m456m1m1m"},
    {"kind": "win", "winner": 0, "discarder": 1, "points": 12, "flowers": 2},
    {"kind": "win", "winner": 1, "discarder": 3, "points": 24},
    {"kind": "win", "winner": 2, "discarder": 0, "tiles": "11m22m33m44m55m66p7p7p", "click": True},
    {"kind": "draw"},
    {"kind": "win", "winner": 3, "discarder": None, "points": 10},
    {"kind": "win", "winner": 0, "discarder": 3, "fans": {"48": 1, "49": 1}},
    {"kind": "win", "winner": 1, "discarder": 2, "points": 9},
    {"kind": "win", "winner": 2, "discarder": 1, "points": 16},
    {"kind": "win", "winner": 3, "discarder": 2, "points": 8},
    {"kind": "win", "winner": 0, "discarder": None, "points": 32},
    {"kind": "win", "winner": 1, "discarder": 0, "tiles": "[123m,1]456s789p234p5s5s"},
]


def tiles_of(text: str) -> list[str]:
    """The tiles of a concealed hand's notation, one name each (what a person clicks)."""
    tiles, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "msp":
            tiles += [f"{d}{ch}" for d in digits]
            digits = ""
        else:
            tiles.append(ch)
    return tiles


def enter_hand(page: Page, hand: dict[str, Any], number: int) -> None:
    p = page.page
    if hand["kind"] == "draw":
        p.click("#kind-draw")
        wait_preview(p, "Draw")
    else:
        win(p, hand["winner"], hand["discarder"])
        if "tiles" in hand and hand.get("click"):
            by_clicks(p, tiles_of(hand["tiles"]))
            if number == 8:
                wait_preview(p, "Seven Pairs")
                page.shot("entry")
        elif "tiles" in hand:
            p.click("#by-tiles")
            p.fill("#tiles-input", hand["tiles"])
        elif "fans" in hand:
            p.click("#by-fans")
            for fan in hand["fans"]:
                p.check(f"#fan-{fan}")
        else:
            by_points(p, hand["points"])
        if hand.get("flowers"):
            p.fill("#flowers-input", str(hand["flowers"]))
        wait_preview(p, NAMES[hand["winner"]])
    save(p, number + 1 if number < 16 else None)


def expected_state(hands: list[dict[str, Any]]) -> Any:
    entries = [parse_entry({k: v for k, v in hand.items() if k != "click"}) for hand in hands]
    return compute(game_settings("gb", NAMES), entries)


def test_a_whole_guobiao_game_entered_by_clicking(page: Page) -> None:
    p = page.page
    page.goto()
    p.wait_for_selector("#sheet-rules option", state="attached")
    page.shot("home")
    create_sheet(p, ["Ann", "Bob", "ann", "Dan"])  # the same name twice: refused, nothing made
    p.wait_for_selector("#home-error")
    assert "ann is entered twice" in p.inner_text("#home-error")
    p.fill("#sheet-name-2", "Cat")
    p.click("#create-sheet")
    p.wait_for_selector("#token-once")
    code = p.url.rsplit("/", 1)[1]
    assert p.inner_text("#sheet-now").startswith("Hand 1 ")

    # bad input first: tiles that do not win, and a win under 8 fans, are refused and say why
    win(p, 0, 2)
    by_clicks(p, ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "1s", "E", "E",
                  "1p"])
    p.wait_for_selector("#entry-error")
    assert "not a winning hand" in p.inner_text("#entry-error")
    assert p.is_disabled("#save-entry")
    by_points(p, 7)
    p.wait_for_selector("#entry-error:has-text('under the 8-fan minimum')")
    assert "this game does not play false wins" in p.inner_text("#entry-error")
    assert p.is_disabled("#save-entry")

    for number, hand in enumerate(HANDS, start=1):
        enter_hand(page, hand, number)
    rows = p.locator("#entries-table tbody tr")
    assert rows.count() == 16
    state = expected_state(HANDS)
    for seat in range(4):
        assert p.inner_text(f"#total-{seat}") == str(state.totals[seat])

    # correct hand 2 (Bob's self-drawn win was 16 fans, not 8): every later total moves
    second = rows.nth(1).get_attribute("data-entry")
    p.click(f"#edit-{second}")
    p.wait_for_selector("#entry-form h2:has-text('Correcting entry 2')")
    assert p.input_value("#points-input") == "8"
    p.fill("#points-input", "16")
    wait_preview(p, "+72")
    p.click("#save-entry")
    corrected = [dict(h) for h in HANDS]
    corrected[1]["points"] = 16
    state = expected_state(corrected)
    p.wait_for_selector(f"#total-1:text-is('{state.totals[1]}')")
    for seat in range(4):
        assert p.inner_text(f"#total-{seat}") == str(state.totals[seat])
    page.shot("sheet", full=True)

    # the change is in the history, the summaries follow, the CSV has every hand
    p.click("#changes summary")
    p.wait_for_selector("#changes li:has-text('corrected')")
    assert "Mean count" in p.inner_text("#summary-table")
    with p.expect_download() as download:
        p.click("#export-csv")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    table = list(csv.reader(io.StringIO(text)))
    assert len(table) == 17 and table[0][-4:] == [f"{n} total" for n in NAMES]
    assert [int(x) for x in table[-1][-4:]] == list(state.totals)

    # the print view and the filters
    p.click("#filter-kind")
    p.select_option("#filter-kind", "draw")
    p.wait_for_function("() => document.querySelectorAll('#entries-table tbody tr').length === 2")
    page.goto(f"#/game/{code}/print")
    p.wait_for_selector(".print-page #entries-table")
    assert p.locator("#entries-table tbody tr").count() == 16
    assert p.locator("#entries-table button").count() == 0


def test_someone_without_the_token_reads_but_cannot_change(page: Page, browser: Any,
                                                           server: ThreadedServer) -> None:
    p = page.page
    page.goto()
    create_sheet(p, NAMES)
    p.wait_for_selector("#token-once")
    token = p.inner_text("#fresh-token")
    win(p, 0, 1)
    by_points(p, 8)
    wait_preview(p)
    save(p, 2)
    code = p.url.rsplit("/", 1)[1]
    other = Page(browser, server)
    try:
        q = other.page
        other.goto(f"#/game/{code}")
        q.wait_for_selector("#totals-table")
        assert q.locator("#entry-form").count() == 0 and q.locator("#token-input").count() == 1
        q.fill("#token-input", "not the token")
        q.click(".read-only button")
        q.wait_for_selector("#sheet-error:has-text('needs its token')")
        q.fill("#token-input", token)
        q.click(".read-only button")
        q.wait_for_selector("#entry-form")
    finally:
        other.close()


# ---------------------------------------------------------------------------- the tournament


def test_a_twelve_player_three_round_tournament(page: Page, browser: Any,
                                                server: ThreadedServer) -> None:
    p = page.page
    page.goto()
    p.fill("#t-name", "Spring Open")
    p.fill("#t-rounds", "3")
    p.fill("#t-seed", "7")
    p.click("#create-tournament")
    p.wait_for_selector("#player-name")
    code = p.url.rsplit("/", 1)[1]
    token = p.inner_text("#fresh-token")
    for i in range(12):
        p.fill("#player-name", f"Player {i + 1}")
        p.click("#add-player")
        p.wait_for_selector(f"#player-list li:nth-child({i + 1})")
    viewer = Page(browser, server)
    try:
        viewer.goto(f"#/t/{code}/standings")
        viewer.page.wait_for_selector("#standings-table")
        rng = random.Random(1)
        for number in (1, 2, 3):
            p.click("#seat-round")
            p.wait_for_selector(f"#round-{number}")
            for table in (1, 2, 3):
                a, b, c = (rng.randrange(-60, 60) for _ in range(3))
                for wind, score in enumerate([a, b, c, -a - b - c]):
                    p.fill(f"#score-{number}-{table}-{wind}", str(score))
                p.click(f"#save-{number}-{table}")
                p.wait_for_selector(f"#table-{number}-{table}.done")
        page.shot("tournament", full=True)
        # a score that does not sum to zero is refused
        p.fill("#score-3-1-0", "999")
        p.click("#save-3-1")
        p.wait_for_selector("#tournament-error:has-text('not 0')")
        standings = p.locator("#standings-table tbody tr")
        assert standings.count() == 12
        points = [float(standings.nth(i).locator(".tp").inner_text()) for i in range(12)]
        assert abs(sum(points) - 7 * 3 * 3) < 0.1 and points == sorted(points, reverse=True)
        assert p.inner_text("#standings-table tbody tr:first-child .rank") == "1"
        # the public page followed every result by itself
        viewer.page.wait_for_function(
            "() => [...document.querySelectorAll('#standings-table td.round')]"
            ".filter((td) => td.textContent.includes('/')).length === 36", timeout=10_000)
        assert viewer.page.inner_text("#standings-table tbody tr:first-child .name") == (
            p.inner_text("#standings-table tbody tr:first-child .name"))
        viewer.shot("standings", full=True)
        # the organiser on another device: a wrong token is refused, his token opens his pages
        q = viewer.page
        q.fill("#t-token-input", "not the token")
        q.click("#t-token-use")
        q.wait_for_selector("#standings-error:has-text('not this tournament')")
        q.fill("#t-token-input", token)
        q.click("#t-token-use")
        q.wait_for_selector("#player-list")
        assert q.locator("#player-list li").count() == 12
    finally:
        viewer.close()
    p.click("#report summary")
    assert "Repeat meetings" in p.inner_text("#report")
    page.goto(f"#/t/{code}/print/2")
    p.wait_for_selector(".table-sheet")
    assert p.locator(".table-sheet").count() == 3
    page.shot("table-sheets")


def test_a_huangyan_hand_with_the_wild_the_losers_the_gunner_and_thrown_bullets(
    page: Page,
) -> None:
    p = page.page
    page.goto()
    p.wait_for_selector("#sheet-rules option", state="attached")
    p.select_option("#sheet-rules", "huangyan")
    create_sheet(p, NAMES)
    p.wait_for_selector("#token-once")
    # hand 1, Ann deals and throws 2 bullets that Bob accepts; Bob wins on Cat's raw discard
    p.select_option("#throw-input", "2")
    p.check("#accept-1")
    win(p, 1, 2)
    p.fill("#tiles-input", "SS5s123m789m34p66p2p")
    p.fill("#wild-input", "5s")
    p.fill("#loser-0", "20")
    p.fill("#loser-2", "0")
    p.fill("#loser-3", "123m456p789s11sEE")
    p.check("#gunner-box")
    shown = wait_preview(p, "Bob")
    assert "gunner" in shown
    save(p, 2)
    line = p.inner_text("#entries-table tbody tr:first-child")
    assert "South Bob wins on West Cat's discard (gunner)" in line
    # the gunner, Cat, pays everything owed in the hand
    assert p.inner_text("#total-2").startswith("-")
    assert p.inner_text("#sheet-now").startswith("Hand 2 ")
    assert "dealer East Bob" in p.inner_text("#sheet-now")
    # the same page in Chinese
    p.click("#lang-toggle")
    p.wait_for_selector("#entry-form h2:has-text('第 2 局')")
    assert "和牌者" in p.inner_text("#entry-form")
    p.click("#lang-toggle")
