"""Shanten of each shape, useful tiles, scored waits, discard advice and ``majiang analyze``."""

from __future__ import annotations

import io
import json
import random
import re
import shlex
from pathlib import Path

import pytest

from majiang import Hand, parse_hand
from majiang.analysis import analyze, discard_options, unseen_counts, useful_tiles, waits
from majiang.cli import main
from majiang.cli.analyze import analyze_record, run_batch
from majiang.errors import InvalidHandError, MajiangError, NotationError
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.guobiao.options import DEFAULT_OPTIONS
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.shanten import (
    SHAPES,
    TILE_KEYS,
    hand_key,
    honors_knitted_shanten,
    knitted_straight_shanten,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
    shanten_by_shape,
    shanten_of_key,
    table_sizes,
    thirteen_orphans_shanten,
)
from majiang.shapes import (
    honors_knitted_set,
    is_complete,
    is_regular_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rest,
    winning_tiles,
)
from majiang.tiles import NUM_KINDS


def concealed(text: str) -> tuple[list[int], int]:
    """Concealed tiles (winning tile included) and the number of melds of a hand."""
    hand = parse_hand(text)
    return list(hand.concealed_with_win), len(hand.melds)


def by_shape(text: str) -> dict[str, int]:
    return shanten_by_shape(*concealed(text))


# --------------------------------------------------------------------------- hand-picked hands


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456s789pEEES", 0),  # four sets and a single
        ("123m456s789pEEESS", -1),
        ("1112345678999m", 0),  # nine gates shape
        ("1112345678999m5m", -1),
        ("123456789m1123s", 0),
        ("13579m13579s135p", 4),  # six partial sets, four count
        ("159m159s159pESWN", 8),  # nothing helps
        ("19m19s19pESWNCF5m", 8),
        ("[123m][456m][789m][EEE]S", 0),
        ("[123m][456m][789m][EEEE]SS", -1),
        ("[123m][456m][789m]EESW", 1),
        ("[123m][456m]78m1s5pEEW", 2),
        ("[123m][456m][789m][EEE]SN", 0),  # 14 tiles: discard one, ready
    ],
)
def test_regular_shanten(hand: str, expected: int) -> None:
    assert regular_shanten(*concealed(hand)) == expected


def test_seven_pairs() -> None:
    assert seven_pairs_shanten(*concealed("1122m3344s5566pE")) == 0
    assert seven_pairs_shanten(*concealed("1122m3344s5566pEE")) == -1
    assert seven_pairs_shanten(*concealed("1111m2222s3333pE")) == 0  # four of a kind: two pairs
    assert seven_pairs_shanten(*concealed("1357m2468s13579pE")) == 6
    assert seven_pairs_shanten(*concealed("112m3344s5566pEEW")) == 0  # 14 tiles: best discard
    assert seven_pairs_shanten(*concealed("[123m]1122m3344sEE")) is None


def test_thirteen_orphans() -> None:
    assert thirteen_orphans_shanten(*concealed("19m19s19pESWNCFP")) == 0
    assert thirteen_orphans_shanten(*concealed("19m19s19pESWNCFPP")) == -1
    assert thirteen_orphans_shanten(*concealed("19m19s19pESWNCFF")) == 0  # pair, missing P
    assert thirteen_orphans_shanten(*concealed("19m19s19pESWNC55p")) == 2
    assert thirteen_orphans_shanten(*concealed("2345678m2345678s")) == 13  # 14 tiles, no orphan
    assert thirteen_orphans_shanten(*concealed("[111m]9m19s19pESWNC")) is None


def test_honors_knitted() -> None:
    assert honors_knitted_shanten(*concealed("147m258s369pESWN")) == 0
    assert honors_knitted_shanten(*concealed("147m258s369pESWNC")) == -1
    assert honors_knitted_shanten(*concealed("14m258s36pESWNCFP")) == -1  # 七星不靠
    assert honors_knitted_shanten(*concealed("147m147s369pESWN")) == 3  # 147s fit no set
    assert honors_knitted_shanten(*concealed("1147m258s369pESW")) == 1  # a pair does not count
    assert honors_knitted_shanten(*concealed("[EEE]147m258s369pS")) is None


def test_knitted_straight() -> None:
    assert knitted_straight_shanten(*concealed("147m258s369p123mE")) == 0
    assert knitted_straight_shanten(*concealed("147m258s369p123mEE")) == -1
    assert knitted_straight_shanten(*concealed("147m258s369pEESS")) == 0
    assert knitted_straight_shanten(*concealed("[123m]147m258s369pE")) == 0
    assert knitted_straight_shanten(*concealed("[123m]147m258s369pEE")) == -1
    assert knitted_straight_shanten(*concealed("[123m]147m258s36pEEF")) == 0  # discard F
    assert knitted_straight_shanten(*concealed("14m258s369p1234mEE")) == 0
    assert knitted_straight_shanten(*concealed("147m258s369pESWN")) == 2
    assert knitted_straight_shanten(*concealed("[123m][456m]147m258s3p")) is None


def test_shapes_present_depend_on_melds() -> None:
    assert list(by_shape("123m456s789pEEES")) == list(SHAPES)
    assert list(by_shape("[123m]456s789pEEES")) == ["regular", "knitted_straight"]
    assert list(by_shape("[123m][456s]789pEEES")) == ["regular"]
    assert list(by_shape("[EEEE][SSSS][WWWW][NNNN]C")) == ["regular"]


def test_minimum_over_shapes() -> None:
    for hand in (
        "19m19s19pESWNCFP",
        "1122m3344s5566pE",
        "147m258s369pESWN",
        "147m258s369p123mE",
        "123m456s789pEEES",
        "[123m]147m258s369pE",
    ):
        tiles, melds = concealed(hand)
        assert shanten(tiles, melds) == min(shanten_by_shape(tiles, melds).values()) == 0


def test_keys_add_up() -> None:
    tiles, _ = concealed("1234m5699s12p5pESW")
    key = hand_key(tiles)
    assert key == sum(TILE_KEYS[t] for t in tiles)
    assert shanten_of_key(key, 14) == shanten(tiles)
    assert shanten_of_key(key - TILE_KEYS[tiles[0]], 13) == shanten(tiles[1:])


@pytest.mark.parametrize(
    ("tiles", "melds"),
    [
        ([0] * 5 + [1] * 8, 0),  # five copies
        ([8] * 5 + [1] * 8, 0),  # five copies of a 9 (the key carries out of the suit)
        ([33] * 5 + [1] * 8, 0),
        ([0, 1, 2], 0),
        ([0, 1, 2, 3], 4),  # 16 tiles
        (list(range(12)), 0),
        (list(range(15)), 0),
        ([0] * 13, -1),
        ([0, 0, 0, *range(1, 14)], -1),  # 16 tiles less "one meld"
        ([34, *range(12)], 0),
        ([-1, *range(12)], 0),
        (["1m", *range(12)], 0),
    ],
)
def test_bad_hands_raise(tiles: list[object], melds: int) -> None:
    with pytest.raises(InvalidHandError):
        shanten(tiles, melds)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- brute force


def random_hand(
    rng: random.Random, size: int = 13, max_melds: int = 4
) -> tuple[list[Meld], list[int]]:
    """Random melds (chows, pungs, kongs) and concealed tiles drawn from one set of 136 tiles."""
    wall = [4] * NUM_KINDS
    melds: list[Meld] = []
    n = rng.randint(0, max_melds)
    while len(melds) < n:
        roll = rng.random()
        if roll < 0.5:
            t = rng.randrange(27)
            if t % 9 > 6 or not all(wall[t + i] for i in range(3)):
                continue
            for i in range(3):
                wall[t + i] -= 1
            melds.append(Meld(MeldKind.CHOW, t, 1))
        else:
            t = rng.randrange(NUM_KINDS)
            need = 3 if roll < 0.85 else 4
            if wall[t] < need:
                continue
            wall[t] -= need
            kind = MeldKind.PUNG if need == 3 else MeldKind.KONG
            melds.append(Meld(kind, t, rng.choice((0, 1)) if need == 4 else 1))
    pool = [t for t in range(NUM_KINDS) for _ in range(wall[t])]
    return melds, sorted(rng.sample(pool, size - 3 * n))


def complete_in(shape: str, counts: list[int], melds: int) -> bool:
    """Whether 14-tile counts plus melds complete the given shape (the shapes module's tests)."""
    if shape == "regular":
        return is_regular_complete(counts)
    if shape == "seven_pairs":
        return melds == 0 and is_seven_pairs(counts)
    if shape == "thirteen_orphans":
        return melds == 0 and is_thirteen_orphans(counts)
    if shape == "honors_knitted":
        return melds == 0 and honors_knitted_set(counts) is not None
    found = knitted_straight_rest(counts) if melds <= 1 else None
    return found is not None and is_regular_complete(found[1])


def counts_of(tiles: list[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def draw_discard(tiles: list[int], melds: int) -> list[dict[str, int]]:
    """Shanten by shape of every 13-tile hand one draw and one discard away."""
    out = []
    counts = counts_of(tiles)
    for t in range(NUM_KINDS):
        if counts[t] == 4:
            continue
        grown = [*tiles, t]
        for d in set(grown):
            rest = list(grown)
            rest.remove(d)
            out.append(shanten_by_shape(rest, melds))
    return out


def check_by_brute_force(tiles: list[int], melds: int) -> None:
    shapes = shanten_by_shape(tiles, melds)
    assert shanten(tiles, melds) == min(shapes.values())
    counts = counts_of(tiles)
    if len(tiles) + 3 * melds == 14:
        for shape, value in shapes.items():
            if complete_in(shape, counts, melds):
                assert value == -1, shape
            else:
                discards = []
                for d in set(tiles):
                    rest = list(tiles)
                    rest.remove(d)
                    discards.append(shanten_by_shape(rest, melds)[shape])
                assert value == min(discards), shape
        assert (shanten(tiles, melds) == -1) == is_complete(counts, melds)
        return
    nexts = None
    for shape, value in shapes.items():
        completing = []
        for t in range(NUM_KINDS):
            counts[t] += 1
            if complete_in(shape, counts, melds):
                completing.append(t)
            counts[t] -= 1
        assert (value == 0) == bool(completing), (shape, value, completing)
        if value >= 1:
            nexts = nexts or draw_discard(tiles, melds)
            assert min(n[shape] for n in nexts) == value - 1, shape
    assert (shanten(tiles, melds) == 0) == bool(winning_tiles(counts, melds))


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_small_hands(seed: int) -> None:
    """Shanten 0 means some tile completes; k means one draw and discard reach k-1, none lower."""
    rng = random.Random(seed)
    for _ in range(40):
        melds, tiles = random_hand(rng, size=rng.choice((13, 14)))
        check_by_brute_force(tiles, len(melds))


def test_brute_force_near_special_shapes() -> None:
    """Hands built close to the special shapes, so their low shanten values are exercised."""
    rng = random.Random(99)
    bases = [
        parse_tiles("19m19s19pESWNCFP"),
        parse_tiles("147m258s369pESWNCFP"),
        parse_tiles("1122m3344s5566pEE"),
        parse_tiles("147m258s369p123mEE"),
        parse_tiles("369m147s258p789sEE"),
    ]
    for _ in range(120):
        base = rng.choice(bases)
        tiles = rng.sample(base, min(len(base), 11))
        while len(tiles) < 13:
            t = rng.randrange(NUM_KINDS)
            if tiles.count(t) < 4:
                tiles.append(t)
        if rng.random() < 0.5:
            extra = rng.randrange(NUM_KINDS)
            if tiles.count(extra) < 4:
                tiles.append(extra)
        check_by_brute_force(sorted(tiles), 0)


def test_tables_stay_small() -> None:
    sizes = table_sizes()
    assert sizes["vectors"] < 1000


# --------------------------------------------------------------------------- useful tiles


def test_useful_tiles_of_a_ready_hand_are_its_waits() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 30:
        melds, tiles = random_hand(rng, size=14)
        counts = counts_of(tiles)
        if not is_complete(counts, len(melds)):
            continue
        drop = rng.choice(tiles)
        tiles.remove(drop)
        counts[drop] -= 1
        held = counts_of(tiles)
        expected = [t for t in winning_tiles(counts, len(melds)) if held[t] < 4]
        assert useful_tiles(tiles, len(melds)) == expected
        # the rule set's waits by hand key, as the table asks them (and without the key)
        rules = GuobiaoRules()
        assert rules.waiting_tiles_of_key(hand_key(tiles), held, len(melds)) == set(expected)
        assert rules.waiting_tiles(held, len(melds)) == set(expected)
        checked += 1


def test_rule_set_waits_of_hands_that_are_not_ready_or_not_13() -> None:
    rules = GuobiaoRules()
    tiles, melds = concealed("1234m5699s12p5pES")
    assert rules.waiting_tiles(counts_of(tiles), melds) == frozenset()
    tiles, melds = concealed("123m456s789p11mEE")  # ready on 1m, 4m (111m 234m) or E
    assert rules.waiting_tiles(counts_of(tiles), melds) == {0, 3, 27}
    assert rules.waiting_tiles(counts_of([*tiles, 0]), melds) == frozenset()  # 14: complete
    with pytest.raises(InvalidHandError):
        rules.waiting_tiles(counts_of(tiles), melds + 1)  # 13 tiles and a set


def test_useful_tiles_lower_shanten() -> None:
    tiles, melds = concealed("1234m5699s12p5pES")
    current = shanten(tiles, melds)
    useful = useful_tiles(tiles, melds)
    for t in range(NUM_KINDS):
        grown = [*tiles, t]
        assert (shanten(grown, melds) < current) == (t in useful)
    with pytest.raises(InvalidHandError):
        useful_tiles([*tiles, 0], melds)


def test_useful_tiles_by_brute_force() -> None:
    """The candidate filter never drops a useful tile (random and near-special hands)."""
    rng = random.Random(17)
    shapes = ("19m19s19pESWNCFP", "147m258s369pESWNCFP", "1122m3344s5566pEE")
    bases = [parse_tiles(text) for text in shapes]
    for i in range(300):
        if i % 2:
            melds, tiles = random_hand(rng)
            n_melds = len(melds)
        else:
            tiles = rng.sample(rng.choice(bases), 10)
            tiles += [t for t in rng.sample(range(NUM_KINDS), 3) if tiles.count(t) < 4]
            tiles = tiles[:13]
            n_melds = 0
            if len(tiles) < 13:
                continue
        current = shanten(tiles, n_melds)
        held = counts_of(tiles)
        expected = [
            t for t in range(NUM_KINDS) if held[t] < 4 and shanten([*tiles, t], n_melds) < current
        ]
        assert useful_tiles(tiles, n_melds) == expected


def test_unseen_counts() -> None:
    hand = parse_hand("[EEEE][123m]45m678pFFS")
    unseen = unseen_counts(hand, "EFF1m1m1m")
    assert unseen[27] == 0  # all four in the kong
    assert unseen[32] == 0  # two held, two visible
    assert unseen[0] == 0  # one in the chow, three visible
    assert unseen[3] == 3
    assert unseen[33] == 4


# --------------------------------------------------------------------------- waits


def test_waits_are_scored_both_ways() -> None:
    result = waits("[WWWW,1][444s]45m678pFF")
    assert [w.name for w in result] == ["3m", "6m"]
    for w in result:
        assert w.discard is not None and w.self_drawn is not None
        assert w.self_drawn.total == w.discard.total + 1  # 自摸
        assert w.meets_minimum


def test_wait_below_eight_is_marked() -> None:
    # A plain hand: no fan reaches 8 on either tile.
    result = waits("234m567m234s56pEE")
    assert [w.name for w in result] == ["4p", "7p"]
    assert all(not w.meets_minimum for w in result)
    assert all(w.best_total is not None and w.best_total < 8 for w in result)


def test_wait_that_needs_self_draw() -> None:
    (wait,) = waits("12567999m22345p")
    assert wait.name == "3m"
    assert wait.discard is not None and wait.self_drawn is not None
    assert not wait.discard.meets_minimum and wait.self_drawn.meets_minimum
    assert wait.meets_minimum


def test_some_waits_cannot_win(capsys: pytest.CaptureFixture[str]) -> None:
    result = waits("345s1122234789p")
    assert [(w.name, w.meets_minimum) for w in result] == [
        ("1p", False), ("2p", True), ("5p", False)
    ]
    assert analyze("345s1122234789p").winning_unseen == 1
    (best, *_) = discard_options("345s112223478p9pN")
    assert best.name == "N" and best.useful_unseen == 7 and best.winning_unseen == 1
    main(["analyze", "345s1122234789p"])
    out = capsys.readouterr().out
    assert "8 fans only self-drawn" in out
    assert "cannot reach 8 fans" in out
    assert "Only 2p can win" in out


def test_unseen_and_last_tile() -> None:
    hand = "[WWWW,1][444s]45m678pFF"
    (three, six) = waits(hand, visible="3m3m3m6m")
    assert (three.unseen, six.unseen) == (1, 3)
    assert three.discard is not None and six.discard is not None
    assert "和绝张" in {fc.fan.zh for fc in three.discard.fans}
    assert "和绝张" not in {fc.fan.zh for fc in six.discard.fans}


def test_dead_wait() -> None:
    # Ready on 1m only, and all four 1m are in the hand.
    (wait,) = waits("1111m456s789pEEE")
    assert wait.name == "1m" and wait.unseen == 0
    assert wait.discard is None and wait.self_drawn is None and wait.best_total is None
    assert not wait.meets_minimum
    assert shanten(*concealed("1111m456s789pEEE")) == 0
    assert useful_tiles(*concealed("1111m456s789pEEE")) == []


def test_winds_reach_the_scores() -> None:
    base = waits("[EEE][SSS]123m456p9s", seat_wind="E", prevalent_wind="E")
    south = waits("[EEE][SSS]123m456p9s", seat_wind="S", prevalent_wind="E")
    assert base[0].discard is not None and south[0].discard is not None
    assert base[0].discard.total != south[0].discard.total


def test_waits_need_13_tiles() -> None:
    with pytest.raises(InvalidHandError):
        waits("[WWWW,1][444s]45m678pFF6m")


def test_not_ready_has_no_waits() -> None:
    assert waits("1234m5699s12p5pES") == []


# --------------------------------------------------------------------------- discard advice


def test_discard_ranking() -> None:
    options = discard_options("1234m5699s12p5pESW", visible="5p5pEE")
    keys = [(o.shanten, -o.useful_unseen, -len(o.useful), o.tile) for o in options]
    assert keys == sorted(keys)
    assert {o.name for o in options} == {"1m", "2m", "3m", "4m", "5s", "6s", "9s", "1p", "2p",
                                         "5p", "E", "S", "W"}
    tiles, melds = concealed("1234m5699s12p5pESW")
    for o in options:
        rest = list(tiles)
        rest.remove(o.tile)
        assert o.shanten == shanten(rest, melds)
        assert [u.tile for u in o.useful] == useful_tiles(rest, melds)
    assert options[0].shanten == shanten(tiles, melds)


def test_discards_that_leave_the_hand_ready_carry_waits() -> None:
    options = discard_options("[WWWW,1][444s]45m678pFF6m")
    ready = [o for o in options if o.shanten == 0]
    assert ready and all(o.waits for o in ready)
    for o in ready:
        assert [w.tile for w in o.waits] == [u.tile for u in o.useful]


def test_analyze_complete_hand() -> None:
    result = analyze("[WWWW,1][444s]45m678pFF6m")
    assert result.tiles == 14 and result.shanten == -1
    assert result.win is not None and result.win.name == "6m"
    assert result.win.discard is not None and result.win.discard.meets_minimum


def test_analyze_complete_hand_without_a_winning_tile() -> None:
    parsed = parse_hand("[WWWW,1][444s]45m678pFF6m")
    hand = Hand.of(parsed.melds, parsed.concealed_with_win, None, parsed.flowers)
    result = analyze(hand)
    assert result.shanten == -1 and result.win is not None and result.win.name == "F"
    assert result.win.discard is not None and result.win.discard.total >= 8


def test_analyze_thirteen() -> None:
    result = analyze("1234m5699s12p5pES", visible="5p")
    assert result.tiles == 13 and result.shanten == 3 and result.waits == ()
    tiles, melds = concealed("1234m5699s12p5pES")
    assert [u.tile for u in result.useful] == useful_tiles(tiles, melds)
    assert result.useful_unseen == sum(u.unseen for u in result.useful)


def test_analyze_accepts_hand_objects_and_options() -> None:
    hand = parse_hand("[WWWW,1][444s]45m678pFF")
    assert analyze(hand, [2, 2], options=DEFAULT_OPTIONS).waits[0].unseen == 2
    assert analyze(hand, options={"mixed_kong_pair_5": "on"}).shanten == 0


@pytest.mark.parametrize(
    ("hand", "visible", "error"),
    [
        ("123m", "", InvalidHandError),
        ("123m456s789pEEESSx", "", NotationError),
        ("123m456s789pEEES", "5x", NotationError),
        ("123m456s789pEEES", [40], InvalidHandError),
        ("11111m456s789pEES", "", InvalidHandError),
    ],
)
def test_analyze_bad_input(hand: str, visible: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        analyze(hand, visible)  # type: ignore[arg-type]


def test_analyze_bad_wind() -> None:
    with pytest.raises(MajiangError):
        analyze("123m456s789pEEES", seat_wind="X")


# --------------------------------------------------------------------------- the command


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_ready_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["analyze", "234m567m234s56pEE"], capsys)
    assert code == 0
    assert "Shanten  0 (ready)" in out
    assert "below 8" in out
    assert "No wait reaches 8 fans" in out


def test_cli_totals_leave_flowers_out(capsys: pytest.CaptureFixture[str]) -> None:
    (four, _) = waits("ab234m567m234s56pEE")
    assert four.self_drawn is not None and four.self_drawn.total == 8  # with the two flowers
    assert not four.self_drawn.meets_minimum
    code, out, _ = run_cli(["analyze", "ab234m567m234s56pEE"], capsys)
    assert code == 0
    assert "Flowers  2" in out
    assert "6 below 8" in out and "8 below 8" not in out


def test_cli_discards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["analyze", "1234m5699s12p5pESW", "--visible", "5p5pEE"], capsys)
    assert code == 0
    assert "Visible  55pEE" in out
    assert "Discard" in out and "Useful tiles" in out


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["analyze", "[WWWW,1][444s]45m678pFF", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["tiles"] == 13 and data["shanten"] == 0
    assert data["shanten_by_shape"] == {"regular": 0}
    assert [w["tile"] for w in data["waits"]] == ["3m", "6m"]
    wait = data["waits"][0]
    assert set(wait) == {"tile", "unseen", "discard", "self_drawn", "meets_minimum"}
    assert set(wait["discard"]) == {"total", "fans", "meets_minimum"}
    assert data["winning_unseen"] == 8
    code, out, _ = run_cli(["analyze", "1234m5699s12p5pESW", "--json"], capsys)
    data = json.loads(out)
    assert data["tiles"] == 14 and data["complete"] is False and data["win"] is None
    first = data["discards"][0]
    assert set(first) == {"tile", "shanten", "useful", "useful_kinds", "useful_unseen"}
    code, out, _ = run_cli(["analyze", "345s112223478p9pN", "--json"], capsys)
    first = json.loads(out)["discards"][0]
    assert first["tile"] == "N" and first["winning_unseen"] == 1 and len(first["waits"]) == 3


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["analyze", "123m"], 1, "13 or 14"),
        (["analyze", "123m456s789pEEES", "--visible", "5x"], 1, "unexpected character"),
        (["analyze"], 2, "give a HAND"),
        (["analyze", "123m456s789pEEES", "--seat", "X"], 2, "usage error"),
        (["analyze", "123m456s789pEEES", "--batch", "-"], 2, "either"),
        (["analyze", "123m456s789pEEES", "--option", "nope=1"], 1, "unknown Guobiao option"),
    ],
)
def test_cli_errors(
    args: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        got = main(args)
    except SystemExit as stop:
        got = int(stop.code or 0)
    err = capsys.readouterr().err
    assert got == code
    assert message in err
    assert err.count("\n") == 1


def test_batch() -> None:
    lines = [
        json.dumps({"hand": "[WWWW,1][444s]45m678pFF", "id": 1}),
        json.dumps({"hand": "1234m5699s12p5pESW", "visible": "5p5p", "seat_wind": "S"}),
        json.dumps({"hand": "123m"}),
        json.dumps({"hand": "123m456s789pEEES", "colour": "red"}),
        json.dumps({"hand": "123m456s789pEEES", "visible": [1, 2]}),
        json.dumps(["not", "an", "object"]),
        "not json",
        "",
    ]
    sink = io.StringIO()
    run_batch(io.StringIO("\n".join(lines) + "\n"), sink, DEFAULT_OPTIONS)
    out = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert len(out) == len(lines)
    assert out[0]["id"] == 1 and out[0]["shanten"] == 0
    assert out[1]["tiles"] == 14
    assert [("error" in o) for o in out[2:]] == [True] * 6
    assert "unknown field" in out[3]["error"]


def test_batch_record_matches_json(capsys: pytest.CaptureFixture[str]) -> None:
    record = analyze_record({"hand": "234m567m234s56pEE"}, DEFAULT_OPTIONS)
    main(["analyze", "234m567m234s56pEE", "--json"])
    assert json.loads(capsys.readouterr().out) == record


def test_module_examples() -> None:
    import doctest

    import majiang.analysis

    assert doctest.testmod(majiang.analysis).failed == 0


DOCS = Path(__file__).resolve().parent.parent / "docs" / "analysis.md"


def test_docs_python_examples() -> None:
    import doctest

    text = DOCS.read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block, {}, "docs/analysis.md", str(DOCS), 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0


def test_docs_command_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """Every one-command example of docs/analysis.md prints what the page shows."""
    text = DOCS.read_text(encoding="utf-8")
    checked = 0
    for block in re.findall(r"```\n(\$ majiang analyze .*?)```", text, re.S):
        command, _, expected = block.partition("\n")
        if "|" in command or "$ " in expected:
            continue
        main(shlex.split(command[2:])[1:])
        assert capsys.readouterr().out == expected, command
        checked += 1
    assert checked >= 4


def test_the_waits_of_ready_hands_of_every_shape_are_the_completing_kinds() -> None:
    """useful_of_key's quick path for ready hands (the group the tile joins looked up again,
    the special shapes by their counts) against trying every kind with is_complete."""
    from majiang.random_hands import random_winning_hand
    from majiang.shanten import hand_key, useful_of_key

    rng = random.Random(11)
    for _ in range(400):
        hand, _context = random_winning_hand(rng)
        tiles = [t for t in (*hand.concealed, hand.win_tile) if t is not None]
        n_melds = len(hand.melds)
        for drop in sorted(set(tiles)):
            rest = list(tiles)
            rest.remove(drop)
            held = counts_of(rest)
            expected = [t for t in winning_tiles(held, n_melds) if held[t] < 4]
            assert useful_of_key(hand_key(rest), len(rest), n_melds, held) == expected
