"""Huangyan mahjong (黄岩麻将): the 得 wild tile, hu points and doublings, settlement.

The rules are ``rules/huangyan.md``; the interpretations used are listed in ``docs/huangyan.md``.

>>> from majiang.rules.huangyan import score_huangyan
>>> score_huangyan("SS5s123m789m34p66p2p", wild="5s", seat_wind="S", self_drawn=True).total
80
"""

from .notation import format_huangyan_hand, parse_huangyan_hand, parse_reading
from .options import DEFAULT_OPTIONS, HuangyanOptions
from .phase import (
    draw_threshold,
    in_raw_tile_phase,
    is_gunner,
    may_draw,
    may_kong,
    raw_tile_threshold,
)
from .scoring import (
    FanItem,
    HuangyanScore,
    HuItem,
    LoserScore,
    check_win,
    is_winning_shape,
    score_huangyan,
    score_loser,
    score_winner,
)
from .settlement import (
    Dealership,
    Payment,
    SettledWin,
    Settlement,
    settle_draw,
    settle_hand,
    settle_win,
)
from .wild import WILD_TILES, Wild, parse_face

__all__ = [
    "DEFAULT_OPTIONS",
    "WILD_TILES",
    "Dealership",
    "FanItem",
    "HuItem",
    "HuangyanOptions",
    "HuangyanScore",
    "LoserScore",
    "Payment",
    "SettledWin",
    "Settlement",
    "Wild",
    "check_win",
    "draw_threshold",
    "format_huangyan_hand",
    "in_raw_tile_phase",
    "is_gunner",
    "is_winning_shape",
    "may_draw",
    "may_kong",
    "parse_face",
    "parse_huangyan_hand",
    "parse_reading",
    "raw_tile_threshold",
    "score_huangyan",
    "score_loser",
    "score_winner",
    "settle_draw",
    "settle_hand",
    "settle_win",
]
