"""The game server: rooms, seats with secret tokens, bots, persistence that loses nothing.

``create_app(db_url)`` is the FastAPI application; ``majiang serve`` runs it. See
``docs/server.md``.
"""

from ..extras import require_extra

require_extra("server", "majiang.server")

from .app import create_app  # noqa: E402 (once the extra is known to be installed)

__all__ = ["create_app"]
