"""Bots: only legal actions, reproducible, efficient play by shanten, fan-aware play for 8 fans."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import BOTS, EfficientBot, FanBot, UnknownBotError, blocks, bot_names, make_bot
from majiang.bots.efficient import Discards, special_bound, state_shanten
from majiang.bots.targets import SET_PATTERNS, Situation
from majiang.bots.view import hand_counts, unseen_counts
from majiang.engine import Chow, Discard, Observation, Pass, Phase, Pung, Table, Win
from majiang.engine.match import Agent, play_hand
from majiang.engine.state import HIDDEN
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.registry import make_rules
from majiang.shanten import (
    TILE_KEYS,
    hand_key,
    regular_shanten,
    shanten,
    shanten_by_shape,
    shanten_of_key,
    special_shanten_of_key,
)
from majiang.tiles import KNITTED_SETS, ORPHANS, WHITE

RULES = GuobiaoRules()


def _checked(bot: Agent, log: list[tuple[int, object]]) -> Agent:
    """Wrap a bot: every action must be one of the observation's legal actions."""

    def agent(obs: Observation) -> object:
        action = bot(obs)
        assert action in obs.legal_actions, (action, obs.legal_actions)
        log.append((obs.seat, action))
        return action

    return agent  # type: ignore[return-value]


def _play(names: list[str], seed: int, rules: GuobiaoRules = RULES) -> list[tuple[int, object]]:
    log: list[tuple[int, object]] = []
    agents = [_checked(make_bot(name, seed * 4 + i), log) for i, name in enumerate(names)]
    table = Table(rules, seed, dealer=seed % 4, prevalent_wind=seed // 4 % 4)
    result = play_hand(table, agents)
    assert sum(result.deltas) == 0
    return log


# --------------------------------------------------------------------------- registry


def test_registry() -> None:
    assert bot_names() == ["random", "efficient", "fan", "wild", "guarded", "search"]
    assert set(BOTS) == {"random", "efficient", "fan", "wild", "guarded", "search"}
    assert isinstance(make_bot("efficient"), EfficientBot)
    assert isinstance(make_bot("fan", 3), FanBot)
    with pytest.raises(UnknownBotError, match="unknown bot 'nope'"):
        make_bot("nope")
    assert issubclass(UnknownBotError, MajiangError)


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize(
    "names",
    [
        ["random"] * 4,
        ["efficient"] * 4,
        ["fan", "efficient", "random", "efficient"],
        ["random", "fan", "random", "fan"],
    ],
)
def test_only_legal_actions(names: list[str]) -> None:
    hands = 12 if "fan" in names else 25
    for seed in range(hands):
        assert _play(names, seed)


def test_only_legal_actions_with_false_wins() -> None:
    """In a room that plays 错和 the engine offers wins below 8 fans; bots still act legally."""
    rules = GuobiaoRules({"false_win": True})
    for seed in range(15):
        _play(["random", "efficient", "random", "fan"], seed, rules)


def test_always_win_when_offered() -> None:
    """Whenever a win is offered the bot takes it (so every offered win ends the hand)."""
    for name in ("random", "efficient", "fan"):
        offered = taken = 0
        for seed in range(12 if name == "fan" else 30):
            bots = [make_bot(name, seed * 4 + i) for i in range(4)]

            def agent(obs: Observation, bots: list[Agent] = bots) -> object:
                nonlocal offered, taken
                action = bots[obs.seat](obs)
                if Win() in obs.legal_actions:
                    offered += 1
                    taken += action == Win()
                return action

            play_hand(Table(RULES, seed, dealer=seed % 4), [agent] * 4)  # type: ignore[list-item]
        assert taken == offered


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", ["random", "efficient", "fan"])
def test_same_seed_same_play(name: str) -> None:
    names = [name, "random", "efficient", "random"]
    for seed in (1, 2):
        assert _play(names, seed) == _play(names, seed)


def test_random_bot_seeds_differ() -> None:
    a = [_play(["random"] * 4, 5) for _ in range(2)]
    assert a[0] == a[1]
    log: list[tuple[int, object]] = []
    agents = [_checked(make_bot("random", 100 + i), log) for i in range(4)]
    play_hand(Table(RULES, 5, dealer=1, prevalent_wind=0), agents)
    assert log != a[0]


def test_decision_depends_on_the_observation_only() -> None:
    """A fresh bot given the same observation chooses the same action."""
    table = Table(RULES, 9)
    obs = table.observation(table.to_act()[0])
    for name in ("efficient", "fan"):
        assert make_bot(name, 1)(obs) == make_bot(name, 2)(obs)


def test_unseen_counts_from_the_visible_counts_equal_a_recount() -> None:
    """At every decision of 30 hands (claims and kongs included), the unseen counts built from
    the table's running ``visible`` counts equal those counted from the ponds and melds."""
    seen_kongs = 0
    for seed in range(30):
        table = Table(RULES, seed)
        bots = [make_bot("efficient", seed * 4 + s) for s in range(4)]
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                counts = hand_counts(obs)
                assert obs.visible is not None
                assert unseen_counts(obs, counts) == unseen_counts(
                    obs._replace(visible=None), counts)
                seen_kongs += any(m.kind is MeldKind.KONG for ms in obs.melds for m in ms)
                table.apply(seat, bots[seat](obs))
    assert seen_kongs


def _recount_unseen(obs: Observation, counts: list[int], wild: int | None) -> list[int]:
    """The unseen counts by their definition: 4 - held - ponds - every meld shown (identity
    ``wild`` shown by a white dragon unless it is white) - the indicator - a tile to rob."""
    seen = list(counts)
    for pond in obs.discards:
        for t in pond:
            seen[t] += 1
    for melds in obs.melds:
        for m in melds:
            if m.tile != HIDDEN:
                for t in m.tiles:
                    seen[WHITE if t == wild and wild != WHITE else t] += 1
    if obs.indicator is not None:
        seen[obs.indicator] += 1
    if obs.phase is Phase.ROB and obs.last_discard is not None:
        seen[obs.last_discard] += 1
    return [max(0, 4 - n) for n in seen]


@pytest.mark.parametrize("rules,bot", [("gb", "efficient"), ("huangyan", "wild")])
def test_unseen_counts_are_a_recount(rules: str, bot: str) -> None:
    """At every decision of 20 hands, for every seat to act, the one unseen counter gives what
    counting the hand, ponds, melds and indicator by hand gives (Huangyan: by physical face)."""
    rule_set = make_rules(rules)
    kongs = 0
    for seed in range(20):
        table = Table(rule_set, seed)
        bots = [make_bot(bot, seed * 4 + s) for s in range(4)]
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                counts = hand_counts(obs)
                assert unseen_counts(obs, counts, obs.wild) == _recount_unseen(
                    obs, counts, obs.wild)
                kongs += any(m.is_concealed_kong for m in obs.melds[seat])
                table.apply(seat, bots[seat](obs))
    assert kongs


# --------------------------------------------------------------------------- building blocks


def _random_hands(n: int, seed: int, tiles: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    wall = [t for t in range(34) for _ in range(4)]
    out = []
    for _ in range(n):
        rng.shuffle(wall)
        melds = rng.randrange(5)
        out.append((wall[: tiles - 3 * melds], melds))
    return out


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def test_block_distance_is_regular_shanten() -> None:
    for tiles, melds in _random_hands(2000, 1, 13) + _random_hands(2000, 2, 14):
        assert blocks.distance(_counts(tiles), 4 - melds) == regular_shanten(tiles, melds)


def test_block_useful_tiles() -> None:
    """With two or more melds only the regular shape exists: the same useful kinds."""
    from majiang.shanten import useful_of_key

    for tiles, melds in _random_hands(1500, 3, 13):
        if melds < 2:
            continue
        counts = _counts(tiles)
        expected = useful_of_key(hand_key(tiles), len(tiles), melds, counts)
        weights = [1 if c < 4 else 0 for c in counts]
        assert blocks.useful(counts, 4 - melds, weights) == len(expected)


def test_discards_match_shanten() -> None:
    for tiles, melds in _random_hands(1500, 4, 14):
        counts = _counts(tiles)
        discards = Discards(counts, melds)
        key = hand_key(tiles)
        true = {t: shanten_of_key(key - TILE_KEYS[t], len(tiles) - 1, melds)
                for t in discards.options}
        assert discards.best == min(true.values()) == min(discards.options.values())
        for t, s in discards.options.items():
            assert s >= true[t]  # special shapes are only asked about when one is closest
            if s == discards.best:
                assert true[t] == s


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.integers(0, 2))
def test_special_bound(counts: list[int], melds: int) -> None:
    """The bound of the knitted shapes and thirteen orphans, against its definition."""
    held = {t for t in range(34) if counts[t]}
    knitted = max(len(held & k) for k in KNITTED_SETS)
    expected = 99 if melds > 1 else 8 - knitted
    if melds == 0:
        orphan_pair = any(counts[t] > 1 for t in ORPHANS)
        expected = min(expected, 13 - len(held & set(ORPHANS)) - orphan_pair,
                       13 - min(knitted + len(held & set(range(27, 34))), 14))
    assert special_bound(counts, melds) == expected


def _near_special_hands(n: int, seed: int, extra: int = 0) -> list[tuple[list[int], int]]:
    """Hands of 13 (+ ``extra``) tiles drawn mostly from a knitted set and the honours, or from
    the orphans: where the special shapes are near."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if rng.random() < 0.3:
            pool = list(ORPHANS)
        else:
            pool = [*sorted(rng.choice(KNITTED_SETS)), *range(27, 34)]
        melds = rng.randrange(2)
        size = 13 + extra - 3 * melds
        tiles = rng.sample(pool, min(len(pool), size - rng.randrange(3)))
        tiles += rng.sample(range(34), size - len(tiles))
        if max(_counts(tiles)) <= 4:
            out.append((tiles, melds))
    return out


def test_special_shanten_of_key() -> None:
    """The shapes other than the regular one, as ``shanten_by_shape`` has them, cut at a bound."""
    hands = _near_special_hands(400, 4) + _near_special_hands(400, 5, extra=1)
    hands += _random_hands(300, 6, 13) + _random_hands(300, 7, 14)
    for tiles, melds in hands:
        by_shape = shanten_by_shape(tiles, melds)
        special = min((s for name, s in by_shape.items() if name != "regular"), default=99)
        for bound in (0, 2, 99):
            found = special_shanten_of_key(hand_key(tiles), len(tiles), melds, bound)
            assert found == min(special, bound), (tiles, melds, bound)


def test_special_bound_is_a_lower_bound() -> None:
    """Never above the shanten of the shapes it bounds, on hands drawn mostly from a knitted
    set, the orphans and the honours (where those shapes are near)."""
    near = 0
    for tiles, melds in _near_special_hands(1500, 9):
        by_shape = shanten_by_shape(tiles, melds)
        special = min(by_shape[name] for name in ("thirteen_orphans", "knitted_straight",
                                                  "honors_knitted") if name in by_shape)
        assert special_bound(_counts(tiles), melds) <= special
        near += special <= 1
    assert near > 100


def test_state_shanten() -> None:
    for tiles, melds in _random_hands(1500, 5, 13):
        assert state_shanten(_counts(tiles), melds) == shanten(tiles, melds)


def test_set_patterns() -> None:
    names = {p.name for p in SET_PATTERNS}
    assert {"mixed_triple_chow", "mixed_straight", "pure_straight", "mixed_shifted_chows",
            "mixed_shifted_pungs", "triple_pung", "two_dragon_pungs"} <= names
    for p in SET_PATTERNS:
        assert sum(n for _, n in p.need) == 3 * len(p.sets)


def test_targets_distances() -> None:
    unseen = [4] * 34
    ready_flush = _counts(parse_tiles("1112345678999m"))
    situation = Situation((), unseen, 0, 0, parse_tiles("1112345678999m"))
    by_name = {}
    for target in situation.targets(ready_flush):
        by_name.setdefault(target.name, target.distance)
    assert by_name["full_flush"] == 0
    assert by_name["pure_straight"] == 0
    assert by_name["any"] == 0
    # an exposed chow in another suit rules the flushes out
    chow = (Meld(MeldKind.CHOW, parse_tiles("1p")[0], 1),)
    situation = Situation(chow, unseen, 0, 0, parse_tiles("1112345678m"))
    targets = situation.targets(_counts(parse_tiles("1112345678m")))
    flushes = [t.distance for t in targets if t.name in ("full_flush", "half_flush")]
    assert flushes and min(flushes) >= 10  # only the dots flushes remain: replace everything
    assert "all_pungs" not in {t.name for t in targets}


# --------------------------------------------------------------------------- decisions


def _observation(hand: str, actions: list[object] | None = None, **changes: object) -> Observation:
    """A turn observation for seat 0 holding ``hand`` (other fields from a real table)."""
    table = Table(RULES, 0)
    base = table.observation(0)
    tiles = tuple(sorted(parse_tiles(hand)))
    legal = actions if actions is not None else [Discard(t) for t in sorted(set(tiles))]
    fields = {
        "hand": tiles,
        "drawn": tiles[-1],
        "melds": ((), (), (), ()),
        "flowers": ((), (), (), ()),
        "discards": ((), (), (), ()),
        "legal_actions": tuple(legal),
        "wall_remaining": 60,
        "phase": Phase.TURN,
        "current": 0,
        "last_discard": None,
    }
    fields.update(changes)
    return base._replace(**fields)  # type: ignore[arg-type]


def test_efficient_discards_the_isolated_tile() -> None:
    obs = _observation("123m456s789p11pE34m")  # E is useless, everything else is a block
    assert EfficientBot()(obs) == Discard(parse_tiles("E")[0])


def test_efficient_takes_the_win() -> None:
    obs = _observation("123m456s789p11p345m", [Win(), *[Discard(t) for t in (0, 1)]])
    assert EfficientBot()(obs) == Win()
    assert FanBot()(obs) == Win()


def test_efficient_claims_only_what_helps() -> None:
    five = parse_tiles("5p")[0]
    claim = {"phase": Phase.CLAIM, "current": 3, "drawn": None, "last_discard": five}
    # 55p pair + 46p: a pung of 5p or a chow 456p both lower the shanten of a 2-shanten hand
    obs = _observation("123m456s55p46pEESN", [Pung(), Chow(parse_tiles("4p")[0]), Pass()],
                       **claim)
    assert EfficientBot()(obs) in (Pung(), Chow(parse_tiles("4p")[0]))
    # a ready hand (waiting on 1m or 4m): a pung of 5p keeps it ready on fewer tiles, pass
    obs = _observation("123m456s789p55p23m", [Pung(), Pass()], **claim)
    assert EfficientBot()(obs) == Pass()


@pytest.mark.parametrize(
    ("hand", "efficient", "fan"),
    [
        # discarding 3s keeps the most tiles but no wait reaches 8; 7s keeps 456 in all
        # three suits (mixed triple chow, 8 fans) waiting on 3s and E
        ("456m334567s456pEE", "3s", "7s"),
        # the white dragon is a wasted tile for efficiency, but its discard leaves 8-fan waits
        ("123m2334567s234pP", "3s", "P"),
    ],
)
def test_fan_bot_prefers_waits_that_reach_8(hand: str, efficient: str, fan: str) -> None:
    obs = _observation(hand)
    assert EfficientBot()(obs) == Discard(parse_tiles(efficient)[0])
    assert FanBot()(obs) == Discard(parse_tiles(fan)[0])


@pytest.mark.parametrize(
    ("hand", "offered"),
    [
        # a plain chow early on: it gives up the concealed hand (2 fans) and the honour pungs
        ("38m15678s77pEWNN", "7s"),
        # three pairs and a chow that would spend two of the dots: seven pairs is closer to 8
        ("3456s1127788pES", "4s"),
    ],
)
def test_fan_bot_passes_chows_the_efficient_bot_takes(hand: str, offered: str) -> None:
    tile = parse_tiles(offered)[0]
    held = parse_tiles(hand)
    chows = [Chow(low) for low in (tile - 2, tile - 1, tile)
             if low // 9 == (low + 2) // 9 == tile // 9
             and all(t in held for t in (low, low + 1, low + 2) if t != tile)]
    claim = {"phase": Phase.CLAIM, "current": 3, "drawn": None, "last_discard": tile}
    obs = _observation(hand, [*chows, Pass()], **claim)
    assert EfficientBot()(obs) in chows
    assert FanBot()(obs) == Pass()


@pytest.mark.parametrize("name", ["efficient", "fan"])
def test_guobiao_bots_refuse_a_huangyan_hand(name: str) -> None:
    """A Guobiao-only bot seated at a Huangyan table (through the API, which does not know the
    table's rules when it makes the bot) says so instead of failing inside its shanten tables."""
    for seed in range(3):
        table = Table(make_rules("huangyan"), seed)
        with pytest.raises(MajiangError, match=f"the {name} bot plays Guobiao only"):
            play_hand(table, [make_bot(name, seat) for seat in range(4)])
