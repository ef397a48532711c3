"""The review of a finished hand on the server: computed in a child process, one at a time,
its progress readable while it runs, the result the same as ``review_records`` gives and kept
in the database; refused to anyone who may not see the seat while the match is played; bounded
(a queue with a cap, a per-address cap, a time budget); and no table slowed while it runs.

In-process (FastAPI's TestClient) on SQLite, and once on PostgreSQL; the pace test runs a real
server on loopback (uvicorn in a thread)."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from websockets.sync.client import ClientConnection, connect

from majiang.cli import main
from majiang.engine.record import load_record
from majiang.review import review_records
from majiang.server import create_app
from majiang.server.limits import UNLIMITED
from majiang.server.models import HandReview
from majiang.server.reviews import ReviewSettings
from server_helpers import (
    SeatClient,
    ThreadedServer,
    choose,
    fresh_postgres_database,
    new_room,
    no_rate_limit,
    play,
    take_seat,
)
from test_server_slow_client import Player

QUICK = ReviewSettings(think=None, samples=2)
"""A small sample budget: a Huangyan hand of random play is reviewed in a few seconds, and
without a time limit the result is the same on every machine."""
HEAVY = ReviewSettings(think=None, samples=200)
"""A Guobiao review that takes minutes: it is still running while a test looks."""


def app_on(url: str, settings: ReviewSettings) -> Any:
    app = create_app(url, limits=UNLIMITED)
    app.state.review_settings = settings
    return app


@pytest.fixture()
def quick(tmp_path: Path) -> Iterator[TestClient]:
    with no_rate_limit(), TestClient(app_on(f"sqlite:///{tmp_path / 'r.db'}", QUICK)) as client:
        yield client


def finished_match(client: TestClient, rules: str = "huangyan", seed: int = 3,
                   hands: int = 1) -> tuple[str, list[dict[str, Any]], str]:
    """A match of three bots and one random player, played to its end: (code, its hands, the
    player's token)."""
    code = new_room(client, rules=rules, hands=hands, seed=seed,
                    bots=[None, "random", "random", "random"])
    grant = take_seat(client, code, 0, "p0")
    player = SeatClient(client, code, grant["token"])
    player.connect()
    try:
        player.send({"type": "ready"})
        player.barrier()
        play([player], random.Random(seed))
    finally:
        player.close()
    return code, client.get(f"/rooms/{code}/hands").json(), grant["token"]


def wait_done(client: TestClient, hand_id: int, seat: int, timeout: float = 120,
              headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Poll the review until it is done (or failed); every status read, in order."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(f"/hands/{hand_id}/review", params={"seat": seat}, headers=headers)
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        if seen[-1]["status"] in ("done", "failed"):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the review did not end: {seen[-1]}")


def detail(answer: Any) -> str:
    """The one clear reason of a refusal."""
    body = answer.json()
    assert isinstance(body["detail"], str), body
    return str(body["detail"])


def check_review_is_computed_and_cached(client: TestClient) -> None:
    _, hands, _ = finished_match(client)
    hand_id = hands[0]["id"]
    assert client.get(f"/hands/{hand_id}/review", params={"seat": 2}).json()["status"] == "none"
    started = client.post(f"/hands/{hand_id}/review", params={"seat": 2})
    assert started.status_code == 202, started.text
    assert started.json()["status"] in ("queued", "running") and started.json()["result"] is None
    seen = wait_done(client, hand_id, 2)
    final = seen[-1]
    assert final["status"] == "done" and final["progress"] == 1.0 and final["error"] is None
    # while it ran, the progress was the share of decisions reviewed, never going back
    running = [s for s in seen if s["status"] == "running" and s["decisions"]]
    assert running, seen
    for s in running:
        assert s["progress"] == round(s["reviewed"] / s["decisions"], 4)
    progress = [s["progress"] for s in seen]
    assert progress == sorted(progress)
    # the result is the library's review of the hand's record, from the seat's view
    record = client.get(f"/hands/{hand_id}/record").json()
    expected = review_records([record], 2, think=None, samples=2, seed=0).to_json()
    assert final["result"] == expected
    assert final["decisions"] == expected["summary"]["decisions"] > 5
    # asked again: the cached one at once (200), and only one row in the database
    again = client.post(f"/hands/{hand_id}/review", params={"seat": 2})
    assert again.status_code == 200 and again.json() == final
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        assert session.scalar(select(func.count()).select_from(HandReview)) == 1


def test_a_review_runs_in_the_background_and_is_cached(quick: TestClient, tmp_path: Path) -> None:
    check_review_is_computed_and_cached(quick)
    # the cache is the database's: a restarted server answers from it without working
    listing = quick.get("/rooms").json()
    hands = quick.get(f"/rooms/{listing[0]['code']}/hands").json()
    before = quick.get(f"/hands/{hands[0]['id']}/review", params={"seat": 2}).json()
    with TestClient(app_on(f"sqlite:///{tmp_path / 'r.db'}", HEAVY)) as restarted:
        after = restarted.post(f"/hands/{hands[0]['id']}/review", params={"seat": 2})
        assert after.status_code == 200 and after.json() == before


class FinishingQueue:
    """A review queue whose review ends just as it is asked about: the result is stored and
    the review leaves the queue between the route's two looks."""

    def __init__(self, queue: Any, store: Any, result: dict[str, Any]) -> None:
        self.queue, self.store, self.result = queue, store, result

    def find(self, hand_id: int, seat: int) -> None:
        with self.store.session() as session:
            session.add(HandReview(hand_id=hand_id, seat=seat, result=self.result, seconds=1.0))
        return None

    def submit(self, *args: Any) -> dict[str, Any]:
        raise AssertionError("a review already stored was queued again")


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_review_ending_as_it_is_asked_about_is_done(quick: TestClient, method: str) -> None:
    _, hands, _ = finished_match(quick)
    hand_id = hands[0]["id"]
    record = quick.get(f"/hands/{hand_id}/record").json()
    result = review_records([record], 1, think=None, samples=1, seed=0).to_json()
    app: Any = quick.app
    app.state.reviews = FinishingQueue(app.state.reviews, app.state.store, result)
    answer = getattr(quick, method)(f"/hands/{hand_id}/review", params={"seat": 1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "done" and answer.json()["result"] == result


def test_a_review_on_postgresql() -> None:
    with fresh_postgres_database() as url, no_rate_limit(), TestClient(app_on(url, QUICK)) as c:
        check_review_is_computed_and_cached(c)


def test_who_may_ask_and_bad_requests(quick: TestClient) -> None:
    # a match of two hands: the first is over, the second is being played
    code = new_room(quick, rules="huangyan", hands=2, seed=8, turn_seconds=60,
                    bots=[None, "random", "random", "random"])
    grant = take_seat(quick, code, 0, "p0")
    player = SeatClient(quick, code, grant["token"])
    player.connect()
    try:
        player.send({"type": "ready"})
        player.barrier()
        play([player], random.Random(8), until=lambda: player.hand == 2)
        hands = quick.get(f"/rooms/{code}/hands").json()
        first, second = hands[0]["id"], hands[1]["id"]
        assert hands[0]["finished"] and not hands[1]["finished"]
        mine = {"X-Seat-Token": grant["token"]}
        for method in (quick.get, quick.post):
            path = f"/hands/{first}/review"
            # no token, a wrong one, or the token of another seat: refused
            for seat, headers in ((0, None), (0, {"X-Seat-Token": "nope"}), (1, mine)):
                answer = method(path, params={"seat": seat}, headers=headers)
                assert answer.status_code == 403, answer.text
                assert f"only seat {seat}'s own player" in detail(answer)
            # bad requests: one clear line each
            for params, code_, words in (
                ({"seat": 4}, 422, "seat 4 is out of range: seats are 0-3"),
                ({"seat": "x"}, 422, "'x' is not a seat number"),
                ({}, 422, "say which seat"),
            ):
                answer = method(path, params=params, headers=mine)
                assert answer.status_code == code_ and words in detail(answer), answer.text
            answer = method(f"/hands/{second}/review", params={"seat": 0}, headers=mine)
            assert answer.status_code == 409 and "is not finished" in detail(answer)
            answer = method("/hands/987654/review", params={"seat": 0}, headers=mine)
            assert answer.status_code == 404 and detail(answer) == "no hand 987654"
        # the seat's own player may
        assert quick.get(f"/hands/{first}/review", params={"seat": 0},
                         headers=mine).json()["status"] == "none"
        started = quick.post(f"/hands/{first}/review", params={"seat": 0}, headers=mine)
        assert started.status_code == 202, started.text
        assert wait_done(quick, first, 0, headers=mine)[-1]["status"] == "done"
        # and the game went on untouched
        play([player], random.Random(9))
        assert player.finished and not player.errors
    finally:
        player.close()
    # once the match is over, anyone may ask for any seat
    assert quick.get(f"/rooms/{code}").json()["status"] == "finished"
    assert quick.get(f"/hands/{first}/review", params={"seat": 0}).json()["status"] == "done"
    answer = quick.post(f"/hands/{second}/review", params={"seat": 3})
    assert answer.status_code == 202, answer.text


def test_reviews_are_queued_one_at_a_time_and_bounded(tmp_path: Path) -> None:
    settings = ReviewSettings(think=None, samples=200, waiting=1, per_address=2)
    app = app_on(f"sqlite:///{tmp_path / 'b.db'}", settings)
    with no_rate_limit(), TestClient(app) as client:
        _, hands, _ = finished_match(client, rules="gb")
        hand_id = hands[0]["id"]
        path = f"/hands/{hand_id}/review"
        first = client.post(path, params={"seat": 0}).json()
        assert first["status"] in ("queued", "running")
        # the worker takes it (until then it fills the one waiting place)
        deadline = time.monotonic() + 30
        while client.get(path, params={"seat": 0}).json()["status"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        second = client.post(path, params={"seat": 1}).json()
        assert second["status"] == "queued" and second["ahead"] == 1
        # one at a time: the first runs, the second waits behind it
        assert client.get(path, params={"seat": 0}).json()["status"] == "running"
        assert client.get(path, params={"seat": 1}).json()["status"] == "queued"
        # asking again for one waiting is no new work
        assert client.post(path, params={"seat": 1}).json()["status"] == "queued"
        # this address has two: a third is refused
        refused = client.post(path, params={"seat": 2})
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert "your address has 2 reviews" in detail(refused)
        # another address finds the queue full
        other = TestClient(app, client=("10.0.0.2", 50000))
        full = other.post(path, params={"seat": 3})
        assert full.status_code == 503 and full.headers["Retry-After"]
        assert "the server has 1 reviews waiting" in detail(full)


def test_a_review_past_its_budget_is_stopped(tmp_path: Path) -> None:
    settings = ReviewSettings(think=None, samples=200, budget_seconds=2)
    with no_rate_limit(), TestClient(app_on(f"sqlite:///{tmp_path / 'c.db'}", settings)) as c:
        _, hands, _ = finished_match(c, rules="gb")
        hand_id = hands[0]["id"]
        start = time.monotonic()
        assert c.post(f"/hands/{hand_id}/review", params={"seat": 0}).status_code == 202
        final = wait_done(c, hand_id, 0, timeout=60)[-1]
        assert time.monotonic() - start < 30
        assert final["status"] == "failed" and final["result"] is None
        assert final["error"] == "the review took longer than the server's budget of 2 s"
        # asked again, it is tried again
        again = c.post(f"/hands/{hand_id}/review", params={"seat": 0})
        assert again.status_code == 202 and again.json()["status"] in ("queued", "running")


def test_the_worker_says_why_a_record_cannot_be_reviewed() -> None:
    record = review_hand_record()
    job = {"records": [record[:20]], "seat": 0, "think": None, "samples": 1, "seed": 0}
    done = subprocess.run([sys.executable, "-m", "majiang.review_worker"], input=json.dumps(job),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"error": "hand 1: the hand is not finished (a review needs its end)"}]


def review_hand_record() -> list[dict[str, Any]]:
    """The example hand of docs/review.md."""
    return load_record(Path(__file__).parent.parent / "docs/examples/review-hand.jsonl")


def first_hand(server: ThreadedServer, rules: str = "gb", seed: int = 12, hands: int = 1,
               turn_seconds: float = 30) -> tuple[int, str, str, ClientConnection]:
    """A match of a random player (seat 0) and three bots on a real server, played to the end
    of its first hand (of the match, with one hand): (the hand's id, the room's code, the
    seat's token, the player's open websocket, for the caller to close)."""
    room = server.http.post("/rooms", json={
        "rules": rules, "hands": hands, "seed": seed, "turn_seconds": turn_seconds,
        "bots": [None, "random", "random", "random"], "bot_seconds": 0, "next_seconds": 0,
    }).json()
    code = room["code"]
    token = server.http.post(f"/rooms/{code}/seats/0", json={"name": "p0"}).json()["token"]
    rng = random.Random(seed)
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}").__enter__()
    ws.send(json.dumps({"type": "ready"}))
    ended = False
    while not ended:
        frames = [json.loads(ws.recv(timeout=30))]
        with contextlib.suppress(TimeoutError):  # answer the newest question only
            while True:
                frames.append(json.loads(ws.recv(timeout=0.05)))
        latest = None
        for frame in frames:
            ended = ended or frame["type"] == "match_end" or (
                frame["type"] == "hand_end" and hands > 1)
            if frame.get("observation") is not None:
                latest = frame
        if not ended and latest is not None and latest["observation"]["legal_actions"]:
            ws.send(json.dumps({"type": "act", "action": choose(latest["observation"], rng),
                                "step": latest["step"]}))
    hand = server.http.get(f"/rooms/{code}/hands").json()[0]
    assert hand["finished"], hand
    return int(hand["id"]), code, token, ws


def play_one_hand(server: ThreadedServer) -> int:
    """A one-hand Guobiao match played to its end; returns the hand's id."""
    hand_id, _, _, ws = first_hand(server)
    ws.close()
    return hand_id


def answers_in(player: Player, seconds: float) -> int:
    """How many questions ``player``'s table asks and moves past in ``seconds``, each within a
    second (or the test fails)."""
    before = player.answered
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        player.answer(1.0)
    return player.answered - before


def test_a_running_review_slows_no_table(tmp_path: Path) -> None:
    server = ThreadedServer(tmp_path / "pace.db", rate=1000.0, burst=1000.0)
    # a Guobiao review of minutes, stopped by its budget: the other table is timed before,
    # while and after it runs, so that a change in the machine's load shows as such
    server.app.state.reviews.settings = ReviewSettings(budget_seconds=12)
    try:
        hand_id = play_one_hand(server)
        other = Player(server, random.Random(6))
        other.answer(5.0)
        before = answers_in(other, 3)
        path = f"/hands/{hand_id}/review"
        assert server.http.post(path, params={"seat": 0}).status_code == 202
        deadline = time.monotonic() + 10
        while server.http.get(path, params={"seat": 0}).json()["status"] != "running":
            assert time.monotonic() < deadline, "the review did not start"
            time.sleep(0.05)
        time.sleep(2)  # the child process is up and searching
        # the review searches; the other table keeps its pace
        beside = answers_in(other, 3)
        assert server.http.get(path, params={"seat": 0}).json()["status"] == "running"
        while (state := server.http.get(path, params={"seat": 0}).json())["status"] == "running":
            time.sleep(0.1)
        assert state["error"] == "the review took longer than the server's budget of 12 s", state
        after = answers_in(other, 3)
        print(f"answers in 3 s: {before} before, {beside} beside a review, {after} after")
        # (a review in a thread of the server, sharing its interpreter, took 40% off)
        assert beside > 20 and beside >= 0.8 * (before + after) / 2, (before, beside, after)
    finally:
        server.stop()


def test_majiang_serve_sets_the_review_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    import uvicorn

    started: dict[str, Any] = {}

    def run(server: uvicorn.Server, sockets: list[Any]) -> None:
        started["app"] = server.config.app
        for sock in sockets:
            sock.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    base = ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.db'}"]
    try:
        assert main([*base, "--review-think", "0", "--review-samples", "3",
                     "--review-budget", "60"]) == 0
    finally:
        gc.unfreeze()
    assert started["app"].state.review_settings == ReviewSettings(
        think=None, samples=3, budget_seconds=60)
    with pytest.raises(SystemExit) as usage:
        main([*base, "--review-samples", "0"])
    assert usage.value.code == 2
    assert "argument --review-samples: '0' is not a positive number" in capsys.readouterr().err
