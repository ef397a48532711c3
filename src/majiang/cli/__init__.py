"""The ``majiang`` command: one sub-command per job; errors become one line and an exit status.

Exit status: 0 success, 1 an invalid hand or situation, 2 a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from ..errors import MajiangError, UsageError

EXIT_INVALID = 1
EXIT_USAGE = 2
COMMANDS = ("score", "analyze", "replay", "simulate", "serve", "play", "tournament", "botzone",
            "sheet", "review")
"""The sub-commands in the order the help lists them; each is the module of that name here."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: usage error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every sub-command, or of sub-command ``only`` alone (so that
    running one command imports only its own module)."""
    parser = _Parser(
        prog="majiang",
        description=(
            "Chinese mahjong: exact Guobiao and Huangyan scoring, analysis, simulation, "
            "a game server."
        ),
    )
    parser.add_argument("--version", action="version", version=f"majiang {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name in COMMANDS if only is None else (only,):
        import_module(f"{__name__}.{name}").add_parser(commands)
    return parser


def _version() -> str:
    from .. import __version__

    return f"{__version__} ({build_kind()})"


def build_kind() -> str:
    """Which build is running: the hot modules compiled by mypyc, or pure Python."""
    from .. import notation

    compiled = not (notation.__file__ or "").endswith(".py")
    return "compiled by mypyc" if compiled else "pure Python"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    first = arguments[0] if arguments else None
    parser = build_parser(first if first in COMMANDS else None)
    args = parser.parse_args(arguments)
    try:
        return int(args.run(args))
    except UsageError as error:
        print(f"majiang {args.command}: usage error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except MajiangError as error:
        print(f"majiang: error: {error}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error
        return 0
    except OSError as error:
        print(
            f"majiang: error: {error.strerror or error}: {error.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
