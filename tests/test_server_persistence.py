"""Issue 6: a room survives closing the server and opening a new one on the same database.

Over SQLite and PostgreSQL: create a room, play some hands, close the app (its store with it),
open a new ``create_app`` on the same database: the state each seat is sent is the one it had, the
match goes on to its end, and the match history, the records (each replays with
``majiang.engine.record.replay`` to its hand's result) and the player statistics are right, and
stay so after one more reopening.

PostgreSQL: the URL comes from ``MAJIANG_TEST_POSTGRES`` (``.ci/postgres.sh`` starts a server and
prints it); each run works in a database of its own, created and dropped here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from majiang.engine.record import replay
from majiang.server import create_app
from majiang.server.room import RoomRuntime
from server_helpers import (
    SeatClient,
    fresh_postgres_database,
    new_room,
    no_rate_limit,
    play,
    take_seat,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'persist.db'}"
        return
    with fresh_postgres_database() as url:
        yield url


def runtime_of(client: TestClient, code: str) -> RoomRuntime:
    runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
    return runtime


def table_state(runtime: RoomRuntime) -> dict[str, Any]:
    """The room's state as the server holds it."""
    table = runtime.table
    assert table is not None and runtime.match is not None and runtime.spec is not None
    return {
        "hand": runtime.spec.number,
        "history": list(table.history),
        "census": table.tile_census(),
        "concealed": [list(c) for c in table.concealed],
        "events": list(table.events),
        "totals": list(runtime.match.totals),
        "results": [r.to_json() for r in runtime.match.results],
    }


def seat_view(frame: dict[str, Any]) -> dict[str, Any]:
    """A state frame without what may rightly differ after a restart (who is connected, the
    clock: a restart times every wait afresh)."""
    view = {k: v for k, v in frame["view"].items() if k != "seats"}
    seats = [{k: v for k, v in s.items() if k != "connected"} for s in frame["view"]["seats"]]
    clock = ("view", "now", "deadlines", "next_deadline")
    return {**{k: v for k, v in frame.items() if k not in clock}, "view": view, "seats": seats}


def check_history(client: TestClient, code: str, hands: int,
                  players: dict[int, int]) -> list[dict[str, Any]]:
    """The match history, the records and the player statistics agree with each other."""
    history = client.get(f"/rooms/{code}/hands").json()
    assert [h["number"] for h in history] == list(range(1, hands + 1))
    assert all(h["finished"] for h in history)
    for h in history:
        response = client.get(f"/hands/{h['id']}/record")
        assert response.status_code == 200
        lines = response.json()
        assert lines[-1] == {"result": h["result"]}
        table = replay(lines)
        assert table.result is not None and table.result.to_json() == h["result"]
        assert table.tile_census() == replay(lines, verify=False).tile_census()
    totals = [sum(h["result"]["deltas"][s] for h in history) for s in range(4)]
    assert client.get(f"/rooms/{code}").json()["totals"] == totals
    for seat, player_id in players.items():
        stats = client.get(f"/players/{player_id}/stats").json()
        results = [h["result"] for h in history]
        assert stats == {
            "player_id": player_id,
            "name": f"p{seat}",
            "hands": hands,
            "wins": sum(r["winner"] == seat for r in results),
            "self_drawn": sum(r["winner"] == seat and r["self_drawn"] for r in results),
            "deal_ins": sum(r["winner"] is not None and r["winner"] != seat
                            and r["discarder"] == seat for r in results),
            "points": totals[seat],
        }
    return list(history)


@pytest.mark.parametrize(("rules", "seed"), [("gb", 21), ("huangyan", 22)])
def test_room_survives_reopening(db_url: str, rules: str, seed: int) -> None:
    rng = random.Random(seed)
    hands, humans = 2, [0, 2]
    with no_rate_limit():
        # 1. a room, two people and two bots; play a hand and a part of the second
        with TestClient(create_app(db_url)) as client:
            code = new_room(client, rules=rules, hands=hands, seed=seed,
                            bots=[None, "random", None, None], grace_seconds=600,
                            turn_seconds=600)
            grants = {s: take_seat(client, code, s, f"p{s}") for s in humans}
            players = {s: g["player_id"] for s, g in grants.items()}
            seats = [SeatClient(client, code, grants[s]["token"]) for s in humans]
            for seat in seats:
                seat.connect()
                seat.send({"type": "ready"})
            runtime = runtime_of(client, code)
            play(seats, rng, until=lambda: runtime.spec is not None and runtime.spec.number == 2
                 and runtime.table is not None and len(runtime.table.history) >= 25)
            for seat in seats:
                seat.barrier()
            assert client.get(f"/rooms/{code}/hands").json()[0]["finished"]
            before_table = table_state(runtime)
            before = {}
            for seat in seats:
                seat.send({"type": "resync"})
                before[seat.seat] = seat_view(seat.barrier()[-1])
                assert before[seat.seat]["step"] == len(before_table["history"])
            history_before = client.get(f"/rooms/{code}/hands").json()
            for seat in seats:
                seat.close()

        # 2. a new application on the same database: the same state, and the match goes on
        with TestClient(create_app(db_url)) as client:
            assert client.get(f"/rooms/{code}").json()["status"] == "playing"
            assert client.get(f"/rooms/{code}/hands").json() == history_before
            runtime = runtime_of(client, code)
            assert table_state(runtime) == before_table
            seats = [SeatClient(client, code, grants[s]["token"]) for s in humans]
            try:
                for seat in seats:
                    state = seat.connect()
                    assert seat_view(state) == before[seat.seat]
                play(seats, rng)
                assert all(seat.totals == seats[0].totals for seat in seats)
                history = check_history(client, code, hands, players)
                assert [h["result"] for h in history[:1]] == [history_before[0]["result"]]
            finally:
                for seat in seats:
                    seat.close()

        # 3. once more: a finished match stays finished, with the same history and figures
        with TestClient(create_app(db_url)) as client:
            room = client.get(f"/rooms/{code}").json()
            assert room["status"] == "finished"
            assert room["totals"] == seats[0].totals
            assert check_history(client, code, hands, players) == history
            late = SeatClient(client, code, grants[0]["token"])
            assert late.connect()["status"] == "finished"
            late.close()
