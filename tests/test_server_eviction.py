"""Memory is bounded: rooms nobody uses are dropped from memory after ``idle_seconds`` (finished
rooms, waiting rooms with no seat to free, paused matches) and read again from the database on
demand, the same room as before; at most ``live_rooms`` are held; and reading a big finished
room is done off the event loop, so that another table keeps its pace meanwhile."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from majiang.bots import make_bot
from majiang.engine.actions import action_to_json
from majiang.engine.match import Match, play_hand
from majiang.rules.registry import make_rules, rules_options
from majiang.server import create_app
from majiang.server.limits import Limits
from majiang.server.models import ActionRow, HandRow, MatchRow, Room, Seat
from majiang.server.room import RoomRuntime
from majiang.server.store import Store, new_code
from server_helpers import SeatClient, new_room, no_rate_limit, play, seated_and_gone, take_seat

QUICK = Limits(min_turn_seconds=0.1, unwatched_seconds=0.3, idle_seconds=0.5)
UNHURRIED = Limits(room_rate=1e9, room_burst=1e9, seat_rate=1e9, seat_burst=1e9,
                   rooms_per_address=10**9)


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def live(client: TestClient) -> dict[str, RoomRuntime]:
    rooms: dict[str, RoomRuntime] = client.app.state.rooms.live  # type: ignore[attr-defined]
    return rooms


def without_clock(frame: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in frame.items() if k not in ("now", "deadlines", "next_deadline")}


def test_a_finished_room_is_dropped_and_read_again_the_same(tmp_path: Path) -> None:
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'f.db'}",
                                                limits=QUICK)) as client:
        code = new_room(client, hands=1, turn_seconds=30, bots=[None, "random", "random", "fan"])
        person = SeatClient(client, code, take_seat(client, code, 0, "Ann")["token"])
        person.connect()
        person.send({"type": "ready"})
        play([person], random.Random(3))
        person.close()
        view = client.get(f"/rooms/{code}").json()
        hands = client.get(f"/rooms/{code}/hands").json()
        record = client.get(f"/hands/{hands[0]['id']}/record").json()
        watcher = SeatClient(client, code, None)
        seen = without_clock(watcher.connect())
        watcher.close()
        assert view["status"] == "finished"
        wait_for(lambda: code not in live(client))
        assert client.get(f"/rooms/{code}").json() == view  # read again on demand
        assert client.get(f"/rooms/{code}/hands").json() == hands
        assert client.get(f"/hands/{hands[0]['id']}/record").json() == record
        again = SeatClient(client, code, None)
        assert without_clock(again.connect()) == seen  # the same observation and result
        again.close()


def test_a_paused_match_is_dropped_and_goes_on_where_it_was(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", limits=QUICK)) as client:
        code, token = seated_and_gone(client, hands=64, turn_seconds=0.2, grace_seconds=0)
        old = live(client)[code]
        wait_for(lambda: old.paused)
        wait_for(lambda: code not in live(client))
        assert old.evicted and old.table is not None
        expected = without_clock(old.state_frame(0))
        back = SeatClient(client, code, token)
        state = back.connect()  # read again: the seat, the hand and the step as they were
        assert without_clock(state) == {**expected, "view": state["view"]}
        assert state["view"]["seats"] == expected["view"]["seats"][:0] + state["view"]["seats"]
        assert state["step"] == len(old.table.history) and state["hand"] == old.spec.number
        runtime = live(client)[code]
        assert runtime is not old and not runtime.paused  # and it goes on

        def moved() -> bool:
            back.barrier()
            return runtime.table is not None and (runtime.hand_id, len(runtime.table.history)) \
                != (old.hand_id, len(old.table.history))

        wait_for(moved)
        back.close()


def test_a_waiting_room_with_a_seat_to_free_stays_in_memory(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}", limits=QUICK)) as client:
        empty = new_room(client)
        seated = new_room(client, ready_seconds=1.5)
        take_seat(client, seated, 0, "Ann")
        wait_for(lambda: empty not in live(client))
        assert seated in live(client)  # its ready timeout must fire
        wait_for(lambda: client.get("/rooms").json()[0]["open_seats"] == [0, 1, 2, 3])
        wait_for(lambda: seated not in live(client))  # freed: now it may go


def test_the_rooms_held_in_memory_are_capped(tmp_path: Path) -> None:
    limits = Limits(room_rate=1e9, room_burst=1e9, seat_rate=1e9, seat_burst=1e9,
                    rooms_per_address=10**9, live_rooms=2, idle_seconds=1e9)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", limits=limits)) as client:
        first, second, third = (new_room(client) for _ in range(3))
        assert set(live(client)) == {second, third}  # the least recently used went
        assert client.get(f"/rooms/{first}").json()["code"] == first  # read again
        assert set(live(client)) == {first, third}
        watchers = [SeatClient(client, code, None) for code in (first, third)]
        for watcher in watchers:
            watcher.connect()
        refused = client.get(f"/rooms/{second}")  # both held rooms are in use
        assert refused.status_code == 503 and "rooms in play" in refused.json()["detail"]
        assert refused.headers["retry-after"] == "60"
        count = len(client.get("/rooms").json())
        assert client.post("/rooms", json={}).status_code == 503
        assert len(client.get("/rooms").json()) == count  # nothing created
        for watcher in watchers:
            watcher.close()
        assert client.get(f"/rooms/{second}").status_code == 200


BIG_MATCH = 144
"""Hands of the finished room whose reading must not stall another table: enough that the
read takes well over 0.2 s even on an idle, fast machine (48 hands took 0.19-0.25 s here)."""


def finished_room(store: Store, hands: int, seed: int = 5) -> str:
    """A finished bots' match of ``hands`` hands written straight into the database (as a
    server would have); its code."""
    rules = make_rules("gb", {})
    match = Match(rules, seed, hands=hands)
    agents = [make_bot("random", seat) for seat in range(4)]
    code = new_code()
    with store.session() as session:
        room = Room(code=code, rules="gb", options=rules_options(rules), hands=hands, seed=seed,
                    status="finished")
        session.add(room)
        session.flush()
        session.add_all(Seat(room_id=room.id, seat=seat, bot="random") for seat in range(4))
        row = MatchRow(room_id=room.id, seed=seed, totals=[0] * 4, bullets=[0] * 4,
                       status="finished")
        session.add(row)
        session.flush()
        for spec in match.specs():
            table = match.table(spec)
            result = play_hand(table, agents)
            match.record(result)
            hand = HandRow(match_id=row.id, number=spec.number, seed=spec.seed,
                           dealer=spec.dealer, prevalent_wind=spec.prevalent_wind,
                           dealer_count=spec.dealer_count, thrown=list(spec.thrown),
                           players=[None] * 4, result=result.to_json())
            session.add(hand)
            session.flush()
            session.add_all(ActionRow(hand_id=hand.id, index=i, seat=seat,
                                      action=action_to_json(action))
                            for i, (seat, action) in enumerate(table.history))
        row.totals, row.bullets = list(match.totals), list(match.bullets)
    return code


def test_reading_a_big_finished_room_does_not_stall_another_table(tmp_path: Path) -> None:
    """Every table's pace is the event loop's: while a big finished room is read, the loop
    goes on answering (a task that sleeps a millisecond at a time is never held up long)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", limits=UNHURRIED)) as client:
        big = finished_room(client.app.state.store, hands=BIG_MATCH)  # type: ignore[attr-defined]
        lags: list[float] = []

        async def beat() -> None:  # another table's moves, as often as the loop allows
            while True:
                start = time.perf_counter()
                await asyncio.sleep(0.001)
                lags.append(time.perf_counter() - start)

        beating = client.portal.start_task_soon(beat)  # type: ignore[union-attr]
        time.sleep(0.2)
        gc.collect()  # as `majiang serve` does at start: the full collections stay short
        gc.freeze()
        try:
            time.sleep(0.05)  # the beat held up by the collection is not counted
            lags.clear()
            start = time.perf_counter()
            view = client.get(f"/rooms/{big}").json()
            took = time.perf_counter() - start
        finally:
            gc.unfreeze()
            beating.cancel()
        assert view["status"] == "finished" and view["hand"] == BIG_MATCH
        assert took > 0.2, took  # a read long enough to be felt if it were on the loop
        assert lags and max(lags) < took / 3, (max(lags), took, len(lags))
