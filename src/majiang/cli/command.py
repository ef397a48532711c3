"""Registering a sub-command, whose module's docstring is its help."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_command(
    commands: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    doc: str | None,
    **settings: Any,
) -> argparse.ArgumentParser:
    """Add the sub-command ``name``, run by ``run``, and return its parser.

    ``doc`` is the command module's docstring: its first paragraph, less the opening
    "``majiang NAME``: ", is the one-line help; its second, the description (argparse refills
    it). Further paragraphs are for the code's readers only. ``settings`` go to ``add_parser``
    (e.g. ``epilog``).
    """
    summary, _, rest = (doc or "").partition("\n\n")
    description = rest.partition("\n\n")[0]
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=" ".join(summary.split()).removeprefix(f"``majiang {name}``: ") or None,
        description=description or None,
        **settings,
    )
    parser.set_defaults(run=run)
    return parser


__all__ = ["add_command"]
