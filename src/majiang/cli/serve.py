"""``majiang serve``: the game server (rooms, seats, bots) on SQLite or PostgreSQL."""

from __future__ import annotations

import argparse
import gc
import math
import socket
from collections.abc import Callable
from typing import Any

from ..errors import MajiangError, MissingExtraError
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


def amount(low: float, *, above: bool = False, whole: bool = False) -> Callable[[str], Any]:
    """An argument type: a finite number at least ``low`` (``above``: more than ``low``;
    ``whole``: a whole number)."""
    bound = f"more than {low:g}" if above else f"at least {low:g}"
    kind = "a whole number" if whole else "a number"

    def parse(text: str) -> float | int:
        try:
            value: float | int = int(text) if whole else float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < low or (above and value == low):
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind} {bound}")
        return value

    return parse


def origin(text: str) -> str:
    """``--origin``: a site as a browser names it (``https://host[:port]``), or ``*``."""
    scheme, _, host = text.partition("://")
    if text != "*" and (scheme not in ("http", "https") or not host or "/" in host
                        or any(c.isspace() for c in host)):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an origin (https://host or https://host:port, or *)")
    return text


def _server_defaults() -> tuple[Any, float | None, float | None]:
    """The server's default limits, websocket message rate and burst (None, and no figures in
    the help, without the server extra: ``serve`` then only says that it needs it)."""
    try:
        from ..server.limits import WEBSOCKET_BURST, WEBSOCKET_RATE, Limits
    except MissingExtraError:
        return None, None, None
    return Limits(), WEBSOCKET_RATE, WEBSOCKET_BURST


def add_limits(p: argparse.ArgumentParser) -> None:
    """The options that bound what strangers may ask of the server (``Limits`` and the
    websocket's), each defaulting to the server's own default."""
    limits, message_rate, message_burst = _server_defaults()
    group = p.add_argument_group("limits (a server open to strangers)")

    def option(flag: str, kind: Callable[[str], Any], default: Any, what: str,
               metavar: str) -> None:
        shown = "" if default is None else f" ({default:g})"
        group.add_argument(flag, type=kind, default=default, metavar=metavar,
                           help=f"{what}{shown}")

    def limit(name: str, kind: Callable[[str], Any], what: str, metavar: str) -> None:
        option(f"--{name.replace('_', '-')}", kind, getattr(limits, name, None), what, metavar)

    rate, count, seconds = amount(0, above=True), amount(1, whole=True), amount(0)
    limit("room_rate", rate, "rooms one address may create a second, on average", "PER_S")
    limit("room_burst", amount(1), "rooms one address may create at once", "N")
    limit("seat_rate", rate, "seats one address may take a second, on average", "PER_S")
    limit("seat_burst", amount(1), "seats one address may take at once", "N")
    limit("rooms_per_address", count, "unfinished rooms one address may have created", "N")
    limit("waiting_rooms", count, "rooms waiting for players, in all", "N")
    limit("min_turn_seconds", seconds, "the shortest turn timer a room may set", "SECONDS")
    limit("min_bot_seconds", seconds, "the shortest pause between bot moves a room may set",
          "SECONDS")
    limit("unwatched_seconds", seconds,
          "a match nobody is connected to pauses after this long", "SECONDS")
    limit("idle_seconds", seconds,
          "a room nobody used for this long is dropped from memory", "SECONDS")
    limit("live_rooms", count, "the most rooms held in memory", "N")
    option("--message-rate", rate, message_rate,
           "messages one websocket may send a second, on average", "PER_S")
    option("--message-burst", amount(1), message_burst,
           "messages one websocket may send at once", "N")
    group.add_argument("--origin", type=origin, action="append", dest="origins",
                       metavar="ORIGIN",
                       help="a site (https://host[:port]) whose pages may open websockets, "
                       "besides the server's own; repeat for more, * for any")


def server_options(args: argparse.Namespace) -> dict[str, Any]:
    """``create_app``'s keyword arguments from ``majiang serve``'s options."""
    from dataclasses import fields

    from ..server.limits import Limits

    limits = Limits(**{f.name: getattr(args, f.name) for f in fields(Limits)})
    return {"chosen_seeds": not args.no_chosen_seeds, "limits": limits,
            "rate": args.message_rate, "burst": args.message_burst, "origins": args.origins}


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
    add_limits(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``majiang serve`` until interrupted."""
    require_extra("server", "majiang serve")
    import uvicorn

    from ..server.reviews import ReviewSettings

    app = open_app(args.db, **server_options(args))
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


def open_app(url: str, **options: Any) -> Any:
    """The application on the database at ``url`` (a :class:`DatabaseError` if it cannot open);
    ``options`` go to ``create_app``."""
    from ..server.app import create_app

    with opening(url):
        return create_app(url, **options)


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


__all__ = ["add_parser", "amount", "bind", "open_app", "origin", "port_number", "run",
           "server_options"]
