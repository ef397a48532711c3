"""The database: engine and sessions, schema migrations, tokens, and the queries the server needs.

SQLite by default (write-ahead log), PostgreSQL by URL (``postgresql+psycopg://...``). The schema
is created and upgraded by Alembic (``majiang/server/migrations``) when the store opens.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..engine.actions import action_from_json
from ..engine.table import Table
from .models import ActionRow, HandRow, MatchRow, Player, Room, Seat

_INSERT_ACTION = insert(ActionRow)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes: no 0/O or 1/I to misread."""


def new_code(length: int = 6) -> str:
    """A short random room code to invite people with."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_token() -> str:
    """A seat's secret token (shown once to its owner)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored is None:
        return False
    return hmac.compare_digest(token_hash(token), stored)


def migrate(url: str) -> None:
    """Create or upgrade the schema to the latest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """The database of one server."""

    def __init__(self, url: str = "sqlite:///majiang.db", *, run_migrations: bool = True) -> None:
        self.url = url
        if run_migrations:
            migrate(url)
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits at the end of the block (or rolls back on an error)."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    def add_action(self, hand_id: int, index: int, seat: int, action: dict[str, Any]) -> None:
        """Commit one accepted action (the hot path: a single Core insert, no ORM session)."""
        with self.engine.begin() as connection:
            connection.execute(
                _INSERT_ACTION,
                {
                    "hand_id": hand_id,
                    "index": index,
                    "seat": seat,
                    "action": action,
                    "created_at": datetime.now(UTC),
                },
            )

    # ------------------------------------------------------------------ queries

    def room_by_code(self, session: Session, code: str) -> Room | None:
        """The room with this code, or None."""
        return session.scalars(select(Room).where(Room.code == code)).one_or_none()

    def running_rooms(self, session: Session) -> list[Room]:
        """Rooms whose match was interrupted (to resume after a restart)."""
        return list(session.scalars(select(Room).where(Room.status == "playing")))

    def match_of(self, session: Session, room_id: int) -> MatchRow | None:
        """The room's match, if it has started."""
        return session.scalars(select(MatchRow).where(MatchRow.room_id == room_id)).one_or_none()

    def hands_of(self, session: Session, match_id: int) -> list[HandRow]:
        """The match's hands in order."""
        return list(
            session.scalars(
                select(HandRow).where(HandRow.match_id == match_id).order_by(HandRow.number)
            )
        )

    def actions_of(self, session: Session, hand_id: int) -> list[ActionRow]:
        """A hand's accepted actions in order."""
        return list(
            session.scalars(
                select(ActionRow).where(ActionRow.hand_id == hand_id).order_by(ActionRow.index)
            )
        )

    def replay_actions(self, session: Session, hand_id: int, table: Table) -> Table:
        """Apply a hand's committed actions, in order, to a fresh table of that hand."""
        for row in self.actions_of(session, hand_id):
            table.apply(row.seat, action_from_json(row.action))
        return table

    def player(self, session: Session, player_id: int) -> Player | None:
        """A player by id."""
        return session.get(Player, player_id)

    def seats_of_player(self, session: Session, player_id: int) -> list[Seat]:
        """Every seat a player took."""
        return list(session.scalars(select(Seat).where(Seat.player_id == player_id)))


__all__ = ["Store", "migrate", "new_code", "new_token", "token_hash", "token_matches"]
