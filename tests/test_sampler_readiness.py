"""The sampler's readiness model: the other hands moved toward how close to ready they are."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import readiness, search
from majiang.bots.sampler import (
    Deal,
    Readiness,
    actions_match,
    hand_rules,
    legal_waits,
    passed_tiles,
    sample_deal,
    table_at,
)
from majiang.bots.search import SearchBot, readiness_of
from majiang.bots.wild_shanten import split_hand
from majiang.engine.state import Observation
from majiang.rules.base import RuleSet
from majiang.shanten import wild_regular_shanten
from plan_helpers import guobiao_with_plan
from test_sampler import RULES, big_four_winds_position, deal_tiles, hidden_tiles, position


def constant(ready: float, near: float) -> Readiness:
    return lambda obs, seat: (ready, near)


def shanten_of(obs: Observation, deal: Deal, seat: int) -> int:
    counts, jokers = split_hand(deal.hands[seat], obs.wild)
    return wild_regular_shanten(counts, jokers, len(obs.melds[seat]))


def others(obs: Observation) -> list[int]:
    """The other seats holding 13 tiles less their melds'."""
    return [s for s in range(4) if s != obs.seat and obs.hand_sizes[s] % 3 == 1]


@settings(max_examples=40, deadline=None)
@given(
    rules_name=st.sampled_from(["gb", "huangyan"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    draw_seed=st.integers(0, 2**32),
    shares=st.sampled_from([(1.0, 0.0), (0.0, 1.0), (0.4, 0.4)]),
)
def test_a_reshaped_deal_still_places_exactly_the_unseen_tiles(
    rules_name: str, seed: int, steps: int, draw_seed: int, shares: tuple[float, float]
) -> None:
    try:
        table, seat = position(rules_name, seed, steps, "random")
    except AssertionError:
        return
    obs = table.observation(seat)
    rules = hand_rules(obs, RULES[rules_name])
    deal = sample_deal(obs, rules, random.Random(draw_seed), constant(*shares))
    assert deal_tiles(deal, seat) == hidden_tiles(table, seat)
    assert deal.hands[seat] == obs.hand
    for s in range(4):
        assert len(deal.hands[s]) == obs.hand_sizes[s]
        assert all(not rules.is_flower(t) for t in deal.hands[s])
    assert len(deal.wall) == obs.wall_remaining
    assert actions_match(table_at(obs, RULES[rules_name], deal), obs)


def test_hands_are_brought_to_ready_or_one_away_as_the_model_says() -> None:
    rules = RULES["gb"]
    tally: Counter[str] = Counter()
    for seed in range(12):
        try:
            table, seat = position("gb", seed, 30, "fan")
        except AssertionError:
            continue  # no decision left in that hand
        obs = table.observation(seat)
        for i in range(4):
            uniform = sample_deal(obs, rules, random.Random(i))
            ready = sample_deal(obs, rules, random.Random(i), constant(1.0, 0.0))
            near = sample_deal(obs, rules, random.Random(i), constant(0.0, 1.0))
            for s in others(obs):
                melds = list(obs.melds[s])
                tally["seats"] += 1
                tally["uniform ready"] += bool(legal_waits(obs, rules, s, uniform.hands[s], melds))
                tally["ready"] += bool(legal_waits(obs, rules, s, ready.hands[s], melds))
                tally["near"] += shanten_of(obs, near, s) == 1
    assert tally["seats"] > 100
    assert tally["ready"] >= 0.8 * tally["seats"], tally
    assert tally["near"] >= 0.95 * tally["seats"], tally
    assert tally["uniform ready"] <= 0.1 * tally["seats"], tally


def test_a_hand_made_ready_never_waits_on_a_tile_it_let_pass() -> None:
    rules = RULES["gb"]
    obs = big_four_winds_position((31, 33))
    assert passed_tiles(obs, 1) == [31, 33]
    held: Counter[int] = Counter()
    for i in range(200):
        deal = sample_deal(obs, rules, random.Random(i), constant(1.0, 0.0))
        held[deal.hands[1][0]] += 1
        assert not legal_waits(obs, rules, 1, deal.hands[1], list(obs.melds[1])) & {31, 33}
    assert held[31] == 0 and held[33] == 0


def test_the_same_seed_reshapes_the_same_way() -> None:
    table, seat = position("gb", 5, 40, "fan")
    obs = table.observation(seat)
    model = constant(0.5, 0.5)
    first = sample_deal(obs, RULES["gb"], random.Random(9), model)
    assert first == sample_deal(obs, RULES["gb"], random.Random(9), model)
    assert first != sample_deal(obs, RULES["gb"], random.Random(9))


@pytest.fixture
def reading() -> Iterator[RuleSet]:
    """Guobiao registered with a plan whose sampler reads readiness."""
    with guobiao_with_plan("reading", readiness="majiang.bots.readiness:fan_bots") as rules:
        yield rules


def test_a_plan_that_names_a_model_samples_with_it(
    reading: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no registered rule set reads readiness (it did not help in Guobiao: docs/bots.md)
    assert readiness_of(RULES["gb"]) is None and readiness_of(RULES["huangyan"]) is None
    assert readiness_of(reading) is readiness.fan_bots
    table, seat = position("gb", 4, 30, "fan")
    obs = table.observation(seat)
    models = []

    def recording(obs: Observation, rules: RuleSet, rng: random.Random,
                  model: Readiness | None = None) -> Deal:
        models.append(model)
        return sample_deal(obs, rules, rng, model)

    monkeypatch.setattr(search, "sample_deal", recording)
    SearchBot(1, think=None, samples=2, rules=reading).evaluate(obs, every=True)
    SearchBot(1, think=None, samples=2).evaluate(obs, every=True)
    assert models == [readiness.fan_bots] * 2 + [None] * 2


def test_the_guobiao_model_reads_exposed_sets_and_the_pond() -> None:
    table, seat = position("gb", 2, 0, "fan")
    obs = table.observation(seat)
    other = (seat + 1) % 4
    assert readiness.fan_bots(obs, other) == readiness.FAN_BOTS[0][0]
    late = obs._replace(discards=tuple((1,) * 20 for _ in range(4)))
    assert readiness.fan_bots(late, other) == readiness.FAN_BOTS[0][6]
    # later in the hand, and with more sets exposed, more of the others are ready
    assert readiness.FAN_BOTS[0][6][0] > readiness.FAN_BOTS[0][1][0]
    assert readiness.FAN_BOTS[2][3][0] > readiness.FAN_BOTS[0][3][0]
