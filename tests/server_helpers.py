"""Helpers for the in-process server tests (FastAPI's TestClient): seat clients that play legal
actions and know exactly when the server has finished with what they sent."""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import DBAPIError

from majiang.server import create_app
from majiang.server.clients import Client
from majiang.server.limits import UNLIMITED


@contextmanager
def no_rate_limit() -> Iterator[None]:
    """Lift the per-connection rate limit, which would otherwise pace the tests' clients."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "allow", lambda self, rate=20.0, burst=40.0: True)
        yield


def choose(obs: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A simple player: win when offered, otherwise any legal action."""
    legal: list[dict[str, Any]] = obs["legal_actions"]
    wins = [a for a in legal if a["type"] == "win"]
    return wins[0] if wins else rng.choice(legal)


def new_room(client: TestClient, **settings: Any) -> str:
    """A room; the tests' clients play at once: no beat between bot moves and no pause between
    hands unless asked for."""
    settings.setdefault("bot_seconds", 0)
    settings.setdefault("next_seconds", 0)
    response = client.post("/rooms", json=settings)
    assert response.status_code == 201, response.text
    return str(response.json()["code"])


def take_seat(client: TestClient, code: str, seat: int, name: str) -> dict[str, Any]:
    response = client.post(f"/rooms/{code}/seats/{seat}", json={"name": name})
    assert response.status_code == 201, response.text
    grant: dict[str, Any] = response.json()
    return grant


class SeatClient:
    """A websocket client of one seat (or a spectator, ``token=None``) in a TestClient."""

    def __init__(self, client: TestClient, code: str, token: str | None,
                 on_frame: Any = None) -> None:
        self.client, self.code, self.token = client, code, token
        self.on_frame = on_frame
        self.ws: Any = None
        self.seat: int | None = None
        self.latest: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.hand: int | None = None
        self.totals: list[int] = [0, 0, 0, 0]
        self.finished = False
        self.errors: list[str] = []
        self.frames: list[dict[str, Any]] = []

    def query(self) -> list[str]:
        """The websocket URL's query parameters (``name=value``)."""
        return [] if self.token is None else [f"token={self.token}"]

    def connect(self) -> dict[str, Any]:
        """Connect; returns the state frame."""
        query = "&".join(self.query())
        self.ws = self.client.websocket_connect(f"/ws/{self.code}" + (f"?{query}" if query else ""))
        self.ws.__enter__()
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        state = self.receive()
        assert state["type"] == "state", state
        return state

    def close(self) -> None:
        if self.ws is not None:
            self.ws.__exit__(None, None, None)
            self.ws = None

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        self.take(frame)
        return frame

    def take(self, frame: dict[str, Any]) -> None:
        assert frame["v"] == 1
        self.frames.append(frame)
        kind = frame["type"]
        if kind == "state":
            self.latest, self.hand = frame, frame["hand"]
            self.events = list(frame["events"])
            if frame["view"]["totals"] is not None:
                self.totals = list(frame["view"]["totals"])
            self.finished = frame["status"] == "finished"
        elif kind == "update":
            assert frame["hand"] == self.hand
            self.latest = frame
            self.events.extend(frame["events"])
        elif kind == "hand_end":
            self.totals = list(frame["totals"])
        elif kind == "match_end":
            self.finished = True
        elif kind == "error":
            self.errors.append(frame["message"])
        if self.on_frame is not None:
            self.on_frame(self, frame)

    def barrier(self) -> list[dict[str, Any]]:
        """Ping and read up to the pong: everything sent before (and the bots' moves that
        followed, played in the same handler) has been dealt with. Returns the frames read."""
        self.send({"type": "ping"})
        frames = []
        while True:
            frame = self.receive()
            if frame["type"] == "pong":
                return frames
            frames.append(frame)

    def to_answer(self) -> dict[str, Any] | None:
        frame = self.latest
        if self.finished or frame is None or frame.get("observation") is None:
            return None
        return frame if frame["observation"]["legal_actions"] else None

    def answer(self, rng: random.Random) -> dict[str, Any]:
        """Play a legal action for the latest frame and wait until it and what follows are done."""
        frame = self.to_answer()
        assert frame is not None
        action = choose(frame["observation"], rng)
        self.send({"type": "act", "action": action, "step": frame["step"]})
        frames = self.barrier()
        errors = [f for f in frames if f["type"] == "error"]
        assert not errors, errors
        return action


def seated_and_gone(client: TestClient, **settings: Any) -> tuple[str, str]:
    """A match of one person (seat 0) and three ``random`` bots with these room settings; the
    person says ready and leaves. Returns the room's code and the person's token."""
    code = new_room(client, bots=[None, "random", "random", "random"], **settings)
    token = take_seat(client, code, 0, "Ann")["token"]
    person = SeatClient(client, code, token)
    person.connect()
    person.send({"type": "ready"})
    person.barrier()
    person.close()
    return code, token


def play(seats: list[SeatClient], rng: random.Random, until: Any = None,
         limit: int = 100_000) -> None:
    """Let the seats answer until the match ends (or ``until()`` holds)."""
    for _ in range(limit):
        if until is not None and until():
            return
        for seat in seats:
            seat.barrier()
        waiting = [s for s in seats if s.to_answer() is not None]
        if not waiting:
            if all(s.finished for s in seats):
                return
            continue
        waiting[0].answer(rng)
    raise AssertionError("the match did not end")


class ThreadedServer:
    """The game server (``create_app`` on SQLite at ``db``) on a free loopback port, run by
    uvicorn in a background thread; ``url`` ends with a slash, ``http`` is a client of it;
    ``options`` go to ``create_app`` (no HTTP limits unless ``limits`` is given: the browser
    tests create many rooms from one address)."""

    def __init__(self, db: Path, **options: Any) -> None:
        options.setdefault("limits", UNLIMITED)
        self.app = create_app(f"sqlite:///{db}", **options)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="error")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{self.port}/"
        self.http = httpx.Client(base_url=self.url)

    def stop(self) -> None:
        """Close the client and stop the server."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database on the server of ``MAJIANG_TEST_POSTGRES``
    (skipped without it; in CI the skip fails the run), dropped afterwards."""

    base_url = os.environ.get("MAJIANG_TEST_POSTGRES")
    if not base_url:
        pytest.skip("MAJIANG_TEST_POSTGRES is not set (run `eval \"$(.ci/postgres.sh)\"` to "
                    "start a PostgreSQL server and set it)")
    base = make_url(base_url)
    name = f"majiang_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield base.set(database=name).render_as_string(hide_password=False)
        finally:
            drop_database(admin, name)
    finally:
        admin.dispose()


def drop_database(admin: Engine, name: str, seconds: float = 60.0) -> None:
    """Drop the database ``name``, retrying while something still holds it.

    ``WITH (FORCE)`` ends the tests' own lingering connections, but a role that is not a
    superuser may not end an autovacuum worker (PostgreSQL refuses with "must be a member of the
    role whose process is being terminated"); a plain ``DROP DATABASE`` asks such a worker to
    stop by itself. So the two are tried in turn until one succeeds."""
    deadline = time.monotonic() + seconds
    statements = (f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                  f'DROP DATABASE IF EXISTS "{name}"')
    attempt = 0
    while True:
        try:
            with admin.connect() as connection:
                connection.execute(text(statements[attempt % 2]))
            return
        except DBAPIError:
            if time.monotonic() > deadline:
                raise
            attempt += 1
            time.sleep(0.2)
