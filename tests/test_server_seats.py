"""No seat can be squatted: a seat whose person is not ready within the room's ``ready_seconds``
is freed (its token dead, its connection closed, the others told), counting from when it was
taken even over a restart; the room's creator, with the token the creation answer carries, frees
any person's seat before the match starts."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from majiang.server import create_app
from majiang.server.limits import UNLIMITED
from server_helpers import SeatClient, take_seat

BOTS: list[str | None] = [None, None, "random", "random"]


def app(tmp_path: Path, name: str = "s.db") -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / name}", limits=UNLIMITED))


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    settings.setdefault("bot_seconds", 0)
    settings.setdefault("next_seconds", 0)
    response = client.post("/rooms", json={"bots": BOTS, **settings})
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    return room


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def closed_with(seat: SeatClient) -> tuple[int, str]:
    """Read frames until the server closes the connection; its code and reason."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(100):
            seat.receive()
    seat.close()
    return closed.value.code, closed.value.reason


def refused_token(client: TestClient, code: str, token: str) -> int:
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return closed.value.code


def test_a_seat_not_ready_in_time_is_freed_and_everyone_is_told(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        room = create(client, ready_seconds=0.6)
        assert room["ready_seconds"] == 0.6
        code = room["code"]
        ann = take_seat(client, code, 0, "Ann")
        bo = take_seat(client, code, 1, "Bo")
        seats = client.get(f"/rooms/{code}").json()["seats"]
        assert seats[1]["ready_by"] == pytest.approx(time.time() + 0.6, abs=0.5)
        ann_ws = SeatClient(client, code, ann["token"])
        ann_ws.connect()
        ann_ws.send({"type": "ready"})
        ann_ws.barrier()
        assert client.get(f"/rooms/{code}").json()["seats"][0]["ready_by"] is None  # ready
        bo_ws = SeatClient(client, code, bo["token"])
        bo_ws.connect()
        reason = "seat 1 was freed: not ready within 0.6 s"
        assert closed_with(bo_ws) == (4401, reason)
        assert reason in bo_ws.errors
        assert refused_token(client, code, bo["token"]) == 4401  # the token is dead
        # Ann was told, and with every person left ready, the match starts
        wait_for(lambda: client.get(f"/rooms/{code}").json()["status"] == "playing")
        ann_ws.barrier()
        told = [f["view"] for f in ann_ws.frames if f["type"] == "state"][-1]
        assert told["status"] == "playing" and told["seats"][1]["player"] is None
        view = client.get(f"/rooms/{code}").json()
        assert view["status"] == "playing" and view["seats"][1]["player"] is None
        assert view["seats"][1]["bot"] == "efficient"  # filled at the start like any empty seat
        ann_ws.close()


def test_the_ready_timeout_counts_from_the_seating_over_a_restart(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        code = create(client, ready_seconds=3)["code"]
        seated = time.time()
        take_seat(client, code, 0, "Ann")
        ready_by = client.get(f"/rooms/{code}").json()["seats"][0]["ready_by"]
        assert ready_by == pytest.approx(seated + 3, abs=0.5)
    time.sleep(max(0.0, seated + 2 - time.time()))
    with app(tmp_path) as client:  # nobody asks for the room: the restart watches it anyway
        listed = client.get("/rooms").json()
        assert listed[0]["open_seats"] == [1]
        assert client.get(f"/rooms/{code}").json()["seats"][0]["ready_by"] == ready_by
        wait_for(lambda: client.get("/rooms").json()[0]["open_seats"] == [0, 1], 10)
        freed = time.time()
    assert freed < seated + 3 + 2  # not 3 s after the restart (seated + 5)


def test_the_creator_frees_a_seat_before_the_match_and_only_the_creator(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        room = create(client)
        code, creator = room["code"], room["creator_token"]
        assert "creator_token" not in client.get(f"/rooms/{code}").json()
        engine = create_engine(f"sqlite:///{tmp_path / 's.db'}")
        with engine.connect() as connection:
            stored = connection.execute(text("SELECT creator_token_hash FROM rooms")).scalar()
        engine.dispose()
        assert stored == hashlib.sha256(creator.encode()).hexdigest()  # only its hash is kept
        bo = take_seat(client, code, 1, "Bo")
        bo_ws = SeatClient(client, code, bo["token"])
        bo_ws.connect()
        url = f"/rooms/{code}/seats/1"
        assert client.delete(url).status_code == 403
        assert client.delete(url, headers={"X-Creator-Token": bo["token"]}).status_code == 403
        other = create(client)["creator_token"]  # another room's creator is no creator here
        assert client.delete(url, headers={"X-Creator-Token": other}).status_code == 403
        assert client.get(f"/rooms/{code}").json()["seats"][1]["player"] == "Bo"
        assert client.delete(url, headers={"X-Creator-Token": creator}).status_code == 204
        assert closed_with(bo_ws) == (4401, "seat 1 was freed: freed by the room's creator")
        assert client.get(f"/rooms/{code}").json()["seats"][1]["player"] is None
        assert refused_token(client, code, bo["token"]) == 4401
        empty = client.delete(url, headers={"X-Creator-Token": creator})
        assert empty.status_code == 409 and "no person sits at seat 1" in empty.text
        bot = client.delete(f"/rooms/{code}/seats/2", headers={"X-Creator-Token": creator})
        assert bot.status_code == 409
        # once the match has started, no seat is freed
        ann = take_seat(client, code, 0, "Ann")
        ann_ws = SeatClient(client, code, ann["token"])
        ann_ws.connect()
        ann_ws.send({"type": "ready"})
        ann_ws.barrier()
        assert client.get(f"/rooms/{code}").json()["status"] == "playing"
        started = client.delete(f"/rooms/{code}/seats/0", headers={"X-Creator-Token": creator})
        assert started.status_code == 409
        assert client.get(f"/rooms/{code}").json()["seats"][0]["player"] == "Ann"
        ann_ws.close()


def seat_in_db(tmp_path: Path, seat: int) -> Any:
    engine = create_engine(f"sqlite:///{tmp_path / 's.db'}")
    with engine.connect() as connection:
        player = connection.execute(
            text("SELECT player_id FROM seats WHERE seat = :seat"), {"seat": seat}).scalar()
    engine.dispose()
    return player


def evicted_on_the_way(client: TestClient, times: int) -> list[Any]:
    """Make the next ``times`` requests for a room find it dropped from memory between the
    moment they get it and the moment they hold its lock (the room is read back meanwhile, as
    another request would); returns the stale rooms they got."""
    rooms: Any = client.app.state.rooms  # type: ignore[attr-defined]
    real_get = rooms.get
    stale: list[Any] = []

    async def get(code: str) -> Any:
        runtime = await real_get(code)
        if len(stale) < times:
            rooms._evict(runtime)
            stale.append(runtime)
            await real_get(code)  # the room as read back is live now
        return runtime

    rooms.get = get
    return stale


def test_the_creator_frees_a_seat_of_a_room_dropped_from_memory(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        room = create(client)
        code, creator = room["code"], room["creator_token"]
        take_seat(client, code, 1, "Bo")
        rooms: Any = client.app.state.rooms  # type: ignore[attr-defined]
        old = rooms.live[code]
        client.portal.call(rooms._evict, old)  # type: ignore[union-attr]
        assert code not in rooms.live
        freed = client.delete(f"/rooms/{code}/seats/1", headers={"X-Creator-Token": creator})
        assert freed.status_code == 204  # on the room read back
        assert client.get(f"/rooms/{code}").json()["seats"][1]["player"] is None
        assert rooms.live[code] is not old and seat_in_db(tmp_path, 1) is None


def test_a_seat_freed_while_the_room_is_dropped_is_freed_in_the_room_read_back(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        room = create(client)
        code, creator = room["code"], room["creator_token"]
        bo = take_seat(client, code, 1, "Bo")
        stale = evicted_on_the_way(client, 1)
        freed = client.delete(f"/rooms/{code}/seats/1", headers={"X-Creator-Token": creator})
        assert freed.status_code == 204
        assert stale[0].seats[1].name == "Bo"  # nothing done on the room dropped
        assert client.get(f"/rooms/{code}").json()["seats"][1]["player"] is None
        assert seat_in_db(tmp_path, 1) is None
        assert refused_token(client, code, bo["token"]) == 4401


def test_a_room_dropped_again_and_again_is_a_503_and_nothing_changes(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        room = create(client)
        code, creator = room["code"], room["creator_token"]
        take_seat(client, code, 1, "Bo")
        evicted_on_the_way(client, 100)
        freed = client.delete(f"/rooms/{code}/seats/1", headers={"X-Creator-Token": creator})
        assert freed.status_code == 503 and freed.headers["Retry-After"] == "1"
        assert "try again" in freed.json()["detail"]
        taken = client.post(f"/rooms/{code}/seats/0", json={"name": "Cy"})
        assert taken.status_code == 503 and taken.headers["Retry-After"] == "1"
        assert seat_in_db(tmp_path, 1) is not None and seat_in_db(tmp_path, 0) is None


def test_a_seat_taken_while_the_room_is_dropped_is_taken_in_the_room_read_back(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        code = create(client)["code"]
        stale = evicted_on_the_way(client, 1)
        cy = take_seat(client, code, 0, "Cy")
        assert stale[0].seats[0].name is None
        assert client.get(f"/rooms/{code}").json()["seats"][0]["player"] == "Cy"
        with client.websocket_connect(f"/ws/{code}?token={cy['token']}") as ws:
            assert ws.receive_json()["type"] == "welcome"


def test_the_ready_timeout_of_a_room_dropped_is_left_to_the_room_read_back(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        code = create(client, ready_seconds=300)["code"]
        take_seat(client, code, 1, "Bo")
        rooms: Any = client.app.state.rooms  # type: ignore[attr-defined]
        old = rooms.live[code]
        client.portal.call(rooms._evict, old)  # type: ignore[union-attr]
        late = time.time() + 400
        assert client.portal.call(old.free_overdue, late) == []  # type: ignore[union-attr]
        assert seat_in_db(tmp_path, 1) is not None and old.seats[1].name == "Bo"
        client.get(f"/rooms/{code}")  # read back
        client.portal.call(rooms.keep_once, late)  # type: ignore[union-attr]
        assert seat_in_db(tmp_path, 1) is None
        assert client.get(f"/rooms/{code}").json()["seats"][1]["player"] is None
