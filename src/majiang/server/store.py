"""The database: engine and sessions, schema migrations, tokens, and the queries the server needs.

SQLite by default (write-ahead log), PostgreSQL by URL (``postgresql+psycopg://...``). The schema
is created and upgraded by Alembic (``majiang/server/migrations``) when the store opens.

Accepted actions, the hot path, are written by :meth:`Store.commit_action` on one database
connection kept for them, with the insert compiled once; the actions accepted within
``GROUP_TURNS`` turns of the event loop (from every room) share one transaction and one commit
(group commit). On SQLite the write-ahead log is checkpointed (copied into the database file,
with its fsyncs) by a background thread rather than by whichever commit happens to cross the
threshold, so that no commit stalls the event loop for a checkpoint. ``synchronous=NORMAL``
under the write-ahead log: a commit is in the log (handed to the OS) when it returns, so it
survives the server's crash or SIGKILL; a power cut or an OS crash may lose the last commits
before a checkpoint (never corrupting the file).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import PoolProxiedConnection

from ..engine.record import replay_iter
from ..engine.table import Table
from ..errors import MajiangError
from .models import ActionRow, HandRow, MatchRow, Player, Room, Seat


class StoreError(MajiangError):
    """The database cannot be used (the message says which and why, without its password)."""


_INSERT_ACTION = insert(ActionRow)
_ACTION_COLUMNS = ("hand_id", "index", "seat", "action", "created_at")
CHECKPOINT_SECONDS = 0.5
"""How often the background thread checkpoints SQLite's write-ahead log (when it has grown)."""
WAL_BYTES = 16 * 2**20
"""A write-ahead log file larger than this gets a checkpoint at once, a RESTART one after which
the next commit writes the log from its start again; the file is cut back to this size then.
Under a steady stream of commits (bots playing at full speed) a PASSIVE checkpoint never finds
the log wholly copied at the moment a commit begins, and the log would grow without end."""
WAL_TICK = 0.02
"""How often the checkpointer looks at the size of the write-ahead log file."""
CHECKPOINT_WAIT_MS = 200
"""The longest a RESTART checkpoint waits for the commit under way and for the readers (a room
being read back) before it does what it can, as a PASSIVE one; commits wait for it meanwhile.
Without any wait it almost never gets in between two commits of a steady stream."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes: no 0/O or 1/I to misread."""


GROUP_TURNS = 3
"""The turns of the event loop a group commit waits for more actions after the first: those
accepted meanwhile, from every room, share its transaction (fewer commits under load, for no
longer wait: the clients' answers arrive during those turns; measured in performance.md)."""


def _after_turns(loop: asyncio.AbstractEventLoop, turns: int, callback: Callable[[], None]) -> None:
    """Call ``callback`` in the ``turns``-th turn of the event loop from now."""
    if turns <= 1:
        loop.call_soon(callback)
    else:
        loop.call_soon(_after_turns, loop, turns - 1, callback)


def new_code(length: int = 6) -> str:
    """A short random room code to invite people with."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_token() -> str:
    """A seat's secret token (shown once to its owner)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def seed_hash(seed: int) -> str:
    """The commitment to a seed published before it is used: the SHA-256 of its decimal digits
    (``hashlib.sha256(str(seed).encode()).hexdigest()``); the seed itself is revealed once
    its hand (or match) is over, so anyone can check that the deal was not changed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


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
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the store's checkpointer thread does it
    cursor.execute(f"PRAGMA journal_size_limit={WAL_BYTES}")
    cursor.close()


class _ActionWriter:
    """The hot path: one connection kept for inserting actions, the insert compiled once with
    the columns' own bind processors (the rows are exactly what the ORM would write)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        compiled = _INSERT_ACTION.compile(dialect=dialect, column_keys=list(_ACTION_COLUMNS))
        self.sql = compiled.string
        self.positional = compiled.positiontup is not None
        if self.positional:
            assert list(compiled.positiontup or ()) == list(_ACTION_COLUMNS), compiled.positiontup
        columns = ActionRow.__table__.c
        self.processors: list[Callable[[Any], Any] | None] = [
            columns[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in _ACTION_COLUMNS
        ]
        self.connection: PoolProxiedConnection | None = None

    def add(self, rows: list[tuple[Any, ...]]) -> None:
        """Insert the rows and commit them, in one transaction; nothing of them if it fails."""
        batch = []
        for values in rows:
            processed = [
                value if process is None else process(value)
                for value, process in zip(values, self.processors, strict=True)
            ]
            batch.append(
                processed if self.positional else dict(zip(_ACTION_COLUMNS, processed, strict=True))
            )
        connection = self.connection
        if connection is None:
            connection = self.connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                for params in batch:
                    cursor.execute(self.sql, params)
            finally:
                cursor.close()
            connection.commit()
        except Exception:
            self.drop(broken=True)  # rolled back; a fresh connection next time
            raise

    def drop(self, broken: bool = False) -> None:
        """Give the connection back (``broken``: discard it)."""
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.rollback()
            with contextlib.suppress(Exception):
                if broken:
                    connection.invalidate()
                else:
                    connection.close()


def _short_waits(connection: PoolProxiedConnection) -> None:
    """The checkpointer's connection waits at most ``CHECKPOINT_WAIT_MS`` for a lock."""
    cursor = connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
    finally:
        cursor.close()


class _Checkpointer(threading.Thread):
    """Checkpoints SQLite's write-ahead log every ``CHECKPOINT_SECONDS`` (PASSIVE: it waits for
    no reader or writer), and at once, RESTART, when its file is past ``WAL_BYTES``; on its own
    connection, off the event loop."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(name="majiang-wal-checkpoint", daemon=True)
        self.engine = engine
        self.stopping = threading.Event()

    def run(self) -> None:
        connection = self.engine.raw_connection()
        wal = Path(f"{self.engine.url.database}-wal")
        try:
            _short_waits(connection)
            last = time.monotonic()
            while not self.stopping.wait(WAL_TICK):
                with contextlib.suppress(Exception):
                    big = wal.exists() and wal.stat().st_size > WAL_BYTES
                    if big or time.monotonic() - last >= CHECKPOINT_SECONDS:
                        last = time.monotonic()
                        self.checkpoint(connection, "RESTART" if big else "PASSIVE")
            with contextlib.suppress(Exception):
                self.checkpoint(connection, "TRUNCATE")
        finally:
            connection.close()

    @staticmethod
    def checkpoint(connection: PoolProxiedConnection, mode: str) -> None:
        cursor = connection.cursor()
        try:
            cursor.execute(f"PRAGMA wal_checkpoint({mode})")
            cursor.fetchall()
        finally:
            cursor.close()
        connection.commit()

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)


class Store:
    """The database of one server."""

    def __init__(self, url: str = "sqlite:///majiang.db", *, run_migrations: bool = True) -> None:
        """Open (and migrate) the database; raises :class:`StoreError` if it cannot be
        written (a server on a read-only database would refuse every action)."""
        self.url = url
        # errors never show the statement's parameters (a room's seed among them)
        self.engine: Engine = create_engine(url, hide_parameters=True)
        sqlite = self.engine.dialect.name == "sqlite"
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            if run_migrations:
                migrate(url)
            self._check_writable()
        except SQLAlchemyError as error:
            self.engine.dispose()
            where = self.engine.url.render_as_string(hide_password=True)
            reason = str(getattr(error, "orig", None) or error).splitlines()[0]
            raise StoreError(f"the database {where} cannot be written: {reason}") from None
        self._checkpointer: _Checkpointer | None = None
        if sqlite and self.engine.url.database not in (None, "", ":memory:"):
            self._checkpointer = _Checkpointer(self.engine)
            self._checkpointer.start()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._actions = _ActionWriter(self.engine)
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        """Actions queued by :meth:`commit_action` for the next group commit."""

    def _check_writable(self) -> None:
        """Write a row and roll it back: fails on a read-only database."""
        with self.engine.connect() as connection:
            transaction = connection.begin()
            connection.execute(insert(Player).values(name="", created_at=datetime.now(UTC)))
            transaction.rollback()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits at the end of the block (or rolls back on an error)."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        """Release the connections (checkpointing SQLite's log a last time)."""
        with contextlib.suppress(Exception):  # nobody waits for them once the loop is gone
            self._flush()
        self._actions.drop()
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        self.engine.dispose()

    def add_action(self, hand_id: int, index: int, seat: int, action: dict[str, Any]) -> None:
        """Commit one accepted action now (one compiled insert and a commit on the connection
        kept for actions; no ORM session, no pool round trip)."""
        self._actions.add([(hand_id, index, seat, action, datetime.now(UTC))])

    async def commit_action(
        self, hand_id: int, index: int, seat: int, action: dict[str, Any]
    ) -> None:
        """Commit one accepted action, in one transaction with the others accepted within
        ``GROUP_TURNS`` turns of the event loop (group commit: under load one commit serves many
        tables). Returns once it is committed; raises if it could not be (then it is not in the
        database). A caller must not let anyone see the action before this returns."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append(((hand_id, index, seat, action, datetime.now(UTC)), future))
        if len(self._pending) == 1:
            _after_turns(loop, GROUP_TURNS, self._flush)
        await future

    def _flush(self) -> None:
        """Commit the queued actions together; if that fails, each on its own, so that one bad
        row fails only its own action."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        try:
            self._actions.add([row for row, _ in pending])
            outcomes: list[BaseException | None] = [None] * len(pending)
        except Exception:
            outcomes = []
            for row, _ in pending:
                try:
                    self._actions.add([row])
                    outcomes.append(None)
                except Exception as failure:
                    outcomes.append(failure)
        for (_, future), outcome in zip(pending, outcomes, strict=True):
            if future.done():
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)

    # ------------------------------------------------------------------ queries

    def room_by_code(self, session: Session, code: str) -> Room | None:
        """The room with this code, or None."""
        return session.scalars(select(Room).where(Room.code == code)).one_or_none()

    def running_rooms(self, session: Session) -> list[Room]:
        """Rooms whose match was interrupted (to resume after a restart)."""
        return list(session.scalars(select(Room).where(Room.status == "playing")))

    def rooms_with_unready_seats(self, session: Session) -> list[str]:
        """The codes of the waiting rooms where a person sits who is not ready yet."""
        query = (select(Room.code).join(Seat, Seat.room_id == Room.id)
                 .where(Room.status == "waiting", Seat.player_id.is_not(None),
                        Seat.ready.is_(False)).distinct())
        return list(session.scalars(query))

    def unfinished_codes(self, session: Session, codes: set[str]) -> set[str]:
        """The codes among ``codes`` of rooms not finished (waiting or playing)."""
        query = select(Room.code).where(Room.code.in_(codes), Room.status != "finished")
        return set(session.scalars(query))

    def count_waiting(self, session: Session) -> int:
        """How many rooms wait for their match to start."""
        return session.scalar(select(func.count()).select_from(Room)
                              .where(Room.status == "waiting")) or 0

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
        query = (select(ActionRow.seat, ActionRow.action).where(ActionRow.hand_id == hand_id)
                 .order_by(ActionRow.index))
        rows = session.execute(query)  # plain rows: no ORM object per action
        for _ in replay_iter(({"seat": seat, "action": action} for seat, action in rows),
                             table=table):
            pass
        return table

    def player(self, session: Session, player_id: int) -> Player | None:
        """A player by id."""
        return session.get(Player, player_id)

    def seats_of_player(self, session: Session, player_id: int) -> list[Seat]:
        """Every seat a player took."""
        return list(session.scalars(select(Seat).where(Seat.player_id == player_id)))


__all__ = ["Store", "StoreError", "migrate", "new_code", "new_token", "token_hash", "token_matches"]
