"""The plain forms of the hand notation, read byte by byte (compiled with the scorer).

``read_plain`` reads tiles, flowers and bracketed sets without spaces; anything else (spaces,
the older ``[567m2]`` form, any error) gives None, and the exact parser of
:mod:`majiang.notation` reads the text again and explains what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ...hand import Hand, Meld

MeldReader = Callable[[str, str, int], "Meld | None"]
"""Reads one bracketed token (``token, text, position``) into a set, None if not plain."""
Plain = tuple[list[Meld], list[int], list[int]]
"""Declared sets, concealed tiles in written order, flowers."""

MAX_MELDS: Final = 4
_DIGIT: Final = 1
"""Codes of the bytes: 1-9 a digit (rank + 1), 10-12 a suit letter (m s p), 20-26 an honour
(E S W N C F P), 30-37 a flower (a-h), 40 ``[``, 0 anything else."""
_SUIT: Final = 10
_HONOR: Final = 20
_FLOWER: Final = 30
_OPEN: Final = 40


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
_MELDS: dict[str, Meld] = {}
"""Bracketed token -> set: a batch uses a few hundred distinct ones."""
_CACHE_LIMIT: Final = 100_000


def read_plain(text: str, read_meld: MeldReader) -> Plain | None:
    """The sets, concealed tiles and flowers of ``text`` if it is written plainly, else None."""
    if not text.isascii():
        return None
    data = text.encode()
    melds: list[Meld] = []
    concealed: list[int] = []
    flowers: list[int] = []
    ranks: list[int] = []
    i = 0
    n = len(data)
    while i < n:
        code = _CODES[data[i]]
        if _DIGIT <= code < _SUIT:
            ranks.append(code - _DIGIT)
        elif _SUIT <= code < _HONOR:
            if not ranks:
                return None
            base = (code - _SUIT) * 9
            for r in ranks:
                concealed.append(base + r)
            ranks.clear()
        elif ranks:
            return None
        elif _HONOR <= code < _FLOWER:
            concealed.append(27 + code - _HONOR)
        elif _FLOWER <= code < _OPEN:
            flower = 34 + code - _FLOWER
            if flower in flowers:
                return None
            flowers.append(flower)
        elif code == _OPEN:
            end = text.find("]", i)
            if end < 0 or len(melds) == MAX_MELDS:
                return None
            token = text[i : end + 1]
            meld = _MELDS.get(token)
            if meld is None:
                meld = read_meld(token, text, i)
                if meld is None:
                    return None
                if len(_MELDS) < _CACHE_LIMIT:
                    _MELDS[token] = meld
            melds.append(meld)
            i = end
        else:
            return None
        i += 1
    if ranks:
        return None
    return melds, concealed, flowers


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
