"""The game server: rooms, seats with secret tokens, bots, persistence that loses nothing.

``create_app(db_url)`` is the FastAPI application; ``majiang serve`` runs it. See
``docs/server.md``. The application is imported on first use, so that reading the server's
limits (``majiang serve --help``) does not import the web framework.
"""

from typing import TYPE_CHECKING, Any

from ..extras import require_extra

require_extra("server", "majiang.server")

if TYPE_CHECKING:
    from .app import create_app


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
