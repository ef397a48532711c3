"""The ``--option NAME=VALUE`` arguments every command that plays or scores takes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def option_values(pairs: Iterable[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings to a mapping (``NAME`` alone means on)."""
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        values[name.strip().replace("-", "_")] = value.strip() if sep else "on"
    return values


__all__ = ["option_values"]
