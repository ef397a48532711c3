"""Each of the 81 Guobiao fans defined in Chinese and English, for the score sheets.

The English is the definition of each fan in the rules reference (docs/rules/guobiao-fans.md)
as plain text; ``tests/test_fan_definitions.py`` keeps the two equal. The Chinese follows the
wording of the official table, short."""

from __future__ import annotations

from typing import Any, Final

from ..sheet_lines import FanDefinition
from .fans import FANS, FanId

DEFINITIONS: Final[dict[FanId, tuple[str, str]]] = {
    1: (
        '东南西北四副风刻（杠），加任意将牌。',
        'Pungs of all four winds, East, South, West and North, and any pair.',
    ),
    2: (
        '中发白三副箭刻（杠）。',
        'Pungs of the three dragons, red, green and white.',
    ),
    3: (
        '由23468条及发字中的牌组成的和牌（标准型或七对）。',
        'Every tile is one of 2s 3s 4s 6s 8s and the green dragon F, in a regular hand or '
        'seven pairs.',
    ),
    4: (
        '门前清，未和前手牌为同一花色的1112345678999，听该花色任意一张。',
        'No meld and no declared kong, and the 13 tiles before the win are exactly '
        '1112345678999 of one suit, so that any tile of the suit wins (a nine-sided wait). '
        'The same 14 tiles reached from other 13 tiles are not Nine Gates.',
    ),
    5: (
        '四个杠（明杠、加杠、暗杠均可）。',
        'Four kongs, exposed, added or concealed in any mix.',
    ),
    6: (
        '同一花色序数相连的七个对子。',
        'Seven pairs of seven consecutive ranks of one suit (1-7, 2-8 or 3-9).',
    ),
    7: (
        '一九万、一九条、一九饼及七种字牌各一张，另加其中任意一张作将，门前清。',
        'One of each terminal and honour, 1m 9m 1s 9s 1p 9p E S W N C F P, and a second copy '
        'of one of them, all concealed.',
    ),
    8: (
        '全部由序数牌一、九组成的刻子和将牌（或七对）。',
        'Every tile is a suited 1 or 9, as pungs and a pair or as seven pairs.',
    ),
    9: (
        '三副风刻加第四种风牌作将。',
        'Pungs of three winds and a pair of the fourth.',
    ),
    10: (
        '两副箭刻加第三种箭牌作将。',
        'Pungs of two dragons and a pair of the third.',
    ),
    11: (
        '全部由字牌组成的刻子和将牌（或七对）。',
        'Every tile is an honour, as pungs and a pair or as seven pairs.',
    ),
    12: (
        '四个暗刻（暗杠算暗刻）。',
        'Four concealed pungs; concealed kongs count as concealed pungs. A pung completed by '
        'the winning discard is exposed (guobiao.md §5.3), so on a discard only a single wait '
        'on the pair can be 四暗刻.',
    ),
    13: (
        '同一花色的两副123、两副789及5作将。',
        'The chows 123, 123, 789, 789 and a pair of 5, all of one suit.',
    ),
    14: (
        '同一花色序数相同的四副顺子。',
        'Four identical chows.',
    ),
    15: (
        '同一花色序数依次递增一的四副刻子。',
        'Pungs of ranks n, n+1, n+2 and n+3 of one suit.',
    ),
    16: (
        '同一花色的四副顺子，起始序数依次递增一或依次递增二。',
        'Four chows of one suit whose lowest ranks rise by one each (n to n+3) or by two each '
        '(n, n+2, n+4, n+6).',
    ),
    17: (
        '三个杠。',
        'Three kongs of any kind.',
    ),
    18: (
        '全部由幺九牌和字牌组成，两者皆有（刻子和将牌，或七对）。',
        'Every tile is a terminal or an honour, with both kinds present, as pungs and a pair '
        'or as seven pairs.',
    ),
    19: (
        '七个对子，门前清；四张相同的牌可作两对。',
        'Seven pairs, all concealed; four identical tiles may be two of them. What it may add '
        'is in guobiao.md §5.6.',
    ),
    20: (
        '东南西北中发白七张字牌各一张，加三种花色相互不同的147、258、369中的七张，不成面子。',
        'Honours and knitted tiles (the fourth winning shape) with all seven honours, and so '
        'exactly seven knitted tiles.',
    ),
    21: (
        '四副刻子加将牌，全部由序数牌2、4、6、8组成。',
        'Four pungs and a pair, every tile a suited 2, 4, 6 or 8 (a regular hand, never seven '
        'pairs).',
    ),
    22: (
        '全部由同一花色的序数牌组成，无字牌。',
        'Every tile is of one suit; no honour.',
    ),
    23: (
        '同一花色序数相同的三副顺子。',
        'Three identical chows.',
    ),
    24: (
        '同一花色序数依次递增一的三副刻子。',
        'Pungs of ranks n, n+1 and n+2 of one suit.',
    ),
    25: (
        '全部由序数牌7、8、9组成。',
        'Every tile is a suited 7, 8 or 9.',
    ),
    26: (
        '全部由序数牌4、5、6组成。',
        'Every tile is a suited 4, 5 or 6.',
    ),
    27: (
        '全部由序数牌1、2、3组成。',
        'Every tile is a suited 1, 2 or 3.',
    ),
    28: (
        '同一花色的123、456、789三副顺子。',
        'The chows 123, 456 and 789 of one suit.',
    ),
    29: (
        '一种花色的两副老少副（123与789），另一种花色的两副老少副，第三种花色的5作将。',
        '123 and 789 of one suit, 123 and 789 of a second suit, and a pair of 5 of the third.',
    ),
    30: (
        '同一花色的三副顺子，起始序数依次递增一或依次递增二。',
        'Three chows of one suit whose lowest ranks rise by one each or by two each.',
    ),
    31: (
        '每副面子及将牌都含序数牌5。',
        'Every set and the pair hold a suited 5 (a regular hand).',
    ),
    32: (
        '三种花色序数相同的三副刻子。',
        'Pungs of the same rank in the three suits.',
    ),
    33: (
        '三个暗刻（暗杠算暗刻）。',
        'Three concealed pungs (concealed kongs count).',
    ),
    34: (
        '三种花色相互不同的147、258、369中的牌与字牌各不相同、互不相靠的十四张，字牌不足七种。',
        'Honours and knitted tiles (the fourth winning shape) with fewer than seven honours. '
        'When all nine knitted tiles are there, 组合龙 is added.',
    ),
    35: (
        '三种花色的147、258、369九张牌组成的组合龙，或组合龙加一副面子和将牌。',
        'The nine tiles of one knitted set, inside 全不靠 or as the fifth winning shape with a '
        'set and a pair. As a shape it counts as three chows for 平和; wait fans only when the '
        'winning tile lies outside the knitted nine (D11; the option '
        'knitted_straight_no_edge_closed drops 边张 and 坎张).',
    ),
    36: (
        '全部由序数牌6至9组成（至少有一张6）。',
        'Every tile is a suited 6, 7, 8 or 9 (with at least one 6; without, it is 全大).',
    ),
    37: (
        '全部由序数牌1至4组成（至少有一张4）。',
        'Every tile is a suited 1, 2, 3 or 4 (with at least one 4; without, it is 全小).',
    ),
    38: (
        '三副不同的风刻。',
        'Pungs of three different winds.',
    ),
    39: (
        '三种花色的123、456、789三副顺子，各为一种花色。',
        'The chows 123, 456 and 789, each in a different suit.',
    ),
    40: (
        '全部由牌面上下对称的牌组成：饼1234589、条245689及白板。',
        'Every tile looks the same upside down: 1 2 3 4 5 8 9 of dots, 2 4 5 6 8 9 of bamboo, '
        'and the white dragon.',
    ),
    41: (
        '三种花色序数相同的三副顺子。',
        'Chows of the same ranks in the three suits.',
    ),
    42: (
        '三种花色序数依次递增一的三副刻子。',
        'Pungs of ranks n, n+1 and n+2, one in each suit (in any order).',
    ),
    43: (
        '和牌后除花牌外不计任何其他番种。',
        'A winning hand in which no other fan applies (flowers not counted). It is what lets '
        'a hand without fans reach the 8 minimum; flowers are added after it.',
    ),
    44: (
        '自摸牌墙最后一张牌（含补花、杠后补牌）和牌。',
        'A self-drawn win on the last tile of the wall, a replacement draw included '
        '(--self-drawn --last-tile).',
    ),
    45: (
        '和打出的最后一张牌（牌墙摸完之后）。',
        'A win on the final discard, made after the last wall tile was drawn (--last-tile on '
        'a discard).',
    ),
    46: (
        '开杠后摸补牌自摸和牌（补花不算）。',
        'A self-drawn win on the replacement tile of a kong, not of a flower (--self-drawn '
        '--kong; the hand must hold a declared kong).',
    ),
    47: (
        '和别人加杠的那张牌。',
        'A win on the tile another player adds to his exposed pung (--kong on a discard; '
        'guobiao.md §2.8). The robbed tile is necessarily the last one unseen.',
    ),
    48: (
        '四副刻子（杠）加将牌。',
        'Four pungs and a pair.',
    ),
    49: (
        '由一种花色的序数牌和字牌组成，两者皆有。',
        'One suit and honours, both present.',
    ),
    50: (
        '三种花色的三副顺子，起始序数依次递增一。',
        'Three chows, one in each suit, whose lowest ranks are n, n+1 and n+2 (in any order '
        'of the suits).',
    ),
    51: (
        '和牌中万、条、饼、风牌、箭牌五种俱全。',
        'The hand holds characters, bamboo, dots, a wind and a dragon.',
    ),
    52: (
        '四副面子全靠吃、碰、明杠（暗杠除外），单钓别人打出的牌作将和牌。',
        'Four melds (chows, pungs, exposed or added kongs; a concealed kong spoils it) and a '
        'win on a discard that completes the pair.',
    ),
    53: (
        '两个暗杠。',
        'Two concealed kongs (and two kongs in all).',
    ),
    54: (
        '两副箭刻（第三种箭牌既非刻子也非将）。',
        'Pungs of two dragons (the third dragon neither a pung nor the pair).',
    ),
    55: (
        '每副面子及将牌都含幺九牌或字牌。',
        'Every set and the pair hold a terminal or an honour (a regular hand).',
    ),
    56: (
        '没有吃、碰、明杠（可有暗杠），自摸和牌。',
        'No chow, pung, exposed or added kong (concealed kongs are allowed), a regular or '
        'knitted-straight hand, and self-drawn.',
    ),
    57: (
        '两个明杠（含加杠）。',
        'Two exposed or added kongs (and two kongs in all).',
    ),
    58: (
        '和牌时该牌其余三张已全部亮明（和绝张）。',
        'The other three copies of the winning tile are already visible to everybody '
        '(--fourth-tile; guobiao.md §5.8).',
    ),
    59: (
        '一副中、发或白的刻子（杠），每副计一次。',
        'A pung of a dragon; each one counts.',
    ),
    60: (
        '与圈风相同的风刻。',
        'A pung of the prevalent wind.',
    ),
    61: (
        '与本门风相同的风刻。',
        "A pung of the winner's seat wind (with 圈风刻 as well when it is also the prevalent "
        'wind).',
    ),
    62: (
        '没有吃、碰、明杠（可有暗杠），和别人打出的牌。',
        'No chow, pung, exposed or added kong (concealed kongs are allowed), a regular or '
        'knitted-straight hand, won on a discard.',
    ),
    63: (
        '四副顺子加序数牌作将；组合龙算三副顺子。',
        'Four chows and a suited pair; the kind of wait does not matter. A knitted straight '
        'counts as three chows.',
    ),
    64: (
        '四张相同的牌都在手中，但不成杠；每种计一次。',
        'All four copies of a tile are in the hand, but not as a kong (spread over sets and '
        'the pair, or as two of seven pairs); each such tile counts.',
    ),
    65: (
        '两种花色序数相同的两副刻子。',
        'Two pungs of the same rank in two suits; each disjoint pair counts.',
    ),
    66: (
        '两个暗刻（暗杠算暗刻）。',
        'Two concealed pungs (concealed kongs count).',
    ),
    67: (
        '一个暗杠。',
        'One concealed kong.',
    ),
    68: (
        '没有幺九牌及字牌。',
        'No terminal and no honour.',
    ),
    69: (
        '同一花色序数相同的两副顺子。',
        'Two identical chows; each pair counts, within the account-once limit (guobiao.md '
        '§5.5).',
    ),
    70: (
        '两种花色序数相同的两副顺子。',
        'Two chows of the same ranks in two suits; each pair counts, within the account-once '
        'limit.',
    ),
    71: (
        '同一花色序数相连的六张牌组成的两副顺子。',
        'Two chows of one suit covering six consecutive ranks (n to n+2 and n+3 to n+5); each '
        'pair counts, within the account-once limit.',
    ),
    72: (
        '同一花色的123、789两副顺子。',
        'The chows 123 and 789 of one suit; each pair counts, within the account-once limit.',
    ),
    73: (
        '序数牌一、九的刻子，或非圈风、非门风的风刻；每副计一次。',
        'A pung of a suited 1 or 9, or of a wind that is neither the prevalent nor the seat '
        'wind; each one counts. Dragon pungs score 箭刻 instead, and the wind pungs of the seat '
        'or the round their wind fans (guobiao.md §5.4).',
    ),
    74: (
        '一个明杠（直杠或加杠）。',
        'One exposed kong, made on a discard or added to a pung.',
    ),
    75: (
        '缺少一种花色的序数牌。',
        'Exactly one of the three suits is missing.',
    ),
    76: (
        '没有字牌。',
        'No honour tile.',
    ),
    77: (
        '只听一张：和123的3或789的7。',
        'A unique wait (guobiao.md §5.7) won as the 3 of 1-2-3 or the 7 of 7-8-9 (1233 won on '
        '3 and 7789 won on 7 too). 12345 won on 3 and 56789 won on 7 are not edge waits: they '
        'wait on two kinds.',
    ),
    78: (
        '只听一张：和顺子中间的那张牌。',
        'A unique wait won as the middle tile of a chow (4556 won on 5 too); 45567 won on 6 '
        'is not.',
    ),
    79: (
        '只听一张：单钓将牌。',
        'A unique wait won as the second tile of the pair.',
    ),
    80: (
        '自己摸进和牌张（含补花、杠后补牌）。',
        "The winner drew the winning tile himself, from the wall or as a kong's or a flower's "
        'replacement.',
    ),
    81: (
        '每张花牌计一番，和牌满八番后方可计入。',
        'One fan for each flower, added only after the hand has reached 8 fans without them '
        '(flowers written in the hand, or --flowers N).',
    ),
}
"""Fan id to its definition: (Chinese, English)."""


def definitions_by_name(names: list[str] | None = None) -> dict[str, dict[str, str]]:
    """The definitions keyed by the fan's English name (as in a result's ``fans``), each as
    ``{"zh": ..., "en": ...}``; only ``names`` when given (unknown names are left out)."""
    wanted = None if names is None else set(names)
    return {
        FANS[fan].en: {"zh": zh, "en": en}
        for fan, (zh, en) in DEFINITIONS.items()
        if wanted is None or FANS[fan].en in wanted
    }


def result_definitions(result: dict[str, Any]) -> list[FanDefinition]:
    """Each fan a won hand's result (``HandResult.to_json()``) counts, in its order, with its
    definition; none for a draw."""
    detail = result.get("detail") or {}
    fans = (detail.get("fans") or []) if result.get("winner") is not None else []
    known = definitions_by_name([str(fan["en"]) for fan in fans])
    return [FanDefinition(str(fan["en"]), str(fan["name"]), str(fan["en"]), known[fan["en"]])
            for fan in fans if fan["en"] in known]


__all__ = ["DEFINITIONS", "definitions_by_name", "result_definitions"]
