"""The real server killed with SIGKILL mid-hand loses nothing that was acknowledged.

``majiang serve`` runs as a subprocess on a SQLite file (and on a fresh PostgreSQL database).
Human seats are played by websocket clients (the ``websockets`` sync client) choosing legal
actions, bots sit elsewhere. At seeded random decision points the server is killed (SIGKILL),
either while idle (waiting for the humans) or with an action in flight; it is restarted on the
same database and the clients reconnect with their tokens. The state each seat is sent again
must be what it had seen before the kill (the observation, ``step``, the hand number, the events
of the hand, the running totals) for every action acknowledged (its update frame had arrived),
and the match then goes on to its end.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from majiang.engine.record import replay
from server_helpers import fresh_postgres_database

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
if not PYTHON.exists():
    PYTHON = Path(sys.executable)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``majiang serve`` as a subprocess, started and SIGKILLed on demand."""

    def __init__(self, db_url: str, log: Path) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.process is None
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(PYTHON), "-m", "majiang", "serve", "--port", str(self.port),
                 "--db", self.db_url],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.starts += 1
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.http + "/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        assert self.process.returncode == -signal.SIGKILL
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


def choose(obs: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A simple player: win when offered, otherwise any legal action."""
    legal: list[dict[str, Any]] = obs["legal_actions"]
    wins = [a for a in legal if a["type"] == "win"]
    return wins[0] if wins else rng.choice(legal)


class Seat:
    """One human seat's websocket client and what it has been told (acknowledged)."""

    def __init__(self, server: Server, code: str, seat: int, token: str) -> None:
        self.server, self.code, self.seat, self.token = server, code, seat, token
        self.ws: ClientConnection | None = None
        self.latest: dict[str, Any] | None = None
        """The last state or update frame: the seat's current view."""
        self.events: list[dict[str, Any]] = []
        """The events of the current hand as this seat was told them."""
        self.hand: int | None = None
        self.totals: list[int] = [0, 0, 0, 0]
        self.acted: int | None = None
        """The step of the frame answered last (None: nothing in flight)."""
        self.finished = False
        self.errors: list[str] = []
        self.pongs = 0
        self.tokens, self.refilled = 80.0, time.monotonic()

    def send(self, message: dict[str, Any]) -> None:
        """Send, keeping under the server's rate limit (50 messages a second, bursts of 100)."""
        assert self.ws is not None
        while True:
            now = time.monotonic()
            self.tokens = min(80.0, self.tokens + (now - self.refilled) * 45)
            self.refilled = now
            if self.tokens >= 1:
                break
            time.sleep((1 - self.tokens) / 45)
        self.tokens -= 1
        self.ws.send(json.dumps(message))

    def connect(self) -> dict[str, Any]:
        """(Re)connect with the token; returns the state frame."""
        self.ws = connect(f"{self.server.ws}/ws/{self.code}?token={self.token}",
                          open_timeout=10, max_size=1 << 22, legacy=True)
        welcome = json.loads(self.ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == self.seat, welcome
        state = json.loads(self.ws.recv(timeout=10))
        assert state["type"] == "state", state
        self.take(state)
        return state

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def take(self, frame: dict[str, Any]) -> None:
        """Note one frame from the server."""
        kind = frame["type"]
        assert frame["v"] == 1
        if kind == "state":
            self.latest, self.hand = frame, frame["hand"]
            self.events = list(frame["events"])
            if frame["view"]["totals"] is not None:
                self.totals = list(frame["view"]["totals"])
            self.acted = None
            if frame["status"] == "finished":
                self.finished = True
        elif kind == "update":
            assert frame["hand"] == self.hand, (frame["hand"], self.hand)
            assert self.latest is not None and frame["step"] > self.latest.get("step", -1)
            self.latest = frame
            self.events.extend(frame["events"])
        elif kind == "hand_end":
            assert frame["hand"] == self.hand
            self.totals = list(frame["totals"])
        elif kind == "match_end":
            self.finished = True
        elif kind == "error":
            message = frame["message"]
            self.errors.append(message)
            if not message.startswith("stale action"):
                raise AssertionError(f"seat {self.seat}: unexpected error {message!r}")
        elif kind == "pong":
            self.pongs += 1
        else:
            assert kind in ("welcome", "room"), frame

    def pump(self, timeout: float = 0.0) -> bool:
        """Read every frame that is there (waiting up to ``timeout`` for the first one)."""
        assert self.ws is not None
        got = False
        while True:
            try:
                text = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return got
            timeout = 0
            got = True
            frame = json.loads(text)
            self.take(frame)

    def barrier(self) -> None:
        """Ping and wait for the pong: the server has handled everything this client sent
        before, the bots' moves that followed included (they are played in the handler)."""
        assert self.ws is not None
        pongs = self.pongs
        self.send({"type": "ping"})
        while self.pongs == pongs:
            self.take(json.loads(self.ws.recv(timeout=10)))

    def drain_after_kill(self) -> None:
        """Read what had arrived before the server died, until the connection closes."""
        assert self.ws is not None
        try:
            while True:
                self.take(json.loads(self.ws.recv(timeout=10)))
        except ConnectionClosed:
            pass
        self.ws = None

    def to_answer(self) -> dict[str, Any] | None:
        """The frame to answer now, if the seat must act and has not answered it yet."""
        frame = self.latest
        if self.finished or frame is None or frame.get("observation") is None:
            return None
        if not frame["observation"]["legal_actions"] or frame["step"] == self.acted:
            return None
        return frame

    def answer(self, frame: dict[str, Any], rng: random.Random) -> None:
        action = choose(frame["observation"], rng)
        self.send({"type": "act", "action": action, "step": frame["step"]})
        self.acted = frame["step"]

    def snapshot(self) -> dict[str, Any]:
        """What this seat has been told: the acknowledged state."""
        assert self.latest is not None
        return {
            "hand": self.hand,
            "step": self.latest.get("step"),
            "observation": self.latest.get("observation"),
            "events": list(self.events),
            "totals": list(self.totals),
        }


def check_resync(before: dict[str, Any], state: dict[str, Any], exact: bool,
                 results: dict[int, dict[str, Any]]) -> None:
    """The state sent after the restart keeps everything acknowledged before the kill."""
    totals = state["view"]["totals"]
    if state["hand"] == before["hand"]:
        assert totals == before["totals"]
        assert state["step"] >= before["step"]
        assert state["events"][: len(before["events"])] == before["events"]
        if exact or state["step"] == before["step"]:
            assert state["step"] == before["step"]
            assert state["observation"] == before["observation"]
            assert state["events"] == before["events"]
    else:
        # the acknowledged action (or the bots after it) ended the hand, whose hand_end had
        # not arrived: the next hand is on, the totals count the finished one
        assert not exact
        assert state["hand"] == before["hand"] + 1 or state["status"] == "finished"
        deltas = results[before["hand"]]["deltas"]
        assert totals == [t + d for t, d in zip(before["totals"], deltas, strict=True)]


def play_with_kills(tmp_path: Path, rules: str, humans: list[int], hands: int, kills: int,
                    seed: int, db_url: str | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    server = Server(db_url or f"sqlite:///{tmp_path / 'x.db'}", tmp_path / "server.log")
    server.start()
    try:
        bots = ["random" if s % 2 else None for s in range(4)]  # odd seats random, even: fill
        for s in humans:
            bots[s] = None
        response = httpx.post(server.http + "/rooms", json={
            "rules": rules, "hands": hands, "seed": seed, "bots": bots,
            "turn_seconds": 120, "grace_seconds": 120, "bot_seconds": 0, "next_seconds": 0,
        })
        assert response.status_code == 201, response.text
        code = response.json()["code"]
        seats = []
        for s in humans:
            grant = httpx.post(f"{server.http}/rooms/{code}/seats/{s}", json={"name": f"p{s}"})
            assert grant.status_code == 201, grant.text
            seats.append(Seat(server, code, s, grant.json()["token"]))
        for seat in seats:
            seat.connect()
        for seat in seats:
            seat.send({"type": "ready"})

        decisions = 0
        planned = sorted(rng.sample(range(5, 60 * hands), kills))
        done = {"quiet": 0, "in_flight": 0}
        deadline = time.monotonic() + 120  # a loaded machine; a stuck match fails all the same
        while not all(seat.finished for seat in seats):
            assert time.monotonic() < deadline, "the match did not finish in time"
            busy = False
            for seat in seats:
                busy |= seat.pump(0.002)
            for seat in seats:
                frame = seat.to_answer()
                if frame is None or seat.hand is None:
                    continue
                decisions += 1
                if planned and decisions >= planned[0]:
                    planned.pop(0)
                    mode = ("quiet", "in_flight")[len(planned) % 2]
                    kill_and_resume(server, seats, seat, frame, mode, rng, code)
                    done[mode] += 1
                    busy = True
                    break
                seat.answer(frame, rng)
                busy = True
            if not busy:
                time.sleep(0.001)

        # the match is over and every hand is whole: records replay to their results
        hands_list = httpx.get(f"{server.http}/rooms/{code}/hands").json()
        assert len(hands_list) == hands and all(h["finished"] for h in hands_list)
        totals = [0, 0, 0, 0]
        for h in hands_list:
            lines = httpx.get(f"{server.http}/hands/{h['id']}/record").json()
            table = replay(lines)
            assert table.result is not None and table.result.to_json() == h["result"]
            totals = [t + d for t, d in zip(totals, h["result"]["deltas"], strict=True)]
        assert httpx.get(f"{server.http}/rooms/{code}").json()["totals"] == totals
        for seat in seats:
            assert seat.totals == totals
            seat.close()
        return {"kills": done, "starts": server.starts, "decisions": decisions}
    finally:
        for seat in seats if "seats" in locals() else []:
            with contextlib.suppress(Exception):
                seat.close()
        server.stop()


def kill_and_resume(server: Server, seats: list[Seat], seat: Seat, frame: dict[str, Any],
                    mode: str, rng: random.Random, code: str) -> None:
    """SIGKILL the server (idle, or with ``seat``'s answer in flight), restart, reconnect."""
    if mode == "quiet":
        # every answer sent so far and the bots' moves after it handled: the server is idle,
        # waiting for the humans; then whatever is still on its way to the clients
        for s in seats:
            s.barrier()
        for s in seats:
            s.pump(0.05)
        server.kill()
    else:
        seat.answer(frame, rng)
        time.sleep(rng.uniform(0, 0.004))
        server.kill()
    for s in seats:
        s.drain_after_kill()
    before = {s.seat: s.snapshot() for s in seats}
    server.start()
    results = {h["number"]: h["result"]
               for h in httpx.get(f"{server.http}/rooms/{code}/hands").json() if h["finished"]}
    for s in seats:
        state = s.connect()
        check_resync(before[s.seat], state, exact=mode == "quiet", results=results)


@pytest.mark.parametrize(
    ("rules", "humans", "hands", "kills", "seed"),
    [
        ("gb", [0], 2, 3, 11),
        ("gb", [1, 2], 1, 2, 12),
        ("huangyan", [2], 2, 3, 13),
        ("huangyan", [0, 3], 1, 2, 14),
    ],
)
def test_sigkill_mid_hand_loses_nothing_acknowledged(
    tmp_path: Path, rules: str, humans: list[int], hands: int, kills: int, seed: int
) -> None:
    outcome = play_with_kills(tmp_path, rules, humans, hands, kills, seed)
    assert sum(outcome["kills"].values()) == kills, outcome
    assert outcome["starts"] == kills + 1


@pytest.mark.parametrize(
    ("rules", "humans", "hands", "kills", "seed"),
    [("gb", [0, 2], 1, 3, 21), ("huangyan", [1], 1, 3, 22)],
)
def test_sigkill_on_postgresql_loses_nothing_acknowledged(
    tmp_path: Path, rules: str, humans: list[int], hands: int, kills: int, seed: int
) -> None:
    """The same on PostgreSQL: a killed server's open transaction is rolled back by the
    database, and what was committed before the acknowledgement is there after the restart."""
    with fresh_postgres_database() as url:
        outcome = play_with_kills(tmp_path, rules, humans, hands, kills, seed, db_url=url)
    assert sum(outcome["kills"].values()) == kills, outcome
    assert outcome["starts"] == kills + 1


def test_oversized_frame_closes_cleanly_and_server_lives(tmp_path: Path) -> None:
    """A frame over uvicorn's limit (64 KiB) closes that connection (1009); the server lives."""
    server = Server(f"sqlite:///{tmp_path / 'y.db'}", tmp_path / "server.log")
    server.start()
    try:
        code = httpx.post(server.http + "/rooms", json={"rules": "gb"}).json()["code"]
        with connect(f"{server.ws}/ws/{code}") as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
            ws.send("x" * 100_000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(f"{server.ws}/ws/{code}") as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            ws.recv(timeout=5)
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=5))["type"] == "pong"
        assert server.process is not None and server.process.poll() is None
    finally:
        server.stop()
