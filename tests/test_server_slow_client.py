"""A client that never reads cannot slow any table: frames wait in its bounded queue, its own
writer sends them with a timeout, and it is dropped when it falls too far behind; resyncs are
rate-limited. Against a real server on loopback (TCP back-pressure is the point)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from majiang.server import clients
from majiang.server.clients import Client
from server_helpers import ThreadedServer, choose


def _masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


class Flooder:
    """A spectator on a socket with a tiny receive buffer that sends ``resync`` as fast as it
    may and never reads a byte."""

    def __init__(self, port: int, code: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.sent = 0
        self.cut_off: float | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        frame = _masked_text_frame(json.dumps({"type": "resync"}))
        while not self.stop.is_set():
            try:
                self.sock.sendall(frame)
            except OSError:  # the server dropped us
                self.cut_off = time.monotonic()
                return
            self.sent += 1
            time.sleep(0.002)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


class Player:
    """Seat 0 of a room with three bots, answering every question at once."""

    def __init__(self, server: ThreadedServer, rng: random.Random) -> None:
        room = server.http.post("/rooms", json={
            "rules": "gb", "hands": 64, "bots": [None, "random", "random", "random"],
            "bot_seconds": 0, "next_seconds": 0,
        }).json()
        self.code = room["code"]
        token = server.http.post(f"/rooms/{self.code}/seats/0", json={"name": "p"}).json()["token"]
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/{self.code}"
                                            f"?token={token}").__enter__()
        self.rng = rng
        self.latest: dict[str, Any] | None = None
        self.ws.send(json.dumps({"type": "ready"}))
        self.answered = 0

    def frame(self, timeout: float) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame.get("observation") is not None:
            self.latest = frame
        return frame

    def answer(self, timeout: float) -> None:
        """Answer the question standing (reading frames until there is one) and wait for the
        table to move past it; fails if that takes longer than ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.latest is None or not self.latest["observation"]["legal_actions"]:
            self.frame(max(0.01, deadline - time.monotonic()))
            with contextlib.suppress(TimeoutError):  # the newest frame: the question standing
                while True:
                    self.frame(0.05)
        frame = self.latest
        action = choose(frame["observation"], self.rng)
        self.ws.send(json.dumps({"type": "act", "action": action, "step": frame["step"]}))
        self.latest = None
        while self.latest is None or self.latest["observation"] is frame["observation"]:
            reply = self.frame(max(0.01, deadline - time.monotonic()))
            assert reply["type"] != "error", reply
        self.answered += 1


def test_a_client_that_never_reads_slows_no_table(tmp_path: Path) -> None:
    server = ThreadedServer(tmp_path / "s.db", rate=1000.0, burst=1000.0)
    rng = random.Random(5)
    try:
        attacked, other = Player(server, rng), Player(server, rng)
        for player in (attacked, other):
            player.answer(5.0)
        flooder = Flooder(server.port, attacked.code)
        try:
            # the attack runs; both tables keep their pace: every answer is taken and the
            # table moves on within a second
            end = time.monotonic() + 6
            while time.monotonic() < end:
                attacked.answer(1.0)
                other.answer(1.0)
            assert attacked.answered > 30 and other.answered > 30
            assert flooder.sent > 500
        finally:
            flooder.close()
        # and a new spectator still gets in at once
        with connect(f"ws://127.0.0.1:{server.port}/ws/{attacked.code}") as spectator:
            assert json.loads(spectator.recv(timeout=2))["type"] == "welcome"
            assert json.loads(spectator.recv(timeout=2))["type"] == "state"
    finally:
        server.stop()


def test_resyncs_are_rate_limited(tmp_path: Path) -> None:
    server = ThreadedServer(tmp_path / "r.db")
    try:
        code = server.http.post("/rooms", json={"rules": "gb"}).json()["code"]
        with connect(f"ws://127.0.0.1:{server.port}/ws/{code}") as ws:
            ws.recv(timeout=2), ws.recv(timeout=2)  # welcome, state
            for _ in range(3):
                ws.send(json.dumps({"type": "resync"}))
            kinds = [json.loads(ws.recv(timeout=2))["type"] for _ in range(3)]
            assert kinds == ["state", "error", "error"]
            time.sleep(0.6)
            ws.send(json.dumps({"type": "resync"}))
            assert json.loads(ws.recv(timeout=2))["type"] == "state"
    finally:
        server.stop()


def test_a_client_whose_sends_stall_is_dropped_after_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clients, "SEND_TIMEOUT", 0.05)
    stalled = asyncio.Event()

    async def never(text: str) -> None:
        stalled.set()
        await asyncio.Event().wait()

    async def scenario() -> Client:
        client = Client(0, never)
        writer = asyncio.create_task(client.write())
        client.push("x")
        await asyncio.wait_for(writer, 2)  # the writer ends: the client is dropped
        return client

    client = asyncio.run(scenario())
    assert stalled.is_set() and client.dropped == "a frame was not read in time"
    client.push("more")  # a dropped client takes nothing more
    assert not client.queue


def test_the_send_timeout_is_per_frame_not_per_run_of_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clients, "SEND_TIMEOUT", 0.05)
    sent: list[str] = []

    async def slowish(text: str) -> None:
        await asyncio.sleep(0.02)
        sent.append(text)

    async def scenario() -> Client:
        client = Client(0, slowish)
        writer = asyncio.create_task(client.write())
        for n in range(8):  # 0.16 s of sends in all, each well within the timeout
            client.push(str(n))
        while len(sent) < 8 and not writer.done():
            await asyncio.sleep(0.01)
        client.close(1000, "bye")
        await asyncio.wait_for(writer, 2)
        return client

    client = asyncio.run(scenario())
    assert sent == [str(n) for n in range(8)] and client.dropped == "closed"


def test_a_send_that_stalls_after_quick_ones_is_dropped_after_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clients, "SEND_TIMEOUT", 0.05)
    sent: list[str] = []

    async def stalls_at_the_fourth(text: str) -> None:
        if len(sent) == 3:
            await asyncio.Event().wait()
        await asyncio.sleep(0.02)
        sent.append(text)

    async def scenario() -> tuple[Client, float]:
        client = Client(0, stalls_at_the_fourth)
        writer = asyncio.create_task(client.write())
        started = time.monotonic()
        for n in range(5):
            client.push(str(n))
        await asyncio.wait_for(writer, 2)
        return client, time.monotonic() - started

    client, took = asyncio.run(scenario())
    assert sent == ["0", "1", "2"] and client.dropped == "a frame was not read in time"
    assert 0.06 + 0.05 <= took < 1.5  # the stalled frame had its own whole timeout


def test_cancelling_the_writer_is_not_taken_for_a_timeout() -> None:
    stalled = asyncio.Event()

    async def never(text: str) -> None:
        stalled.set()
        await asyncio.Event().wait()

    async def scenario() -> tuple[Client, asyncio.Task[None]]:
        client = Client(0, never)
        writer = asyncio.create_task(client.write())
        client.push("x")
        await stalled.wait()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
        return client, writer

    client, writer = asyncio.run(scenario())
    assert writer.cancelled() and client.dropped is None


def test_a_client_that_falls_too_far_behind_is_dropped() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    client = Client(-1, send)
    for _ in range(clients.MAX_QUEUED_FRAMES):
        client.push("{}")
    assert client.dropped is None and len(client.queue) == clients.MAX_QUEUED_FRAMES
    client.push("{}")  # nothing was sent meanwhile: one frame too many
    assert client.dropped == "too many frames unread" and not client.queue
    big = Client(-1, send)
    big.push("x" * (clients.MAX_QUEUED_BYTES + 1))
    assert big.dropped == "too many frames unread"


async def _idle_client(send: clients.Send) -> tuple[Client, asyncio.Task[None]]:
    """A client sending with ``send``, and its writer, started and waiting for a frame."""
    client = Client(0, send)
    writer = asyncio.create_task(client.write())
    await asyncio.sleep(0)
    assert client._idle
    return client, writer


def test_a_frame_the_connection_takes_at_once_is_sent_by_push_itself() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def scenario() -> None:
        client, writer = await _idle_client(send)
        client.push("a")
        client.push("b")
        assert sent == ["a", "b"] and not client.queue  # no task switch in between
        client.close(1000, "bye")
        client.push("after close")  # once closing, frames wait their turn behind the queue
        await asyncio.wait_for(writer, 2)
        assert sent == ["a", "b", "after close"] and client.dropped == "closed"

    asyncio.run(scenario())


def test_a_send_begun_by_push_that_waits_is_finished_by_the_writer_in_order() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        if not sent:
            await asyncio.sleep(0.02)  # the first frame waits for the connection
        await asyncio.sleep(0)
        sent.append(text)

    async def scenario() -> None:
        client, writer = await _idle_client(send)
        client.push("a")
        client.push("b")
        client.push("c")
        assert sent == [] and list(client.queue) == ["b", "c"]
        while len(sent) < 3:
            await asyncio.sleep(0.01)
        assert sent == ["a", "b", "c"] and client._idle
        client.push("d")
        await asyncio.sleep(0.01)
        client.close(1000, "bye")
        await asyncio.wait_for(writer, 2)
        assert sent == ["a", "b", "c", "d"]

    asyncio.run(scenario())


def test_a_send_begun_by_push_that_stalls_is_dropped_after_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clients, "SEND_TIMEOUT", 0.05)
    cleaned = asyncio.Event()

    async def never(text: str) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            cleaned.set()

    async def scenario() -> Client:
        client, writer = await _idle_client(never)
        client.push("x")
        client.push("y")
        await asyncio.wait_for(writer, 2)
        return client

    client = asyncio.run(scenario())
    assert client.dropped == "a frame was not read in time" and not client.queue
    assert cleaned.is_set()  # the abandoned send ran its own cleanup


def test_a_send_begun_by_push_that_fails_drops_the_client() -> None:
    async def broken(text: str) -> None:
        raise RuntimeError("the connection is closed")

    async def scenario() -> Client:
        client, writer = await _idle_client(broken)
        client.push("x")
        await asyncio.wait_for(writer, 2)
        return client

    assert asyncio.run(scenario()).dropped == "the connection failed"
