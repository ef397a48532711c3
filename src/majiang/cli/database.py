"""The database URL of ``majiang serve`` and ``majiang sheet``: its errors in one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import MajiangError

EXAMPLE = "sqlite:///majiang.db or postgresql+psycopg://user@host/db"


class DatabaseError(MajiangError):
    """A database URL that is malformed, of an unknown kind, or that cannot be opened."""


@contextmanager
def opening(url: str) -> Iterator[None]:
    """Around the code that opens the database at ``url``: its failures become one
    :class:`DatabaseError` saying what is wrong (the server extra must be installed)."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        shown = shown_url(url)
    except ArgumentError:
        raise DatabaseError(f"--db {url!r} is not a database URL (for example {EXAMPLE})") from None
    try:
        yield
    except NoSuchModuleError:
        raise DatabaseError(
            f"--db {shown!r}: unknown kind of database (SQLite and PostgreSQL work: {EXAMPLE})"
        ) from None
    except ModuleNotFoundError as error:
        raise DatabaseError(
            f"--db {shown!r}: its database driver {error.name!r} is not installed "
            f"(SQLite and PostgreSQL work: {EXAMPLE})"
        ) from None
    except SQLAlchemyError as error:
        lines = str(getattr(error, "orig", None) or error).strip().splitlines() or [repr(error)]
        raise DatabaseError(f"cannot open the database {shown}: {lines[0]}") from None


def shown_url(url: str) -> str:
    """``url`` with its password masked, to be printed."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["EXAMPLE", "DatabaseError", "opening", "shown_url"]
