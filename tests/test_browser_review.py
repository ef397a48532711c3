"""The replay viewer's Review pane in Debian's Chromium, driven by Playwright: once a match is
over anyone picks a seat, starts its review, watches the progress bar and reads the decisions
(the biggest loss first, each with the action taken, the best one, the loss with its interval
and the candidates) and the summary, in both languages; while the match is played only the
seat's own player (its token kept by this browser) may review it. Any page or console error
fails the test. The server reviews with a small sample budget, so that a Huangyan hand takes a
few seconds."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from majiang.server.reviews import ReviewSettings
from server_helpers import ThreadedServer
from test_browser import Page, browser  # noqa: F401 (the browser is a fixture)
from test_server_review import first_hand

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    s = ThreadedServer(tmp_path_factory.mktemp("review") / "review.db")
    # 8 samples: a review of a few seconds, so that several polls see the bar part way
    s.app.state.reviews.settings = ReviewSettings(think=None, samples=8)
    yield s
    s.stop()


@pytest.fixture()
def page(browser: Any, server: ThreadedServer) -> Iterator[Page]:  # noqa: F811
    p = Page(browser, server)
    yield p
    p.close()


def check_result(page: Page, hand_id: int, seat: int,
                 headers: dict[str, str] | None = None) -> None:
    """The pane shows the server's review of ``seat``: the summary, then every decision in
    the order of the result (the biggest loss first), each with what the result says."""
    p = page.page
    p.wait_for_selector("#review-summary", timeout=90_000)
    result = page.server.http.get(f"/hands/{hand_id}/review", params={"seat": seat},
                                  headers=headers).json()["result"]
    summary = result["summary"]
    text = p.inner_text("#review-summary")
    shown = re.search(r"Expected loss (\S+) points; the top choice taken in (\d+) of (\d+)", text)
    assert shown is not None, text
    assert close(shown[1], summary["expected_loss"])
    assert (int(shown[2]), int(shown[3])) == (summary["matched"], summary["decisions"])
    items = p.locator("#review-decisions > li")
    assert items.count() == summary["decisions"] > 5
    steps = [int(items.nth(i).get_attribute("data-step")) for i in range(items.count())]
    assert steps == [d["step"] for d in result["decisions"]]
    losses = [d["loss"] for d in result["decisions"]]
    assert losses == sorted(losses, reverse=True)
    first = result["decisions"][0]
    verdict = items.nth(0).locator(".review-verdict").inner_text()
    loss = re.search(r"Loss: (\S+) (\[(\S+), (\S+)\]|—)", verdict)
    assert loss is not None, verdict
    assert close(loss[1], first["loss"])
    if first["loss_interval"] is None:
        assert loss[2] == "—"
    else:
        assert close(loss[3], first["loss_interval"][0])
        assert close(loss[4], first["loss_interval"][1])
    # the four best candidates, and the action taken (marked) wherever it ranks
    rank = [c["action"] for c in first["choices"]].index(first["taken"])
    rows = items.nth(0).locator(".review-choices tbody tr")
    assert rows.count() == min(4, len(first["choices"])) + (rank >= 4)
    taken = items.nth(0).locator(".review-choices tr.taken")
    assert taken.count() == 1
    assert close(taken.locator("td").nth(1).inner_text(), first["choices"][rank]["mean"])


def close(shown: str, value: float) -> bool:
    """Whether a number the page shows with one decimal (``+5.0``, ``−4.8``) is ``value``."""
    return abs(float(shown.replace("−", "-").rstrip(",")) - value) <= 0.051


def test_anyone_reviews_a_seat_once_the_match_is_over(page: Page) -> None:
    hand_id, _, _, ws = first_hand(page.server, rules="huangyan", seed=21)
    ws.close()
    p = page.page
    page.goto(f"#/replay/{hand_id}")
    p.wait_for_selector("#review-seat")
    # seat 0 first; another seat is chosen
    p.select_option("#review-seat", "2")
    p.wait_for_selector("#review-start")
    assert "Review" in p.inner_text("#review-start")
    p.click("#review-start")
    p.wait_for_selector("#review-progress")
    p.wait_for_function("() => { const bar = document.querySelector('#review-progress');"
                        " return bar && bar.value > 0 && bar.value < 1; }", timeout=60_000)
    assert re.search(r"Reviewing: \d+ / \d+ decisions", p.inner_text("#review-progress-text"))
    check_result(page, hand_id, 2)
    p.evaluate("() => window.scrollTo(0, document.querySelector('#review-pane').offsetTop - 60)")
    page.shot("review")
    # a decision's Show button brings the replay to the moment it was taken
    first = p.locator("#review-decisions > li").nth(0)
    step = int(first.get_attribute("data-step"))
    last = len(page.server.http.get(f"/hands/{hand_id}/replay").json()["steps"]) - 1
    first.locator(".review-goto").click()
    assert p.inner_text("#replay-step") == f"Step {step - 1} / {last}"
    assert p.locator("#review-decisions > li").count() > 5  # the pane stays
    # in Chinese
    p.click("#lang-toggle")
    p.wait_for_function("() => document.querySelector('#review-pane h2').textContent === '复盘'")
    assert "期望损失" in p.inner_text("#review-summary")
    assert CJK.search(p.inner_text("#review-decisions > li >> nth=0"))
    p.click("#lang-toggle")
    # reloaded: the review is the server's, kept; another seat still has its button
    p.reload()
    p.wait_for_selector("#review-seat")
    p.select_option("#review-seat", "2")
    check_result(page, hand_id, 2)
    p.select_option("#review-seat", "1")
    p.wait_for_selector("#review-start")


def test_while_the_match_is_played_only_the_seat_itself_reviews(page: Page,
                                                               browser: Any) -> None:  # noqa: F811
    hand_id, code, token, ws = first_hand(page.server, rules="huangyan", seed=22, hands=2,
                                          turn_seconds=120)
    try:
        # a stranger: no seat to choose, no button, the reason said
        page.goto(f"#/replay/{hand_id}")
        p = page.page
        p.wait_for_selector("#review-closed")
        assert "only to its own player" in p.inner_text("#review-closed")
        assert p.locator("#review-start, #review-seat").count() == 0
        # the player of seat 0, whose browser keeps the seat's token
        own = Page(browser, page.server)
        try:
            q = own.page
            own.goto()
            grant = {"seat": 0, "token": token, "player_id": 1, "name": "p0"}
            q.evaluate("(book) => localStorage.setItem('majiang.seats', book)",
                       json.dumps({code: grant}))
            own.goto(f"#/replay/{hand_id}")
            q.wait_for_selector("#review-start")
            assert q.locator("#review-seat").count() == 0
            assert "Your seat: p0" in q.inner_text("#review-pane")
            q.click("#review-start")
            check_result(own, hand_id, 0, headers={"X-Seat-Token": token})
        finally:
            own.close()
        assert page.server.http.get(f"/rooms/{code}").json()["status"] == "playing"
    finally:
        ws.close()
