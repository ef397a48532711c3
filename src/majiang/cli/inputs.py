"""Reading the text files and streams given on the command line: UTF-8 (a byte-order mark is
allowed), anything else is one clear error instead of a traceback."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..errors import not_utf8

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


__all__ = ["ENCODING", "open_text", "read_text"]
