"""Every wait for a person is timed, and the clock is the server's: the first decision of a hand,
after a claim, after a restart; between hands the next deal waits for everyone's ``next`` (or the
pause); frames carry the deadlines, so a reconnection continues the wait; away seats are shown;
bots move on a beat."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from majiang.engine.match import Match
from majiang.rules.registry import make_rules
from majiang.server import create_app
from majiang.server.limits import Limits
from majiang.server.room import RoomRuntime
from server_helpers import SeatClient, new_room, no_rate_limit, take_seat

SEED = 77
QUICK = Limits(min_turn_seconds=0.1)
"""A server that lets rooms set turn timers under a second (the tests' timers)."""


def first_dealer(seed: int) -> int:
    return Match(make_rules("gb"), seed, hands=4).first_dealer


def runtime_of(client: TestClient, code: str) -> RoomRuntime:
    runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
    return runtime


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def moves_of(runtime: RoomRuntime, seat: int) -> int:
    table = runtime.table
    return 0 if table is None else sum(1 for s, _ in table.history if s == seat)


def seated_room(client: TestClient, seat: int, **settings: Any) -> tuple[str, SeatClient]:
    """A room with a person at ``seat`` and bots elsewhere, the person connected and ready."""
    bots: list[str | None] = ["random"] * 4
    bots[seat] = None
    code = new_room(client, rules="gb", seed=SEED, bots=bots, **settings)
    grant = take_seat(client, code, seat, "Ann")
    person = SeatClient(client, code, grant["token"])
    person.connect()
    person.send({"type": "ready"})
    person.barrier()
    return code, person


def test_the_dealers_first_decision_is_timed(tmp_path: Path) -> None:
    dealer = first_dealer(SEED)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", limits=QUICK)) as client:
        code, person = seated_room(client, dealer, hands=4, turn_seconds=0.3, grace_seconds=600)
        runtime = runtime_of(client, code)
        assert runtime.table is not None and runtime.table.to_act() == [dealer]
        assert person.latest is not None and person.latest["deadlines"][dealer] is not None
        # nobody else is connected; the dealer says nothing: the timer plays for him
        wait_for(lambda: moves_of(runtime, dealer) >= 1, 5)
        person.close()


def test_a_wait_after_a_claim_is_timed(tmp_path: Path) -> None:
    seat = (first_dealer(SEED) + 1) % 4
    rng = random.Random(2)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}")) as client:
        code, person = seated_room(client, seat, hands=16, turn_seconds=2, grace_seconds=600)
        runtime = runtime_of(client, code)
        try:
            _claim_and_wait(runtime, person, seat, rng)
        finally:
            person.close()


def _claim_and_wait(runtime: RoomRuntime, person: SeatClient, seat: int,
                    rng: random.Random) -> None:
    """Play (at once) until offered a claim, claim, then wait for the timer's discard."""
    if True:
        for _ in range(2000):  # claim whenever offered, otherwise play on
            frame = person.to_answer()
            assert frame is not None
            legal = frame["observation"]["legal_actions"]
            claims = [a for a in legal if a["type"] in ("chow", "pung")]
            if claims:
                person.send({"type": "act", "action": claims[0], "step": frame["step"]})
                person.barrier()
                break
            person.answer(rng)
        else:
            raise AssertionError("never offered a claim")
        assert runtime.table is not None and runtime.table.to_act() == [seat]  # to discard
        before = moves_of(runtime, seat)
        person.send({"type": "resync"})  # a resync arms nothing new: the timer stands
        person.barrier()
        wait_for(lambda: moves_of(runtime, seat) > before, 5)


def test_after_a_restart_the_wait_is_timed_and_absent_players_are_replaced(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    dealer = first_dealer(SEED)
    with TestClient(create_app(url, limits=QUICK)) as client:
        code, person = seated_room(client, dealer, hands=4, turn_seconds=0.5, grace_seconds=0.3)
        person.close()
    with TestClient(create_app(url)) as client:  # nobody comes back
        runtime = runtime_of(client, code)
        wait_for(lambda: runtime.seats[dealer].taken_over, 5)
        wait_for(lambda: moves_of(runtime, dealer) >= 3, 10)


def test_a_reconnection_continues_the_wait(tmp_path: Path) -> None:
    dealer = first_dealer(SEED)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}")) as client:
        code, person = seated_room(client, dealer, hands=4, turn_seconds=30, grace_seconds=600)
        assert person.latest is not None
        deadline = person.latest["deadlines"][dealer]
        assert abs(deadline - person.latest["now"] - 30) < 1
        person.close()
        time.sleep(0.5)
        again = SeatClient(client, code, person.token)
        state = again.connect()
        assert state["deadlines"][dealer] == deadline  # not re-armed to the full 30 s
        assert state["deadlines"][:dealer] + state["deadlines"][dealer + 1:] == [None] * 3
        spectator = SeatClient(client, code, None)
        assert spectator.connect()["deadlines"][dealer] == deadline
        runtime = runtime_of(client, code)
        assert runtime._timer_at is not None
        assert abs(runtime._timer_at - time.monotonic() - (deadline - time.time())) < 0.1
        again.close()
        spectator.close()


def play_out_hand(person: SeatClient, rng: random.Random) -> dict[str, Any]:
    """Answer until the hand is over; returns the ``pause`` frame that follows it."""
    for _ in range(5000):
        pauses = [f for f in person.frames if f["type"] == "pause"]
        if pauses:
            return pauses[-1]
        if person.to_answer() is not None:
            person.answer(rng)
        else:
            person.barrier()
    raise AssertionError("the hand did not end")


def test_between_hands_the_deal_waits_for_next_and_no_clock_runs(tmp_path: Path) -> None:
    seat = first_dealer(SEED)
    rng = random.Random(8)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'n.db'}")) as client:
        code, person = seated_room(client, seat, hands=2, turn_seconds=600, grace_seconds=600,
                                   next_seconds=60)
        runtime = runtime_of(client, code)
        pause = play_out_hand(person, rng)
        assert pause["waiting"] == [seat]
        assert 55 < pause["next_deadline"] - pause["now"] <= 60
        assert pause["deadlines"] == [None] * 4  # no turn clock while the score sheet is open
        kinds = [f["type"] for f in person.frames]
        assert kinds.index("hand_end") < kinds.index("pause")
        time.sleep(0.3)
        assert runtime.spec is not None and runtime.spec.number == 1  # not dealt yet
        assert runtime._timer is None
        state = person.client.get(f"/rooms/{code}").json()
        assert state["hand"] == 1
        person.send({"type": "resync"})  # a reload during the pause: the same pause
        person.barrier()
        resync = [f for f in person.frames if f["type"] == "state"][-1]
        assert resync["next_deadline"] == pause["next_deadline"]
        person.send({"type": "next"})
        person.barrier()
        assert runtime.spec.number == 2 and runtime.pause_until is None
        person.send({"type": "next"})  # no hand is over now
        assert person.barrier()[-1]["type"] == "error"
        person.close()


def test_the_pause_ends_by_itself(tmp_path: Path) -> None:
    seat = first_dealer(SEED)
    rng = random.Random(9)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}")) as client:
        code, person = seated_room(client, seat, hands=2, turn_seconds=600, grace_seconds=600,
                                   next_seconds=0.5)
        runtime = runtime_of(client, code)
        play_out_hand(person, rng)
        ended = time.monotonic()
        assert runtime.spec is not None and runtime.spec.number == 1
        wait_for(lambda: runtime.spec is not None and runtime.spec.number == 2, 5)
        assert time.monotonic() - ended > 0.3
        person.close()


def test_away_seats_are_shown(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}")) as client:
        code, person = seated_room(client, 0, hands=4, turn_seconds=600, grace_seconds=0.2)
        runtime = runtime_of(client, code)
        spectator = SeatClient(client, code, None)
        spectator.connect()
        assert spectator.latest is not None
        seats = spectator.latest["view"]["seats"]
        assert [s["away"] for s in seats] == [False] * 4 and seats[0]["player"] == "Ann"
        person.close()
        wait_for(lambda: runtime.seats[0].taken_over, 5)
        assert client.get(f"/rooms/{code}").json()["seats"][0]["away"] is True
        rooms = [f for f in spectator.barrier() if f["type"] == "room"]
        assert rooms[-1]["view"]["seats"][0]["away"] is True
        assert rooms[-1]["view"]["seats"][0]["connected"] is False
        again = SeatClient(client, code, person.token)
        assert again.connect()["view"]["seats"][0]["away"] is False
        rooms = [f for f in spectator.barrier() if f["type"] == "room"]
        assert rooms[-1]["view"]["seats"][0] == {
            "seat": 0, "player": "Ann", "player_id": rooms[-1]["view"]["seats"][0]["player_id"],
            "bot": None, "ready": True, "connected": True, "away": False, "ready_by": None,
        }
        again.close()
        spectator.close()


def test_bots_move_on_a_beat(tmp_path: Path) -> None:
    seat = first_dealer(SEED)
    rng = random.Random(4)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}")) as client:
        _code, person = seated_room(client, seat, hands=4, turn_seconds=600, grace_seconds=600,
                                   bot_seconds=0.25)
        updates: list[float] = []
        answers: list[float] = []
        person.on_frame = lambda c, f: f["type"] == "update" and updates.append(time.monotonic())
        try:
            end = time.monotonic() + 4
            while time.monotonic() < end:
                if person.to_answer() is not None:
                    answers.append(time.monotonic())
                    person.answer(rng)
                else:
                    person.receive()
        finally:
            person.close()
        # two updates in a row with no answer of the person's between: two bot moves
        gaps = [b - a for a, b in itertools.pairwise(updates)
                if not any(a <= t <= b for t in answers)]
        assert len(gaps) >= 3, (updates, answers)
        assert min(gaps) > 0.2, gaps
