"""The §6 rule options of ``rules/guobiao.md``: each changes exactly what its item says.

D1 ``mixed_kong_pair_5``, D2 ``special_shapes_add_concealed_hand``, D4
``all_terminals_excludes_triple_pung``, D7 ``nine_gates_no_terminal_pung``, D9
``strict_1998_seven_pairs``, D10 ``no_tile_hog_in_green_terminal_pairs``, D11
``knitted_straight_no_edge_closed``; ``false_win`` / ``false_win_penalty`` (D18) are for the
engine and do not change a score. Unknown names and bad values raise ``OptionError``.
"""

from __future__ import annotations

from typing import Any

import pytest

from majiang import GuobiaoOptions, MajiangError, OptionError, score
from majiang.rules.guobiao.fans import FANS, F


def fan_counts(result: Any) -> dict[str, int]:
    return {fc.fan.zh: fc.count for fc in result.fans}


def scored(hand: str, option: str | None = None, **ctx: Any) -> tuple[int, dict[str, int]]:
    result = score(hand, options={option: True} if option else None, **ctx)
    return result.total, fan_counts(result)


SCORING_OPTIONS = [
    "mixed_kong_pair_5",
    "special_shapes_add_concealed_hand",
    "all_terminals_excludes_triple_pung",
    "nine_gates_no_terminal_pung",
    "strict_1998_seven_pairs",
    "no_tile_hog_in_green_terminal_pairs",
    "knitted_straight_no_edge_closed",
]

# ------------------------------------------------------------------ D1 mixed_kong_pair_5


def test_d1_e55_becomes_a_legal_eight() -> None:
    hand = "[3333m][7777p,2]234s678s5p5p"
    default = score(hand)
    assert default.total == 6 and not default.meets_minimum
    assert fan_counts(default) == {"暗杠": 1, "断幺": 1, "明杠": 1, "单钓将": 1}
    option = score(hand, options={"mixed_kong_pair_5": True})
    assert option.total == 8 and option.meets_minimum
    assert fan_counts(option) == {"明暗杠": 1, "断幺": 1, "单钓将": 1}


def test_d1_e56_becomes_eleven() -> None:
    hand = "[3333m][7777p,2]222s678s5p5p"
    assert scored(hand, self_drawn=True)[0] == 9
    total, fans = scored(hand, "mixed_kong_pair_5", self_drawn=True)
    assert total == 11
    assert fans == {"明暗杠": 1, "双暗刻": 1, "断幺": 1, "单钓将": 1, "自摸": 1}


def test_d1_combined_kong_fan_is_the_extra_id() -> None:
    info = FANS[F.CONCEALED_AND_MELDED_KONG]
    assert int(F.CONCEALED_AND_MELDED_KONG) == 82
    assert (info.zh, info.points) == ("明暗杠", 5)


@pytest.mark.parametrize(
    "hand",
    [
        "[5555m,1][7777s,6]234p678m3p3p",  # two melded kongs
        "[5555m][CCCC]234p678s9s9s",  # two concealed kongs
        "[1111m,1][2222p][9999s,2]234s6p6p",  # three kongs, one concealed
        "[2222m,1][3333p,2][4444s,5][NNNN,3]FF",  # four kongs
        "[8888s]123m555p78pWW9p",  # one concealed kong
    ],
)
def test_d1_only_one_exposed_plus_one_concealed(hand: str) -> None:
    assert scored(hand, "mixed_kong_pair_5") == scored(hand)


# ------------------------------------------------------------------ D2 concealed hand


def test_d2_e27_becomes_32() -> None:
    hand = "1199m3355p77sEEPP"
    assert scored(hand) == (30, {"七对": 1, "五门齐": 1})
    assert scored(hand, "special_shapes_add_concealed_hand") == (
        32, {"七对": 1, "五门齐": 1, "门前清": 1}
    )


@pytest.mark.parametrize(
    ("hand", "big"),
    [
        ("3344556677889p9p", "连七对"),
        ("19m19s19pESWNCFP1m", "十三幺"),
        ("147m25s369pESWNFC", "全不靠"),
        ("147p258m369sESNFP", "全不靠"),
        ("14m25s36pESWNCFP7m", "七星不靠"),
    ],
)
def test_d2_special_shapes_on_a_discard_add_concealed_hand(hand: str, big: str) -> None:
    total, fans = scored(hand)
    total_on, fans_on = scored(hand, "special_shapes_add_concealed_hand")
    assert "门前清" not in fans
    assert fans_on == {**fans, "门前清": 1}
    assert total_on == total + 2
    assert fans_on[big] == 1


@pytest.mark.parametrize(
    ("hand", "ctx"),
    [
        ("1199m3355p77sEEPP", {"self_drawn": True}),  # self-drawn: 自摸, not 不求人/门前清
        ("14m25s36pESWNCFP7m", {"self_drawn": True}),
        ("111m444m777p999s5s5s", {}),  # 四暗刻: the seed itself excludes 门前清
        ("123p456s789m22s34m5m", {}),  # a regular concealed hand has it anyway
    ],
)
def test_d2_leaves_other_hands_alone(hand: str, ctx: dict[str, Any]) -> None:
    assert scored(hand, "special_shapes_add_concealed_hand", **ctx) == scored(hand, **ctx)


def test_d2_self_drawn_seven_pairs() -> None:
    total, fans = scored("1199m3355p77sEEPP", "special_shapes_add_concealed_hand", self_drawn=True)
    assert fans == {"七对": 1, "五门齐": 1, "自摸": 1}
    assert total == 31


# ------------------------------------------------------------------ D4 all terminals


def test_d4_e14_becomes_81() -> None:
    hand = "[111m,2]111999p1199s1s"
    assert scored(hand, self_drawn=True)[0] == 97
    total, fans = scored(hand, "all_terminals_excludes_triple_pung", self_drawn=True)
    assert total == 81
    assert fans == {"清幺九": 1, "三暗刻": 1, "自摸": 1}


def test_d4_explained() -> None:
    result = score(
        "[111m,2]111999p1199s1s",
        self_drawn=True,
        options={"all_terminals_excludes_triple_pung": True},
        explain=True,
    )
    assert any(e.fan.zh == "三同刻" and e.by is not None and e.by.zh == "清幺九"
               for e in result.excluded)


@pytest.mark.parametrize(
    "hand",
    [
        "[111m,1]999m111p99p99s9s",  # 清幺九 without 三同刻
        "[333m,2]333p333s78m55p9m",  # 三同刻 without 清幺九
        "[111m,1]111p111s99mEEE",  # 三同刻 with 混幺九: only 清幺九 is concerned
    ],
)
def test_d4_leaves_other_hands_alone(hand: str) -> None:
    assert scored(hand, "all_terminals_excludes_triple_pung") == scored(hand)


# ------------------------------------------------------------------ D7 nine gates


@pytest.mark.parametrize(
    ("hand", "ctx", "default_total"),
    [
        ("1112345678999p2p", {}, 92),  # E6
        ("1112345678999s5s", {"self_drawn": True}, 92),
        ("1112345678999p8p", {}, 92),
    ],
)
def test_d7_nine_gates_on_2_5_8_lose_the_terminal_pung(
    hand: str, ctx: dict[str, Any], default_total: int
) -> None:
    total, fans = scored(hand, **ctx)
    assert total == default_total and fans["幺九刻"] == 1
    total_on, fans_on = scored(hand, "nine_gates_no_terminal_pung", **ctx)
    assert total_on == default_total - 1
    assert "幺九刻" not in fans_on
    assert fans_on["九莲宝灯"] == 1 and fans_on["双暗刻"] == 1


@pytest.mark.parametrize("win", ["1", "3", "4", "6", "7", "9"])
def test_d7_other_winning_tiles_unchanged(win: str) -> None:
    hand = f"1112345678999m{win}m"
    assert scored(hand, "nine_gates_no_terminal_pung") == scored(hand)
    assert "幺九刻" not in scored(hand)[1]


def test_d7_does_not_touch_other_terminal_pungs() -> None:
    hand = "111m444m777p999s5s5s"
    assert scored(hand, "nine_gates_no_terminal_pung") == scored(hand)


# ------------------------------------------------------------------ D9 seven pairs


def test_d9_e28_loses_lower_tiles() -> None:
    hand = "1122m2233s11223p3p"
    assert scored(hand, self_drawn=True) == (49, {"七对": 1, "全小": 1, "自摸": 1})
    total, fans = scored(hand, "strict_1998_seven_pairs", self_drawn=True)
    # 全小 and 小于五 go; 无字, implied only by them, now counts.
    assert fans == {"七对": 1, "无字": 1, "自摸": 1}
    assert total == 26


@pytest.mark.parametrize(
    ("hand", "default", "strict"),
    [
        # E5: 绿一色 goes; 清一色, 四归一, 断幺 stay.
        ("2233334466888s8s", 142, {"七对": 1, "清一色": 1, "四归一": 2, "断幺": 1}),
        # E17: 字一色 goes.
        ("EESSWWNNPPFFCC", 88, {"七对": 1}),
        ("1199m11p99sEESSFF", 62, {"七对": 1, "五门齐": 1}),  # 混幺九 goes
        ("1111m99m11p99p11s99s", 90, {"七对": 1, "四归一": 1, "无字": 1}),  # 清幺九 goes
    ],
)
def test_d9_set_defined_fans_leave_seven_pairs(
    hand: str, default: int, strict: dict[str, int]
) -> None:
    assert scored(hand)[0] == default
    total, fans = scored(hand, "strict_1998_seven_pairs")
    assert fans == strict
    assert total == sum(FANS[f].points * n for f, n in _ids(fans).items())


def test_d9_a_regular_reading_may_then_win() -> None:
    # 445566m445566p44s: 七对 + 全中 = 48 by default; strict, the regular reading (which keeps
    # 全中, a regular-shape fan) is higher than bare seven pairs.
    hand = "445566m445566p4s4s"
    assert scored(hand) == (48, {"七对": 1, "全中": 1})
    total, fans = scored(hand, "strict_1998_seven_pairs")
    assert "七对" not in fans and fans["全中"] == 1
    assert total == 32


@pytest.mark.parametrize(
    "hand",
    [
        "[789p,1]777s888s99m88p8p",  # 全大, regular
        "[111s,1]999pNNNFF99m9m",  # 混幺九, regular
        "[666s,1]234s234s88sFF8s",  # 绿一色, regular
        "1122m5555p8888sEE",  # seven pairs with none of the nine fans
        "2255m3377p44sEE9s9s",
    ],
)
def test_d9_leaves_other_hands_alone(hand: str) -> None:
    assert scored(hand, "strict_1998_seven_pairs") == scored(hand)


# ------------------------------------------------------------------ D10 tile hog


def test_d10_e5_loses_tile_hog() -> None:
    hand = "2233334466888s8s"
    assert scored(hand)[0] == 142
    total, fans = scored(hand, "no_tile_hog_in_green_terminal_pairs")
    assert total == 138
    assert fans == {"绿一色": 1, "七对": 1, "清一色": 1, "断幺": 1}


def test_d10_all_terminals_seven_pairs_loses_tile_hog() -> None:
    hand = "1111m99m11p99p11s99s"
    assert scored(hand) == (90, {"清幺九": 1, "七对": 1, "四归一": 1})
    assert scored(hand, "no_tile_hog_in_green_terminal_pairs") == (88, {"清幺九": 1, "七对": 1})


@pytest.mark.parametrize(
    "hand",
    [
        "[666s,1]234s234s22s88s8s",  # regular All Green with four 2s
        "1122m5555p8888sEE",  # ordinary seven pairs
        "1111m99m11pEESSFF",  # 混幺九 seven pairs: not concerned
    ],
)
def test_d10_keeps_other_tile_hogs(hand: str) -> None:
    default = scored(hand)
    assert default[1]["四归一"] >= 1
    assert scored(hand, "no_tile_hog_in_green_terminal_pairs") == default


# ------------------------------------------------------------------ D11 knitted straight


@pytest.mark.parametrize(
    ("hand", "wait_fan"),
    [
        ("147m258s369p24p55m3p", "坎张"),  # E33
        ("147m258s369p12p55m3p", "边张"),
    ],
)
def test_d11_knitted_straight_loses_edge_and_closed(hand: str, wait_fan: str) -> None:
    total, fans = scored(hand)
    assert fans[wait_fan] == 1
    total_on, fans_on = scored(hand, "knitted_straight_no_edge_closed")
    assert wait_fan not in fans_on
    assert fans_on == {f: n for f, n in fans.items() if f != wait_fan}
    assert total_on == total - 1


@pytest.mark.parametrize(
    "hand",
    [
        "[CCC,1]147m258s369pEE",  # E34: single wait stays
        "147m258s369p999s4m4m",  # single wait on the pair stays
        "[678p,1][EEE,1]46m789mSS5m",  # a regular closed wait stays
        "[678p,1][EEE,1]12m456mSS3m",  # a regular edge wait stays
    ],
)
def test_d11_leaves_other_waits_alone(hand: str) -> None:
    assert scored(hand, "knitted_straight_no_edge_closed") == scored(hand)


# ------------------------------------------------------------------ nothing else changes

# Hands that none of the scoring options concerns.
UNAFFECTED = [
    ("[EEE,1][SSS,2]WWWNNN5m5m", {}),
    ("[CCC,1]FFFPPP234s9m9m", {}),
    ("[666s,1]234s234s88sFF8s", {}),
    ("1112345678999p1p", {}),
    ("1112345678999m6m", {"self_drawn": True}),
    ("[2222m,1][3333p,2][4444s,5][NNNN,3]FF", {}),
    ("[1111m][2222p][3333s][EEEE]5m5m", {}),
    ("[111m,1]999m111p99p99s9s", {}),
    ("111m444m777p999s5s5s", {}),
    ("[1111m,1][2222p][9999s,2]234s6p6p", {}),
    ("[5555m][CCCC]222p678s9s9s", {"self_drawn": True}),
    ("[5555m,1][7777s,6]234p678m3p3p", {}),
    ("[333m,2]333p333s78m55p9m", {}),
    ("[111m,1]111p111s99mEEE", {}),
    ("[789p,1]777s888s99m88p8p", {}),
    ("[456s,1]456m456p555m6s6s", {}),
    ("[123p,1]123m222s333s3m3m", {}),
    ("[666s,1]234s234s22s88s8s", {}),
    ("[678p,1][EEE,1]46m789mSS5m", {}),
    ("123p456s789m22s34m5m", {}),
    ("19m19s19pESWNCFP1m", {"self_drawn": True}),
    ("2255m3377p44sEE9s9s", {"self_drawn": True}),
    ("1122m5555p8888sEE", {"self_drawn": True}),
    ("[CCC,1]147m258s369pEE", {}),
    ("147m258s369p999s4m4m", {}),
    ("147p258m369s55p23s4s", {}),
    ("[3333m][678s,1]234p56mWW7m", {"self_drawn": True, "kong": True}),
    ("[8888s]123m555p78pWW9p", {}),
    ("123m456p11s78sCCC9s", {"kong": True}),
    ("[345m,1][678s,1]234p56mWW7m", {"fourth_tile": True}),
    ("abc[345m,1][678s,2]222p56pNN4p", {}),
]


@pytest.mark.parametrize("option", [*SCORING_OPTIONS, "false_win"])
def test_options_leave_unconcerned_hands_alone(option: str) -> None:
    for hand, ctx in UNAFFECTED:
        assert scored(hand, option, **ctx) == scored(hand, **ctx), (option, hand)


def test_false_win_penalty_does_not_change_a_score() -> None:
    hand = "123789m12378s22p9s"  # E61: 7 fans, below the minimum either way
    result = score(hand, options={"false_win": True, "false_win_penalty": 20})
    assert result.total == 7 and not result.meets_minimum
    assert fan_counts(result) == fan_counts(score(hand))


def test_all_options_together() -> None:
    everything = {name: True for name in SCORING_OPTIONS}
    assert score("[3333m][7777p,2]234s678s5p5p", options=everything).total == 8
    assert score("1199m3355p77sEEPP", options=everything).total == 32
    assert score("147m258s369p24p55m3p", options=everything).total == 16


# ------------------------------------------------------------------ option values


def test_option_names() -> None:
    assert set(GuobiaoOptions.names()) == {
        *SCORING_OPTIONS, "false_win", "false_win_penalty", "botzone_scoring", "flowers"
    }


def test_defaults_are_off() -> None:
    options = GuobiaoOptions()
    for name in SCORING_OPTIONS:
        assert getattr(options, name) is False
    assert options.false_win is False
    assert options.false_win_penalty == 10
    assert GuobiaoOptions.from_mapping(None) == options
    assert GuobiaoOptions.from_mapping({}) == options


def test_options_object_and_mapping_agree() -> None:
    hand = "[3333m][7777p,2]234s678s5p5p"
    by_object = score(hand, options=GuobiaoOptions(mixed_kong_pair_5=True))
    by_mapping = score(hand, options={"mixed_kong_pair_5": True})
    assert by_object.total == by_mapping.total == 8


@pytest.mark.parametrize(
    ("raw", "value"),
    [(True, True), (False, False), ("on", True), ("off", False), ("1", True), ("0", False),
     ("true", True), ("false", False), ("yes", True), ("no", False), ("ON", True)],
)
def test_boolean_option_values(raw: Any, value: bool) -> None:
    options = GuobiaoOptions.from_mapping({"mixed_kong_pair_5": raw})
    assert options.mixed_kong_pair_5 is value
    total = score("[3333m][7777p,2]234s678s5p5p", options={"mixed_kong_pair_5": raw}).total
    assert total == (8 if value else 6)


def test_penalty_option_value() -> None:
    assert GuobiaoOptions.from_mapping({"false_win_penalty": 25}).false_win_penalty == 25
    assert GuobiaoOptions.from_mapping({"false_win_penalty": "5"}).false_win_penalty == 5


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": True},
        {"mixed_kong_pair": True},
        {"Mixed_Kong_Pair_5": True},
        {"mixed_kong_pair_5": "maybe"},
        {"mixed_kong_pair_5": None},
        {"mixed_kong_pair_5": 2},
        {"mixed_kong_pair_5": 1.5},
        {"mixed_kong_pair_5": []},
        {"strict_1998_seven_pairs": "enabled"},
        {"false_win_penalty": "ten"},
        {"false_win_penalty": -1},
        {"false_win_penalty": True},
        {"false_win_penalty": None},
    ],
)
def test_bad_options_raise(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        score("[3333m][7777p,2]234s678s5p5p", options=options)
    with pytest.raises(OptionError):
        GuobiaoOptions.from_mapping(options)


def test_option_error_is_a_majiang_value_error() -> None:
    with pytest.raises(MajiangError) as info:
        score("123p456s789m22s34m5m", options={"nope": True})
    assert isinstance(info.value, ValueError)
    assert "nope" in str(info.value)


def _ids(fans: dict[str, int]) -> dict[int, int]:
    by_name = {info.zh: fan_id for fan_id, info in FANS.items()}
    return {by_name[name]: n for name, n in fans.items()}
