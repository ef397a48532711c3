"""The 81 fans of Guobiao as data: id, Chinese and English names, points, series.

Ids follow the seed's fan table (1 = 大四喜 … 81 = 花牌). Id 82 is the reference calculator's
combined kong fan 明暗杠, used only with the rule option ``mixed_kong_pair_5`` (D1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

FanId = int
"""A fan id: 1-81 in the order of the seed's table, 82 for 明暗杠."""


class F:
    """Fan ids by name (plain ints, so that they hash fast on the hot path)."""

    BIG_FOUR_WINDS: Final = 1
    BIG_THREE_DRAGONS: Final = 2
    ALL_GREEN: Final = 3
    NINE_GATES: Final = 4
    FOUR_KONGS: Final = 5
    SEVEN_SHIFTED_PAIRS: Final = 6
    THIRTEEN_ORPHANS: Final = 7
    ALL_TERMINALS: Final = 8
    LITTLE_FOUR_WINDS: Final = 9
    LITTLE_THREE_DRAGONS: Final = 10
    ALL_HONORS: Final = 11
    FOUR_CONCEALED_PUNGS: Final = 12
    PURE_TERMINAL_CHOWS: Final = 13
    QUADRUPLE_CHOW: Final = 14
    FOUR_PURE_SHIFTED_PUNGS: Final = 15
    FOUR_PURE_SHIFTED_CHOWS: Final = 16
    THREE_KONGS: Final = 17
    ALL_TERMINALS_AND_HONORS: Final = 18
    SEVEN_PAIRS: Final = 19
    GREATER_HONORS_AND_KNITTED: Final = 20
    ALL_EVEN_PUNGS: Final = 21
    FULL_FLUSH: Final = 22
    PURE_TRIPLE_CHOW: Final = 23
    PURE_SHIFTED_PUNGS: Final = 24
    UPPER_TILES: Final = 25
    MIDDLE_TILES: Final = 26
    LOWER_TILES: Final = 27
    PURE_STRAIGHT: Final = 28
    THREE_SUITED_TERMINAL_CHOWS: Final = 29
    PURE_SHIFTED_CHOWS: Final = 30
    ALL_FIVES: Final = 31
    TRIPLE_PUNG: Final = 32
    THREE_CONCEALED_PUNGS: Final = 33
    LESSER_HONORS_AND_KNITTED: Final = 34
    KNITTED_STRAIGHT: Final = 35
    UPPER_FOUR: Final = 36
    LOWER_FOUR: Final = 37
    BIG_THREE_WINDS: Final = 38
    MIXED_STRAIGHT: Final = 39
    REVERSIBLE_TILES: Final = 40
    MIXED_TRIPLE_CHOW: Final = 41
    MIXED_SHIFTED_PUNGS: Final = 42
    CHICKEN_HAND: Final = 43
    LAST_TILE_DRAW: Final = 44
    LAST_TILE_CLAIM: Final = 45
    OUT_WITH_REPLACEMENT_TILE: Final = 46
    ROBBING_THE_KONG: Final = 47
    ALL_PUNGS: Final = 48
    HALF_FLUSH: Final = 49
    MIXED_SHIFTED_CHOWS: Final = 50
    ALL_TYPES: Final = 51
    MELDED_HAND: Final = 52
    TWO_CONCEALED_KONGS: Final = 53
    TWO_DRAGON_PUNGS: Final = 54
    OUTSIDE_HAND: Final = 55
    FULLY_CONCEALED_HAND: Final = 56
    TWO_MELDED_KONGS: Final = 57
    LAST_TILE: Final = 58
    DRAGON_PUNG: Final = 59
    PREVALENT_WIND: Final = 60
    SEAT_WIND: Final = 61
    CONCEALED_HAND: Final = 62
    ALL_CHOWS: Final = 63
    TILE_HOG: Final = 64
    DOUBLE_PUNG: Final = 65
    TWO_CONCEALED_PUNGS: Final = 66
    CONCEALED_KONG: Final = 67
    ALL_SIMPLES: Final = 68
    PURE_DOUBLE_CHOW: Final = 69
    MIXED_DOUBLE_CHOW: Final = 70
    SHORT_STRAIGHT: Final = 71
    TWO_TERMINAL_CHOWS: Final = 72
    PUNG_OF_TERMINALS_OR_HONORS: Final = 73
    MELDED_KONG: Final = 74
    ONE_VOIDED_SUIT: Final = 75
    NO_HONORS: Final = 76
    EDGE_WAIT: Final = 77
    CLOSED_WAIT: Final = 78
    SINGLE_WAIT: Final = 79
    SELF_DRAWN: Final = 80
    FLOWER_TILES: Final = 81
    CONCEALED_AND_MELDED_KONG: Final = 82


@dataclass(frozen=True, slots=True)
class FanInfo:
    """Static facts of one fan."""

    id: FanId
    zh: str
    en: str
    points: int
    series: str


_SERIES = {
    "字牌系列": (1, 2, 9, 10, 11, 38, 54, 59, 60, 61, 73),
    "序数牌系列": (13, 14, 16, 23, 28, 29, 30, 35, 39, 41, 50, 63, 69, 70, 71, 72),
    "刻系列": (5, 8, 12, 15, 17, 18, 21, 24, 32, 33, 42, 48, 53, 57, 65, 66, 67, 74, 82),
    "七对系列": (6, 19),
    "花色组合系列": (3, 4, 22, 49, 51, 75, 76),
    "全带系列": (25, 26, 27, 31, 36, 37, 55, 68),
    "不靠系列": (7, 20, 34),
    "和牌方式系列": (44, 45, 46, 47, 52, 56, 58, 62, 77, 78, 79, 80),
    "特殊系列": (40, 43, 64, 81),
}
_SERIES_OF = {fan: name for name, fans in _SERIES.items() for fan in fans}

_TABLE: tuple[tuple[str, str, int], ...] = (
    ("大四喜", "Big Four Winds", 88),
    ("大三元", "Big Three Dragons", 88),
    ("绿一色", "All Green", 88),
    ("九莲宝灯", "Nine Gates", 88),
    ("四杠", "Four Kongs", 88),
    ("连七对", "Seven Shifted Pairs", 88),
    ("十三幺", "Thirteen Orphans", 88),
    ("清幺九", "All Terminals", 64),
    ("小四喜", "Little Four Winds", 64),
    ("小三元", "Little Three Dragons", 64),
    ("字一色", "All Honours", 64),
    ("四暗刻", "Four Concealed Pungs", 64),
    ("一色双龙会", "Pure Terminal Chows", 64),
    ("一色四同顺", "Quadruple Chow", 48),
    ("一色四节高", "Four Pure Shifted Pungs", 48),
    ("一色四步高", "Four Pure Shifted Chows", 32),
    ("三杠", "Three Kongs", 32),
    ("混幺九", "All Terminals and Honours", 32),
    ("七对", "Seven Pairs", 24),
    ("七星不靠", "Greater Honours and Knitted Tiles", 24),
    ("全双刻", "All Even Pungs", 24),
    ("清一色", "Full Flush", 24),
    ("一色三同顺", "Pure Triple Chow", 24),
    ("一色三节高", "Pure Shifted Pungs", 24),
    ("全大", "Upper Tiles", 24),
    ("全中", "Middle Tiles", 24),
    ("全小", "Lower Tiles", 24),
    ("清龙", "Pure Straight", 16),
    ("三色双龙会", "Three-Suited Terminal Chows", 16),
    ("一色三步高", "Pure Shifted Chows", 16),
    ("全带五", "All Fives", 16),
    ("三同刻", "Triple Pung", 16),
    ("三暗刻", "Three Concealed Pungs", 16),
    ("全不靠", "Lesser Honours and Knitted Tiles", 12),
    ("组合龙", "Knitted Straight", 12),
    ("大于五", "Upper Four", 12),
    ("小于五", "Lower Four", 12),
    ("三风刻", "Big Three Winds", 12),
    ("花龙", "Mixed Straight", 8),
    ("推不倒", "Reversible Tiles", 8),
    ("三色三同顺", "Mixed Triple Chow", 8),
    ("三色三节高", "Mixed Shifted Pungs", 8),
    ("无番和", "Chicken Hand", 8),
    ("妙手回春", "Last Tile Draw", 8),
    ("海底捞月", "Last Tile Claim", 8),
    ("杠上开花", "Out with Replacement Tile", 8),
    ("抢杠和", "Robbing the Kong", 8),
    ("碰碰和", "All Pungs", 6),
    ("混一色", "Half Flush", 6),
    ("三色三步高", "Mixed Shifted Chows", 6),
    ("五门齐", "All Types", 6),
    ("全求人", "Melded Hand", 6),
    ("双暗杠", "Two Concealed Kongs", 6),
    ("双箭刻", "Two Dragon Pungs", 6),
    ("全带幺", "Outside Hand", 4),
    ("不求人", "Fully Concealed Hand", 4),
    ("双明杠", "Two Melded Kongs", 4),
    ("和绝张", "Last Tile", 4),
    ("箭刻", "Dragon Pung", 2),
    ("圈风刻", "Prevalent Wind", 2),
    ("门风刻", "Seat Wind", 2),
    ("门前清", "Concealed Hand", 2),
    ("平和", "All Chows", 2),
    ("四归一", "Tile Hog", 2),
    ("双同刻", "Double Pung", 2),
    ("双暗刻", "Two Concealed Pungs", 2),
    ("暗杠", "Concealed Kong", 2),
    ("断幺", "All Simples", 2),
    ("一般高", "Pure Double Chow", 1),
    ("喜相逢", "Mixed Double Chow", 1),
    ("连六", "Short Straight", 1),
    ("老少副", "Two Terminal Chows", 1),
    ("幺九刻", "Pung of Terminals or Honours", 1),
    ("明杠", "Melded Kong", 1),
    ("缺一门", "One Voided Suit", 1),
    ("无字", "No Honours", 1),
    ("边张", "Edge Wait", 1),
    ("坎张", "Closed Wait", 1),
    ("单钓将", "Single Wait", 1),
    ("自摸", "Self-Drawn", 1),
    ("花牌", "Flower Tiles", 1),
    ("明暗杠", "Concealed Kong and Melded Kong", 5),
)

FANS: Final[dict[FanId, FanInfo]] = {
    i + 1: FanInfo(i + 1, zh, en, points, _SERIES_OF.get(i + 1, "刻系列"))
    for i, (zh, en, points) in enumerate(_TABLE)
}
"""Every fan by id."""

POINTS: Final[tuple[int, ...]] = (0, *(points for _, _, points in _TABLE))
"""Points by fan id (index 0 unused), for the hot path."""


def fan_by_name(name: str) -> FanInfo:
    """Look a fan up by its Chinese or English name (case-insensitive for English)."""
    for info in FANS.values():
        if name in (info.zh, info.en) or name.lower() == info.en.lower():
            return info
    raise KeyError(name)
