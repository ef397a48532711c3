"""A match nobody is connected to does not play for ever: its bots stand in for the absent
players for ``unwatched_seconds`` (the grace and the take-over work as before), then it pauses,
bots and timers, until someone connects, a player or a spectator, and goes on from there."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from majiang.server import create_app
from majiang.server.limits import Limits
from majiang.server.room import RoomRuntime
from server_helpers import SeatClient, seated_and_gone

QUICK = Limits(min_turn_seconds=0.1, unwatched_seconds=0.5)


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


class Watcher:
    """A spectator that reads every frame (in a thread) until it leaves."""

    def __init__(self, client: TestClient, code: str) -> None:
        self.seat = SeatClient(client, code, None)
        self.seat.connect()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                frame = self.seat.ws.receive_json()
                if frame["type"] == "pong":
                    return

    def leave(self) -> None:
        self.seat.send({"type": "ping"})
        self.thread.join(10)
        self.seat.close()


def steps(runtime: RoomRuntime) -> tuple[int | None, int]:
    """Where the match is: the hand and the actions in it."""
    return runtime.hand_id, 0 if runtime.table is None else len(runtime.table.history)


def left_alone(client: TestClient, bot_seconds: float = 0.01) -> tuple[str, str, RoomRuntime]:
    """A long match of one person and three bots, fast (the test's spectators read every
    frame, and keep up with a bot move every ``bot_seconds``); the person says ready and leaves
    (a bot takes the seat at once)."""
    code, token = seated_and_gone(client, hands=64, turn_seconds=0.2, grace_seconds=0,
                                  bot_seconds=bot_seconds)
    runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
    return code, token, runtime


def test_a_match_nobody_watches_pauses_and_goes_on_when_someone_comes(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'u.db'}", limits=QUICK)) as client:
        code, token, runtime = left_alone(client)
        wait_for(lambda: runtime.seats[0].taken_over)
        wait_for(lambda: runtime.paused, 10)
        assert runtime.status == "playing" and runtime.table is not None
        assert runtime._timer is None  # no timer runs either
        where = steps(runtime)
        time.sleep(1.0)
        assert steps(runtime) == where  # not one move while paused
        # a spectator comes: the match goes on (bots and the seat played for Ann)
        spectator = Watcher(client, code)
        wait_for(lambda: steps(runtime) != where)
        assert not runtime.paused
        spectator.leave()
        wait_for(lambda: runtime.paused, 10)  # alone again: paused again
        where = steps(runtime)
        # Ann comes back: her seat is hers again, and she is asked (with her whole time)
        person = SeatClient(client, code, token)
        state = person.connect()
        assert state["status"] == "playing" and not runtime.paused

        def moved() -> bool:
            person.barrier()  # she reads what she is sent
            return steps(runtime) != where

        wait_for(moved)
        person.close()


def test_a_watched_match_does_not_pause(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}", limits=QUICK)) as client:
        code, _token, runtime = left_alone(client)
        spectator = Watcher(client, code)
        try:
            wait_for(lambda: runtime.seats[0].taken_over)
            where = steps(runtime)
            time.sleep(1.5)  # three times unwatched_seconds
            assert not runtime.paused and steps(runtime) != where
        finally:
            spectator.leave()


def test_after_a_restart_an_unwatched_match_plays_then_pauses(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(url, limits=QUICK)) as client:
        code, _token, runtime = left_alone(client, bot_seconds=0)  # at full speed
        wait_for(lambda: runtime.paused, 10)
        where = steps(runtime)
    with TestClient(create_app(url, limits=QUICK)) as client:  # nobody comes back
        runtime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
        wait_for(lambda: steps(runtime) != where)  # the bots go on for a while
        wait_for(lambda: runtime.paused, 10)
        where = steps(runtime)
        time.sleep(1.0)
        assert steps(runtime) == where


def listed(client: TestClient, code: str) -> dict[str, Any]:
    rooms: list[dict[str, Any]] = client.get("/rooms").json()
    return next(room for room in rooms if room["code"] == code)


def test_the_room_says_when_its_match_is_paused(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'v.db'}", limits=QUICK)) as client:
        code, _, runtime = left_alone(client)
        waiting = client.post("/rooms", json={}).json()["code"]
        assert client.get(f"/rooms/{code}").json()["paused"] is False
        assert listed(client, code)["paused"] is False
        wait_for(lambda: runtime.paused, 10)
        assert client.get(f"/rooms/{code}").json()["paused"] is True  # asking does not resume
        assert listed(client, code)["paused"] is True
        assert listed(client, waiting)["paused"] is False
        assert client.get(f"/rooms/{waiting}").json()["paused"] is False
        with client.websocket_connect(f"/ws/{code}") as ws:
            first = ws.receive_json()
            assert first["type"] == "welcome" and first["resumed"] is True
            state = ws.receive_json()
            assert state["view"]["paused"] is False
            assert client.get(f"/rooms/{code}").json()["paused"] is False
            assert listed(client, code)["paused"] is False
            with client.websocket_connect(f"/ws/{code}") as again:
                assert again.receive_json()["resumed"] is False  # it was going already
        wait_for(lambda: runtime.paused, 10)
        assert listed(client, code)["paused"] is True


def test_a_paused_match_dropped_from_memory_is_listed_paused(tmp_path: Path) -> None:
    limits = Limits(min_turn_seconds=0.1, unwatched_seconds=0.3, idle_seconds=0.3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}", limits=limits)) as client:
        code = left_alone(client)[0]
        rooms: Any = client.app.state.rooms  # type: ignore[attr-defined]
        wait_for(lambda: code not in rooms.live, 10)
        assert listed(client, code) == {**listed(client, code), "status": "playing",
                                        "paused": True}
        assert code not in rooms.live  # the list is read from the database
        assert client.get(f"/rooms/{code}").json()["paused"] is True  # read back paused
