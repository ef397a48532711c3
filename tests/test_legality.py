"""The legality core (``majiang.engine.legality``) on its own, and its agreement with the
table's answers and refusals: every action the table refuses gets a reason from the rules."""

from __future__ import annotations

import random

import pytest

from majiang.engine import IllegalAction, Table
from majiang.engine.actions import (
    ADDED_KONGS,
    CHOWS,
    CONCEALED_KONGS,
    DISCARDS,
    EXPOSED_KONG_ACTION,
    PASS_ACTION,
    PUNG_ACTION,
    WIN_ACTION,
    AcceptBullets,
    Action,
    ThrowBullets,
)
from majiang.engine.legality import (
    claim_actions,
    claimable_for_sets,
    fourth_tile,
    kong_in_parts,
    kong_replacement_left,
    offered_context,
    self_drawn_context,
    turn_actions,
)
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.registry import make_rules

NATURAL = (True,) * 34
PHYSICAL = tuple(range(34))


def counts_of(text: str) -> list[int]:
    counts = [0] * 34
    for t in parse_tiles(text):
        counts[t] += 1
    return counts


def never() -> bool:
    raise AssertionError("the replacement was asked although no kong could be made")


def test_turn_actions_list_win_kongs_then_discards_in_tile_order() -> None:
    counts = counts_of("11119mEW")
    melds = [Meld(MeldKind.PUNG, 27, 1)]
    actions = turn_actions(counts, melds, True, True, lambda: True, NATURAL, PHYSICAL)
    assert actions == [
        WIN_ACTION, CONCEALED_KONGS[0], ADDED_KONGS[27], DISCARDS[0], DISCARDS[8], DISCARDS[27],
        DISCARDS[29],
    ]  # fmt: skip
    assert actions[1] is CONCEALED_KONGS[0] and actions[3] is DISCARDS[0]  # the shared instances


def test_no_kong_without_a_replacement_or_after_a_claim() -> None:
    counts = counts_of("1111m")
    no_kong = [DISCARDS[0]]
    assert turn_actions(counts, [], False, True, lambda: False, NATURAL, PHYSICAL) == no_kong
    assert turn_actions(counts, [], False, False, never, NATURAL, PHYSICAL) == no_kong
    # a wild face is never declared in a kong
    wild = tuple(t != 0 for t in range(34))
    assert turn_actions(counts, [], False, True, lambda: True, wild, PHYSICAL) == no_kong


def test_the_replacement_is_asked_only_when_a_kong_could_be_made() -> None:
    assert turn_actions(counts_of("123m"), [], False, True, never, NATURAL, PHYSICAL) == [
        DISCARDS[0], DISCARDS[1], DISCARDS[2]
    ]  # fmt: skip


def test_claim_actions_offer_win_pung_kong_chows_then_pass() -> None:
    counts = counts_of("12333345m")
    actions = claim_actions(counts, 2, 2, True, True, True, lambda: True, True, PHYSICAL, False)
    assert actions == [
        WIN_ACTION, PUNG_ACTION, EXPOSED_KONG_ACTION, CHOWS[0], CHOWS[1], CHOWS[2], PASS_ACTION
    ]  # fmt: skip
    # the same seat, not the discarder's next player, after passing a pung of it
    no_kong = lambda: False  # noqa: E731
    assert claim_actions(counts, 2, 2, False, True, False, no_kong, False, PHYSICAL, False) == []
    assert claim_actions(counts, 2, 2, False, True, False, no_kong, False, PHYSICAL, True) == [
        PASS_ACTION
    ]  # fmt: skip


def test_a_tile_that_may_not_be_claimed_for_sets_offers_only_a_win() -> None:
    counts = counts_of("33m")
    cases = ((True, False, True), (False, True, True), (False, False, False))
    for robbing, final, natural in cases:
        claimable = claimable_for_sets(robbing, final, natural)
        assert not claimable
        assert claim_actions(counts, 2, 2, True, claimable, True, never, True, PHYSICAL, False) == [
            WIN_ACTION, PASS_ACTION
        ]  # fmt: skip
    assert claimable_for_sets(False, False, True)


def test_chows_stay_inside_their_suit() -> None:
    counts = counts_of("89m12s")
    # 9m completes only 789m; 1s (identity 9) only 123s
    assert claim_actions(counts, 8, 8, False, True, True, never, True, PHYSICAL, False) == []
    counts = counts_of("78m12s")
    assert claim_actions(counts, 8, 8, False, True, True, never, True, PHYSICAL, False) == [
        CHOWS[6], PASS_ACTION
    ]  # fmt: skip
    assert claim_actions(counts, 11, 11, False, True, True, never, True, PHYSICAL, False) == [
        CHOWS[9], PASS_ACTION
    ]  # fmt: skip


def test_the_wall_rules_of_a_kong() -> None:
    assert kong_replacement_left(1, 0) and not kong_replacement_left(0, 0)
    assert kong_replacement_left(16, 15) and not kong_replacement_left(15, 15)
    assert kong_in_parts(1, 1, False) and not kong_in_parts(1, 0, False)
    assert not kong_in_parts(0, 5, False) and kong_in_parts(0, 0, True)


def test_fourth_tile_counts_the_other_three_copies() -> None:
    assert fourth_tile(3, 0) and not fourth_tile(3, 1) and not fourth_tile(2, 0)
    assert fourth_tile(4, 0, offered=True) and not fourth_tile(3, 0, offered=True)


def test_win_contexts() -> None:
    initial = self_drawn_context(0, 1, "initial", True, False, False)
    assert initial.initial_hand and not initial.last_tile and initial.self_drawn
    assert not self_drawn_context(0, 1, "initial", False, False, True).initial_hand
    kong = self_drawn_context(2, 0, "kong", True, True, True)
    assert kong.kong and kong.last_tile and kong.fourth_tile and kong.seat_wind == 2
    robbed = offered_context(1, 0, True, True, True)
    assert robbed.kong and not robbed.last_tile and not robbed.fourth_tile
    final = offered_context(1, 0, True, False, True)
    assert final.last_tile and final.fourth_tile and not final.self_drawn


EVERY_ACTION: list[Action] = [
    *DISCARDS, *CONCEALED_KONGS, *ADDED_KONGS, *CHOWS.values(), PUNG_ACTION, EXPOSED_KONG_ACTION,
    WIN_ACTION, PASS_ACTION, ThrowBullets(0), ThrowBullets(9), AcceptBullets(),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "options"),
    [("gb", {}), ("gb", {"false_win": True}), ("huangyan", {"throw_limit": 0}), ("huangyan", {})],
)
def test_every_refused_action_gets_a_reason_of_the_rules(rules: str, options: dict) -> None:
    rng = random.Random(5)
    for seed in range(6):
        table = Table(make_rules(rules, options), seed, dealer=seed % 4)
        steps = 0
        while not table.is_over and steps < 400:
            steps += 1
            for seat in range(4):
                legal = table.legal_actions(seat)
                for action in rng.sample(EVERY_ACTION, 12):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction) as refused:
                        table.apply(seat, action)
                    assert f"by seat {seat}: " in str(refused.value)
                    assert "not legal now" not in str(refused.value), (table.phase, action)
            seat = table.to_act()[0]
            table.apply(seat, rng.choice(table.legal_actions(seat)))
        assert table.is_over
