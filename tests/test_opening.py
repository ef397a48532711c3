"""The opening-phase hook: a rule set's decisions before the deal, asked round by round."""

from __future__ import annotations

import random
from typing import Any

import pytest

from majiang.engine import IllegalAction, Phase, Table
from majiang.engine.actions import ACCEPT_BULLETS_ACTION, PASS_ACTION, Discard, Pass, ThrowBullets
from majiang.errors import MajiangError
from majiang.rules.huangyan.bullets import ThrownBullets
from majiang.rules.huangyan.ruleset import HuangyanRules
from majiang.rules.registry import make_rules

Json = dict[str, Any]


class Bids:
    """A test opening: the dealer bids 0-2; after a bid of at least one, each other seat
    takes it (its ``thrown`` grows by the bid) or passes."""

    def next_options(self, table: Any, rounds: list[dict[int, Json]]) -> dict[int, list[Json]]:
        dealer = table.dealer
        if not rounds:
            return {dealer: [{"type": "throw_bullets", "count": n} for n in range(3)]}
        bid = rounds[0][dealer]["count"]
        if len(rounds) == 1:
            table.events.append({"type": "bid", "seat": dealer, "count": bid})
            if bid:
                takes = [{"type": "accept_bullets"}, {"type": "pass"}]
                return {s: takes for s in range(4) if s != dealer}
            return {}
        for seat, answer in rounds[1].items():
            if answer["type"] == "accept_bullets":
                table.thrown[seat] += bid
        return {}

    def why_refused(self, table: Any, rounds: list[Any], seat: int, action: Json) -> str:
        return f"round {len(rounds)}: no {action['type']} for seat {seat}"


class Scripted:
    """A test opening that offers one fixed round, then ends."""

    def __init__(self, options: Any) -> None:
        self.options = options

    def next_options(self, table: Any, rounds: list[Any]) -> Any:
        return self.options if not rounds else {}

    def why_refused(self, table: Any, rounds: list[Any], seat: int, action: Json) -> str:
        return "scripted"


class WithOpening:
    """Guobiao's rules with one addition, the ``opening_phase`` hook."""

    def __init__(self, opening: Any, **extra: Any) -> None:
        self._base = make_rules("gb")
        self.opening_phase = opening
        self.__dict__.update(extra)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def test_the_rule_sets_opening_decides_before_the_deal() -> None:
    table = Table(WithOpening(Bids()), 5, dealer=2)  # type: ignore[arg-type]
    assert table.phase is Phase.BULLETS and table.to_act() == [2]
    assert table.legal_actions(2) == [ThrowBullets(0), ThrowBullets(1), ThrowBullets(2)]
    assert table.observation(2).hand == ()  # nothing is dealt yet
    assert table.apply(2, ThrowBullets(2)) == [{"type": "bid", "seat": 2, "count": 2}]
    assert sorted(table.to_act()) == [0, 1, 3]
    assert table.legal_actions(0)[0] is ACCEPT_BULLETS_ACTION  # the engine's shared objects
    assert table.legal_actions(0)[1] is PASS_ACTION
    table.apply(0, ACCEPT_BULLETS_ACTION)
    table.apply(1, PASS_ACTION)
    assert table.phase is Phase.BULLETS  # seat 3 has not answered
    events = table.apply(3, ACCEPT_BULLETS_ACTION)
    assert table.thrown == [2, 0, 0, 2]
    assert events[0]["type"] == "deal" and table.phase is Phase.TURN and table.to_act() == [2]
    assert len(table.observation(2).hand) == 14
    rng = random.Random(5)
    while not table.is_over:  # and the hand plays on to a zero-sum end
        seat = table.to_act()[0]
        table.apply(seat, rng.choice(table.legal_actions(seat)))
    assert table.result is not None and sum(table.result.deltas) == 0
    assert table.result.stake("thrown") == (2, 0, 0, 2)


def test_the_hook_gives_the_reason_of_a_refusal_and_nothing_changes() -> None:
    table = Table(WithOpening(Bids()), 5, dealer=2)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="by seat 2: round 0: no discard for seat 2"):
        table.apply(2, Discard(0))
    with pytest.raises(IllegalAction, match="round 0: no throw_bullets for seat 2"):
        table.apply(2, ThrowBullets(3))
    with pytest.raises(IllegalAction, match="not this seat's decision"):
        table.apply(1, PASS_ACTION)  # not a seat of the round: the engine's own reason
    assert table.history == [] and table.phase is Phase.BULLETS
    table.apply(2, ThrowBullets(1))
    with pytest.raises(IllegalAction, match="round 1: no throw_bullets for seat 0"):
        table.apply(0, ThrowBullets(1))


def test_a_bid_of_nothing_ends_the_opening_at_once() -> None:
    table = Table(WithOpening(Bids()), 5)  # type: ignore[arg-type]
    events = table.apply(0, ThrowBullets(0))
    assert [e["type"] for e in events][:2] == ["bid", "deal"]
    assert table.phase is Phase.TURN and table.thrown == [0, 0, 0, 0]


def test_an_opening_without_rounds_deals_at_once() -> None:
    table = Table(WithOpening(Scripted({})), 9)  # type: ignore[arg-type]
    plain = Table(make_rules("gb"), 9)
    assert table.phase is Phase.TURN
    assert table.events == plain.events
    assert all(table.observation(s) == plain.observation(s) for s in range(4))


def test_a_throw_limit_without_the_hook_opens_nothing() -> None:
    table = Table(WithOpening(None, throw_limit=3), 9)  # type: ignore[arg-type]
    assert table.phase is Phase.TURN and table.opening is None


@pytest.mark.parametrize(
    "options",
    [{4: [{"type": "pass"}]}, {1: []}, {1: [{"type": "fly"}]}, {1: [{"kind": "pass"}]}],
)
def test_a_bad_round_from_the_hook_is_a_majiang_error(options: Any) -> None:
    with pytest.raises(MajiangError):
        Table(WithOpening(Scripted(options)), 1)  # type: ignore[arg-type]


def test_any_seats_may_decide_in_a_round() -> None:
    round_ = {3: [{"type": "pass"}], 1: [{"type": "pass"}, {"type": "win"}]}
    table = Table(WithOpening(Scripted(round_)), 1)  # type: ignore[arg-type]
    assert table.to_act() == [3, 1] and table.legal_actions(3) == [Pass()]
    table.apply(1, PASS_ACTION)
    table.apply(3, PASS_ACTION)
    assert table.phase is Phase.TURN


def test_huangyan_declares_its_thrown_bullets_through_the_hook() -> None:
    rules = HuangyanRules({"throw_limit": 2})
    assert isinstance(rules.opening_phase, ThrownBullets) and rules.opening_phase.limit == 2
    assert HuangyanRules({"throw_limit": 0}).opening_phase is None
    table = Table(rules, 4, dealer=1)
    assert table.legal_actions(1) == [ThrowBullets(n) for n in range(3)]
    table.apply(1, ThrowBullets(2))
    for seat, answer in ((2, PASS_ACTION), (3, ACCEPT_BULLETS_ACTION), (0, ACCEPT_BULLETS_ACTION)):
        table.apply(seat, answer)
    assert table.thrown == [2, 0, 0, 2]
    bullets = [e for e in table.events if "bullets" in e["type"]]
    assert bullets == [
        {"type": "throw_bullets", "seat": 1, "count": 2},
        {"type": "accept_bullets", "seat": 0, "count": 2},
        {"type": "accept_bullets", "seat": 3, "count": 2},
    ]
