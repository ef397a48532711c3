"""The end of the wall and the gunner (rules/huangyan.md §1.8, §2.7-2.9, A17-A18).

Pure numbers and predicates for the table: ``R`` is the count of tiles not yet drawn (indicator
excluded, 82 after the deal) and ``k`` the replacement draws taken so far this hand.
"""

from __future__ import annotations

from ...errors import OptionError

TILES_AFTER_DEAL = 82
"""136 - 53 dealt - 1 indicator (A1)."""

SEED_RESERVE = 14
"""T(0) of the seed: 7 stacks (option ``draw_reserve``)."""
SEED_RAW_PHASE = 30
"""G(0) of the seed: 15 stacks (option ``raw_phase_tiles``)."""


def draw_threshold(k: int, reserve: int = SEED_RESERVE) -> int:
    """T(k): the reserve (7 full stacks), plus the loose single after an odd number of
    replacement draws."""
    return reserve + k % 2


def raw_tile_threshold(k: int, start: int = SEED_RAW_PHASE) -> int:
    """G(k): the raw-tile phase's start (15 full stacks), plus the loose single."""
    return start + k % 2


def in_raw_tile_phase(remaining: int, k: int, start: int = SEED_RAW_PHASE) -> bool:
    """The raw-tile phase (生牌阶段) is on once ``R <= G(k)``; never when ``start`` is 0."""
    return start > 0 and remaining <= raw_tile_threshold(k, start)


def may_draw(remaining: int, k: int, reserve: int = SEED_RESERVE) -> bool:
    """A normal draw is allowed while ``R > T(k)``; an unclaimed discard at ``R = T(k)`` ends
    the hand in an exhaustive draw (黄牌)."""
    return remaining > draw_threshold(k, reserve)


def may_kong(remaining: int, k: int, reserve: int = SEED_RESERVE) -> bool:
    """A kong needs its replacement draw: ``R - 1 >= T(k + 1)`` (§2.5)."""
    return remaining - 1 >= draw_threshold(k + 1, reserve)


def is_gunner(
    test: str,
    *,
    raw_phase: bool,
    tile_raw: bool,
    all_raw: bool,
    could_be_ready: bool,
    ready: bool,
) -> bool:
    """Whether the discarder of a won-on tile is the gunner (点炮, §2.9, A17).

    ``raw_phase``: the raw-tile phase was on; ``tile_raw``: nobody had left a tile of its face in
    a discard pile; ``all_raw``: every tile of his concealed hand was raw just before discarding;
    ``could_be_ready``: some discard would have left him ready (听牌); ``ready``: his hand after
    this discard is ready. P1 (default): a raw tile, unless all raw and he could not be ready.
    P2: a raw tile, unless he is ready. P3: any tile, unless all raw and he could not be ready.
    A self-drawn win has no gunner; the caller does not ask.
    """
    if test not in ("P1", "P2", "P3"):
        raise OptionError(f"gunner test must be P1, P2 or P3, not {test!r}")
    if not raw_phase:
        return False
    excused = all_raw and not could_be_ready
    if test == "P1":
        return tile_raw and not excused
    if test == "P2":
        return tile_raw and not ready
    return not excused


__all__ = [
    "TILES_AFTER_DEAL",
    "draw_threshold",
    "in_raw_tile_phase",
    "is_gunner",
    "may_draw",
    "may_kong",
    "raw_tile_threshold",
]
