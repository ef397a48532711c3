"""The sampler: deals consistent with everything a seat has seen, and tables built from them."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import make_bot
from majiang.bots.sampler import (
    Deal,
    SamplerError,
    actions_match,
    hand_rules,
    passed_tiles,
    sample_deal,
    table_at,
)
from majiang.engine.state import HIDDEN, Observation, Phase
from majiang.engine.table import Table
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.registry import make_rules

RULES = {name: make_rules(name) for name in ("gb", "huangyan")}


def position(rules_name: str, seed: int, steps: int, bot: str) -> tuple[Table, int]:
    """A real table after up to ``steps`` decisions, and a seat with a choice to make there."""
    rules = RULES[rules_name]
    table = Table(rules, seed)
    if rules.throw_limit:
        table.apply(table.dealer, table.legal_actions(table.dealer)[0])
    bots = [make_bot(bot, seed * 4 + s) for s in range(4)]
    last = None
    for _ in range(steps):
        if table.is_over:
            break
        for s in table.to_act():
            if len(table.legal_actions(s)) > 1:
                last = (table.observation(s), s)
            table.apply(s, bots[s](table.observation(s)))
    while not table.is_over:
        seats = [s for s in table.to_act() if len(table.legal_actions(s)) > 1]
        if seats:
            return table, seats[0]
        for s in table.to_act():
            table.apply(s, bots[s](table.observation(s)))
    assert last is not None
    raise AssertionError("the hand ended before a decision")


def hidden_tiles(table: Table, seat: int) -> Counter[int]:
    """What ``seat`` cannot see on the real table: others' concealed tiles and concealed
    kongs, and the wall."""
    hidden: Counter[int] = Counter(table.wall.undrawn())
    for s in range(4):
        if s == seat:
            continue
        for t in range(34):
            hidden[t] += table.concealed[s][t]
        for m in table.melds[s]:
            if m.is_concealed_kong:
                hidden[table.rules.physical(m.tile)] += 4
    return +hidden


def deal_tiles(deal: Deal, seat: int) -> Counter[int]:
    placed: Counter[int] = Counter(deal.wall)
    for s in range(4):
        if s != seat:
            placed.update(deal.hands[s])
            for face in deal.kongs[s]:
                placed[face] += 4
    return placed


@settings(max_examples=60, deadline=None)
@given(
    rules_name=st.sampled_from(["gb", "huangyan"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    draw_seed=st.integers(0, 2**32),
)
def test_a_deal_places_exactly_the_unseen_tiles(
    rules_name: str, seed: int, steps: int, draw_seed: int
) -> None:
    try:
        table, seat = position(rules_name, seed, steps, "random")
    except AssertionError:
        return  # no decision left in that hand
    obs = table.observation(seat)
    rules = hand_rules(obs, RULES[rules_name])
    deal = sample_deal(obs, rules, random.Random(draw_seed))
    # the tiles placed are exactly the ones the seat cannot see: none it has seen elsewhere
    assert deal_tiles(deal, seat) == hidden_tiles(table, seat)
    assert deal.hands[seat] == obs.hand
    for s in range(4):
        if s != seat:
            assert len(deal.hands[s]) == obs.hand_sizes[s]
            assert all(not rules.is_flower(t) for t in deal.hands[s])
            hidden = sum(1 for m in obs.melds[s] if m.tile == HIDDEN)
            assert len(deal.kongs[s]) == hidden
    assert len(deal.wall) == obs.wall_remaining
    built = table_at(obs, RULES[rules_name], deal)
    full = Counter(RULES[rules_name].wall_tiles())
    assert Counter({t: n for t, n in enumerate(built.tile_census()) if n}) == full
    assert actions_match(built, obs)
    again = built.observation(seat)
    for name in ("hand", "melds", "discards", "flowers", "hand_sizes", "wall_remaining",
                 "drawable", "phase", "current", "last_discard", "extension", "wild"):
        assert getattr(again, name) == getattr(obs, name), name


def test_the_same_seed_draws_the_same_deal() -> None:
    table, seat = position("gb", 3, 40, "fan")
    obs = table.observation(seat)
    rules = RULES["gb"]
    assert sample_deal(obs, rules, random.Random(5)) == sample_deal(obs, rules, random.Random(5))
    assert sample_deal(obs, rules, random.Random(5)) != sample_deal(obs, rules, random.Random(6))


def test_an_observation_that_does_not_add_up_is_refused() -> None:
    table, seat = position("gb", 1, 10, "fan")
    obs = table.observation(seat)
    broken = obs._replace(wall_remaining=obs.wall_remaining + 1)
    try:
        sample_deal(broken, RULES["gb"], random.Random(0))
    except SamplerError as error:
        assert "do not fill" in str(error)
    else:
        raise AssertionError("a deal was drawn for an observation that does not add up")


def big_four_winds_position(passed: tuple[int, ...]) -> Observation:
    """Seat 1 shows pungs of the four winds and holds one tile: any pair wins it 88 fans.
    Seats 2 and 3 discarded ``passed`` last (seat 1 let them go); seat 0 is on turn."""
    table, _ = position("gb", 0, 0, "fan")
    obs = table.observation(table.current)
    winds = [27, 28, 29, 30]
    melds = [list(m) for m in obs.melds]
    melds[1] = [Meld(MeldKind.PUNG, w, 1) for w in winds]
    hand = tuple(sorted(parse_tiles("123456789m12345p")[:14]))
    discards = [[], [], [], []]
    discards[2] = [passed[0]] if passed else []
    discards[3] = [passed[1]] if len(passed) > 1 else []
    base = obs._replace(
        seat=0, current=0, dealer=0, seat_wind=0, phase=Phase.TURN, hand=hand, drawn=hand[-1],
        melds=tuple(tuple(m) for m in melds), discards=tuple(tuple(d) for d in discards),
        flowers=((), (), (), ()), hand_sizes=(14, 1, 13, 13), visible=None, last_discard=None,
    )
    seen = 14 + 12 + len(passed)
    return base._replace(wall_remaining=144 - seen - 1 - 26, drawable=144 - seen - 1 - 26)


def test_a_seat_that_let_a_winning_tile_pass_is_not_waiting_on_it() -> None:
    rules = RULES["gb"]
    free = big_four_winds_position(())
    held = Counter(sample_deal(free, rules, random.Random(i)).hands[1][0] for i in range(400))
    assert held[31] > 0 and held[33] > 0  # red and white dragons: unseen, so sometimes held
    passed = big_four_winds_position((31, 33))
    assert passed_tiles(passed, 1) == [31, 33]
    held = Counter(sample_deal(passed, rules, random.Random(i)).hands[1][0] for i in range(400))
    assert held[31] == 0 and held[33] == 0
    assert sum(held.values()) == 400


def test_no_table_before_the_deal() -> None:
    table = Table(RULES["huangyan"].__class__({"throw_limit": 2}), 0)
    obs = table.observation(table.dealer)
    assert obs.phase is Phase.BULLETS
    try:
        table_at(obs, table.base_rules, Deal(((),) * 4, ((),) * 4, ()))
    except SamplerError as error:
        assert "bullets phase" in str(error)
    else:
        raise AssertionError("a table was built in the bullets phase")
