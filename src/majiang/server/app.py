"""The FastAPI application: ``create_app(db_url)`` builds it from the route modules (rooms and
seats in ``room_routes``, hands and players in ``hand_routes``, the websocket in
``play_routes``, the organiser's tools and the reviews), with its middleware and lifespan;
``majiang serve`` runs it with uvicorn. HTTP endpoints are documented in the OpenAPI page
(``/docs``); the websocket schema is ``protocol.py`` and ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from .hand_routes import router as hand_router
from .limits import WEBSOCKET_BURST, WEBSOCKET_RATE, Limits
from .organiser_routes import MAX_BODY
from .organiser_routes import router as organiser_router
from .play_routes import router as play_router
from .protocol import VERSION
from .review_routes import router as review_router
from .room_routes import router as room_router
from .rooms import Rooms, RoomsFull
from .server_state import ServerState
from .store import Store
from .web import STATIC_DIR, RevalidatedFiles

MAX_BODY_BYTES = MAX_BODY
"""A request body over this (the organiser's limit, 64 KB) is refused with 413 unparsed."""


class _BodyLimit:
    """ASGI middleware: a request body longer than ``MAX_BODY_BYTES`` gets a 413, whether its
    ``Content-Length`` says so or its chunks add up to it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            await _too_large(scope, receive, send)
            return
        body = bytearray()  # read whole (it is small) before the application sees it
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES:
                await _too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)




async def _too_large(scope: Any, receive: Any, send: Any) -> None:
    response = JSONResponse({"detail": f"the body is larger than {MAX_BODY_BYTES // 1024} KB"},
                            status_code=413, headers=SECURITY_HEADERS)
    await response(scope, receive, send)


SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every HTTP answer: only the server's own scripts run, nothing is sniffed into
another type, no other site frames the pages."""


def create_app(
    db_url: str = "sqlite:///majiang.db",
    *,
    rate: float = WEBSOCKET_RATE,
    burst: float = WEBSOCKET_BURST,
    chosen_seeds: bool = True,
    origins: list[str] | None = None,
    limits: Limits = Limits(),  # noqa: B008 (frozen: never changed)
) -> FastAPI:
    """The server application on the database at ``db_url``; each websocket may send ``rate``
    messages a second on average, ``burst`` at once (more get an error frame). Without
    ``chosen_seeds`` (a public server), a room with a chosen seed is refused (403). A websocket
    whose ``Origin`` header names another site is refused unless listed in ``origins``
    (``["*"]``: any); clients that send no ``Origin`` (not browsers) are let in. ``limits``:
    what one client address may ask over HTTP (see :class:`Limits`)."""
    store = Store(db_url)
    server = ServerState.of(store, limits, rate=rate, burst=burst, chosen_seeds=chosen_seeds,
                            origins=origins)
    rooms = server.rooms

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await rooms.resume_all()
        keeper = asyncio.create_task(rooms.keep())
        yield
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        store.close()

    app = FastAPI(
        title="majiang",
        version=str(VERSION),
        summary="Rooms, seats and play for Guobiao and Huangyan mahjong.",
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.rooms = rooms
    app.state.store = store
    app.add_middleware(_BodyLimit)

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    app.add_exception_handler(UnicodeEncodeError, _not_text)
    app.add_exception_handler(RoomsFull, _rooms_full)
    app.add_api_route("/", _home, include_in_schema=False)
    app.mount("/static", RevalidatedFiles(directory=STATIC_DIR), name="static")
    for router in (organiser_router, review_router, room_router, hand_router, play_router):
        app.include_router(router)
    return app


async def _not_text(request: Request, error: Exception) -> JSONResponse:
    """A lone surrogate (``"\\ud800"`` in JSON) is no text: refused, never stored."""
    return JSONResponse({"detail": "the request holds a string that is not valid text "
                                   "(a lone surrogate)"}, status_code=422)


async def _rooms_full(request: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, status_code=503, headers={"Retry-After": "60"})


def _home() -> FileResponse:
    """The browser table (lobby, table, score sheets, replays): one page."""
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


__all__ = ["Rooms", "create_app"]
