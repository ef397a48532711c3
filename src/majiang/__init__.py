"""majiang: Chinese mahjong rules, exact scoring, hand analysis and play.

The scorer in one call::

    >>> from majiang import score
    >>> score("[EEE,1][SSSS,1]WWWNN55pN", self_drawn=True, seat_wind="S").total
    98
"""

from .analysis import Analysis, analyze, discard_options, useful_tiles, waits
from .api import make_context, score
from .errors import (
    InvalidHandError,
    MajiangError,
    NotationError,
    NotWinningError,
    OptionError,
    SituationError,
)
from .hand import Hand, Meld, MeldKind, WinContext
from .notation import format_hand, parse_hand, parse_tiles
from .rules.guobiao.options import GuobiaoOptions
from .rules.guobiao.scoring import Exclusion, FanCount, Score

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "Exclusion",
    "FanCount",
    "GuobiaoOptions",
    "Hand",
    "InvalidHandError",
    "MajiangError",
    "Meld",
    "MeldKind",
    "NotWinningError",
    "NotationError",
    "OptionError",
    "Score",
    "SituationError",
    "WinContext",
    "analyze",
    "discard_options",
    "format_hand",
    "make_context",
    "parse_hand",
    "parse_tiles",
    "score",
    "useful_tiles",
    "waits",
]
