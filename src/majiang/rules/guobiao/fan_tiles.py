"""Which of a winning hand's tiles make a fan, for a score sheet that highlights them.

Only what the fan's definition settles from the tiles alone: fans of the whole hand (flushes,
pungs, pairs, tile ranges, special shapes) take every tile, or every concealed tile; fans of how
the hand was won (waits, self-drawn, last tiles) the winning tile; the kong fans their kongs; the
honour fans (winds, dragons) the tiles of those pungs; Pure Straight one of each rank of its
suit; Tile Hog the four copies; flowers the flowers. For fans between particular sets (shifted or
double chows, pungs of a rank across suits, concealed pungs) the choice of sets is the scorer's
reading and no tile is named: ``None``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

WHOLE = frozenset({
    "All Green", "Nine Gates", "Seven Shifted Pairs", "Thirteen Orphans", "All Terminals",
    "All Honours", "Seven Pairs", "Greater Honours and Knitted Tiles", "All Even Pungs",
    "Full Flush", "Upper Tiles", "Middle Tiles", "Lower Tiles", "All Fives",
    "Lesser Honours and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four",
    "Reversible Tiles", "Chicken Hand", "All Pungs", "Half Flush", "All Types", "Melded Hand",
    "Outside Hand", "All Chows", "All Simples", "One Voided Suit", "No Honours",
    "All Terminals and Honours",
})
CONCEALED = frozenset({"Fully Concealed Hand", "Concealed Hand"})
WINNING_TILE = frozenset({
    "Last Tile Draw", "Last Tile Claim", "Out with Replacement Tile", "Robbing the Kong",
    "Last Tile", "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn",
})
KONGS = {
    "Four Kongs": (True, True), "Three Kongs": (True, True), "Two Concealed Kongs": (True, False),
    "Two Melded Kongs": (False, True), "Concealed Kong": (True, False),
    "Melded Kong": (False, True), "Concealed Kong and Melded Kong": (True, True),
}
"""Kong fans: (concealed kongs count, exposed kongs count)."""
WINDS = "ESWN"
DRAGONS = "CFP"
HONOURS = {
    "Big Four Winds": WINDS, "Little Four Winds": WINDS, "Big Three Winds": WINDS,
    "Big Three Dragons": DRAGONS, "Little Three Dragons": DRAGONS, "Two Dragon Pungs": DRAGONS,
    "Dragon Pung": DRAGONS,
}


def _meld_tiles(meld: dict[str, Any]) -> list[str]:
    tile = str(meld["tile"])
    if meld["kind"] == "chow":
        return [f"{int(tile[0]) + i}{tile[1]}" for i in range(3)]
    return [tile] * (4 if meld["kind"] == "kong" else 3)


def fan_tiles(
    fan: str,
    concealed: Sequence[str],
    melds: Sequence[dict[str, Any]],
    flowers: Sequence[str],
    winning_tile: str | None,
    *,
    seat_wind: int,
    prevalent_wind: int,
) -> list[str] | None:
    """The tiles (notation names, one per tile) of the winner's hand that make ``fan`` (its
    English name), or None when the tiles alone do not say (see the module docstring).
    ``concealed`` holds the winning tile; ``melds`` are ``meld_to_json`` dicts."""
    shown = [t for m in melds for t in _meld_tiles(m)]
    everything = list(concealed) + shown
    if fan in WHOLE:
        return everything
    if fan in CONCEALED:
        return list(concealed)
    if fan in WINNING_TILE:
        return [winning_tile] if winning_tile else None
    if fan == "Flower Tiles":
        return list(flowers)
    if fan in KONGS:
        hidden, exposed = KONGS[fan]
        return [t for m in melds if m["kind"] == "kong"
                and (hidden if m.get("source") == 0 else exposed) for t in _meld_tiles(m)]
    counts = Counter(everything)
    honours = HONOURS.get(fan)
    if fan == "Prevalent Wind":
        honours = WINDS[prevalent_wind]
    elif fan == "Seat Wind":
        honours = WINDS[seat_wind]
    if honours is not None:
        # pungs of those honours (and, for the "little" fans, their pair)
        little = fan.startswith("Little")
        return [t for t in everything if t in honours and (counts[t] >= 3 or little)]
    if fan == "Pure Straight":
        for suit in "msp":
            if all(counts[f"{rank}{suit}"] for rank in range(1, 10)):
                return [f"{rank}{suit}" for rank in range(1, 10)]
        return None
    if fan == "Tile Hog":
        kongs = {m["tile"] for m in melds if m["kind"] == "kong"}
        return [t for t in everything if counts[t] == 4 and t not in kongs] or None
    return None


def result_fan_tiles(result: dict[str, Any], view: dict[str, Any]) -> dict[str, list[str] | None]:
    """For a hand won with fans (``HandResult.to_json()``): each fan's tiles
    (:func:`fan_tiles`), keyed by its English name, from ``view``, the winner's observation as
    JSON. Empty for a draw."""
    fans = (result.get("detail") or {}).get("fans") if result.get("winner") is not None else None
    if not fans:
        return {}
    seat = view["seat"]
    return {
        str(fan["en"]): fan_tiles(
            str(fan["en"]), view["hand"], view["melds"][seat], view["flowers"][seat],
            result.get("winning_tile"), seat_wind=view["seat_wind"],
            prevalent_wind=view["prevalent_wind"],
        )
        for fan in fans
    }


__all__ = ["fan_tiles", "result_fan_tiles"]
