"""Reading what the command line is given: text files and streams in UTF-8 (a byte-order mark is
allowed; anything else is one clear error instead of a traceback), and a HAND argument in any of
the notations pasted from elsewhere."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..errors import NotationError, not_utf8
from ..pasted import ACCEPTED, NAMES, to_project

ENCODING = "utf-8-sig"
"""UTF-8, with or without the byte-order mark that Windows tools write."""


@contextmanager
def open_text(path: str) -> Iterator[IO[str]]:
    """The text of ``path`` (``-``: stdin) as a stream; a decoding failure while it is read is
    an :class:`~majiang.errors.InputError` naming the file."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:  # already text (a test's StringIO)
                yield sys.stdin
            else:
                yield io.TextIOWrapper(buffer, encoding=ENCODING)
        else:
            with open(path, encoding=ENCODING) as source:
                yield source
    except UnicodeDecodeError as error:
        raise not_utf8(name, error) from None


def read_text(path: str) -> str:
    """The whole text of the file at ``path`` (see :func:`open_text`)."""
    try:
        return Path(path).read_bytes().decode(ENCODING)
    except UnicodeDecodeError as error:
        raise not_utf8(path, error) from None


def pasted_hand(text: str, notation: str) -> tuple[str, str]:
    """The HAND argument in majiang's notation, and a note saying what it was read from (empty
    for majiang's own notation)."""
    hand, found = to_project(text, notation)
    return hand, "" if found == "majiang" else f" (read from {NAMES[found]})"


def explain_notation(error: NotationError) -> NotationError:
    """A notation error of the HAND argument, with the notations accepted."""
    return NotationError(f"{error}; a hand is written in {ACCEPTED}")


__all__ = ["ENCODING", "explain_notation", "open_text", "pasted_hand", "read_text"]
