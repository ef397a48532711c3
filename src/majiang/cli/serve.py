"""``majiang serve``: the game server (rooms, seats, bots) on SQLite or PostgreSQL."""

from __future__ import annotations

import argparse
import gc
import socket
from typing import Any

from ..errors import MajiangError
from ..extras import require_extra
from .database import opening, shown_url
from .review import positive, think_seconds


class ServeError(MajiangError):
    """The server cannot listen where it is asked to (a busy port, an unknown address)."""


def port_number(text: str) -> int:
    """``--port``: 0-65535 (0: any free port, the line printed at start says which)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a number, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0-65535, not {port}")
    return port


def add_parser(commands: Any) -> None:
    """Register ``serve`` on the sub-command parser."""
    p = commands.add_parser(
        "serve",
        help="run the game server (needs the server extra)",
        description=(
            "Serve rooms over HTTP and websockets. Every accepted action is committed to the "
            "database before anyone hears of it; a restarted server resumes every running game. "
            "Needs the server extra: pip install '.[server]' from a clone."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument(
        "--port", type=port_number, default=8000, help="port, 0 for any free one (8000)"
    )
    p.add_argument(
        "--db",
        default="sqlite:///majiang.db",
        metavar="URL",
        help="database URL (sqlite:///majiang.db; postgresql+psycopg://user@host/db)",
    )
    p.add_argument(
        "--no-chosen-seeds",
        action="store_true",
        help="refuse rooms with a chosen seed (whoever knows a seed knows every wall): "
        "for a server open to strangers",
    )
    p.add_argument("--review-think", type=think_seconds, default=0.5, metavar="SECONDS",
                   help="a hand's review (the replay's Review pane): seconds per decision "
                   "(0.5; 0: no time limit)")
    p.add_argument("--review-samples", type=positive, default=24, metavar="N",
                   help="a review's sampled deals per decision at most (24)")
    p.add_argument("--review-budget", type=positive, default=900, metavar="SECONDS",
                   help="a review still running after this long is stopped (900)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``majiang serve`` until interrupted."""
    require_extra("server", "majiang serve")
    import uvicorn

    from ..server.reviews import ReviewSettings

    app = open_app(args.db, chosen_seeds=not args.no_chosen_seeds)
    app.state.review_settings = ReviewSettings(
        think=args.review_think, samples=args.review_samples, budget_seconds=args.review_budget)
    sock = bind(args.host, args.port)
    # Everything imported and built so far (modules, the scorer's tables, the application) lives
    # as long as the server: out of the collector's sight, it no longer lengthens the pauses of
    # its full collections, which grow with the live tables (about 1,700 objects each).
    gc.collect()
    gc.freeze()
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"majiang server on http://{shown}:{port}/ (database {shown_url(args.db)})", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,  # small JSON frames: compressing costs more than it saves
        # loop="auto": uvloop (the server extra) when installed, about 15% less CPU per action
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def open_app(url: str, *, chosen_seeds: bool = True) -> Any:
    """The application on the database at ``url`` (a :class:`DatabaseError` if it cannot open)."""
    from ..server.app import create_app

    with opening(url):
        return create_app(url, chosen_seeds=chosen_seeds)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a :class:`ServeError` saying why not."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


__all__ = ["add_parser", "bind", "open_app", "port_number", "run"]
