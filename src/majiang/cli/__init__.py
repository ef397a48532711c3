"""The ``majiang`` command: one sub-command per job; errors become one line and an exit status.

Exit status: 0 success, 1 an invalid hand or situation, 2 a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import MajiangError, UsageError
from . import analyze as analyze_cmd
from . import botzone as botzone_cmd
from . import play as play_cmd
from . import replay as replay_cmd
from . import review as review_cmd
from . import score as score_cmd
from . import serve as serve_cmd
from . import sheet as sheet_cmd
from . import simulate as simulate_cmd
from . import tournament as tournament_cmd

EXIT_INVALID = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: usage error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
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
    score_cmd.add_parser(commands)
    analyze_cmd.add_parser(commands)
    replay_cmd.add_parser(commands)
    simulate_cmd.add_parser(commands)
    serve_cmd.add_parser(commands)
    play_cmd.add_parser(commands)
    tournament_cmd.add_parser(commands)
    botzone_cmd.add_parser(commands)
    sheet_cmd.add_parser(commands)
    review_cmd.add_parser(commands)
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
    parser = build_parser()
    args = parser.parse_args(argv)
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
