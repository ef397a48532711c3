"""Every one of the 81 Guobiao fans, one table row (or more) each, plus near misses.

Spec: ``rules/guobiao.md`` §5 (the fan table and its "Not counted (project)" column), §5.2-§5.8.
The hands are deliberately different from the §7 worked examples (those are tested elsewhere).
Each row gives the complete expected fan list, so that a row also checks that nothing implied
is double counted and nothing is missing. Unless stated, a row is a win on a discard with seat
and prevalent wind East, no flags and no flowers.
"""

from __future__ import annotations

from typing import Any

import pytest

from majiang import SituationError, WinContext, parse_hand, score
from majiang.rules.guobiao.fans import FANS, F
from majiang.rules.guobiao.scoring import score_hand

ZH = {fan_id: info.zh for fan_id, info in FANS.items()}


def fan_counts(result: Any) -> dict[str, int]:
    """The counted fans of a score as {Chinese name: count}."""
    return {fc.fan.zh: fc.count for fc in result.fans}


def case(
    fan: int, count: int, hand: str, expected: dict[str, int], tag: str = "", **ctx: Any
) -> Any:
    slug = FANS[fan].en.lower().replace(" ", "-")
    name = f"{int(fan):02d}-{slug}" + (f"-{tag}" if tag else "")
    return pytest.param(fan, count, hand, ctx, expected, id=name)


SD = {"self_drawn": True}

# (fan, count, hand, context, every fan expected)
FAN_TABLE = [
    # ---- 88
    case(F.BIG_FOUR_WINDS, 1, "[EEE,1][SSS,2]WWWNNN5m5m",
         {"大四喜": 1, "混一色": 1, "双暗刻": 1, "单钓将": 1}),
    case(F.BIG_THREE_DRAGONS, 1, "[CCC,1]FFFPPP234s9m9m",
         {"大三元": 1, "双暗刻": 1, "缺一门": 1, "单钓将": 1}),
    case(F.ALL_GREEN, 1, "[666s,1]234s234s88sFF8s", {"绿一色": 1, "一般高": 1}),
    case(F.ALL_GREEN, 1, "[666s,1]234s234s88sFFF", {"绿一色": 1, "箭刻": 1, "一般高": 1},
         "dragon-pung"),
    case(F.NINE_GATES, 1, "1112345678999s5s",
         {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1, "自摸": 1}, "on-5-self-drawn", **SD),
    case(F.NINE_GATES, 1, "1112345678999p8p",
         {"九莲宝灯": 1, "双暗刻": 1, "连六": 1, "幺九刻": 1}, "on-8"),
    case(F.NINE_GATES, 1, "1112345678999p1p", {"九莲宝灯": 1, "清龙": 1, "四归一": 1}, "on-1"),
    case(F.NINE_GATES, 1, "1112345678999m6m", {"九莲宝灯": 1, "连六": 1}, "on-6"),
    case(F.NINE_GATES, 1, "1112345678999m3m", {"九莲宝灯": 1, "连六": 1}, "on-3"),
    case(F.FOUR_KONGS, 1, "[2222m,1][3333p,2][4444s,5][NNNN,3]FF",
         {"四杠": 1, "三色三节高": 1, "五门齐": 1, "全求人": 1, "幺九刻": 1}, "melded"),
    case(F.FOUR_KONGS, 1, "[1111m][2222p][3333s][EEEE]5m5m",
         {"四杠": 1, "四暗刻": 1, "三色三节高": 1, "圈风刻": 1, "门风刻": 1, "幺九刻": 1},
         "concealed"),
    case(F.SEVEN_SHIFTED_PAIRS, 1, "1122334455667m7m", {"连七对": 1, "自摸": 1}, **SD),
    case(F.SEVEN_SHIFTED_PAIRS, 1, "3344556677889p9p", {"连七对": 1}, "discard"),
    case(F.THIRTEEN_ORPHANS, 1, "19m19s19pESWNCFP1m", {"十三幺": 1}),
    case(F.THIRTEEN_ORPHANS, 1, "19m19s19pESWNCFP1m", {"十三幺": 1, "自摸": 1}, "self-drawn",
         **SD),
    # ---- 64
    case(F.ALL_TERMINALS, 1, "[111m,1]999m111p99p99s9s", {"清幺九": 1, "双暗刻": 1}),
    case(F.LITTLE_FOUR_WINDS, 1, "[EEE,1]SSSWWWNN23m4m",
         {"小四喜": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1}, seat_wind="S"),
    case(F.LITTLE_THREE_DRAGONS, 1, "[CCC,1]FFFPP789p11s1s",
         {"小三元": 1, "全带幺": 1, "幺九刻": 1, "缺一门": 1}),
    case(F.ALL_HONORS, 1, "[EEE,1][CCC,2]SSSPPNNN",
         {"字一色": 1, "三风刻": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1}),
    case(F.ALL_HONORS, 1, "[SSS,1][NNN,2]CCCFFFEE",
         {"字一色": 1, "双箭刻": 1, "双暗刻": 1, "单钓将": 1}, "two-dragons"),
    case(F.FOUR_CONCEALED_PUNGS, 1, "111m444m777p999s5s5s",
         {"四暗刻": 1, "幺九刻": 2, "无字": 1, "单钓将": 1}, "discard-single-wait"),
    case(F.PURE_TERMINAL_CHOWS, 1, "123123789789p5p5p",
         {"一色双龙会": 1, "门前清": 1, "单钓将": 1}),
    # ---- 48
    case(F.QUADRUPLE_CHOW, 1, "[456p,1]456p456p456pEE",
         {"一色四同顺": 1, "混一色": 1, "单钓将": 1}),
    case(F.FOUR_PURE_SHIFTED_PUNGS, 1, "[333s,2]444s555s66s99m6s",
         {"一色四节高": 1, "双暗刻": 1, "缺一门": 1, "无字": 1}),
    # ---- 32
    case(F.FOUR_PURE_SHIFTED_CHOWS, 1, "[234m,1]345m456m567m8p8p",
         {"一色四步高": 1, "平和": 1, "断幺": 1, "缺一门": 1, "单钓将": 1}),
    case(F.THREE_KONGS, 1, "[1111m,1][1111p,5][9999s,2]234s6p6p",
         {"三杠": 1, "双同刻": 1, "幺九刻": 3, "无字": 1, "单钓将": 1}),
    case(F.THREE_KONGS, 1, "[1111m,1][2222p][9999s,2]234s6p6p",
         {"三杠": 1, "幺九刻": 2, "无字": 1, "单钓将": 1}, "one-concealed"),
    case(F.ALL_TERMINALS_AND_HONORS, 1, "[111s,1]999pNNNFF99m9m",
         {"混幺九": 1, "五门齐": 1, "双同刻": 1, "双暗刻": 1}),
    case(F.ALL_TERMINALS_AND_HONORS, 1, "1199m11p99sEESSFF",
         {"混幺九": 1, "七对": 1, "五门齐": 1}, "seven-pairs"),
    # ---- 24
    case(F.SEVEN_PAIRS, 1, "2255m3377p44sEE9s9s", {"七对": 1}),
    case(F.SEVEN_PAIRS, 1, "2255m3377p44sEE9s9s", {"七对": 1, "自摸": 1}, "self-drawn", **SD),
    case(F.GREATER_HONORS_AND_KNITTED, 1, "14m25s36pESWNCFP7m", {"七星不靠": 1}),
    case(F.ALL_EVEN_PUNGS, 1, "[222m,1][666p,2]444s88s88p8p", {"全双刻": 1}),
    case(F.ALL_EVEN_PUNGS, 1, "[222m,1][666p,2]444s88s88p8p",
         {"全双刻": 1, "双暗刻": 1, "自摸": 1}, "self-drawn", **SD),
    case(F.FULL_FLUSH, 1, "[111p,1]234p567p88p99p9p", {"清一色": 1, "连六": 1, "幺九刻": 2}),
    case(F.PURE_TRIPLE_CHOW, 1, "[345p,1]345p345p678sWW",
         {"一色三同顺": 1, "缺一门": 1, "单钓将": 1}),
    case(F.PURE_SHIFTED_PUNGS, 1, "[777p,2]888p999p23s55m1s",
         {"一色三节高": 1, "双暗刻": 1, "幺九刻": 1, "无字": 1}),
    case(F.UPPER_TILES, 1, "[789p,1]777s888s99m88p8p",
         {"全大": 1, "四归一": 1, "双同刻": 1, "双暗刻": 1}),
    case(F.MIDDLE_TILES, 1, "[456s,1]456m456p555m6s6s",
         {"全中": 1, "三色三同顺": 1, "四归一": 1, "单钓将": 1}),
    case(F.LOWER_TILES, 1, "[123p,1]123m222s333s3m3m",
         {"全小": 1, "双暗刻": 1, "喜相逢": 1, "边张": 1}),
    # ---- 16
    case(F.PURE_STRAIGHT, 1, "[123s,1]456s789s22m55p5p", {"清龙": 1, "无字": 1}),
    case(F.THREE_SUITED_TERMINAL_CHOWS, 1, "123789s123789p5m5m",
         {"三色双龙会": 1, "门前清": 1, "单钓将": 1}),
    case(F.THREE_SUITED_TERMINAL_CHOWS, 1, "123789s123789p5m5m",
         {"三色双龙会": 1, "不求人": 1, "单钓将": 1}, "self-drawn", **SD),
    case(F.PURE_SHIFTED_CHOWS, 1, "[123p,1]234p345p66s88m8m", {"一色三步高": 1, "无字": 1}),
    case(F.ALL_FIVES, 1, "[345m,1]555p456s567m5s5s", {"全带五": 1, "坎张": 1}),
    case(F.ALL_FIVES, 1, "[567m,1]567s567p55s55m5m",
         {"全带五": 1, "三色三同顺": 1, "四归一": 1}, "mixed-triple-chow"),
    case(F.TRIPLE_PUNG, 1, "[333m,2]333p333s78m55p9m", {"三同刻": 1, "双暗刻": 1, "无字": 1}),
    case(F.THREE_CONCEALED_PUNGS, 1, "111m444p666s78s99m9s",
         {"三暗刻": 1, "门前清": 1, "幺九刻": 1, "无字": 1}),
    # ---- 12
    case(F.LESSER_HONORS_AND_KNITTED, 1, "147m25s369pESWNFC", {"全不靠": 1}),
    case(F.LESSER_HONORS_AND_KNITTED, 1, "147m25s369pESWNFC", {"全不靠": 1, "自摸": 1},
         "self-drawn", **SD),
    case(F.KNITTED_STRAIGHT, 1, "147p258m369sESNFP", {"全不靠": 1, "组合龙": 1},
         "with-lesser-honours"),
    case(F.KNITTED_STRAIGHT, 1, "147p258m369s55p23s4s", {"组合龙": 1, "门前清": 1, "平和": 1},
         "all-chows"),
    case(F.KNITTED_STRAIGHT, 1, "147m258s369p999s4m4m",
         {"组合龙": 1, "门前清": 1, "幺九刻": 1, "无字": 1, "单钓将": 1}, "pung-single-wait"),
    case(F.KNITTED_STRAIGHT, 1, "147m258s369p12p55m3p",
         {"组合龙": 1, "门前清": 1, "平和": 1, "边张": 1}, "edge-wait"),
    case(F.UPPER_FOUR, 1, "[678m,1]789s666p88s99p9p", {"大于五": 1, "幺九刻": 1}),
    case(F.LOWER_FOUR, 1, "[234p,1]123s444m11p33m3m", {"小于五": 1}),
    case(F.BIG_THREE_WINDS, 1, "[SSS,1]WWWNNN234m9p9p",
         {"三风刻": 1, "双暗刻": 1, "缺一门": 1, "单钓将": 1}),
    case(F.BIG_THREE_WINDS, 1, "[WWW,3][NNN,1]EEE234p6s6s",
         {"三风刻": 1, "圈风刻": 1, "门风刻": 1, "缺一门": 1, "单钓将": 1}, "seat-prevalent",
         seat_wind="W", prevalent_wind="N"),
    # ---- 8
    case(F.MIXED_STRAIGHT, 1, "123p456s789m22s34m5m", {"花龙": 1, "门前清": 1, "平和": 1}),
    case(F.REVERSIBLE_TILES, 1, "[123p,1]456s888sPP99p9p", {"推不倒": 1, "幺九刻": 1}),
    case(F.MIXED_TRIPLE_CHOW, 1, "[678m,1]678p678s11s33p3p", {"三色三同顺": 1, "无字": 1}),
    case(F.MIXED_SHIFTED_PUNGS, 1, "[333m,1]444s555p78p99m6p",
         {"三色三节高": 1, "双暗刻": 1, "无字": 1}),
    case(F.CHICKEN_HAND, 1, "[345m,1][678s,2]222p56pNN4p", {"无番和": 1}),
    case(F.LAST_TILE_DRAW, 1, "[234m,1][567p,2]111s78s99m9s",
         {"妙手回春": 1, "幺九刻": 1, "无字": 1}, self_drawn=True, last_tile=True),
    case(F.LAST_TILE_CLAIM, 1, "[234m,1][567p,2]111s78s99m9s",
         {"海底捞月": 1, "幺九刻": 1, "无字": 1}, last_tile=True),
    case(F.OUT_WITH_REPLACEMENT_TILE, 1, "[2222m,1]345p67sEEE99m8s",
         {"杠上开花": 1, "圈风刻": 1, "门风刻": 1, "明杠": 1}, self_drawn=True, kong=True),
    case(F.OUT_WITH_REPLACEMENT_TILE, 1, "[3333m,1]678s234p56mWW7m",
         {"妙手回春": 1, "杠上开花": 1, "明杠": 1}, "and-last-tile-draw",
         self_drawn=True, kong=True, last_tile=True),
    case(F.ROBBING_THE_KONG, 1, "123m456p11s78sCCC9s",
         {"花龙": 1, "抢杠和": 1, "箭刻": 1, "门前清": 1}, kong=True),
    # ---- 6
    case(F.ALL_PUNGS, 1, "[222m,1][555s,2]888p99mEEE", {"碰碰和": 1, "圈风刻": 1, "门风刻": 1}),
    case(F.HALF_FLUSH, 1, "[234s,1]678s999s55sNNN", {"混一色": 1, "幺九刻": 2}),
    case(F.MIXED_SHIFTED_CHOWS, 1, "[345m,1]456s567p11s99p9p",
         {"三色三步高": 1, "幺九刻": 1, "无字": 1}),
    case(F.ALL_TYPES, 1, "[789m,1]123pEEE45sCC6s",
         {"花龙": 1, "五门齐": 1, "圈风刻": 1, "门风刻": 1}),
    case(F.MELDED_HAND, 1, "[123m,2][789p,1][CCC,3][555s,2]8p8p", {"全求人": 1, "箭刻": 1}),
    case(F.TWO_CONCEALED_KONGS, 1, "[5555m][CCCC]234p678s9s9s",
         {"双暗杠": 1, "箭刻": 1, "门前清": 1}),
    case(F.TWO_CONCEALED_KONGS, 1, "[5555m][CCCC]222p678s9s9s",
         {"三暗刻": 1, "双暗杠": 1, "不求人": 1, "箭刻": 1}, "and-concealed-pung", **SD),
    case(F.TWO_DRAGON_PUNGS, 1, "[CCC,1]FFF789s123s9m9m",
         {"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1, "单钓将": 1}),
    # ---- 4
    case(F.OUTSIDE_HAND, 1, "[123m,1]789m789pCC11s1s",
         {"全带幺": 1, "喜相逢": 1, "老少副": 1, "幺九刻": 1}),
    case(F.FULLY_CONCEALED_HAND, 1, "234m567m345p67s99s8s",
         {"不求人": 1, "平和": 1, "连六": 1}, **SD),
    case(F.FULLY_CONCEALED_HAND, 1, "[8888s]123m456m78pWW9p",
         {"不求人": 1, "暗杠": 1, "连六": 1}, "with-concealed-kong", **SD),
    case(F.TWO_MELDED_KONGS, 1, "[5555m,1][7777s,6]234p678m3p3p",
         {"双明杠": 1, "断幺": 1, "坎张": 1}),
    case(F.LAST_TILE, 1, "[345m,1][678s,1]234p56mWW7m", {"和绝张": 1}, fourth_tile=True),
    case(F.LAST_TILE, 1, "[345m,1][678s,1]234p56mWW7m", {"和绝张": 1, "自摸": 1},
         "self-drawn", fourth_tile=True, self_drawn=True),
    # Three copies of the winning tile in the winner's own exposed melds are visible (§5.8):
    # the fan applies without the flag.
    case(F.LAST_TILE, 1, "[444m,1][678s,1]234p56mWW4m", {"和绝张": 1, "四归一": 1},
         "own-pung-visible"),
    case(F.LAST_TILE, 1, "[234m,1][345m,1][456m,1]35m99p4m",
         {"一色三步高": 1, "和绝张": 1, "平和": 1, "四归一": 1, "一般高": 1, "缺一门": 1,
          "坎张": 1}, "own-chows-visible"),
    # ---- 2
    case(F.DRAGON_PUNG, 1, "[123m,2][789p,1][CCC,3][555s,2]8p8p", {"全求人": 1, "箭刻": 1}),
    case(F.PREVALENT_WIND, 1, "[SSS,1]123m456p78sEE9s", {"花龙": 1, "圈风刻": 1},
         prevalent_wind="S"),
    case(F.SEAT_WIND, 1, "[SSS,1]123m456p78sEE9s", {"花龙": 1, "门风刻": 1}, seat_wind="S"),
    case(F.SEAT_WIND, 1, "[SSS,1]123m456p78sEE9s", {"花龙": 1, "圈风刻": 1, "门风刻": 1},
         "and-prevalent", seat_wind="S", prevalent_wind="S"),
    case(F.CONCEALED_HAND, 1, "[8888s]123m456m78pWW9p", {"门前清": 1, "暗杠": 1, "连六": 1}),
    case(F.ALL_CHOWS, 1, "[123m,1]123m456p456p7s7s", {"平和": 1, "一般高": 2, "单钓将": 1}),
    case(F.TILE_HOG, 2, "[234m,1]222m456p444p6s6s",
         {"四归一": 2, "双暗刻": 1, "断幺": 1, "单钓将": 1}),
    case(F.TILE_HOG, 2, "1122m5555p8888sEE", {"七对": 1, "四归一": 2}, "seven-pairs"),
    case(F.DOUBLE_PUNG, 2, "[333m,1][666p,2]333s666mEE",
         {"碰碰和": 1, "双同刻": 2, "双暗刻": 1, "单钓将": 1}),
    case(F.DOUBLE_PUNG, 1, "[111s,1]999pNNNFF99m9m",
         {"混幺九": 1, "五门齐": 1, "双同刻": 1, "双暗刻": 1}),
    case(F.TWO_CONCEALED_PUNGS, 1, "[EEE,1]11m456m888p99s1m",
         {"圈风刻": 1, "门风刻": 1, "双暗刻": 1, "幺九刻": 1, "自摸": 1}, **SD),
    case(F.CONCEALED_KONG, 1, "[3333m][678s,1]234p56mWW7m", {"杠上开花": 1, "暗杠": 1},
         self_drawn=True, kong=True),
    case(F.ALL_SIMPLES, 1, "[234m,1]567p345s66s88m8m", {"断幺": 1}),
    # ---- 1
    case(F.PURE_DOUBLE_CHOW, 2, "[123m,1]123m456p456p7s7s", {"平和": 1, "一般高": 2, "单钓将": 1}),
    case(F.MIXED_DOUBLE_CHOW, 2, "[234m,1]234p678s678p9m9m", {"平和": 1, "喜相逢": 2, "单钓将": 1}),
    case(F.SHORT_STRAIGHT, 2, "[123m,1]456m345p678p9s9s", {"平和": 1, "连六": 2, "单钓将": 1}),
    # 老少副 can never be counted twice: two 123+789 pairs always bring a cheaper pair fan
    # into the same group of chows, and §5.5 counts a spanning forest (at most 3 edges).
    case(F.TWO_TERMINAL_CHOWS, 1, "[123m,1]123m789m789m9p9p",
         {"全带幺": 1, "平和": 1, "一般高": 2, "老少副": 1, "缺一门": 1, "单钓将": 1}),
    case(F.TWO_TERMINAL_CHOWS, 1, "[123m,1]789m123p789p9s9s",
         {"全带幺": 1, "平和": 1, "喜相逢": 2, "老少副": 1, "单钓将": 1}, "two-suits"),
    case(F.PUNG_OF_TERMINALS_OR_HONORS, 2, "111m444m777p999s5s5s",
         {"四暗刻": 1, "幺九刻": 2, "无字": 1, "单钓将": 1}),
    case(F.PUNG_OF_TERMINALS_OR_HONORS, 3, "[1111m,1][1111p,5][9999s,2]234s6p6p",
         {"三杠": 1, "双同刻": 1, "幺九刻": 3, "无字": 1, "单钓将": 1}, "three"),
    case(F.PUNG_OF_TERMINALS_OR_HONORS, 1, "[SSS,1]123m456p78sEE9s", {"花龙": 1, "幺九刻": 1},
         "other-wind"),
    case(F.MELDED_KONG, 1, "[2222m,1]345p67sEEE99m8s",
         {"圈风刻": 1, "门风刻": 1, "明杠": 1, "自摸": 1}, **SD),
    case(F.ONE_VOIDED_SUIT, 1, "[678p,1][EEE,1]45567mSS6m",
         {"圈风刻": 1, "门风刻": 1, "缺一门": 1}),
    case(F.NO_HONORS, 1, "111m444p666s78s99m9s",
         {"三暗刻": 1, "门前清": 1, "幺九刻": 1, "无字": 1}),
    case(F.EDGE_WAIT, 1, "[678p,1][EEE,1]12m456mSS3m",
         {"圈风刻": 1, "门风刻": 1, "连六": 1, "缺一门": 1, "边张": 1}, "12-3"),
    case(F.EDGE_WAIT, 1, "[678p,1][EEE,1][456s,1]1233m3m", {"圈风刻": 1, "门风刻": 1, "边张": 1},
         "1233-3"),
    case(F.EDGE_WAIT, 1, "[678p,1][EEE,1][456s,1]7789m7m", {"圈风刻": 1, "门风刻": 1, "边张": 1},
         "7789-7"),
    case(F.CLOSED_WAIT, 1, "[678p,1][EEE,1]46m789mSS5m",
         {"圈风刻": 1, "门风刻": 1, "连六": 1, "缺一门": 1, "坎张": 1}, "46-5"),
    case(F.CLOSED_WAIT, 1, "[678p,1][EEE,1][123s,1]4556m5m", {"圈风刻": 1, "门风刻": 1, "坎张": 1},
         "4556-5"),
    case(F.SINGLE_WAIT, 1, "[SSS,1]WWWNNN234m9p9p",
         {"三风刻": 1, "双暗刻": 1, "缺一门": 1, "单钓将": 1}),
    case(F.SELF_DRAWN, 1, "[2222m,1]345p67sEEE99m8s",
         {"圈风刻": 1, "门风刻": 1, "明杠": 1, "自摸": 1}, **SD),
    case(F.FLOWER_TILES, 3, "abc[345m,1][678s,2]222p56pNN4p", {"无番和": 1, "花牌": 3}),
    case(F.FLOWER_TILES, 2, "[345m,1][678s,2]222p56pNN4p", {"无番和": 1, "花牌": 2},
         "as-count", flowers=2),
    case(F.FLOWER_TILES, 1, "a[2222m,1]345p67sEEE99m8s",
         {"圈风刻": 1, "门风刻": 1, "明杠": 1, "自摸": 1, "花牌": 1}, "replacement-is-self-drawn",
         **SD),
]


@pytest.mark.parametrize(("fan", "count", "hand", "ctx", "expected"), FAN_TABLE)
def test_fan_is_counted(
    fan: int, count: int, hand: str, ctx: dict[str, Any], expected: dict[str, int]
) -> None:
    result = score(hand, **ctx)
    got = fan_counts(result)
    assert got.get(ZH[fan]) == count, got
    assert got == expected
    # The total is the sum of the listed fans, and the minimum ignores flowers.
    assert result.total == sum(fc.fan.points * fc.count for fc in result.fans)
    flowers = got.get(ZH[F.FLOWER_TILES], 0)
    assert result.meets_minimum == (result.total - flowers >= 8)


def test_every_fan_has_a_row() -> None:
    covered = {int(param.values[0]) for param in FAN_TABLE}
    assert covered == set(range(1, 82))


def test_per_set_fans_are_tested_with_a_count_of_two_or_more() -> None:
    counts: dict[int, int] = {}
    for param in FAN_TABLE:
        fan, count = param.values[0], param.values[1]
        counts[fan] = max(counts.get(fan, 0), count)
    for fan in (
        F.TILE_HOG,
        F.DOUBLE_PUNG,
        F.PURE_DOUBLE_CHOW,
        F.MIXED_DOUBLE_CHOW,
        F.SHORT_STRAIGHT,
        F.PUNG_OF_TERMINALS_OR_HONORS,
        F.FLOWER_TILES,
    ):
        assert counts[fan] >= 2, fan


def test_fan_points_match_the_table() -> None:
    points = {88: range(1, 8), 64: range(8, 14), 48: range(14, 16), 32: range(16, 19),
              24: range(19, 28), 16: range(28, 34), 12: range(34, 39), 8: range(39, 48),
              6: range(48, 55), 4: range(55, 59), 2: range(59, 69), 1: range(69, 82)}
    for value, ids in points.items():
        for i in ids:
            assert FANS[i].points == value, FANS[i]


# ---------------------------------------------------------------- near misses

# (hand, context, the fan that must NOT be counted, every fan expected)
NEAR_MISSES = [
    pytest.param("[678p,1][EEE,1]12345mSS3m", {}, "边张",
                 {"圈风刻": 1, "门风刻": 1, "缺一门": 1}, id="12345+3-not-edge"),
    pytest.param("[678p,1][EEE,1]56789mSS7m", {}, "边张",
                 {"圈风刻": 1, "门风刻": 1, "缺一门": 1}, id="56789+7-not-edge"),
    pytest.param("[678p,1][EEE,1]45567mSS6m", {}, "坎张",
                 {"圈风刻": 1, "门风刻": 1, "缺一门": 1}, id="45567+6-not-closed"),
    pytest.param("[678p,1][EEE,1]56m789mSS7m", {}, "边张",
                 {"圈风刻": 1, "门风刻": 1, "缺一门": 1}, id="two-sided-56+7"),
    pytest.param("123p456s789m22s34m5m", {}, "边张",
                 {"花龙": 1, "门前清": 1, "平和": 1}, id="two-sided-34+5"),
    # 4444567 waits on 4 and 7 (kinds count even when all four copies are held, §5.7).
    pytest.param("[678p,1][EEE,1]4444567m7m", {}, "单钓将",
                 {"圈风刻": 1, "门风刻": 1, "四归一": 1, "缺一门": 1}, id="4444567+7-not-single"),
    # The seven-pairs wait (9m) joins the regular wait (7m): not a unique wait.
    pytest.param("1122338888m9mSS7m", {}, "边张",
                 {"混一色": 1, "门前清": 1, "四归一": 1, "一般高": 1, "老少副": 1},
                 id="seven-pairs-wait-spoils-edge"),
    pytest.param("1113345678999m2m", {}, "九莲宝灯",
                 {"清一色": 1, "门前清": 1, "连六": 1, "幺九刻": 1}, id="nine-gates-wrong-13"),
    pytest.param("[5555m][123p,1][CCC,2][789s,1]8p8p", {}, "全求人",
                 {"箭刻": 1, "暗杠": 1, "单钓将": 1}, id="concealed-kong-spoils-melded-hand"),
    pytest.param("[123m,2][789p,1][CCC,3][555s,2]8p8p", {"self_drawn": True}, "全求人",
                 {"箭刻": 1, "单钓将": 1, "自摸": 1}, id="self-drawn-is-not-melded-hand"),
    pytest.param("[2222m,1]345p67sEEE99m8s", {"self_drawn": True, "flowers": 1}, "杠上开花",
                 {"圈风刻": 1, "门风刻": 1, "明杠": 1, "自摸": 1, "花牌": 1},
                 id="flower-replacement-is-self-drawn"),
    pytest.param("[8888s]123m456m78pWW9p", {}, "不求人",
                 {"门前清": 1, "暗杠": 1, "连六": 1}, id="concealed-kong-keeps-concealed-hand"),
    # The winning discard completes 111m: an exposed pung, so only one concealed pung.
    pytest.param("[EEE,1]11m456m888p99s1m", {}, "双暗刻",
                 {"圈风刻": 1, "门风刻": 1, "幺九刻": 1}, id="discard-pung-is-exposed"),
    pytest.param("[345m,1][456m,1]234p99s35m4m", {}, "和绝张",
                 {"平和": 1, "一般高": 1, "坎张": 1}, id="two-visible-is-not-last-tile"),
    pytest.param("[345m,1][678s,2]222p56pNN4p", {}, "断幺",
                 {"无番和": 1}, id="honour-pair-spoils-all-simples"),
    pytest.param("[123m,1]789m789pCC11s1s", {}, "五门齐",
                 {"全带幺": 1, "喜相逢": 1, "老少副": 1, "幺九刻": 1}, id="no-wind-no-all-types"),
    pytest.param("2255m3377p44sEE9s9s", {}, "门前清", {"七对": 1},
                 id="seven-pairs-no-concealed-hand"),
    pytest.param("1122338888m7mSS9m", {}, "单钓将",
                 {"混一色": 1, "门前清": 1, "四归一": 1, "一般高": 1, "老少副": 1},
                 id="seven-pairs-wait-spoils-single"),
]


@pytest.mark.parametrize(("hand", "ctx", "absent", "expected"), NEAR_MISSES)
def test_near_miss(hand: str, ctx: dict[str, Any], absent: str, expected: dict[str, int]) -> None:
    got = fan_counts(score(hand, **ctx))
    assert absent not in got
    assert got == expected


def test_pung_completed_by_discard_is_concealed_when_readable_in_a_concealed_chow() -> None:
    # 11123m + 1m: the winning 1m can be read in the concealed chow 123m, so 111m stays
    # concealed (§5.3) and with 888p gives Two Concealed Pungs.
    got = fan_counts(score("[EEE,1]11123m888p99s1m"))
    assert got == {"圈风刻": 1, "门风刻": 1, "四归一": 1, "双暗刻": 1, "幺九刻": 1}
    # The same shape self-drawn is concealed anyway.
    assert "双暗刻" in fan_counts(score("[EEE,1]11m456m888p99s1m", self_drawn=True))


def test_concealed_kong_does_not_break_concealment() -> None:
    discard = fan_counts(score("[5555m][CCCC]234p678s9s9s"))
    drawn = fan_counts(score("[5555m][CCCC]234p678s9s9s", self_drawn=True))
    assert discard["门前清"] == 1 and "不求人" not in discard
    assert drawn["不求人"] == 1 and "门前清" not in drawn and "自摸" not in drawn
    # An exposed kong does break it.
    exposed = fan_counts(score("[5555m,1][CCCC]234p678s9s9s"))
    assert "门前清" not in exposed


def test_self_drawn_seven_pairs_scores_self_drawn_not_fully_concealed() -> None:
    got = fan_counts(score("2255m3377p44sEE9s9s", self_drawn=True))
    assert got == {"七对": 1, "自摸": 1}


def test_last_tile_flag_and_self_draw_kong_flag_are_independent() -> None:
    # 妙手回春 and 杠上开花 both count (§5.8, E51 shape); each excludes 自摸.
    got = fan_counts(
        score("[3333m,1]678s234p56mWW7m", self_drawn=True, kong=True, last_tile=True)
    )
    assert got["妙手回春"] == 1 and got["杠上开花"] == 1 and "自摸" not in got


@pytest.mark.parametrize(
    "hand",
    [
        "2255m3377p44sEE9s9s",  # seven pairs: the winner holds the other 9s
        "[345m,1][678s,1]234p55mWW5m",  # shanpon: 5m completes a pung from a held pair
        "[345m,1][678s,1]234p56mW7mW",  # single wait on W with another W held
    ],
)
def test_last_tile_impossible_when_holding_another_copy(hand: str) -> None:
    """§5.8: 和绝张 can never apply when the winner holds another copy of the winning tile."""
    try:
        result = score(hand, fourth_tile=True)
    except SituationError:
        return
    assert "和绝张" not in fan_counts(result)


def test_replacement_flag_needs_a_kong() -> None:
    # A self-draw on a flower replacement is 自摸: without any kong, the kong flag is a
    # contradiction (§3.3, §5.8).
    with pytest.raises(SituationError):
        score("[345m,1][678s,1]234p56mWW7m", self_drawn=True, kong=True)


def test_robbing_a_kong_of_a_held_tile_is_impossible() -> None:
    with pytest.raises(SituationError):
        score("123m456p99s78sCCC9s", kong=True)


def test_wait_fans_at_most_one() -> None:
    # 4556m + 5m: closed (middle of 456) and not also single (55 pair) (§5.7).
    got = fan_counts(score("[678p,1][EEE,1][123s,1]4556m5m"))
    assert got.get("坎张") == 1 and "单钓将" not in got
    # 1233m + 3m: edge preferred over single.
    got = fan_counts(score("[678p,1][EEE,1][456s,1]1233m3m"))
    assert got.get("边张") == 1 and "单钓将" not in got


@pytest.mark.parametrize(
    ("hand", "wait_fan"),
    [("123m456p789s11s12p3p", "边张"), ("123m456p789s11s13p2p", "坎张")],
)
def test_no_wait_fan_on_the_dealers_initial_hand(hand: str, wait_fan: str) -> None:
    """§3.4, §5.7: a win on the dealer's initial fourteen tiles had no wait."""
    normal = fan_counts(score_hand(parse_hand(hand), WinContext(self_drawn=True)))
    initial = fan_counts(
        score_hand(parse_hand(hand), WinContext(self_drawn=True, initial_hand=True))
    )
    assert normal[wait_fan] == 1
    assert initial == {f: n for f, n in normal.items() if f != wait_fan}
