"""Registering a sub-command (its module's docstring is its help), and the arguments several
commands take."""

from __future__ import annotations

import argparse
import inspect
import re
from collections.abc import Callable
from typing import Any

from ..pasted import NOTATIONS
from ..tiles import WIND_LETTERS

_OPENING = re.compile(r"^``majiang [^`]*``: ")
"""How a command's docstring opens, before its one-line help."""
OPTION_HELP = "rule option, repeatable (e.g. false_win=on)"
"""``--option``'s help where the command has no list of the options to give."""


def add_command(
    commands: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    doc: str | None,
    values: dict[str, str] | None = None,
    **settings: Any,
) -> argparse.ArgumentParser:
    """Add the sub-command ``name``, run by ``run``, and return its parser.

    ``doc`` is the command module's (or its ``run``'s) docstring: its first paragraph, less the
    opening "``majiang ...``: ", is the one-line help; its second, the description (argparse refills
    it). Further paragraphs are for the code's readers only. ``values`` fill the description's
    ``{name}`` fields (what the registry knows, such as each rule set's unit); ``settings`` go to
    ``add_parser`` (e.g. ``epilog``).
    """
    summary, _, rest = (doc or "").partition("\n\n")
    description = rest.partition("\n\n")[0]
    if values:
        description = description.format_map(values)
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=_OPENING.sub("", " ".join(summary.split())) or None,
        description=description or None,
        **settings,
    )
    parser.set_defaults(run=run)
    return parser


def arguments_for(function: Callable[..., Any], args: argparse.Namespace) -> dict[str, Any]:
    """The parsed options named like ``function``'s parameters, by name."""
    given = vars(args)
    return {name: given[name] for name in inspect.signature(function).parameters if name in given}


def add_option_argument(parser: Any, text: str = OPTION_HELP) -> None:
    """``--option NAME=VALUE``, repeatable (read by :func:`~majiang.cli.options.option_values`);
    ``text`` is its help."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=text)


def add_wind_arguments(parser: Any) -> None:
    """``--seat`` and ``--prevalent`` (read as ``seat_wind`` and ``prevalent_wind``), East by
    default."""
    parser.add_argument("--seat", dest="seat_wind", default="E", choices=list(WIND_LETTERS),
                        help="seat wind (E)")
    parser.add_argument("--prevalent", dest="prevalent_wind", default="E",
                        choices=list(WIND_LETTERS), help="prevalent wind (E)")


def add_output_arguments(parser: Any, verb: str, option_help: str) -> None:
    """``--option`` (repeatable, ``option_help`` its help), ``--json`` and ``--batch FILE``,
    shared by the commands."""
    add_option_argument(parser, option_help)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--batch",
        metavar="FILE",
        help=f"{verb} JSON lines from FILE ('-' for stdin), one JSON line out per line in",
    )


def add_notation_argument(parser: Any) -> None:
    """``--notation``: the notation of the HAND argument, detected by default."""
    parser.add_argument(
        "--notation",
        default="auto",
        choices=NOTATIONS,
        help="the HAND's notation: majiang's, Botzone tile names (W1 T5 B9 F1 J3 H1), Tenhou's "
        "1-7z honours, upper-case suit letters (auto: detected)",
    )


__all__ = [
    "add_command",
    "add_notation_argument",
    "add_option_argument",
    "add_output_arguments",
    "add_wind_arguments",
    "arguments_for",
]
