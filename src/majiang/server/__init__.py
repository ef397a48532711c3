"""The game server: rooms, seats with secret tokens, bots, persistence that loses nothing.

``create_app(db_url)`` is the FastAPI application; ``majiang serve`` runs it. See
``docs/server.md``.
"""

from .app import create_app

__all__ = ["create_app"]
