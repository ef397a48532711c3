"""The batch's hot path: one JSON line in, one JSON line out, no result objects in between.

``score_line`` answers the lines of the common form: known fields with values of the expected
types, a hand in the plain notation, a winning hand. For every other line it returns None and
the batch command scores the line through the general path, which also words the errors. Both
paths write the same bytes.

A line is read where it stands, byte by byte, when it is ASCII JSON of the usual shape: an
object of distinct known fields whose strings have no escapes and whose ``id``, if any, is such
a string or a plain integer. Other lines of the common form are decoded by ``json.loads``.
"""

from __future__ import annotations

import json
from types import FunctionType
from typing import Final, final

from ...errors import MajiangError
from ...hand import Meld, WinContext
from ...notation import read_meld, scan_plain
from .fans import FANS, POINTS, FanId
from .options import GuobiaoOptions
from .scoring import MIN_FANS, HandScorer, fan_record

_FIELDS: Final = frozenset(
    {"hand", "win", "seat_wind", "prevalent_wind", "flowers", "last_tile", "kong", "fourth_tile"}
    | {"id"}
)
_WINDS: Final = {"E": 0, "S": 1, "W": 2, "N": 3}
_FLAGS: Final = (("last_tile", 1 << 5), ("kong", 1 << 6), ("fourth_tile", 1 << 7))
_CONTEXTS: Final[list[WinContext | None]] = [None] * (1 << 12)
"""Situations by their bits (self-drawn, winds, flags, flowers; see ``_context_of``)."""
_FAN_JSON: Final[list[list[str]]] = [[] for _ in POINTS]
"""The JSON text of each fan by id and count."""


def score_line(line: str, options: GuobiaoOptions) -> str | None:
    """The JSON answer to one batch line of the common form, or None for the general path."""
    if _COMPILED and line.isascii():
        data = line.encode()
        record = _read_record(data, line)
        if record is not None:
            head = "" if record.id_text is None else f'"id": {record.id_text}, '
            start, end = record.hand_start, record.hand_end
            return _answer(data, start, end, line, record.key, head, options)
    return _score_decoded(line, options)


def _score_decoded(line: str, options: GuobiaoOptions) -> str | None:
    """``score_line`` for a line that ``json.loads`` decodes."""
    try:
        decoded = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(decoded, dict):
        return None
    for name in decoded:
        if name not in _FIELDS:
            return None
    key = _situation_key(decoded)
    text = decoded.get("hand")
    if key < 0 or not isinstance(text, str) or not text.isascii():
        return None
    head = ""
    if "id" in decoded:
        head = f'"id": {json.dumps(decoded["id"], ensure_ascii=False)}, '
    return _answer(text.encode(), 0, len(text), text, key, head, options)


def _answer(
    data: bytes,
    start: int,
    end: int,
    source: str,
    key: int,
    head: str,
    options: GuobiaoOptions,
) -> str | None:
    """The JSON answer for the hand written in ``data[start:end]`` (the bytes of
    ``source[start:end]``) in the situation ``key``, or None for the general path."""
    melds: list[Meld] = []
    tiles: list[int] = []
    try:
        flower_bits = scan_plain(data, start, end, source, read_meld, melds, tiles)
    except MajiangError:
        return None
    if flower_bits < 0 or 3 * len(melds) + len(tiles) != 14:
        return None
    concealed = [0] * 34
    for t in tiles:
        concealed[t] = concealed[t] + 1
    context = _context_of(key)
    flowers = _BIT_COUNTS[flower_bits] + context.extra_flowers
    try:
        found = HandScorer(
            tuple(melds), concealed, tiles[-1], flowers, context, options, False
        ).counted()
    except MajiangError:
        return None
    if found is None:
        return None
    fans, order, base_total = found
    parts = [f'{{{head}"total": {base_total + flowers}, "fans": [']
    for fan in order:
        if len(parts) > 1:
            parts.append(", ")
        parts.append(fan_json(fan, fans[fan]))
    parts.append(_MEETS if base_total >= MIN_FANS else _MISSES)
    return "".join(parts)


_MEETS: Final = '], "meets_minimum": true}'
_MISSES: Final = '], "meets_minimum": false}'


_BIT_COUNTS: Final = bytes(bin(bits).count("1") for bits in range(256))


# --------------------------------------------------------------------------- the situation


def _situation_key(record: dict[str, object]) -> int:
    """The bits of the situation of a decoded record whose fields have the plain types, else -1:
    bit 0 self-drawn, bits 1-2 the seat wind, 3-4 the prevalent wind, 5-7 last tile, kong, 4th
    tile, 8-11 the flowers."""
    win = record.get("win", "discard")
    if win == "self_drawn":
        key = 1
    elif win == "discard":
        key = 0
    else:
        return -1
    seat = record.get("seat_wind", "E")
    prevalent = record.get("prevalent_wind", "E")
    if not isinstance(seat, str) or not isinstance(prevalent, str):
        return -1
    if seat not in _WINDS or prevalent not in _WINDS:
        return -1
    key |= _WINDS[seat] << 1 | _WINDS[prevalent] << 3
    for name, bit in _FLAGS:
        flag = record.get(name, False)
        if flag is True:
            key |= bit
        elif flag is not False:
            return -1
    flowers = record.get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:
        return -1
    return key | flowers << 8


def _context_of(key: int) -> WinContext:
    """The situation of ``key`` (see ``_situation_key``), made once."""
    context = _CONTEXTS[key]
    if context is None:
        context = WinContext(
            self_drawn=bool(key & 1),
            seat_wind=key >> 1 & 3,
            prevalent_wind=key >> 3 & 3,
            last_tile=bool(key & 1 << 5),
            kong=bool(key & 1 << 6),
            fourth_tile=bool(key & 1 << 7),
            extra_flowers=key >> 8,
        )
        _CONTEXTS[key] = context
    return context


def fan_json(fan: FanId, count: int) -> str:
    """``json.dumps`` of one counted fan's record, from the cache."""
    texts = _FAN_JSON[fan]
    while len(texts) <= count:
        texts.append(json.dumps(fan_record(FANS[fan], len(texts)), ensure_ascii=False))
    return texts[count]


# --------------------------------------------------------------------------- reading a line


@final
class _Record:
    """What ``_read_record`` found in a line: where the hand is, the situation, the id."""

    def __init__(self) -> None:
        self.hand_start = -1
        self.hand_end = -1
        self.key = 0
        """The situation's bits, as ``_situation_key`` gives them."""
        self.id_text: str | None = None
        """The id's JSON text, None without an id."""


_HAND: Final = 0
_WIN: Final = 1
_SEAT: Final = 2
_PREVALENT: Final = 3
_FLOWERS: Final = 4
_LAST_TILE: Final = 5
_KONG: Final = 6
_FOURTH_TILE: Final = 7
_ID: Final = 8
_NAMES: Final[tuple[str, ...]] = (
    'hand"',
    'win"',
    'seat_wind"',
    'prevalent_wind"',
    'flowers"',
    'last_tile"',
    'kong"',
    'fourth_tile"',
    'id"',
)
"""The fields by their numbers above, with the quote that closes the name (typed as a tuple of
any length, which compiled code indexes without building a tuple)."""
_FIELD_BY_FIRST_BYTE: Final[tuple[int, ...]] = tuple(
    next((field for field, name in enumerate(_NAMES) if ord(name[0]) == b), -1)
    for b in range(256)
)
"""The field whose name starts with each byte, -1 for none (``f``: flowers, which
``_field_at`` tells from fourth_tile by the next letter)."""
_FLAG_BITS: Final[tuple[int, ...]] = (0, 0, 0, 0, 0, 1 << 5, 1 << 6, 1 << 7)
"""The situation bit of each flag field."""
_WIND_OF: Final = bytes(
    "ESWN".index(chr(b)) + 1 if chr(b) in "ESWN" else 0 for b in range(256)
)
"""Wind letter byte -> wind + 1 (0 for any other byte)."""
_SPACE: Final = bytes(1 if chr(b) in " \t\n\r" else 0 for b in range(256))
"""The bytes that JSON skips between tokens."""
_QUOTE: Final = 34
_BACKSLASH: Final = 92
_MAX_ID_DIGITS: Final = 18


def _read_record(data: bytes, line: str) -> _Record | None:
    """The fields of a line that is a JSON object of the usual shape (``data`` is the line's
    ASCII bytes), or None for ``json.loads`` to decode it."""
    try:
        return _read_fields(data, line)
    except IndexError:  # the line ends in the middle of the object
        return None


def _read_fields(data: bytes, line: str) -> _Record | None:
    """``_read_record`` without the end-of-line checks: reading past the end raises IndexError."""
    i = _skip(data, 0)
    if data[i] != 123:  # {
        return None
    record = _Record()
    seen = 0
    i = _skip(data, i + 1)
    while True:
        if data[i] != _QUOTE:
            return None
        field = _field_at(data, i + 1, line)
        if field < 0 or seen >> field & 1:
            return None
        seen |= 1 << field
        i += 1 + len(_NAMES[field])
        if data[i] == 58 and data[i + 1] == 32:  # the usual ": "
            i += 2
        else:
            i = _skip(data, i)
            if data[i] != 58:  # :
                return None
            i += 1
        if _SPACE[data[i]]:
            i = _skip(data, i)
        i = _value(data, i, field, record, line)
        if i < 0:
            return None
        b = data[i]
        if _SPACE[b]:
            i = _skip(data, i)
            b = data[i]
        if b == 125:  # }
            break
        if b != 44:  # ,
            return None
        i += 1
        if _SPACE[data[i]]:
            i = _skip(data, i)
    if not seen & 1 << _HAND or _skip(data, i + 1) != len(data):
        return None
    return record


def _skip(data: bytes, i: int) -> int:
    """The index of the first byte from ``i`` on that is not JSON whitespace (the length of
    ``data`` if there is none)."""
    n = len(data)
    while i < n and _SPACE[data[i]]:
        i += 1
    return i


def _field_at(data: bytes, i: int, line: str) -> int:
    """The number of the field whose name (and closing quote) starts at ``data[i]``, -1 if the
    name is not a field's."""
    field = _FIELD_BY_FIRST_BYTE[data[i]]
    if field == _FLOWERS and data[i + 1] != 108:  # l
        field = _FOURTH_TILE
    return field if field >= 0 and _is_at(line, i, _NAMES[field]) else -1


def _is_at(line: str, i: int, word: str) -> bool:
    """Whether ``line`` holds ``word`` at ``i`` (a search in a window as wide as the word:
    compiled, it allocates nothing)."""
    return line.find(word, i, i + len(word)) == i


def _value(data: bytes, i: int, field: int, record: _Record, line: str) -> int:
    """Read the value of ``field`` at ``data[i]`` into ``record``; return the index after it,
    or -1 if it is not of the plain type (``json.loads`` then decodes the line)."""
    b = data[i]
    if field >= _LAST_TILE and field <= _FOURTH_TILE:
        if b == 116 and _is_at(line, i, "true"):  # t
            record.key |= _FLAG_BITS[field]
            return i + 4
        if b == 102 and _is_at(line, i, "false"):  # f
            return i + 5
        return -1
    if field == _FLOWERS:
        if 48 <= b <= 56:  # 0-8; the caller rejects what follows a longer number
            record.key |= (b - 48) << 8
            return i + 1
        return -1
    if field == _ID:
        return _id(data, i, record, line)
    if b != _QUOTE:
        return -1
    i += 1
    if field == _HAND:
        close = line.find('"', i)
        if close < 0:
            return -1
        record.hand_start = i
        record.hand_end = close  # the notation's reader refuses backslashes and control bytes
        return close + 1
    if field == _WIN:
        if _is_at(line, i, 'discard"'):
            return i + 8
        if _is_at(line, i, 'self_drawn"'):
            record.key |= 1
            return i + 11
        return -1
    wind = _WIND_OF[data[i]]
    if not wind or data[i + 1] != _QUOTE:
        return -1
    record.key |= (wind - 1) << (1 if field == _SEAT else 3)
    return i + 2


def _id(data: bytes, i: int, record: _Record, line: str) -> int:
    """Read an id that ``json.dumps`` writes back as it is: a string without escapes or
    control characters, or an integer (no leading zero, no ``-0``)."""
    start = i
    if data[i] == _QUOTE:
        close = line.find('"', i + 1)
        if close < 0:
            return -1
        for j in range(i + 1, close):
            b = data[j]
            if b == _BACKSLASH or b < 32:
                return -1
        record.id_text = line[start : close + 1]
        return close + 1
    if data[i] == 45:  # -
        i += 1
    digits = i
    n = len(data)
    while i < n and 48 <= data[i] <= 57:
        i += 1
    count = i - digits
    if count == 0 or count > _MAX_ID_DIGITS:
        return -1
    if data[digits] == 48 and (count > 1 or digits > start):  # 0 leads only the number 0
        return -1
    record.id_text = line[start:i]
    return i


_COMPILED: Final = not isinstance(_skip, FunctionType)
"""Whether this module runs compiled: only then does reading a line byte by byte beat
``json.loads`` (interpreted, it is several times slower)."""
