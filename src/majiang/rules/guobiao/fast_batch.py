"""The batch's hot path: one JSON line in, one JSON line out, no result objects in between.

``score_line`` answers the lines of the common form: known fields with values of the expected
types, a hand in the plain notation, a winning hand. For every other line it returns None and
the batch command scores the line through the general path, which also words the errors. Both
paths write the same bytes.
"""

from __future__ import annotations

import json

from ...errors import MajiangError
from ...hand import WinContext
from ...notation import read_meld
from .fans import FANS, POINTS, FanId
from .fast_notation import read_plain
from .options import GuobiaoOptions
from .scoring import MIN_FANS, counted_fans, fan_record, ranked

_FIELDS = frozenset(
    {"hand", "win", "seat_wind", "prevalent_wind", "flowers", "last_tile", "kong", "fourth_tile"}
    | {"id"}
)
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
_FLAGS = (("last_tile", 1 << 5), ("kong", 1 << 6), ("fourth_tile", 1 << 7))
_CONTEXTS: dict[int, WinContext] = {}
"""Situations by their bits (self-drawn, winds, flags, flowers): a few hundred at most."""
_FAN_JSON: list[list[str]] = [[] for _ in POINTS]
"""The JSON text of each fan by id and count."""


def score_line(line: str, options: GuobiaoOptions) -> str | None:
    """The JSON answer to one batch line of the common form, or None for the general path."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    for name in record:
        if name not in _FIELDS:
            return None
    context = _context(record)
    text = record.get("hand")
    if context is None or not isinstance(text, str):
        return None
    plain = read_plain(text, read_meld)
    if plain is None:
        return None
    melds, tiles, written_flowers = plain
    if 3 * len(melds) + len(tiles) != 14:
        return None
    concealed = [0] * 34
    for t in tiles:
        concealed[t] += 1
    flowers = len(written_flowers) + context.extra_flowers
    try:
        found = counted_fans(tuple(melds), concealed, tiles[-1], flowers, context, options)
    except MajiangError:
        return None
    if found is None:
        return None
    fans, base_total = found
    parts = [fan_json(f, fans[f]) for f in ranked(fans)]
    total = base_total + flowers
    minimum = "true" if base_total >= MIN_FANS else "false"
    head = ""
    if "id" in record:
        head = f'"id": {json.dumps(record["id"], ensure_ascii=False)}, '
    return f'{{{head}"total": {total}, "fans": [{", ".join(parts)}], "meets_minimum": {minimum}}}'


def _context(record: dict[str, object]) -> WinContext | None:
    """The situation of a record whose fields have the plain types, else None."""
    win = record.get("win", "discard")
    if win == "self_drawn":
        key = 1
    elif win == "discard":
        key = 0
    else:
        return None
    seat = record.get("seat_wind", "E")
    prevalent = record.get("prevalent_wind", "E")
    if not isinstance(seat, str) or not isinstance(prevalent, str):
        return None
    if seat not in _WINDS or prevalent not in _WINDS:
        return None
    key |= _WINDS[seat] << 1 | _WINDS[prevalent] << 3
    for name, bit in _FLAGS:
        flag = record.get(name, False)
        if flag is True:
            key |= bit
        elif flag is not False:
            return None
    flowers = record.get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:
        return None
    key |= flowers << 8
    context = _CONTEXTS.get(key)
    if context is None:
        context = _CONTEXTS[key] = WinContext(
            self_drawn=bool(key & 1),
            seat_wind=key >> 1 & 3,
            prevalent_wind=key >> 3 & 3,
            last_tile=bool(key & 1 << 5),
            kong=bool(key & 1 << 6),
            fourth_tile=bool(key & 1 << 7),
            extra_flowers=flowers,
        )
    return context


def fan_json(fan: FanId, count: int) -> str:
    """``json.dumps`` of one counted fan's record, from the cache."""
    texts = _FAN_JSON[fan]
    while len(texts) <= count:
        texts.append(json.dumps(fan_record(FANS[fan], len(texts)), ensure_ascii=False))
    return texts[count]
