"""`majiang botzone`: placeholder, replaced by the module that builds it."""

from __future__ import annotations

from typing import Any


def add_parser(commands: Any) -> None:
    """Register the sub-command."""
    commands.add_parser("botzone", help="(being built)")
