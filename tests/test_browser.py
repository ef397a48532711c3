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

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
    p.click("details.advanced summary")
    p.fill("#room-seed", str(seed))
    assert p.input_value("#seat-0") == "person"
    p.click("#create-room")
    p.wait_for_selector("button.ready")
    code = p.inner_text("#room-code")
    stored = json.loads(p.evaluate("localStorage.getItem('majiang.seats')"))
    assert stored[code]["seat"] == 0 and stored[code]["token"]
    p.click("button.ready")
    p.wait_for_selector(".board")
    return code


def my_tiles(page: Page) -> list[str]:
    tiles: list[str] = page.page.locator("#my-hand .tile").evaluate_all(
        "ts => ts.map(t => t.dataset.tile)")
    return tiles


def play_hand(page: Page, *, reload_after: int | None = None, hints_at: int | None = 1,
              shot_at: int | None = None) -> dict[str, Any]:
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
        buttons = p.locator("#action-bar button.act")
        kinds: list[str] = buttons.evaluate_all("bs => bs.map(b => b.className)")
        choice = next((i for want in CLAIMS for i, k in enumerate(kinds) if want in k.split()),
                      None)
        if choice is not None:
            kind = kinds[choice].split()[1]
            if kind != "act-pass":
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
    seen = play_hand(page, reload_after=4, shot_at=3)
    assert seen["reloaded"] and seen["discards"] >= 4
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
    assert p.locator("#hint-button").is_disabled()  # no tiles before the deal
    p.keyboard.press("h")  # asked anyway: the server's error, and the game goes on
    p.wait_for_selector(".toast")
    throws.first.click()
    p.wait_for_selector(".wild-info .wild-tile .tile.wild")
    wild = p.locator(".wild-info .wild-tile .tile").get_attribute("data-tile")
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
    code, hand_id = played_hand(page.server, "gb", seed=4)
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
        page.shot("lobby-phone")
        create_room(page, "huangyan", seed=4)
        while not p.locator("#my-hand .tile.playable").count():  # bullets and claims: pass
            p.wait_for_selector(DECIDE)
            if p.locator("#action-bar button.act-pass").count():
                p.click("#action-bar button.act-pass")
            elif p.locator("#action-bar button.act-throw_bullets").count():
                p.click("#action-bar button.act-throw_bullets >> nth=0")
        page.no_horizontal_overflow()
        right = p.locator("#my-hand .tile").evaluate_all(
            "ts => Math.max(...ts.map(t => t.getBoundingClientRect().right))")
        assert 0 < right <= 390
        assert p.locator(".board .seat").count() == 4
        page.shot("phone")
    finally:
        page.close()


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
