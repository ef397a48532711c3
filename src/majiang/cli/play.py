"""``majiang play``: play a match at the terminal table (against bots, or in a server room)

Play a whole match in the terminal: you sit in seat 0 against three bots, or take a seat of a game
server's room with --server and --room. Keyboard only; press ? at the table for the keys
(docs/play.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from ..errors import MajiangError, OptionError
from ..extras import require_extra
from ..rules.registry import DEFAULT_RULES, RULE_SETS
from .command import add_command, add_option_argument


def add_parser(commands: Any) -> None:
    """Register ``play`` on the sub-command parser."""
    p = add_command(commands, "play", run, __doc__)
    p.add_argument("--rules", choices=list(RULE_SETS), default=None,
                   help=f"rule set ({DEFAULT_RULES})")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="the match's seed (0)")
    p.add_argument(
        "--bots",
        default=None,
        metavar="A,B,C",
        help="bots for seats 1-3, or one for all three (default: fan for gb, wild for huangyan)",
    )
    p.add_argument("--hands", type=int, default=None, metavar="N", help="hands to play (4)")
    add_option_argument(p)
    p.add_argument(
        "--delay", type=float, default=0.3, metavar="SECONDS",
        help="pause after each bot discard or claim at a local table (0.3)",
    )
    p.add_argument("--name", default="You", help="your name at the table")
    p.add_argument("--server", metavar="URL", help="a game server (majiang serve), e.g. "
                   "http://127.0.0.1:8000")
    p.add_argument("--room", metavar="CODE", help="the room to join on --server")
    p.add_argument("--seat", type=int, choices=range(4), default=None, metavar="K",
                   help="the seat to take in the room, 0-3 (default: the first free one)")
    p.add_argument("--token", metavar="TOKEN",
                   help="sit down again at --seat with the token it was given (printed when "
                   "you take a seat), e.g. after a dropped connection")
    p.set_defaults(play_parser=p)


def _usage(args: argparse.Namespace, message: str) -> NoReturn:
    parser: argparse.ArgumentParser = args.play_parser
    parser.error(message)


def is_terminal() -> bool:
    """Whether standard input and output are a terminal (the table needs one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _need_terminal() -> None:
    if not is_terminal():
        raise MajiangError("majiang play needs a terminal (standard input and output)")


def build_driver(args: argparse.Namespace) -> Any:
    """The seat driver the arguments ask for: everything is checked (and, for a server, the
    seat taken) before the app starts."""
    if args.server is None:
        if args.room is not None or args.seat is not None or args.token is not None:
            _usage(args, "--room, --seat and --token need --server URL")
        from ..tui.local import LocalDriver
        from .options import option_values

        rules = args.rules or DEFAULT_RULES
        bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
        if bots is not None and not all(bots):
            raise OptionError(f"--bots: an empty bot name in {args.bots!r}")
        driver = LocalDriver(
            rules,
            seed=0 if args.seed is None else args.seed,
            bots=bots,
            hands=4 if args.hands is None else args.hands,
            name=args.name,
            options=option_values(args.option),
            delay=args.delay,
        )
        _need_terminal()
        return driver
    if args.room is None:
        _usage(args, "--server needs --room CODE")
    for flag, value in (("--rules", args.rules), ("--seed", args.seed), ("--bots", args.bots),
                        ("--hands", args.hands), ("--option", args.option or None)):
        if value is not None:
            _usage(args, f"{flag} is for a local table; the room at --server decides it")
    from ..tui.remote import RemoteDriver, join_room

    if args.token is not None and args.seat is None:
        _usage(args, "--token needs --seat: the seat the token was given for")
    _need_terminal()  # before taking a seat
    grant = join_room(args.server, args.room, args.seat, args.name, token=args.token)
    if args.token is None:
        print(
            f"seat {grant.seat} in room {grant.code}; to sit down again: majiang play --server "
            f"{grant.url} --room {grant.code} --seat {grant.seat} --token {grant.token}",
            file=sys.stderr,
        )
    return RemoteDriver(grant)


def run(args: argparse.Namespace) -> int:
    """Run ``majiang play``: build the driver, then the app; the exit status."""
    require_extra("play", "majiang play")
    driver = build_driver(args)
    from ..tui.app import MajiangApp

    app = MajiangApp(driver)
    app.run()
    if app.failure is not None:
        print(f"majiang: error: {app.failure}", file=sys.stderr)
        return 1
    return app.return_code or 0


__all__ = ["add_parser", "build_driver", "is_terminal", "run"]
