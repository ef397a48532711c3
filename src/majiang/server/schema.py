"""The database's whole schema: every table the server keeps, the game's (``models``) and the
organiser's (``organiser_models``), as migrations and their tests compare it."""

from __future__ import annotations

from . import organiser_models
from .models import Base

metadata = Base.metadata
"""Every table of both model modules (the organiser's join ``Base`` when they are imported)."""

__all__ = ["metadata", "organiser_models"]
