"""How one opponent's public play reads on one tile: the reading behind the safety hint
(:mod:`majiang.safety`) and the guarded bot's deal-in risk (:mod:`majiang.bots.defence`).

The reasons and their order are those the safety hint explains to players; nothing here sees a
hidden tile.
"""

from __future__ import annotations

from ..engine.state import HIDDEN, Observation
from ..tiles import is_honor, rank_of, suit_of


def _suji(tile: int, pond: set[int]) -> bool:
    """Whether both open sides of a two-sided wait on ``tile`` have been discarded by the seat."""
    rank = rank_of(tile)
    sides = []
    if rank >= 4:
        sides.append(tile - 3)
    if rank <= 6:
        sides.append(tile + 3)
    return all(side in pond for side in sides)


def _flush_suit(obs: Observation, seat: int) -> int | None:
    """The one suit of a seat's two or more exposed melds (honour melds aside), if one."""
    melds = [m for m in obs.melds[seat] if m.tile != HIDDEN]
    suits = {suit_of(m.tile) for m in melds if not is_honor(m.tile)}
    return next(iter(suits)) if len(melds) >= 2 and len(suits) == 1 else None


def against(obs: Observation, seat: int, tile: int, unseen: int) -> tuple[int, str]:
    """The danger of discarding ``tile`` against one opponent, and the reason's code."""
    if is_honor(tile):
        return ((0, "honour_gone"), (1, "honour_single"), (1, "honour_pair"),
                (2, "honour_pung"))[min(unseen, 3)]
    pond = set(obs.discards[seat])
    if tile in pond:
        return 0, "genbutsu"
    flush = _flush_suit(obs, seat)
    if flush is not None and suit_of(tile) != flush:
        return 1, "flush_elsewhere"
    if _suji(tile, pond):
        return 1, "suji"
    if flush is not None:
        return 3, "flush_here"
    return (2, "terminal") if rank_of(tile) in (1, 9) else (3, "middle")


__all__ = ["against"]
