"""What people enter on a score sheet for one hand, checked for shape before any rule is asked.

An entry is plain JSON (the browser, the terminal and the database speak it):

``{"kind": "win", "winner": 0, "discarder": 2, "tiles": "123m456p789s11sEE1p"}`` and the
other ways to count a win (``"fans": {"28": 1, "62": 1}`` picked from the rule set's list, or
``"points": 12``, the count without flowers), ``"flowers"``, the situation flags (``"kong":
true``...), Huangyan's ``"wild"`` (the 得 indicator) with each loser's own count in ``"losers"``
(a total or the written hand) and ``"gunner": true``; ``{"kind": "draw"}``; ``{"kind":
"false_win", "seat": 1}``. Before a hand, ``"throw"`` bullets thrown by the dealer and the seats
that ``"accepted"`` them. A ``"note"`` is kept as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import MajiangError

KINDS = ("win", "draw", "false_win")
FLAGS = ("last_tile", "kong", "fourth_tile")
MAX_NOTE = 200
_FIELDS = frozenset(
    {"kind", "winner", "discarder", "seat", "tiles", "fans", "points", "flowers", "wild",
     "losers", "gunner", "throw", "accepted", "note", *FLAGS}
)


class EntryError(MajiangError):
    """An entry that cannot be recorded; ``index`` is its place on the sheet (0-based) when
    known, so that a correction that breaks a later hand says which."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a score sheet as entered."""

    kind: str
    winner: int | None = None
    discarder: int | None = None
    """The seat whose tile won (None: self-drawn)."""
    seat: int | None = None
    """The offender of a false win."""
    tiles: str | None = None
    fans: tuple[tuple[int, int], ...] = ()
    """Fans picked from the rule set's list: (id, count)."""
    points: int | None = None
    """The count given without flowers."""
    flowers: int = 0
    flags: frozenset[str] = field(default_factory=frozenset)
    wild: str | None = None
    losers: tuple[tuple[int, int | str], ...] = ()
    gunner: bool = False
    throw: int = 0
    accepted: tuple[int, ...] = ()
    note: str = ""

    @property
    def counted_by(self) -> str:
        """How a win was counted: ``tiles``, ``fans`` or ``points``."""
        return "tiles" if self.tiles is not None else "fans" if self.fans else "points"

    def to_json(self) -> dict[str, Any]:
        """The entry as it is stored (only the fields that say something)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in ("winner", "discarder", "seat", "tiles", "points", "wild"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.kind == "win" and self.discarder is None:
            out["discarder"] = None
        if self.fans:
            out["fans"] = {str(i): n for i, n in self.fans}
        if self.flowers:
            out["flowers"] = self.flowers
        for flag in FLAGS:
            if flag in self.flags:
                out[flag] = True
        if self.losers:
            out["losers"] = {str(s): v for s, v in self.losers}
        if self.gunner:
            out["gunner"] = True
        if self.throw:
            out["throw"] = self.throw
            out["accepted"] = list(self.accepted)
        if self.note:
            out["note"] = self.note
        return out


def _seat(data: Mapping[str, Any], name: str, *, required: bool) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise EntryError(f"{name} is missing: give a seat 0-3")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise EntryError(f"{name} must be a seat 0-3, not {value!r}")
    return value


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EntryError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EntryError(f"{what} must be text, not {value!r}")
    text = value.strip()
    if len(text) > limit:
        raise EntryError(f"{what} is too long (at most {limit} characters)")
    return text


def _fans(value: Any) -> tuple[tuple[int, int], ...]:
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = [(item, 1) if not isinstance(item, list) else tuple(item) for item in value]
    else:
        raise EntryError(f"fans must map fan ids to counts, not {value!r}")
    counted: dict[int, int] = {}
    for pair in pairs:
        if len(pair) != 2:
            raise EntryError(f"a picked fan is an id and a count, not {list(pair)!r}")
        raw, count = pair
        try:
            fan = int(raw)
        except (TypeError, ValueError):
            raise EntryError(f"a fan id must be a number, not {raw!r}") from None
        if fan in counted:
            raise EntryError(f"fan {fan} is picked twice")
        counted[fan] = _whole(count, f"the count of fan {fan}", 1, 8)
    return tuple(sorted(counted.items()))


def _losers(value: Any) -> tuple[tuple[int, int | str], ...]:
    if not isinstance(value, Mapping):
        raise EntryError(f"losers must map seats to their own counts, not {value!r}")
    out: dict[int, int | str] = {}
    for raw, count in value.items():
        try:
            seat = int(raw)
        except (TypeError, ValueError):
            raise EntryError(f"a loser is a seat 0-3, not {raw!r}") from None
        if not 0 <= seat <= 3:
            raise EntryError(f"a loser is a seat 0-3, not {raw!r}")
        if seat in out:
            raise EntryError(f"seat {seat} is entered twice among the losers")
        if isinstance(count, str):
            if not count.strip():
                raise EntryError(f"seat {seat}'s count is empty")
            out[seat] = _text(count, f"seat {seat}'s hand", 80)
        else:
            out[seat] = _whole(count, f"seat {seat}'s own count", 0, 100_000)
    return tuple(sorted(out.items()))


def parse_entry(data: Any) -> Entry:
    """An :class:`Entry` from JSON; :class:`EntryError` saying what is wrong and where."""
    if not isinstance(data, Mapping):
        raise EntryError(f"an entry is a JSON object, not {data!r}")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise EntryError(f"unknown field {unknown[0]!r} in the entry")
    kind = data.get("kind")
    if kind not in KINDS:
        raise EntryError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    note = _text(data.get("note", ""), "the note", MAX_NOTE)
    throw = _whole(data.get("throw", 0), "the bullets thrown", 0, 1000)
    accepted_raw = data.get("accepted", [])
    if not isinstance(accepted_raw, list):
        raise EntryError(f"accepted must list the seats that accepted, not {accepted_raw!r}")
    accepted = tuple(_whole(s, "a seat that accepted", 0, 3) for s in accepted_raw)
    if len(set(accepted)) != len(accepted):
        raise EntryError("a seat is entered twice among those who accepted the bullets")
    if accepted and not throw:
        raise EntryError("seats accepted thrown bullets, but none were thrown")
    common: dict[str, Any] = {"note": note, "throw": throw, "accepted": tuple(sorted(accepted))}
    if kind == "draw":
        _only(data, {"kind", "note", "throw", "accepted"}, "a draw")
        return Entry("draw", **common)
    if kind == "false_win":
        _only(data, {"kind", "seat", "note", "throw", "accepted"}, "a false win")
        return Entry("false_win", seat=_seat(data, "seat", required=True), **common)
    winner = _seat(data, "winner", required=True)
    discarder = _seat(data, "discarder", required=False)
    if discarder is not None and discarder == winner:
        raise EntryError(f"seat {winner} is entered twice: the winner cannot be the discarder")
    ways = [w for w in ("tiles", "fans", "points") if data.get(w) not in (None, "", {}, [])]
    if len(ways) != 1:
        raise EntryError(
            "count the win one way: the tiles, the fans picked, or the points"
            + (f" (given: {', '.join(ways)})" if ways else "")
        )
    tiles = _text(data["tiles"], "the tiles", 80) if "tiles" in ways else None
    fans = _fans(data["fans"]) if "fans" in ways else ()
    points = _whole(data["points"], "the points", 0, 100_000) if "points" in ways else None
    flags = set()
    for flag in FLAGS:
        value = data.get(flag, False)
        if not isinstance(value, bool):
            raise EntryError(f"{flag} must be true or false, not {value!r}")
        if value:
            flags.add(flag)
    gunner = data.get("gunner", False)
    if not isinstance(gunner, bool):
        raise EntryError(f"gunner must be true or false, not {gunner!r}")
    if gunner and discarder is None:
        raise EntryError("a self-drawn win has no gunner: name the discarder")
    wild = data.get("wild")
    if wild is not None:
        wild = _text(wild, "the wild (得) indicator", 4) or None
    losers = _losers(data["losers"]) if data.get("losers") else ()
    for seat, _ in losers:
        if seat == winner:
            raise EntryError(f"seat {winner} is entered twice: the winner is no loser")
    return Entry(
        "win",
        winner=winner,
        discarder=discarder,
        tiles=tiles,
        fans=fans,
        points=points,
        flowers=_whole(data.get("flowers", 0), "the flowers", 0, 8),
        flags=frozenset(flags),
        wild=wild,
        losers=losers,
        gunner=gunner,
        **common,
    )


def _only(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(k for k in data if k not in allowed and data[k] not in (None, False, 0, ""))
    if extra:
        raise EntryError(f"{what} has no {extra[0]}")


__all__ = ["FLAGS", "KINDS", "Entry", "EntryError", "parse_entry"]
