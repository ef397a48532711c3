"""Adapter to the reference calculator (PyMahjongGB 1.4.0), a test and benchmark dependency only."""

from __future__ import annotations

from MahjongGB import MahjongFanCalculator

from majiang.hand import Hand, MeldKind, WinContext

_CODES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
ALIASES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}
"""The reference's Chinese names that differ from the seed's."""


def reference_arguments(hand: Hand, ctx: WinContext) -> dict[str, object]:
    """The calculator's keyword arguments for a hand and its situation."""
    packs = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            packs.append(("CHI", _CODES[m.tile + 1], m.source))
        elif m.kind is MeldKind.PUNG:
            packs.append(("PENG", _CODES[m.tile], m.source))
        else:
            source = m.source - 4 if m.source > 4 else m.source
            packs.append(("GANG", _CODES[m.tile], source))
    assert hand.win_tile is not None
    return {
        "pack": tuple(packs),
        "hand": tuple(_CODES[t] for t in hand.concealed),
        "winTile": _CODES[hand.win_tile],
        "flowerCount": len(hand.flowers) + ctx.extra_flowers,
        "isSelfDrawn": ctx.self_drawn,
        "is4thTile": ctx.fourth_tile,
        "isAboutKong": ctx.kong,
        "isWallLast": ctx.last_tile,
        "seatWind": ctx.seat_wind,
        "prevalentWind": ctx.prevalent_wind,
        "verbose": True,
    }


def reference_fans(hand: Hand, ctx: WinContext) -> dict[str, int]:
    """The reference's fans as {Chinese name (seed spelling): count}."""
    result = MahjongFanCalculator(**reference_arguments(hand, ctx))
    fans: dict[str, int] = {}
    for _points, count, zh, _en in result:
        name = ALIASES.get(zh, zh)
        fans[name] = fans.get(name, 0) + count
    return fans
