"""The organiser's tables (on the server's declarative base): score-sheet games with their
entries and every change to them, and tournaments with players, seated rounds, table results
and penalties. Entries are stored as entered; every total is recomputed from them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, Created, Edited, Versioned


class SheetGame(Versioned, Base):
    """A game of four people at a real table, kept on a score sheet."""

    __tablename__ = "organiser_games"
    code: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    rules: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]]
    names: Mapped[list[Any]]
    stake: Mapped[int] = mapped_column(default=1)
    hands: Mapped[int | None] = mapped_column(default=None)
    rounds: Mapped[int | None] = mapped_column(default=None)
    first_dealer: Mapped[int] = mapped_column(default=0)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("organiser_tournaments.id"), index=True, default=None
    )
    """The tournament whose table this game is (its organiser may edit it too)."""
    round: Mapped[int | None] = mapped_column(default=None)
    table: Mapped[int | None] = mapped_column(default=None)
    totals: Mapped[list[Any]]
    """Cached from the entries at every change (for lists); the entries are the truth."""
    finished: Mapped[bool] = mapped_column(default=False)


class SheetEntry(Edited, Base):
    """One entry of a game as entered (``data``); a deleted one stays, marked, for history."""

    __tablename__ = "organiser_entries"
    __table_args__ = (UniqueConstraint("game_id", "position"),)
    game_id: Mapped[int] = mapped_column(ForeignKey("organiser_games.id"), index=True)
    position: Mapped[int]
    """Order on the sheet (gaps allow an entry to be inserted before another)."""
    data: Mapped[dict[str, Any]]
    deleted: Mapped[bool] = mapped_column(default=False)


class SheetRevision(Created, Base):
    """A change to a game's entries: added, inserted, corrected or deleted, before and after."""

    __tablename__ = "organiser_revisions"
    game_id: Mapped[int] = mapped_column(ForeignKey("organiser_games.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("organiser_entries.id"))
    action: Mapped[str] = mapped_column(String(12))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class TournamentRow(Versioned, Base):
    """An MCR tournament; its organiser holds the token."""

    __tablename__ = "organiser_tournaments"
    code: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    rounds: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    fill: Mapped[str] = mapped_column(String(16), default="substitutes")
    penalties_before_table_points: Mapped[bool] = mapped_column(default=False)


class TournamentPlayer(Created, Base):
    """A registered player (``number`` is his id within the tournament)."""

    __tablename__ = "organiser_players"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("organiser_tournaments.id"), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    substitute: Mapped[bool] = mapped_column(default=False)
    withdrawn: Mapped[bool] = mapped_column(default=False)


class TournamentRound(Created, Base):
    """A seated round: tables of player numbers by wind (East first) and the byes."""

    __tablename__ = "organiser_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("organiser_tournaments.id"), index=True)
    number: Mapped[int]
    tables: Mapped[list[Any]]
    byes: Mapped[list[Any]]


class TournamentResult(Created, Base):
    """The final scores of one table of a round, by wind; ``game_id`` when they came from its
    score sheet."""

    __tablename__ = "organiser_results"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table"),)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("organiser_tournaments.id"), index=True)
    round: Mapped[int]
    table: Mapped[int]
    scores: Mapped[list[Any]]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("organiser_games.id"), default=None)


class TournamentPenalty(Created, Base):
    """Points deducted from a player in a round, with the reason."""

    __tablename__ = "organiser_penalties"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("organiser_tournaments.id"), index=True)
    round: Mapped[int]
    player: Mapped[int]
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(120))


__all__ = [
    "SheetEntry",
    "SheetGame",
    "SheetRevision",
    "TournamentPenalty",
    "TournamentPlayer",
    "TournamentResult",
    "TournamentRound",
    "TournamentRow",
]
