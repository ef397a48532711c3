"""Issue 6: dropped connections and silent seats.

A player whose connection drops keeps his seat for ``grace_seconds``; then a bot plays it, and
he takes it back by reconnecting with his token (the whole state is sent again). A seat that
does not answer within ``turn_seconds`` gets the default action (pass, or discard the drawn tile).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from majiang.engine.serialize import observation_to_json
from majiang.engine.table import Table, events_for
from majiang.server import create_app
from majiang.server.clients import default_action
from majiang.server.limits import Limits
from majiang.server.room import RoomRuntime
from server_helpers import SeatClient, new_room, no_rate_limit, take_seat


def runtime_of(client: TestClient, code: str) -> RoomRuntime:
    runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
    return runtime


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def seat_moves(runtime: RoomRuntime) -> tuple[int, int]:
    """(hand number, actions of seat 0 in it): how far seat 0 has played."""
    assert runtime.spec is not None and runtime.table is not None
    return runtime.spec.number, sum(1 for s, _ in runtime.table.history if s == 0)


def in_sync(seat: SeatClient, runtime: RoomRuntime) -> None:
    """The client's view is the server's current one."""
    table = runtime.table
    assert table is not None and seat.latest is not None and runtime.spec is not None
    assert seat.hand == runtime.spec.number
    assert seat.latest["step"] == len(table.history)
    assert seat.latest["observation"] == observation_to_json(table.observation(0))
    assert seat.events == events_for(table.events, 0)


def test_dropped_seat_is_played_by_a_bot_and_taken_back(tmp_path: Path) -> None:
    rng = random.Random(3)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}")) as client:
        code = new_room(client, rules="gb", hands=16, seed=31, grace_seconds=0.2,
                        turn_seconds=60, bots=[None, "random", "random", "random"])
        grant = take_seat(client, code, 0, "p0")
        seat = SeatClient(client, code, grant["token"])
        seat.connect()
        seat.send({"type": "ready"})
        seat.barrier()
        runtime = runtime_of(client, code)
        for _ in range(12):
            seat.answer(rng)
        assert seat.to_answer() is not None  # the table waits for seat 0

        # the connection drops: nothing happens during the grace period...
        seat.close()
        where = seat_moves(runtime)
        steps = len(runtime.table.history) if runtime.table else 0
        time.sleep(0.1)
        assert seat_moves(runtime) == where and not runtime.seats[0].taken_over
        assert client.get(f"/rooms/{code}").json()["seats"][0]["connected"] is False
        # ...then a bot plays the seat
        wait_for(lambda: runtime.seats[0].taken_over and seat_moves(runtime) != where)
        assert runtime.table is not None
        assert len(runtime.table.history) > steps or seat_moves(runtime)[0] > where[0]

        # he comes back: his seat, the whole state, and the table waits for him again
        again = SeatClient(client, code, grant["token"])
        state = again.connect()
        assert state["seat"] == 0 and state["status"] == "playing"
        again.barrier()
        assert not runtime.seats[0].taken_over
        assert runtime.status == "playing", "the match should still be on"
        in_sync(again, runtime)
        assert again.to_answer() is not None
        settled = len(runtime.table.history)
        time.sleep(0.3)  # longer than the grace: nobody plays for him now
        assert len(runtime.table.history) == settled
        assert client.get(f"/rooms/{code}").json()["seats"][0]["connected"] is True
        for _ in range(5):
            again.answer(rng)
            in_sync(again, runtime)
        again.close()


def test_reconnecting_within_the_grace_keeps_the_seat(tmp_path: Path) -> None:
    rng = random.Random(4)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        code = new_room(client, rules="huangyan", hands=4, seed=41, grace_seconds=0.4,
                        turn_seconds=60, bots=[None, "random", "random", "random"])
        grant = take_seat(client, code, 0, "p0")
        seat = SeatClient(client, code, grant["token"])
        seat.connect()
        seat.send({"type": "ready"})
        seat.barrier()
        runtime = runtime_of(client, code)
        for _ in range(6):
            seat.answer(rng)
        steps = len(runtime.table.history) if runtime.table else 0
        seat.close()
        time.sleep(0.1)
        again = SeatClient(client, code, grant["token"])
        again.connect()
        again.barrier()
        time.sleep(0.5)  # past the first grace period: it was called off
        assert not runtime.seats[0].taken_over
        assert runtime.table is not None and len(runtime.table.history) == steps
        in_sync(again, runtime)
        again.answer(rng)
        again.close()


def test_turn_timer_plays_the_default_action(tmp_path: Path) -> None:
    quick = Limits(min_turn_seconds=0.1)
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", limits=quick)) as client:
        code = new_room(client, rules="gb", hands=16, seed=51, grace_seconds=600,
                        turn_seconds=0.15, bots=[None, "random", "random", "random"])
        grant = take_seat(client, code, 0, "p0")
        seat = SeatClient(client, code, grant["token"])
        seat.connect()
        seat.send({"type": "ready"})
        runtime = runtime_of(client, code)
        # the seat stays connected and silent: the timer answers for it, again and again
        wait_for(lambda: runtime.spec is not None and seat_moves(runtime)[1] >= 4)
        assert runtime.seats[0].clients and not runtime.seats[0].taken_over
        table, spec, match = runtime.table, runtime.spec, runtime.match
        assert table is not None and spec is not None and match is not None
        history = list(table.history)
        check: Table = match.table(spec)
        timed = 0
        for who, action in history:
            if who == 0:
                assert action == default_action(check.observation(0))
                timed += 1
            check.apply(who, action)
        assert timed >= 4
        seat.barrier()  # the connection is still fine
        seat.close()
