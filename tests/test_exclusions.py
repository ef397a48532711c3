"""The accounting principles: implied fans are not double counted (``rules/guobiao.md`` §4.2, §5).

For every exclusion of the §5.1 "Not counted (project)" column there is a hand where the big fan
is counted and the implied fans are absent; a comparison hand shows each implied fan counted on
its own. With ``explain=True`` the implied fans the scorer detected appear in ``Score.excluded``
naming the fan that excluded them. Then the §5.2 (kongs), §5.4 (honour pungs) and §5.5 (chow
combinations: non-separation, non-identical, account once) rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from majiang import score
from majiang.rules.guobiao.fans import FANS

EN = {info.zh: info.en.lower().replace(" ", "-") for info in FANS.values()}


def fan_counts(result: Any) -> dict[str, int]:
    return {fc.fan.zh: fc.count for fc in result.fans}


def excluded_by(result: Any) -> dict[str, set[str]]:
    """{implied fan: the fans named as excluding it} from an explained score."""
    found: dict[str, set[str]] = {}
    for e in result.excluded:
        found.setdefault(e.fan.zh, set()).add(e.by.zh if e.by is not None else "")
    return found


def row(
    big: str,
    absent: tuple[str, ...],
    hand: str,
    explained: tuple[str, ...] = (),
    also_by: tuple[str, ...] = (),
    **ctx: Any,
) -> Any:
    """A big fan, the implied fans that must be absent, and those the explanation must name.

    ``explained`` lists the implied fans that the hand's own reading satisfies, so that they must
    appear in ``Score.excluded``; the other ``absent`` ones cannot hold in this reading (e.g.
    混幺九 needs honours, 一色三节高 needs the pungs reading). ``also_by`` are other fans of the
    hand that may be named instead (e.g. 幺九刻 of a dragon pung may be dropped "by 箭刻").
    """
    tag = "-self-drawn" if ctx.get("self_drawn") else ""
    return pytest.param(big, absent, hand, explained, also_by, ctx, id=f"{EN[big]}{tag}")


SD = {"self_drawn": True}

ROWS = [
    row("大四喜", ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻"), "[EEE,1][SSS,2]WWWNNN5m5m",
        ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻")),
    row("大三元", ("双箭刻", "箭刻", "幺九刻"), "[CCC,1]FFFPPP234s9m9m",
        ("双箭刻", "箭刻", "幺九刻"), ("箭刻",)),
    row("绿一色", ("混一色",), "[666s,1]234s234s88sFFF", ("混一色",)),
    row("九莲宝灯", ("清一色", "门前清", "不求人", "无字"), "1112345678999p8p",
        ("清一色", "门前清", "无字")),
    row("九莲宝灯", ("清一色", "门前清", "不求人", "无字"), "1112345678999s5s",
        ("清一色", "不求人", "无字"), **SD),
    row("四杠", ("三杠", "双明杠", "双暗杠", "明杠", "暗杠", "碰碰和", "单钓将"),
        "[1111m][2222p][3333s][EEEE]5m5m", ("三杠", "碰碰和", "单钓将")),
    row("四杠", ("三杠", "双明杠", "明杠", "碰碰和", "单钓将"),
        "[2222m,1][3333p,2][4444s,5][NNNN,3]FF", ("三杠", "碰碰和", "单钓将"), ("全求人",)),
    row("连七对", ("七对", "清一色", "门前清", "不求人", "单钓将", "无字"), "3344556677889p9p",
        ("七对", "清一色", "门前清", "无字")),
    row("连七对", ("七对", "清一色", "门前清", "不求人", "单钓将", "无字"), "1122334455667m7m",
        ("七对", "清一色", "不求人", "无字"), **SD),
    row("十三幺", ("五门齐", "门前清", "不求人", "单钓将"), "19m19s19pESWNCFP1m",
        ("五门齐", "门前清")),
    row("十三幺", ("五门齐", "门前清", "不求人", "单钓将"), "119m19s19pESWNCFP",
        ("五门齐", "不求人"), **SD),
    row("清幺九", ("混幺九", "碰碰和", "全带幺", "双同刻", "幺九刻", "无字"),
        "[111m,1]999m111p99p99s9s", ("碰碰和", "全带幺", "双同刻", "幺九刻", "无字")),
    row("小四喜", ("三风刻", "幺九刻"), "[EEE,1]SSSWWWNN23m4m", ("三风刻", "幺九刻"),
        seat_wind="S"),
    row("小三元", ("双箭刻", "箭刻"), "[CCC,1]FFFPP789p11s1s", ("双箭刻", "箭刻")),
    row("字一色", ("碰碰和", "混幺九", "全带幺", "幺九刻", "缺一门"), "[SSS,1][NNN,2]CCCFFFEE",
        ("碰碰和", "全带幺", "幺九刻"), ("箭刻",)),
    row("四暗刻", ("三暗刻", "双暗刻", "碰碰和", "门前清", "不求人"), "111m444m777p999s5s5s",
        ("三暗刻", "双暗刻", "碰碰和", "门前清")),
    row("四暗刻", ("三暗刻", "双暗刻", "碰碰和", "门前清", "不求人"), "111m444m777p999s5s5s",
        ("三暗刻", "双暗刻", "碰碰和", "不求人"), **SD),
    row("一色双龙会", ("七对", "清一色", "平和", "一般高", "老少副", "无字"), "123123789789p5p5p",
        ("清一色", "平和", "无字")),
    row("一色四同顺", ("一色三同顺", "一色三节高", "一般高", "四归一"), "[456p,1]456p456p456pEE",
        ("四归一",)),
    row("一色四节高", ("一色三节高", "一色三同顺", "碰碰和"), "[333s,2]444s555s66s99m6s",
        ("一色三节高", "碰碰和")),
    row("一色四步高", ("一色三步高", "连六", "老少副", "一般高"), "[234m,1]345m456m567m8p8p"),
    row("一色四步高", ("一色三步高", "连六", "老少副", "一般高"), "[123m,1]345m567m789m2p2p"),
    row("三杠", ("双明杠", "双暗杠", "明杠", "暗杠"), "[1111m,1][2222p][9999s,2]234s6p6p"),
    row("混幺九", ("碰碰和", "全带幺", "幺九刻"), "[111s,1]999pNNNFF99m9m",
        ("碰碰和", "全带幺", "幺九刻")),
    row("七对", ("门前清", "不求人", "单钓将"), "2255m3377p44sEE9s9s", ("门前清", "单钓将")),
    row("七对", ("门前清", "不求人", "单钓将"), "2255m3377p44sEE9s9s", ("不求人", "单钓将"), **SD),
    row("七星不靠", ("全不靠", "五门齐", "门前清", "不求人", "单钓将"), "14m25s36pESWNCFP7m",
        ("全不靠", "门前清")),
    row("七星不靠", ("全不靠", "五门齐", "门前清", "不求人", "单钓将"), "14m25s36pESWNCFP7m",
        ("全不靠", "不求人"), **SD),
    row("全双刻", ("碰碰和", "断幺", "无字"), "[222m,1][666p,2]444s88s88p8p",
        ("碰碰和", "断幺", "无字")),
    row("清一色", ("无字",), "[111p,1]234p567p88p99p9p", ("无字",)),
    row("一色三同顺", ("一色三节高", "一般高"), "[345p,1]345p345p678sWW", ("一般高",)),
    # 777888999p read as pungs (45 > the chows' 30): 一色三节高, never also 一色三同顺.
    row("一色三节高", ("一色三同顺",), "[567s,1]777888999p1s1s"),
    row("全大", ("大于五", "无字"), "[789p,1]777s888s99m88p8p", ("大于五", "无字")),
    row("全中", ("断幺", "无字"), "[456s,1]456m456p555m6s6s", ("断幺", "无字")),
    row("全小", ("小于五", "无字"), "[123p,1]123m222s333s3m3m", ("小于五", "无字")),
    row("清龙", ("连六", "老少副"), "[123s,1]456s789s22m55p5p", ("连六", "老少副")),
    row("三色双龙会", ("喜相逢", "老少副", "平和", "无字"), "123789s123789p5m5m", ("平和", "无字")),
    row("全带五", ("断幺", "无字"), "[345m,1]555p456s567m5s5s", ("断幺", "无字")),
    row("三同刻", ("双同刻",), "[333m,2]333p333s78m55p9m", ("双同刻",)),
    row("三暗刻", ("双暗刻",), "111m444p666s78s99m9s", ("双暗刻",)),
    row("全不靠", ("五门齐", "门前清", "不求人", "单钓将"), "147m25s369pESWNFC", ("门前清",)),
    row("全不靠", ("五门齐", "门前清", "不求人", "单钓将"), "147m25s369pESWNFC", ("不求人",),
        **SD),
    row("大于五", ("无字",), "[678m,1]789s666p88s99p9p", ("无字",)),
    row("小于五", ("无字",), "[234p,1]123s444m11p33m3m", ("无字",)),
    row("三风刻", ("幺九刻",), "[SSS,1]WWWNNN234m9p9p", ("幺九刻",)),
    row("推不倒", ("缺一门",), "[123p,1]456s888sPP99p9p", ("缺一门",)),
    row("三色三同顺", ("喜相逢",), "[678m,1]678p678s11s33p3p", ("喜相逢",)),
    row("妙手回春", ("自摸",), "[234m,1][567p,2]111s78s99m9s", ("自摸",),
        self_drawn=True, last_tile=True),
    row("杠上开花", ("自摸",), "[2222m,1]345p67sEEE99m8s", ("自摸",), self_drawn=True, kong=True),
    row("抢杠和", ("和绝张",), "123m456p11s78sCCC9s", ("和绝张",), kong=True, fourth_tile=True),
    row("全求人", ("单钓将",), "[123m,2][789p,1][CCC,3][555s,2]8p8p", ("单钓将",)),
    row("双暗杠", ("暗杠", "双暗刻"), "[5555m][CCCC]234p678s9s9s", ("暗杠", "双暗刻")),
    row("双箭刻", ("箭刻", "幺九刻"), "[CCC,1]FFF789s123s9m9m", ("箭刻", "幺九刻"), ("箭刻",)),
    row("不求人", ("自摸", "门前清"), "234m567m345p67s99s8s", ("自摸",), **SD),
    row("双明杠", ("明杠",), "[5555m,1][7777s,6]234p678m3p3p", ("明杠",)),
    row("箭刻", ("幺九刻",), "[123m,2][789p,1][CCC,3][555s,2]8p8p", ("幺九刻",)),
    row("圈风刻", ("幺九刻",), "[SSS,1]123m456p78sEE9s", ("幺九刻",), prevalent_wind="S"),
    row("门风刻", ("幺九刻",), "[SSS,1]123m456p78sEE9s", ("幺九刻",), seat_wind="S"),
    row("平和", ("无字",), "[123m,1]123m456p456p7s7s", ("无字",)),
    row("断幺", ("无字",), "[234m,1]567p345s66s88m8m", ("无字",)),
]


@pytest.mark.parametrize(("big", "absent", "hand", "explained", "also_by", "ctx"), ROWS)
def test_implied_fans_are_not_counted(
    big: str,
    absent: tuple[str, ...],
    hand: str,
    explained: tuple[str, ...],
    also_by: tuple[str, ...],
    ctx: dict[str, Any],
) -> None:
    got = fan_counts(score(hand, **ctx))
    assert got.get(big) == 1, got
    for fan in absent:
        assert fan not in got, (fan, got)


@pytest.mark.parametrize(("big", "absent", "hand", "explained", "also_by", "ctx"), ROWS)
def test_explain_names_the_excluding_fan(
    big: str,
    absent: tuple[str, ...],
    hand: str,
    explained: tuple[str, ...],
    also_by: tuple[str, ...],
    ctx: dict[str, Any],
) -> None:
    result = score(hand, explain=True, **ctx)
    by = excluded_by(result)
    for fan in explained:
        assert fan in by, (fan, by)
        assert by[fan] & {big, *also_by}, (fan, by[fan])
    # An excluding fan is counted, or is itself excluded (箭刻 drops 幺九刻, 双箭刻 drops 箭刻).
    named = set(fan_counts(result)) | set(by)
    for e in result.excluded:
        if e.by is not None:
            assert e.by.zh in named, e


# Exclusions inside four-chow fans and the knitted shapes: the explanation names them too.
def gap(big: str, implied: str, hand: str, **ctx: Any) -> Any:
    return pytest.param(big, implied, hand, ctx, id=f"{EN[big]}-{EN[implied]}")


EXPLAIN_GAPS = [
    gap("三色双龙会", "喜相逢", "123789s123789p5m5m"),
    gap("三色双龙会", "老少副", "123789s123789p5m5m"),
    gap("一色双龙会", "一般高", "123123789789p5p5p"),
    gap("一色双龙会", "老少副", "123123789789p5p5p"),
    gap("一色四同顺", "一色三同顺", "[456p,1]456p456p456pEE"),
    gap("一色四同顺", "一般高", "[456p,1]456p456p456pEE"),
    gap("一色四步高", "一色三步高", "[234m,1]345m456m567m8p8p"),
    gap("一色四步高", "连六", "[234m,1]345m456m567m8p8p"),
    gap("一色四步高", "老少副", "[123m,1]345m567m789m2p2p"),
    gap("全不靠", "五门齐", "147m25s369pESWNFC"),
    gap("七星不靠", "五门齐", "14m25s36pESWNCFP7m"),
]


@pytest.mark.parametrize(("big", "implied", "hand", "ctx"), EXPLAIN_GAPS)
def test_explain_names_every_satisfied_exclusion(
    big: str, implied: str, hand: str, ctx: dict[str, Any]
) -> None:
    result = score(hand, explain=True, **ctx)
    assert implied not in fan_counts(result)
    assert big in excluded_by(result).get(implied, set())


# A hand where each implied fan IS counted (no bigger fan excludes it).
COUNTED: dict[str, tuple[str, dict[str, Any]]] = {
    "三风刻": ("[SSS,1]WWWNNN234m9p9p", {}),
    "碰碰和": ("[222m,1][555s,2]888p99mEEE", {}),
    "圈风刻": ("[SSS,1]123m456p78sEE9s", {"prevalent_wind": "S"}),
    "门风刻": ("[SSS,1]123m456p78sEE9s", {"seat_wind": "S"}),
    "幺九刻": ("[SSS,1]123m456p78sEE9s", {}),
    "双箭刻": ("[CCC,1]FFF789s123s9m9m", {}),
    "箭刻": ("[123m,2][789p,1][CCC,3][555s,2]8p8p", {}),
    "混一色": ("[234s,1]678s999s55sNNN", {}),
    "清一色": ("[111p,1]234p567p88p99p9p", {}),
    "门前清": ("123p456s789m22s34m5m", {}),
    "不求人": ("234m567m345p67s99s8s", SD),
    "无字": ("111m444p666s78s99m9s", {}),
    "三杠": ("[1111m,1][2222p][9999s,2]234s6p6p", {}),
    "双明杠": ("[5555m,1][7777s,6]234p678m3p3p", {}),
    "双暗杠": ("[5555m][CCCC]234p678s9s9s", {}),
    "明杠": ("[2222m,1]345p67sEEE99m8s", SD),
    "暗杠": ("[8888s]123m456m78pWW9p", {}),
    "单钓将": ("[SSS,1]WWWNNN234m9p9p", {}),
    "七对": ("2255m3377p44sEE9s9s", {}),
    "五门齐": ("[789m,1]123pEEE45sCC6s", {}),
    "混幺九": ("[111s,1]999pNNNFF99m9m", {}),
    "全带幺": ("[123m,1]789m789pCC11s1s", {}),
    "双同刻": ("[333m,1][666p,2]333s666mEE", {}),
    "缺一门": ("[678p,1][EEE,1]45567mSS6m", {}),
    "三暗刻": ("111m444p666s78s99m9s", {}),
    "双暗刻": ("[EEE,1]11m456m888p99s1m", SD),
    "平和": ("123p456s789m22s34m5m", {}),
    "一般高": ("[123m,1]123m456p456p7s7s", {}),
    "老少副": ("[CCC,1]FFF789s123s9m9m", {}),
    "一色三同顺": ("[345p,1]345p345p678sWW", {}),
    "一色三节高": ("[777p,2]888p999p23s55m1s", {}),
    "四归一": ("[234m,1]222m456p444p6s6s", {}),
    "一色三步高": ("[123p,1]234p345p66s88m8m", {}),
    "连六": ("[123m,1]456m345p678p9s9s", {}),
    "全不靠": ("147m25s369pESWNFC", {}),
    "断幺": ("[234m,1]567p345s66s88m8m", {}),
    "大于五": ("[678m,1]789s666p88s99p9p", {}),
    "小于五": ("[234p,1]123s444m11p33m3m", {}),
    "喜相逢": ("[234m,1]234p678s678p9m9m", {}),
    "自摸": ("[2222m,1]345p67sEEE99m8s", SD),
    "和绝张": ("[345m,1][678s,1]234p56mWW7m", {"fourth_tile": True}),
}


def test_every_implied_fan_has_a_comparison_hand() -> None:
    implied = {fan for param in ROWS for fan in param.values[1]}
    assert implied <= set(COUNTED), implied - set(COUNTED)


@pytest.mark.parametrize("fan", sorted(COUNTED))
def test_implied_fan_alone_is_counted(fan: str) -> None:
    hand, ctx = COUNTED[fan]
    assert fan in fan_counts(score(hand, **ctx))


# ------------------------------------------------------------------ §5.2 kongs


@pytest.mark.parametrize(
    ("hand", "ctx", "kong_fans"),
    [
        pytest.param("[2222m,1]345p67sEEE99m8s", SD, {"明杠": 1}, id="one-melded"),
        pytest.param("[8888s]123m456m78pWW9p", {}, {"暗杠": 1}, id="one-concealed"),
        pytest.param("[5555m,1][7777s,6]234p678m3p3p", {}, {"双明杠": 1}, id="two-melded"),
        pytest.param("[5555m][CCCC]234p678s9s9s", {}, {"双暗杠": 1}, id="two-concealed"),
        pytest.param("[3333m][7777p,2]234s678s5p5p", {}, {"明杠": 1, "暗杠": 1},
                     id="one-of-each"),
        pytest.param("[1111m,1][2222p][9999s,2]234s6p6p", {}, {"三杠": 1}, id="three"),
        pytest.param("[2222m,1][3333p,2][4444s,5][NNNN,3]FF", {}, {"四杠": 1}, id="four"),
    ],
)
def test_kong_series_gives_one_fan(
    hand: str, ctx: dict[str, Any], kong_fans: dict[str, int]
) -> None:
    got = fan_counts(score(hand, **ctx))
    series = {"四杠", "三杠", "双明杠", "双暗杠", "明杠", "暗杠", "明暗杠"}
    assert {f: n for f, n in got.items() if f in series} == kong_fans


@pytest.mark.parametrize(
    ("hand", "ctx", "pung_fans"),
    [
        # The two concealed "pungs" are exactly the two kongs of 双暗杠: no 双暗刻.
        pytest.param("[5555m][CCCC]234p678s9s9s", {}, {}, id="two-concealed-kongs"),
        # Two concealed kongs and a concealed pung: 三暗刻 (E54 has no third pung).
        pytest.param("[5555m][CCCC]222p678s9s9s", {}, {"三暗刻": 1}, id="kongs-and-pung"),
        # One concealed kong and a concealed pung: 暗杠 + 双暗刻 (E40 shape).
        pytest.param("[8888s]123m555p78pWW9p", {}, {"双暗刻": 1}, id="kong-and-pung"),
        # Four concealed kongs: 四暗刻 alongside 四杠.
        pytest.param("[1111m][2222p][3333s][EEEE]5m5m", {}, {"四暗刻": 1}, id="four-kongs"),
        # An exposed kong never counts as concealed.
        pytest.param("[1111m,1][2222p][9999s,2]234s6p6p", {}, {}, id="one-of-three"),
    ],
)
def test_concealed_pung_series_gives_one_fan(
    hand: str, ctx: dict[str, Any], pung_fans: dict[str, int]
) -> None:
    got = fan_counts(score(hand, **ctx))
    series = {"双暗刻", "三暗刻", "四暗刻"}
    assert {f: n for f, n in got.items() if f in series} == pung_fans


def test_two_concealed_kongs_and_a_pung_explained() -> None:
    by = excluded_by(score("[5555m][CCCC]222p678s9s9s", explain=True))
    assert "三暗刻" in by["双暗刻"]
    assert "双暗杠" in by["暗杠"]


# ------------------------------------------------------------------ §5.4 honour pungs


@pytest.mark.parametrize(
    ("hand", "ctx", "honour_fans"),
    [
        pytest.param("[123m,2][789p,1][CCC,3][555s,2]8p8p", {}, {"箭刻": 1}, id="dragon"),
        pytest.param("[SSS,1]123m456p78sEE9s", {"prevalent_wind": "S"}, {"圈风刻": 1},
                     id="prevalent"),
        pytest.param("[SSS,1]123m456p78sEE9s", {"seat_wind": "S"}, {"门风刻": 1}, id="seat"),
        pytest.param("[SSS,1]123m456p78sEE9s", {"seat_wind": "S", "prevalent_wind": "S"},
                     {"圈风刻": 1, "门风刻": 1}, id="both"),
        pytest.param("[SSS,1]123m456p78sEE9s", {}, {"幺九刻": 1}, id="other-wind"),
        # Sets inside 三风刻 lose 幺九刻 but keep the seat/prevalent wind fans (E44 shape).
        pytest.param("[WWW,3][NNN,1]EEE234p6s6s", {"seat_wind": "W", "prevalent_wind": "N"},
                     {"圈风刻": 1, "门风刻": 1}, id="big-three-winds"),
        pytest.param("[EEE,1]SSSWWWNN23m4m", {"seat_wind": "S"}, {"圈风刻": 1, "门风刻": 1},
                     id="little-four-winds"),
        # 大四喜 excludes them too.
        pytest.param("[EEE,1][SSS,2]WWWNNN5m5m", {}, {}, id="big-four-winds"),
        # A terminal pung outside the dragon fan still scores 幺九刻 (E2 principle).
        pytest.param("[CCC,1]FFFPP789p11s1s", {}, {"幺九刻": 1}, id="little-three-dragons"),
        # 清幺九, 混幺九, 字一色 exclude 幺九刻 entirely.
        pytest.param("[111m,1]999m111p99p99s9s", {}, {}, id="all-terminals"),
        pytest.param("[111s,1]999pNNNFF99m9m", {}, {}, id="all-terminals-and-honours"),
        pytest.param("[SSS,1][NNN,2]CCCFFFEE", {}, {}, id="all-honours"),
        # 九莲宝灯 absorbs one of its two terminal pungs (won on 8: 111 + 999).
        pytest.param("1112345678999p8p", {}, {"幺九刻": 1}, id="nine-gates"),
    ],
)
def test_honour_and_terminal_pungs(
    hand: str, ctx: dict[str, Any], honour_fans: dict[str, int]
) -> None:
    got = fan_counts(score(hand, **ctx))
    kinds = {"箭刻", "圈风刻", "门风刻", "幺九刻"}
    assert {f: n for f, n in got.items() if f in kinds} == honour_fans


def test_wind_pung_exclusion_names_the_wind_fan() -> None:
    result = score("[SSS,1]123m456p78sEE9s", prevalent_wind="S", explain=True)
    assert excluded_by(result)["幺九刻"] == {"圈风刻"}
    result = score("[123m,2][789p,1][CCC,3][555s,2]8p8p", explain=True)
    assert excluded_by(result)["幺九刻"] == {"箭刻"}


# ------------------------------------------------------------------ §5.5 chow combinations


def test_four_chow_fan_counts_no_other_chow_fan() -> None:
    for hand in ("[234m,1]345m456m567m8p8p", "[123m,1]345m567m789m2p2p",
                 "[456p,1]456p456p456pEE", "123789s123789p5m5m", "123123789789p5p5p"):
        got = fan_counts(score(hand))
        chow_fans = {"一色三同顺", "一色三步高", "清龙", "花龙", "三色三同顺", "三色三步高",
                     "一般高", "喜相逢", "连六", "老少副"}
        assert not chow_fans & set(got), (hand, got)


def test_non_separation_pure_straight() -> None:
    result = score("[123s,1]456s789s22m55p5p", explain=True)
    got = fan_counts(result)
    assert got == {"清龙": 1, "无字": 1}
    principles = {e.principle for e in result.excluded if e.fan.zh in ("连六", "老少副")}
    assert principles and all("不拆移" in p for p in principles)


def test_account_once_fourth_chow_with_a_three_chow_fan() -> None:
    # 清龙 123p 456p 789p + 123p: the extra chow scores 一般高 once, not also 连六 with 456p.
    got = fan_counts(score("[123p,1]123p456p789p5s5s"))
    assert got == {"清龙": 1, "平和": 1, "一般高": 1, "缺一门": 1, "单钓将": 1}
    # 花龙 123s 456p 789m + 456s: 喜相逢 with 456p or 连六 with 123s, not both.
    got = fan_counts(score("123456s456p789m9m9m"))
    assert got["花龙"] == 1
    assert got.get("喜相逢", 0) + got.get("连六", 0) == 1


def test_non_identical_second_three_chow_fan() -> None:
    # 234m 345p 456s is 三色三步高; 345p 456s 567m would be a second one sharing two chows.
    result = score("234567m345p456s8p8p", explain=True)
    got = fan_counts(result)
    assert got["三色三步高"] == 1
    assert got["连六"] == 1  # 567m combines once, with 234m
    assert got == {"三色三步高": 1, "门前清": 1, "平和": 1, "断幺": 1, "连六": 1, "单钓将": 1}


def test_account_once_spanning_forest_four_chows() -> None:
    # 123s 456s 123p 456p: four pair relations in a cycle, only three count.
    result = score("123456s123456p9m9m", explain=True)
    got = fan_counts(result)
    pair_fans = sum(got.get(f, 0) for f in ("一般高", "喜相逢", "连六", "老少副"))
    assert pair_fans == 3
    assert any("套算一次" in e.principle for e in result.excluded)


def test_account_once_spanning_forest_three_chows() -> None:
    # 123m 123m 123p: three relations among three chows, only two count.
    got = fan_counts(score("[123p,1]123m123mEEE5s5s"))
    assert got.get("一般高", 0) + got.get("喜相逢", 0) == 2
    assert got == {"圈风刻": 1, "门风刻": 1, "一般高": 1, "喜相逢": 1, "单钓将": 1}


def test_mixed_triple_chow_drops_its_mixed_double_chows() -> None:
    result = score("[678m,1]678p678s11s33p3p", explain=True)
    assert "喜相逢" not in fan_counts(result)
    notes = [e for e in result.excluded if e.fan.zh == "喜相逢"]
    assert notes and all(e.by is not None and e.by.zh == "三色三同顺" for e in notes)


def test_three_pung_fan_and_fourth_pung_add_one_double_pung() -> None:
    # §5.5: 三色三节高 222m 333s 444p + 222s adds one 双同刻.
    got = fan_counts(score("[222m,1]333s444p222s5p5p"))
    assert got["三色三节高"] == 1 and got["双同刻"] == 1
    assert got == {"三暗刻": 1, "三色三节高": 1, "碰碰和": 1, "双同刻": 1, "断幺": 1}


def test_triple_pung_drops_its_double_pungs() -> None:
    result = score("[333m,2]333p333s78m55p9m", explain=True)
    assert "双同刻" not in fan_counts(result)
    assert excluded_by(result)["双同刻"] == {"三同刻"}


def test_combination_is_not_a_single_fan_implication() -> None:
    # §4.2 a: All Green + Full Flush together imply All Simples, which still counts (E4 idea).
    got = fan_counts(score("[666s,1]234s234s22s88s8s"))
    assert got["绿一色"] == 1 and got["清一色"] == 1 and got["断幺"] == 1
    assert "混一色" not in got and "无字" not in got
