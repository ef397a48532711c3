"""The websocket route: one client of a room (a seat with its token, or a spectator), its
messages read and answered in turn while the room's frames are written to it. The messages and
frames are in ``protocol.py`` and ``docs/server.md``."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from ..errors import MajiangError
from .clients import SEND_TIMEOUT, SPECTATOR, Client
from .limits import TokenBucket
from .protocol import (
    MAX_MESSAGE_BYTES,
    ActMessage,
    ClientMessage,
    HintMessage,
    NextMessage,
    PingMessage,
    ResyncMessage,
    build_frame,
    error_frame,
)
from .room import RoomGone, RoomRuntime
from .rooms import RoomsFull
from .server_state import Served

_MESSAGES: TypeAdapter[Any] = TypeAdapter(ClientMessage)

router = APIRouter()


@router.websocket("/ws/{code}")
async def play(
    websocket: WebSocket,
    server: Served,
    code: str,
    token: str | None = None,
    updates: str = Query("all", pattern="^(all|changed)$"),
) -> None:
    """One client: a seat (with its token) or a spectator (without); ``updates=changed``:
    no ``update`` frame that tells the client nothing new (see docs/server.md)."""
    origin = websocket.headers.get("origin")
    if not _origin_allowed(origin, websocket.headers.get("host"), server.origins):
        await websocket.accept()
        await websocket.close(code=4403, reason="websocket from another site refused")
        return
    try:
        runtime = await server.rooms.get(code.upper())
    except RoomsFull as error:
        await websocket.accept()
        await websocket.close(code=1013, reason=str(error))  # "try again later"
        return
    seat = None if runtime is None else SPECTATOR if token is None else (
        runtime.seat_of_token(token)
    )
    await websocket.accept()
    if runtime is None or seat is None:  # accepted first, so that the client reads why
        await websocket.close(
            code=4404 if runtime is None else 4401,
            reason="no such room" if runtime is None else "bad token",
        )
        return
    client = Client(seat, websocket.send_text, TokenBucket(server.rate, server.burst),
                    changes_only=updates == "changed")
    while True:
        try:
            await runtime.connect(client)
            break
        except RoomGone:  # dropped from memory meanwhile: the room as read again
            again = await server.rooms.get(code.upper())
            if again is None:
                await websocket.close(code=4404, reason="no such room")
                return
            runtime = again
    reader = asyncio.create_task(_read(websocket, runtime, client))
    writer = asyncio.create_task(client.write())
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        client.drop("disconnected")
        if not client.busy:  # waiting for a message: stopped now; otherwise after its message
            reader.cancel()
        # shielded: the seat is released even if this handler is being cancelled
        await asyncio.shield(runtime.disconnect(client))
        await asyncio.gather(reader, writer, return_exceptions=True)
    if client.closing is not None:  # the room ended the connection (its seat was freed)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(*client.closing), SEND_TIMEOUT)
    elif client.dropped != "disconnected":  # too slow: its unread bytes are thrown away
        _abort(websocket)



def _origin_allowed(origin: str | None, host: str | None, allowed: list[str] | None) -> bool:
    """A browser's websocket is let in from the server's own pages (its ``Origin`` names the
    host it connects to) or from a listed origin; a client without ``Origin`` always."""
    if origin is None or (allowed is not None and ("*" in allowed or origin in allowed)):
        return True
    return host is not None and origin.split("://", 1)[-1] == host


def _abort(websocket: WebSocket) -> None:
    """Close a connection at once, unsent bytes and all (a closing handshake would wait for a
    client that does not read). Under uvicorn the ASGI ``send`` is its protocol's method,
    which holds the transport; elsewhere the connection is left to close normally."""
    protocol = getattr(getattr(websocket, "_send", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    abort = getattr(transport, "abort", None)
    if callable(abort):
        abort()


async def _read(websocket: WebSocket, runtime: RoomRuntime, client: Client) -> None:
    """A client's messages, each handled in turn, until it disconnects or is dropped. A message
    being handled is never interrupted (the connection's handler cancels the reader only while
    it waits for the next one): a client dropped meanwhile never cuts an action short."""
    with contextlib.suppress(WebSocketDisconnect):
        while client.dropped is None:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:  # a binary frame: refused, the connection stays usable
                client.send(error_frame("send JSON objects in text frames, not binary"))
                continue
            client.busy = True
            try:
                reply = await _handle(runtime, client, text)
            finally:
                client.busy = False
            if reply is not None:
                client.send(reply)


async def _handle(runtime: RoomRuntime, client: Client, text: str) -> dict[str, Any] | None:
    """One client message; returns a direct reply (an error, a pong, a state) or None."""
    if len(text) * 4 > MAX_MESSAGE_BYTES and len(text.encode()) > MAX_MESSAGE_BYTES:
        return error_frame(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    if not client.allow():
        return error_frame("too many messages: slow down")
    try:
        message = _MESSAGES.validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "message"
        return error_frame(f"bad message: {where}: {first.get('msg', 'invalid')}")
    if isinstance(message, PingMessage):
        return build_frame("pong")
    if isinstance(message, HintMessage | ResyncMessage):
        # under the lock: an action applied but still being committed is seen by no one
        async with runtime.lock:
            if isinstance(message, ResyncMessage):
                if not client.allow_resync():
                    return error_frame("too many resyncs: at most two a second")
                client.seen = None
                return runtime.state_frame(client.seat)
            try:
                return runtime.hint_frame(client.seat)
            except MajiangError as error:
                return error_frame(str(error))
    if client.seat == SPECTATOR:
        return error_frame("spectators cannot act")
    try:
        if isinstance(message, ActMessage):
            await runtime.act(client.seat, message.action, message.step)
        elif isinstance(message, NextMessage):
            await runtime.next_hand(client.seat)
        else:
            await runtime.ready(client.seat, client)
    except MajiangError as error:
        return error_frame(str(error))
    return None
