"""The hand notation of ``docs/rules/guobiao.md`` §1.2: parsing and the canonical form.

``[WWWW,1][444s]45m678pFF6m`` is an exposed kong of West claimed from the left, a pung of 4s, and
the concealed tiles 4m 5m 6p 7p 8p F F with 6m, the last concealed tile, as the winning tile.

Compiled with the scorer. The plain forms (tiles, flowers and bracketed sets without spaces)
are read byte by byte (``scan_plain``, also used by the batch to read a hand where it stands in
its JSON line); anything else (spaces, the older ``[567m2]`` form, any error) is read again by
the exact parser, which explains what is wrong. The public functions take ``object`` and check
the type themselves, so that a value of any type gives a :class:`NotationError`.

The canonical form is written where its types live (``format_tiles`` in :mod:`majiang.tiles`,
``format_meld`` and ``format_hand`` in :mod:`majiang.hand`, which ``str(hand)`` uses) and is
offered here with the parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from .errors import InvalidHandError, NotationError
from .hand import ADDED_KONG_OFFSET, CONCEALED_KONG, Hand, Meld, MeldKind, format_hand, format_meld
from .tiles import FIRST_FLOWER, FLOWER_LETTERS, HONOR_LETTERS, SUITS, format_tiles, tile_name

MAX_COPIES: Final = 4
MAX_MELDS: Final = 4


def parse_tiles(text: object) -> list[int]:
    """Parse a plain list of tiles (``"123m55pE"``, no brackets or flowers), in written order."""
    if not isinstance(text, str):
        raise NotationError(f"tiles must be a string, not {type(text).__name__}")
    tiles: list[int] = []
    pending: list[tuple[int, int]] = []
    for pos, ch in enumerate(text):
        if ch.isspace() or ch == ",":
            continue
        if ch in _DIGITS:
            if ch == "0":
                raise NotationError("0 is not a tile rank", text, pos)
            pending.append((int(ch), pos))
        elif ch in SUITS:
            if not pending:
                raise NotationError(f"suit letter {ch!r} without digits", text, pos)
            base = SUITS.index(ch) * 9
            tiles.extend(base + rank - 1 for rank, _ in pending)
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError("digits without a suit letter", text, pending[0][1])
            tiles.append(27 + HONOR_LETTERS.index(ch))
        else:
            raise NotationError(f"unexpected character {ch!r}", text, pos)
    if pending:
        raise NotationError("digits without a suit letter", text, pending[0][1])
    return tiles


def parse_hand(text: object, *, allowed_counts: tuple[int, ...] = (13, 14)) -> Hand:
    """Parse a hand; raise :class:`NotationError` naming what is wrong and where.

    ``allowed_counts`` is the tile count the caller accepts (declared sets count three tiles each).
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand must be a string, not {type(text).__name__}")
    hand = parse_plain(text, read_meld)
    if hand is None:
        hand = _parse_slow(text)
    _check_copies(hand, text)
    _check_count(hand, text, allowed_counts)
    return hand


_MELD_BODY = re.compile(r"(?:([1-9]+)([msp])|([ESWNCFP]+))(?:,?([1-7]))?")
_HONOR_BASE = 27


def read_meld(token: str, text: str, pos: int) -> Meld | None:
    """One bracketed token at ``pos`` of ``text`` as a set; None if it is not in a plain form."""
    body = _MELD_BODY.fullmatch(token, 1, len(token) - 1)
    if body is None:
        return None
    digits, suit, honors, source = body.groups()
    if digits is not None:
        base = _SUIT_BASE[suit] - 1
        tiles = [base + int(d) for d in digits]
    else:
        tiles = [_HONOR_BASE + HONOR_LETTERS.index(h) for h in honors]
    return make_meld(tiles, int(source) if source else None, text, pos)


_SUIT_BASE = {"m": 0, "s": 9, "p": 18}
_DIGITS = frozenset("0123456789")


def _parse_slow(text: str) -> Hand:
    melds: list[Meld] = []
    concealed: list[int] = []
    flowers: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank, position) of digits awaiting their suit letter
    meld_start: int | None = None
    meld_tiles: list[int] = []
    meld_source: int | None = None
    after_comma = False

    def flush_suit(letter: str, pos: int, into: list[int]) -> None:
        if not pending:
            raise NotationError(f"suit letter {letter!r} without digits", text, pos)
        base = SUITS.index(letter) * 9
        into.extend(base + rank - 1 for rank, _ in pending)
        pending.clear()

    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if meld_start is not None and after_comma:
            if ch not in _DIGITS:
                if ch == "]":
                    raise NotationError("',' must be followed by a source digit", text, pos)
                raise NotationError(f"unexpected {ch!r} after the source digit", text, pos)
            if meld_source is not None:
                raise NotationError("the source is a single digit", text, pos)
            meld_source = int(ch)
            after_comma = False
            continue
        if ch in _DIGITS:
            if ch == "0":
                raise NotationError("0 is not a tile rank", text, pos)
            if meld_source is not None:
                raise NotationError("the source digit must end the set", text, pos)
            pending.append((int(ch), pos))
        elif ch in SUITS:
            flush_suit(ch, pos, meld_tiles if meld_start is not None else concealed)
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError("digits without a suit letter", text, pending[0][1])
            if meld_source is not None:
                raise NotationError("the source digit must end the set", text, pos)
            (meld_tiles if meld_start is not None else concealed).append(
                27 + HONOR_LETTERS.index(ch)
            )
        elif ch in FLOWER_LETTERS:
            if meld_start is not None:
                raise NotationError("a flower cannot be part of a set", text, pos)
            if pending:
                raise NotationError("digits without a suit letter", text, pending[0][1])
            if melds or concealed:
                raise NotationError(_late_flower(ch), text, pos)
            flower = FIRST_FLOWER + FLOWER_LETTERS.index(ch)
            if flower in flowers:
                raise NotationError(f"flower {ch!r} appears twice", text, pos)
            flowers.append(flower)
        elif ch == "[":
            if meld_start is not None:
                raise NotationError("'[' inside a set", text, pos)
            if pending:
                raise NotationError("digits without a suit letter", text, pending[0][1])
            meld_start, meld_tiles, meld_source = pos, [], None
        elif ch == ",":
            if meld_start is None:
                raise NotationError("',' outside a set", text, pos)
            if pending:
                raise NotationError("digits without a suit letter", text, pending[0][1])
            after_comma = True
        elif ch == "]":
            if meld_start is None:
                raise NotationError("']' without '['", text, pos)
            if pending:  # the older form without the comma: [567m2]
                if len(pending) > 1 or meld_source is not None:
                    raise NotationError("digits without a suit letter", text, pending[0][1])
                meld_source = pending.pop()[0]
            melds.append(make_meld(meld_tiles, meld_source, text, meld_start))
            if len(melds) > MAX_MELDS:
                raise NotationError("more than 4 declared sets", text, meld_start)
            meld_start, meld_source = None, None
        else:
            raise NotationError(f"unexpected character {ch!r}", text, pos)
    if meld_start is not None:
        raise NotationError("'[' is never closed", text, meld_start)
    if pending:
        raise NotationError("digits without a suit letter", text, pending[0][1])

    return hand_of(melds, concealed, flowers)


def _late_flower(letter: str) -> str:
    """The error of a flower letter after the tiles: flowers are written first, so that a
    lower-case honour letter (``e``, ``c``, ``f``) is a typo, not a flower."""
    message = f"flower {letter!r} after the tiles: flowers are written first (ab123m...)"
    honour = letter.upper()
    if honour in HONOR_LETTERS:
        message += f"; the honour is {honour!r}"
    return message


def make_meld(
    tiles: list[int],
    source: int | None,
    text: str,
    pos: int,
    *,
    unmarked_kong: int = CONCEALED_KONG,
) -> Meld:
    """A declared set from its tiles (any order) and ``,N`` digit, or a :class:`NotationError`
    naming what is wrong at ``pos`` of ``text``; a kong without a digit gets ``unmarked_kong``."""
    tiles = sorted(tiles)
    if len(tiles) == 4 and len(set(tiles)) == 1:
        if source is None:
            return Meld(MeldKind.KONG, tiles[0], unmarked_kong)
        if source not in (1, 2, 3, 5, 6, 7):
            raise NotationError(
                f"kong source must be 1-3 (exposed) or 5-7 (added), not {source}", text, pos
            )
        return Meld(MeldKind.KONG, tiles[0], source)
    if source is None:
        source = 1
    if len(tiles) == 3 and len(set(tiles)) == 1:
        if source not in (1, 2, 3):
            raise NotationError(f"pung source must be 1-3, not {source}", text, pos)
        return Meld(MeldKind.PUNG, tiles[0], source)
    if (
        len(tiles) == 3
        and tiles[2] < 27
        and tiles[0] // 9 == tiles[2] // 9
        and tiles[1] == tiles[0] + 1
        and tiles[2] == tiles[0] + 2
    ):
        if source not in (1, 2, 3):
            raise NotationError(f"chow claimed-tile index must be 1-3, not {source}", text, pos)
        return Meld(MeldKind.CHOW, tiles[0], source)
    shown = "".join(tile_name(t) for t in tiles) or "nothing"
    raise NotationError(f"a declared set must be a chow, pung or kong, not {shown}", text, pos)


def _check_copies(hand: Hand, text: str) -> None:
    counts = hand.kind_counts()
    most = max(counts)
    if most > MAX_COPIES:
        kind = counts.index(most)
        raise InvalidHandError(f"{most} copies of {tile_name(kind)} in {text!r} (at most 4)")


def _check_count(hand: Hand, text: str, allowed_counts: tuple[int, ...]) -> None:
    if hand.tile_count not in allowed_counts:
        wanted = " or ".join(str(n) for n in allowed_counts)
        raise InvalidHandError(
            f"{hand.tile_count} tiles in {text!r} (a declared set counts 3), expected {wanted}"
        )


# --------------------------------------------------------------------------- the plain forms

MeldReader = Callable[[str, str, int], "Meld | None"]
"""Reads one bracketed token (``token, text, position``) into a set, None if not plain."""
Plain = tuple[list[Meld], list[int], list[int]]
"""Declared sets, concealed tiles in written order, flowers (sorted)."""

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
    tiles_before = len(concealed) + len(melds)  # a flower after a tile or set is an error
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
            if flowers & bit or len(concealed) + len(melds) != tiles_before:
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


__all__ = [
    "ADDED_KONG_OFFSET",
    "format_hand",
    "format_meld",
    "format_tiles",
    "parse_hand",
    "parse_tiles",
    "read_meld",
    "scan_plain",
]
