"""The optional extras: a feature that needs one says so in one line instead of a traceback."""

from __future__ import annotations

import importlib.util

from .errors import MissingExtraError

EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "orjson"),
    "env": ("numpy", "gymnasium", "pettingzoo"),
    "play": ("textual", "websockets", "httpx"),
    "ray": ("ray",),
    "plot": ("matplotlib",),
}
"""The modules of each extra that the code imports (``pyproject.toml`` lists the packages)."""


def require_extra(extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` if a module of ``extra`` that ``what`` needs is missing."""
    for name in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtraError(extra, what)


__all__ = ["EXTRAS", "require_extra"]
