"""The actions a seat can take, as small frozen dataclasses, their JSON form and their index in
the fixed action space."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import MajiangError
from ..notation import parse_tiles
from ..tiles import tile_name


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``tile`` from the concealed hand."""

    tile: int


@dataclass(frozen=True, slots=True)
class Chow:
    """Claim the discard into the chow whose lowest tile is ``low`` (next player only)."""

    low: int


@dataclass(frozen=True, slots=True)
class Pung:
    """Claim the discard into a pung with two concealed copies."""


@dataclass(frozen=True, slots=True)
class ExposedKong:
    """Claim the discard into a kong with three concealed copies."""


@dataclass(frozen=True, slots=True)
class ConcealedKong:
    """On one's own turn, declare four concealed copies of ``tile`` as a kong."""

    tile: int


@dataclass(frozen=True, slots=True)
class AddedKong:
    """On one's own turn, add the fourth ``tile`` to one's exposed pung (it may be robbed)."""

    tile: int


@dataclass(frozen=True, slots=True)
class Win:
    """Declare a win: self-drawn on one's turn, or on the discard / the tile of an added kong."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline every claim on the discard (or on the kong tile)."""


@dataclass(frozen=True, slots=True)
class ThrowBullets:
    """Before a hand, the dealer throws ``count`` extra bullets (抛弹; 0 throws none)."""

    count: int


@dataclass(frozen=True, slots=True)
class AcceptBullets:
    """Accept the bullets the dealer has just thrown (``Pass`` declines them)."""


MeldAction = Chow | Pung | ExposedKong | ConcealedKong | AddedKong
"""The actions that make a meld: a claim into a set, or a kong declared on one's turn."""

Action = Discard | MeldAction | Win | Pass | ThrowBullets | AcceptBullets

# One shared instance of every action the table offers, tiles and chows included. The table's
# legal actions are these very objects, and so is the RL codec's action table, so a legality
# check or an index look-up can go by identity first: comparing or hashing two of these frozen
# dataclasses is a Python-level call each (about 0.2 µs), an identity test is not.
DISCARDS: tuple[Discard, ...] = tuple(Discard(t) for t in range(34))
CONCEALED_KONGS: tuple[ConcealedKong, ...] = tuple(ConcealedKong(t) for t in range(34))
ADDED_KONGS: tuple[AddedKong, ...] = tuple(AddedKong(t) for t in range(34))
CHOWS: dict[int, Chow] = {9 * suit + rank: Chow(9 * suit + rank) for suit in range(3)
                          for rank in range(7)}  # fmt: skip
"""Chows by their lowest tile (ranks 1-7 of the three suits)."""
WIN_ACTION = Win()
PASS_ACTION = Pass()
PUNG_ACTION = Pung()
EXPOSED_KONG_ACTION = ExposedKong()
ACCEPT_BULLETS_ACTION = AcceptBullets()

CHOW0 = 34
PUNG = 55
EXPOSED_KONG = 56
CONCEALED_KONG0 = 57
ADDED_KONG0 = 91
WIN = 125
PASS = 126
ACCEPT_BULLETS = 127
THROW0 = 128


def action_count(throw_limit: int = 0) -> int:
    """The size of the action space for a rule set with this ``throw_limit``."""
    return THROW0 + throw_limit + 1 if throw_limit > 0 else THROW0


def action_list(throw_limit: int = 0) -> list[Action]:
    """Every action by its :func:`action_index`: the shared instances above, the very objects
    the table offers."""
    actions: list[Action] = list(DISCARDS)
    actions += [CHOWS[9 * suit + rank] for suit in range(3) for rank in range(7)]
    actions += [PUNG_ACTION, EXPOSED_KONG_ACTION]
    actions += CONCEALED_KONGS
    actions += ADDED_KONGS
    actions += [WIN_ACTION, PASS_ACTION, ACCEPT_BULLETS_ACTION]
    if throw_limit > 0:
        actions += [ThrowBullets(n) for n in range(throw_limit + 1)]
    assert len(actions) == action_count(throw_limit)
    return actions


_FIXED_INDEX: dict[type, int] = {
    Pung: PUNG,
    ExposedKong: EXPOSED_KONG,
    Win: WIN,
    Pass: PASS,
    AcceptBullets: ACCEPT_BULLETS,
}


def action_index(action: Action) -> int:
    """The action's number in the fixed action space (the same in every state of a rule set)::

        0-33     Discard(t)            t = tile 0-33
        34-54    Chow(low)             34 + 7 * suit + rank, low = 9 * suit + rank (rank 0-6)
        55       Pung
        56       ExposedKong
        57-90    ConcealedKong(t)      57 + t
        91-124   AddedKong(t)          91 + t
        125      Win
        126      Pass
        127      AcceptBullets
        128+n    ThrowBullets(n)       n = 0 .. throw_limit (only when the rules have a limit)
    """
    if isinstance(action, Discard):
        return action.tile
    fixed = _FIXED_INDEX.get(type(action))
    if fixed is not None:
        return fixed
    if isinstance(action, Chow):
        return CHOW0 + 7 * (action.low // 9) + action.low % 9
    if isinstance(action, ConcealedKong):
        return CONCEALED_KONG0 + action.tile
    if isinstance(action, AddedKong):
        return ADDED_KONG0 + action.tile
    if isinstance(action, ThrowBullets):
        return THROW0 + action.count
    raise TypeError(f"not an action: {action!r}")


_NAMES: dict[type, str] = {
    Discard: "discard",
    Chow: "chow",
    Pung: "pung",
    ExposedKong: "exposed_kong",
    ConcealedKong: "concealed_kong",
    AddedKong: "added_kong",
    Win: "win",
    Pass: "pass",
    ThrowBullets: "throw_bullets",
    AcceptBullets: "accept_bullets",
}
_TYPES = {name: kind for kind, name in _NAMES.items()}


class ActionFormatError(MajiangError):
    """An action in JSON that names no action or a bad tile."""


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": "discard", "tile": "5m"}``; tiles in the hand notation."""
    out: dict[str, Any] = {"type": _NAMES[type(action)]}
    if isinstance(action, Discard | ConcealedKong | AddedKong):
        out["tile"] = tile_name(action.tile)
    elif isinstance(action, Chow):
        out["tile"] = tile_name(action.low)
    elif isinstance(action, ThrowBullets):
        out["count"] = action.count
    return out


def action_from_json(data: Any) -> Action:
    """The inverse of :func:`action_to_json`; raises :class:`ActionFormatError`."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ActionFormatError(f"an action is an object with a 'type', not {data!r}")
    kind = _TYPES.get(data["type"])
    if kind is None:
        raise ActionFormatError(f"unknown action type {data['type']!r}")
    if kind in (Discard, ConcealedKong, AddedKong, Chow):
        text = data.get("tile")
        if not isinstance(text, str):
            raise ActionFormatError(f"action {data['type']!r} needs a 'tile'")
        try:
            tiles = parse_tiles(text)
        except MajiangError as error:
            raise ActionFormatError(f"bad tile in action: {error}") from None
        if len(tiles) != 1:
            raise ActionFormatError(f"action {data['type']!r} needs one tile, not {text!r}")
        return kind(tiles[0])  # type: ignore[call-arg,no-any-return]
    if kind is ThrowBullets:
        count = data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ActionFormatError(f"throw_bullets needs a 'count' of 0 or more, not {count!r}")
        return ThrowBullets(count)
    return kind()  # type: ignore[no-any-return]


def describe(action: Action) -> str:
    """A short human label: ``discard 5m``, ``chow 345m``, ``pung``."""
    data = action_to_json(action)
    if isinstance(action, Chow):
        return (
            f"chow {tile_name(action.low)[0]}{action.low % 9 + 2}{action.low % 9 + 3}"
            + (tile_name(action.low)[1])
        )
    return " ".join(str(v) for v in data.values()).replace("_", " ")


__all__ = [
    "ACCEPT_BULLETS", "ADDED_KONG0", "CHOW0", "CONCEALED_KONG0", "EXPOSED_KONG", "PASS", "PUNG",
    "THROW0", "WIN", "AcceptBullets", "Action", "ActionFormatError", "AddedKong", "Chow",
    "ConcealedKong", "Discard", "ExposedKong", "MeldAction", "Pass", "Pung", "ThrowBullets", "Win",
    "action_count", "action_from_json", "action_index", "action_list", "action_to_json",
    "describe",
]  # fmt: skip
"""The public names, re-exported by :mod:`majiang.engine` (the shared instances stay here)."""
