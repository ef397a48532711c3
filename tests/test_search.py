"""The search bot: obvious actions in hand-built positions, determinism, memory, the registry."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from majiang.bots import UnknownBotError, check_bot, make_bot, search
from majiang.bots.defence import GuardedFanBot
from majiang.bots.sampler import sample_deal, table_at
from majiang.bots.search import (
    LOOK_CANDIDATES,
    LOOK_MIN_SAMPLES,
    SearchBot,
    candidates,
    looks_ahead,
    worth_searching,
)
from majiang.bots.wild_aware import WildBot
from majiang.engine.actions import DISCARDS, Discard, Pass, Win
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.base import RuleSet
from majiang.rules.registry import make_rules
from plan_helpers import guobiao_with_plan

GB = make_rules("gb")


def decisions(
    rules_name: str, seed: int, want: type, limit: int = 400, phase: Phase | None = None
) -> Observation:
    """The first observation of a fan- or wild-bot hand where a seat may take a ``want``
    (in ``phase``, if given)."""
    rules = make_rules(rules_name)
    bot = "fan" if rules_name == "gb" else "wild"
    for s in range(seed, seed + limit):
        table = Table(rules, s)
        bots = [make_bot(bot, s * 4 + i) for i in range(4)]
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                if (
                    len(obs.legal_actions) > 1
                    and any(type(a) is want for a in obs.legal_actions)
                    and obs.phase in (Phase.TURN, Phase.CLAIM)
                    and phase in (None, obs.phase)
                    and (want is not Win or obs.win_reaches_minimum)
                ):
                    return obs
                table.apply(seat, bots[seat](obs))
    raise AssertionError(f"no {want.__name__} decision found")


def built(partial: Observation, seed: int = 0) -> Observation:
    """The seat's observation on a table built from a hand-made partial observation: the legal
    actions are the engine's."""
    deal = sample_deal(partial, GB, random.Random(seed))
    return table_at(partial, GB, deal).observation(partial.seat)


def start(seat: int = 0) -> Observation:
    table = Table(GB, 0)
    return table.observation(table.current)._replace(
        seat=seat, current=seat, dealer=0, seat_wind=seat, phase=Phase.TURN,
        flowers=((), (), (), ()), visible=None, last_discard=None,
    )


@pytest.mark.parametrize("rules_name", ["gb", "huangyan"])
def test_it_declares_a_self_drawn_win(rules_name: str) -> None:
    obs = decisions(rules_name, 0, Win, phase=Phase.TURN)
    bot = SearchBot(1, think=None, samples=8)
    evaluation = bot.evaluate(obs)
    assert evaluation.best == Win()
    assert bot(obs) == Win()


@pytest.mark.parametrize("rules_name", ["gb", "huangyan"])
def test_it_declares_a_legal_win_on_a_discard(rules_name: str) -> None:
    obs = decisions(rules_name, 0, Win, phase=Phase.CLAIM)
    assert SearchBot(1, think=None, samples=2)(obs) == Win()


def test_it_keeps_a_ready_hand_ready() -> None:
    # 123m 456m 789m 12p 55p waits on 3p for a pure straight; the drawn East is the only
    # discard that keeps it ready
    hand = tuple(sorted(parse_tiles("123456789m1255pE")))
    obs = built(start()._replace(
        hand=hand, drawn=27, melds=((), (), (), ()), discards=((), (), (), ()),
        hand_sizes=(14, 13, 13, 13), wall_remaining=144 - 14 - 39, drawable=144 - 14 - 39,
    ))
    assert len([a for a in obs.legal_actions if type(a) is Discard]) == 13
    assert SearchBot(2, think=None, samples=10)(obs) == DISCARDS[27]


def test_it_does_not_discard_into_a_visible_win() -> None:
    # the last discard of the hand: seat 1 shows pungs of the four winds and holds one tile,
    # one of the three tiles seat 0 cannot see (9p, 9s and a red dragon). Seat 0 holds 9p and
    # 1m, both useless to it; all four 1m are accounted for, so 1m is safe, 9p may win seat 1
    # 88 fans.
    winds = [Meld(MeldKind.PUNG, w, 1) for w in (27, 28, 29, 30)]
    others = [Meld(MeldKind.PUNG, t, 1) for t in (1, 2, 3, 4)]
    more = [Meld(MeldKind.PUNG, t, 1) for t in (10, 11, 12, 13)]
    hand = tuple(sorted([0, 17, *parse_tiles("555666777888s")]))
    pond: list[int] = []
    unseen = {17: 3, 26: 4, 31: 1}  # copies of 9p, 9s and the red dragon not held or shown
    for t in range(34):
        shown = {t: 3 for t in (27, 28, 29, 30, 1, 2, 3, 4, 10, 11, 12, 13)}.get(t, 0)
        held = hand.count(t)
        pond += [t] * (4 - shown - held - unseen.get(t, 0))
    assert pond.count(0) == 3
    rest = [t for t in range(34) for _ in range(unseen.get(t, 0))]
    assert len(rest) == 8
    # seats 2 and 3 hold the other unseen tiles: 9p x3, 9s x4 (their own hands can't use them)
    partial = start()._replace(
        hand=hand, drawn=17, melds=((), tuple(winds), tuple(others), tuple(more)),
        discards=(tuple(pond), (), (), ()), flowers=((34, 35, 36, 37), (38, 39, 40, 41), (), ()),
        hand_sizes=(14, 1, 1, 1), wall_remaining=5, drawable=5,
    )
    # five unseen tiles are still in the wall: seat 0 draws no more, but the others' hands are
    # one tile each. Empty the wall: the unseen tiles are the three hands and five wall tiles.
    obs = built(partial)
    assert any(a == DISCARDS[0] for a in obs.legal_actions)
    assert any(a == DISCARDS[17] for a in obs.legal_actions)
    evaluation = SearchBot(3, think=None, samples=40).evaluate(obs, required=[DISCARDS[0]])
    values = {repr(c.action): c.mean for c in evaluation.candidates}
    assert values[repr(DISCARDS[17])] < values[repr(DISCARDS[0])]
    assert evaluation.best != DISCARDS[17]


@pytest.mark.parametrize(("rules_name", "fast"), [("gb", GuardedFanBot), ("huangyan", WildBot)])
def test_plain_discards_are_left_to_the_fast_policy(
    rules_name: str, fast: type, monkeypatch: pytest.MonkeyPatch,
) -> None:
    obs = decisions(rules_name, 5, Discard)
    assert not worth_searching(obs)

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched a plain discard")

    monkeypatch.setattr(SearchBot, "evaluate", no_search)
    assert SearchBot(1, think=None)(obs) == fast(0)(obs)


@pytest.fixture
def looking() -> Iterator[RuleSet]:
    """Guobiao registered with a plan that looks ahead (``SearchPlan(look_ahead=True)``)."""
    with guobiao_with_plan("looking", look_ahead=True) as rules:
        yield rules


def test_a_plan_that_looks_ahead_weighs_a_ready_discard_by_it(
    looking: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a candidate the look-ahead values more overrules the fast policy once it has led on
    # LOOK_MIN_SAMPLES deals, and only if the seat won on some deal
    hand = tuple(sorted(parse_tiles("123456789m1255pE")))
    obs = built(start()._replace(
        hand=hand, drawn=27, melds=((), (), (), ()), discards=((), (), (), ()),
        hand_sizes=(14, 13, 13, 13), wall_remaining=144 - 14 - 39, drawable=144 - 14 - 39,
    ))
    assert worth_searching(obs) and looks_ahead(looking) and not looks_ahead(GB)
    bot = SearchBot(1, think=None, samples=LOOK_MIN_SAMPLES, rules=looking)
    prior = bot.policy(obs, search._decision_key(obs, 1))(obs)
    found = candidates(obs, prior, LOOK_CANDIDATES)
    assert len(found) == LOOK_CANDIDATES
    better = found[-1]

    def valued(table: object, seat: int, action: object, own: object, risk: float) -> float:
        return 10.0 if action == better else 0.0

    monkeypatch.setattr(search, "look_ahead", valued)
    evaluation = bot.evaluate(obs)
    assert evaluation.prior == prior and evaluation.samples == LOOK_MIN_SAMPLES
    assert {c.action for c in evaluation.candidates} == set(found)
    assert bot(obs) == better
    assert SearchBot(1, think=None, samples=LOOK_MIN_SAMPLES - 1, rules=looking)(obs) == prior

    def risks_only(table: object, seat: int, action: object, own: object, risk: float) -> float:
        return 0.0 if action == better else -1.0  # no win seen: only deal-in risks differ

    monkeypatch.setattr(search, "look_ahead", risks_only)
    evaluation = bot.evaluate(obs)
    assert evaluation.candidates[0].action == better and evaluation.best == prior


def test_claims_kongs_and_ready_discards_are_searched() -> None:
    assert worth_searching(decisions("gb", 11, Pass))
    hand = tuple(sorted(parse_tiles("123456789m1255pE")))
    ready = start()._replace(hand=hand, drawn=27, melds=((), (), (), ()),
                             discards=((), (), (), ()), hand_sizes=(14, 13, 13, 13))
    assert worth_searching(ready)
    far = start()._replace(hand=tuple(sorted(parse_tiles("1469m258p37sESWNC"))), drawn=31,
                           melds=((), (), (), ()), discards=((), (), (), ()),
                           hand_sizes=(14, 13, 13, 13))
    assert not worth_searching(far)


def test_the_same_seed_gives_the_same_evaluation() -> None:
    obs = decisions("gb", 5, Discard)
    first = SearchBot(7, think=None, samples=6).evaluate(obs)
    second = SearchBot(7, think=None, samples=6).evaluate(obs)
    assert [(c.action, c.values) for c in first.candidates] == \
        [(c.action, c.values) for c in second.candidates]
    other = SearchBot(8, think=None, samples=6).evaluate(obs)
    assert [c.values for c in other.candidates] != [c.values for c in first.candidates]


def test_the_same_seed_plays_the_same_searched_decisions() -> None:
    claim = decisions("gb", 11, Pass)
    assert worth_searching(claim)
    first = SearchBot(4, think=None, samples=6)(claim)
    assert SearchBot(4, think=None, samples=6)(claim) == first
    assert first == SearchBot(4, think=None, samples=6).evaluate(claim).best


def test_the_time_budget_holds() -> None:
    # Huangyan rollouts take tens of milliseconds: the search stops at the first deal after
    # its budget, and reaches more deals with a larger one
    obs = decisions("huangyan", 9, Discard)
    short = SearchBot(1, think=0.2, samples=10_000).evaluate(obs)
    assert short.seconds < 0.2 + 2.0
    long = SearchBot(1, think=1.0, samples=10_000).evaluate(obs)
    assert long.seconds < 1.0 + 2.0
    if long.seconds >= 1.0 and short.seconds >= 0.2:  # both stopped by their budgets
        assert long.samples > short.samples


def test_memory_stays_far_below_the_bound() -> None:
    obs = decisions("gb", 9, Discard)
    tracemalloc.start()
    SearchBot(1, think=None, samples=3).evaluate(obs)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 64 * 2**20  # the bound is 512 MB


def test_candidates_keep_the_fast_choice_and_drop_far_discards() -> None:
    obs = decisions("gb", 11, Discard)
    prior = make_bot("fan", 0)(obs)
    found = candidates(obs, prior)
    assert found[0] == prior
    assert len([a for a in found if type(a) is Discard]) <= 4
    claim = decisions("gb", 11, Pass)
    assert set(candidates(claim, Pass())) == set(claim.legal_actions)


def test_the_rule_set_s_description_names_the_rollout_policies() -> None:
    """The policies and where to search come from the description (``SearchPlan``): a rule set
    registered with other policies is searched with those; one without a plan is refused."""
    from dataclasses import replace

    from majiang.bots.fan_aware import FanBot
    from majiang.bots.random_bot import RandomBot
    from majiang.bots.search import rollout_plan
    from majiang.errors import OptionError
    from majiang.rules.guobiao.ruleset import GuobiaoRules
    from majiang.rules.info import SearchPlan
    from majiang.rules.registry import RULE_SETS

    assert rollout_plan(GB) == (GuardedFanBot, FanBot, False)
    assert rollout_plan(make_rules("huangyan")) == (WildBot, WildBot, False)

    class Careless(GuobiaoRules):
        name = "careless"

    class Planless(GuobiaoRules):
        name = "planless"

    plan = SearchPlan("majiang.bots.random_bot:RandomBot", "majiang.bots.random_bot:RandomBot",
                      every_discard=True)
    RULE_SETS.register(replace(RULE_SETS["gb"], name="careless", aliases=(), search=plan))
    RULE_SETS.register(replace(RULE_SETS["gb"], name="planless", aliases=(), search=None))
    try:
        obs = decisions("gb", 5, Discard)
        assert not worth_searching(obs)  # Guobiao leaves it to its fast policy; this plan not
        bot = SearchBot(1, think=None, samples=6, rules=Careless())
        assert isinstance(bot.policy(obs), RandomBot)
        assert bot(obs) == bot.evaluate(obs).best
        assert SearchBot(1, think=None)(obs) == GuardedFanBot(0)(obs)
        with pytest.raises(OptionError, match="the search bot does not play planless"):
            SearchBot(1, think=None, rules=Planless())(obs)
    finally:
        RULE_SETS.unregister("careless")
        RULE_SETS.unregister("planless")


def test_registry_names_and_budgets() -> None:
    check_bot("search", "gb", heavy=True)
    check_bot("search", "huangyan", heavy=True)
    check_bot("search@0.25", "gb", heavy=True)
    bot = make_bot("search@0.25", 3)
    assert isinstance(bot, SearchBot) and bot.think == 0.25 and bot.seed == 3
    for bad in ("search@0", "search@x", "search@100"):
        with pytest.raises(UnknownBotError, match="SECONDS"):
            check_bot(bad, "gb", heavy=True)
    with pytest.raises(UnknownBotError):
        check_bot("fan@1", "gb", heavy=True)


def test_the_botzone_program_answers_within_botzone_s_limit() -> None:
    """`majiang botzone bot --bot search` plays a whole hand, every answer within 6 s."""
    import sys

    from majiang.botzone import BotzoneAgent, play_hand
    from majiang.rules.guobiao.ruleset import GuobiaoRules

    command = [sys.executable, "-m", "majiang", "botzone", "bot", "--bot", "search", "--seed",
               "1", "--io", "json", "--keep-running"]
    with BotzoneAgent(command, io="json", keep_running=True, time_limit=6) as agent:
        agents: list = [make_bot("fan", s) for s in range(4)]
        agents[0] = agent
        table = Table(GuobiaoRules(), 14, dealer=2)
        hand = play_hand(table, agents)
    assert table.is_over
    assert not hand.faults
    assert any(r != "PASS" for r in agent.responses)


def test_a_game_server_refuses_the_search_bot(tmp_path: Path) -> None:
    """The server plays its bots between its clients' messages: a bot that thinks for a second
    a decision would hold up every table, so no stranger may seat one."""
    from fastapi.testclient import TestClient

    from majiang.server import create_app
    from majiang.server.web import rule_sets

    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}")) as http:
        for bots in (["search", None, None, None], ["search@0.25", None, None, None]):
            response = http.post("/rooms", json={"rules": "gb", "bots": bots})
            assert response.status_code == 422
            assert "thinks too long" in response.text
        response = http.post("/rooms", json={"rules": "gb", "fill_bot": "search"})
        assert response.status_code == 422
    assert all("search" not in entry["bots"] for entry in rule_sets())
    with pytest.raises(UnknownBotError, match="thinks too long"):
        check_bot("search", "gb")
    check_bot("search", "gb", heavy=True)
