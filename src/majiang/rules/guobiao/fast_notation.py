"""The plain forms of the hand notation, read byte by byte (compiled with the scorer).

``read_plain`` reads tiles, flowers and bracketed sets without spaces; anything else (spaces,
the older ``[567m2]`` form, any error) gives None, and the exact parser of
:mod:`majiang.notation` reads the text again and explains what is wrong. ``scan_plain`` does the
reading on a range of bytes, so that the batch reads a hand where it stands in its JSON line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ...hand import Hand, Meld

MeldReader = Callable[[str, str, int], "Meld | None"]
"""Reads one bracketed token (``token, text, position``) into a set, None if not plain."""
Plain = tuple[list[Meld], list[int], list[int]]
"""Declared sets, concealed tiles in written order, flowers (sorted)."""

MAX_MELDS: Final = 4
_DIGIT: Final = 1
"""Codes of the bytes: 1-9 a digit (rank + 1), 10-12 a suit letter (m s p), 20-26 an honour
(E S W N C F P), 30-37 a flower (a-h), 40 ``[``, 0 anything else."""
_SUIT: Final = 10
_HONOR: Final = 20
_FLOWER: Final = 30
_OPEN: Final = 40
_CLOSE: Final = 93
"""The byte of ``]``."""


def _codes() -> bytes:
    table = bytearray(256)
    for i, ch in enumerate("123456789"):
        table[ord(ch)] = _DIGIT + i
    for i, ch in enumerate("msp"):
        table[ord(ch)] = _SUIT + i
    for i, ch in enumerate("ESWNCFP"):
        table[ord(ch)] = _HONOR + i
    for i, ch in enumerate("abcdefgh"):
        table[ord(ch)] = _FLOWER + i
    table[ord("[")] = _OPEN
    return bytes(table)


_CODES: Final = _codes()
_MELDS: Final[dict[int, Meld]] = {}
"""Bracketed token (packed by ``_token_key``) -> set: a batch uses a few hundred distinct ones."""
_CACHE_LIMIT: Final = 100_000
_KEYED_LENGTH: Final = 8
"""Tokens with at most this many bytes between the brackets are cached (7 bits a byte)."""


def scan_plain(
    data: bytes,
    start: int,
    end: int,
    source: str,
    read_meld: MeldReader,
    melds: list[Meld],
    concealed: list[int],
) -> int:
    """Read the hand written plainly in ``data[start:end]``, the ASCII bytes of
    ``source[start:end]``: append its sets to ``melds`` and its concealed tiles, in written
    order, to ``concealed``; return its flowers as bits (``a`` is bit 0), or -1 if the hand is
    not written plainly. A malformed set raises the notation's error (from ``read_meld``)."""
    flowers = 0
    run = -1  # where the digits waiting for their suit letter start
    i = start
    while i < end:
        code = _CODES[data[i]]
        if code < _SUIT:
            if code == 0:
                return -1
            if run < 0:
                run = i
        elif code < _HONOR:
            if run < 0:
                return -1
            base = (code - _SUIT) * 9 - _DIGIT
            for j in range(run, i):
                concealed.append(base + _CODES[data[j]])
            run = -1
        elif run >= 0:
            return -1
        elif code < _FLOWER:
            concealed.append(27 + code - _HONOR)
        elif code < _OPEN:
            bit = 1 << (code - _FLOWER)
            if flowers & bit:
                return -1
            flowers |= bit
        else:
            close = i + 1
            while close < end and data[close] != _CLOSE:
                close += 1
            if close == end or len(melds) == MAX_MELDS:
                return -1
            meld = _meld_at(data, i, close, start, end, source, read_meld)
            if meld is None:
                return -1
            melds.append(meld)
            i = close
        i += 1
    if run >= 0:
        return -1
    return flowers


def _meld_at(
    data: bytes, i: int, close: int, start: int, end: int, source: str, read_meld: MeldReader
) -> Meld | None:
    """The set bracketed by ``data[i]`` and ``data[close]`` (cached by its bytes)."""
    length = close - i - 1
    key = -1
    if 0 < length <= _KEYED_LENGTH:
        key = 0
        for j in range(i + 1, close):
            key = key << 7 | data[j]
        key = key << 4 | length
        meld = _MELDS.get(key)
        if meld is not None:
            return meld
    meld = read_meld(source[i : close + 1], source[start:end], i - start)
    if meld is not None and key >= 0 and len(_MELDS) < _CACHE_LIMIT:
        _MELDS[key] = meld
    return meld


def read_plain(text: str, read_meld: MeldReader) -> Plain | None:
    """The sets, concealed tiles and flowers of ``text`` if it is written plainly, else None."""
    if not text.isascii():
        return None
    data = text.encode()
    melds: list[Meld] = []
    concealed: list[int] = []
    bits = scan_plain(data, 0, len(data), text, read_meld, melds, concealed)
    if bits < 0:
        return None
    return melds, concealed, [34 + f for f in range(8) if bits >> f & 1]


def parse_plain(text: str, read_meld: MeldReader) -> Hand | None:
    """The hand written plainly in ``text``, else None."""
    plain = read_plain(text, read_meld)
    return None if plain is None else hand_of(*plain)


def hand_of(melds: list[Meld], concealed: list[int], flowers: list[int]) -> Hand:
    """A hand from tiles in written order: the last concealed tile is the winning (or drawn) tile
    of a complete count (14, 11, ...); a waiting count (13, 10, ...) has none."""
    win: int | None = None
    if (3 * len(melds) + len(concealed)) % 3 == 2 and concealed:
        win = concealed.pop()
    concealed.sort()
    flowers.sort()
    return Hand(tuple(melds), tuple(concealed), win, tuple(flowers))
