"""The 16-hand match (rules/guobiao.md §2.1-2.2): prevalent wind per four hands, the deal passing
to the next player after every hand (drawn ones included), the first dealer drawn from the match
seed, running totals."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from majiang.engine import Discard, Pass, Table, Win
from majiang.engine.actions import Action
from majiang.engine.match import HandSpec, Match, play_hand
from majiang.engine.table import Observation
from majiang.rules.guobiao.ruleset import GuobiaoRules

RULES = GuobiaoRules()
WIND_NAMES = "东南西北"


def agent(seed: int) -> Callable[[Observation], Action]:
    """A seeded player that wins when it may, sometimes claims, and discards at random."""
    rng = random.Random(seed)

    def play(obs: Observation) -> Action:
        legal = obs.legal_actions
        if Win() in legal:
            return Win()
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return rng.choice(list(legal)) if rng.random() < 0.2 else rng.choice(discards)
        return rng.choice(list(legal)) if rng.random() < 0.3 else Pass()

    return play


def agents(seed: int) -> list[Callable[[Observation], Action]]:
    return [agent(seed * 10 + p) for p in range(4)]


def test_sixteen_hands_four_rounds_the_deal_passes_every_hand() -> None:
    match = Match(RULES, seed=11)
    specs = list(match.specs())
    assert [s.number for s in specs] == list(range(1, 17))
    first = match.first_dealer
    names = []
    for k, spec in enumerate(specs):
        assert spec.prevalent_wind == k // 4  # East for 1-4, South 5-8, West 9-12, North 13-16
        assert spec.dealer == (first + k) % 4
        # the seed names the hand by the prevalent wind and the original seat of the dealer
        names.append(WIND_NAMES[spec.prevalent_wind] + "风" + WIND_NAMES[(spec.dealer - first) % 4])
    assert names[:5] == ["东风东", "东风南", "东风西", "东风北", "南风东"]
    assert names[-1] == "北风北" and len(set(names)) == 16
    assert len({s.seed for s in specs}) == 16


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_each_table_has_the_specs_dealer_winds_and_stake(seed: int) -> None:
    match = Match(RULES, seed=seed, stake=3)
    for spec in match.specs():
        table = match.table(spec)
        assert (table.dealer, table.prevalent_wind, table.seed) == (
            spec.dealer,
            spec.prevalent_wind,
            spec.seed,
        )
        assert table.stake == 3
        assert table.to_act() == [spec.dealer]  # the dealer starts, with 14 tiles
        for player in range(4):
            obs = table.observation(player)
            # seat wind of player p = the wind (p - dealer) mod 4 steps after East
            assert obs.seat_wind == table.seat_wind(player) == (player - spec.dealer) % 4
            assert obs.prevalent_wind == spec.prevalent_wind and obs.dealer == spec.dealer
        assert table.observation(spec.dealer).hand_sizes[spec.dealer] == 14


def test_first_dealer_is_drawn_from_the_match_seed() -> None:
    firsts = [Match(RULES, seed=s).first_dealer for s in range(64)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [Match(RULES, seed=s).first_dealer for s in range(64)]


def test_the_match_seed_fixes_every_hand() -> None:
    a, b, c = Match(RULES, seed=5), Match(RULES, seed=5), Match(RULES, seed=6)
    assert list(a.specs()) == list(b.specs())
    assert a.hand_seeds != c.hand_seeds
    first = next(iter(a.specs()))
    assert a.table(first).wall.tiles == b.table(first).wall.tiles


@pytest.mark.parametrize("options", [None, {"false_win": True}])
def test_play_sixteen_hands_with_running_totals(options: dict[str, bool] | None) -> None:
    rules = GuobiaoRules(options)
    match = Match(rules, seed=21, stake=2)
    seen: list[tuple[int, int]] = []
    players = agents(21)

    def watching(player: int) -> Callable[[Observation], Action]:
        def play(obs: Observation) -> Action:
            if not seen or seen[-1] != (obs.prevalent_wind, obs.dealer):
                seen.append((obs.prevalent_wind, obs.dealer))
            return players[player](obs)

        return play

    totals = match.play([watching(p) for p in range(4)])
    assert len(match.results) == 16
    # every hand was played at the spec's winds and dealer, in order, draws included
    assert seen == [(s.prevalent_wind, s.dealer) for s in match.specs()]
    running = [0, 0, 0, 0]
    for result in match.results:
        assert sum(result.deltas) == 0
        assert all(d % 2 == 0 for d in result.deltas)  # stake 2
        running = [r + d for r, d in zip(running, result.deltas, strict=True)]
    assert totals == running == match.totals
    assert sum(totals) == 0


def test_totals_after_each_hand_are_the_sum_so_far() -> None:
    match = Match(RULES, seed=8)
    players = agents(8)
    expected = [0, 0, 0, 0]
    draws = 0
    for spec in match.specs():
        table = match.table(spec)
        result = play_hand(table, players)
        assert result is table.result and table.is_over
        draws += result.is_draw
        match.record(result)
        expected = [e + d for e, d in zip(expected, result.deltas, strict=True)]
        assert match.totals == expected
    assert len(match.results) == 16
    assert draws  # drawn hands happen, and the deal still passed after them (specs above)


def test_the_same_match_seed_and_players_give_the_same_match() -> None:
    one = Match(RULES, seed=3)
    two = Match(RULES, seed=3)
    assert one.play(agents(3)) == two.play(agents(3))
    assert [r.deltas for r in one.results] == [r.deltas for r in two.results]


def test_a_shorter_match_and_the_winds_of_its_hands() -> None:
    match = Match(RULES, seed=1, hands=6)
    specs = list(match.specs())
    assert [s.prevalent_wind for s in specs] == [0, 0, 0, 0, 1, 1]
    assert [s.dealer for s in specs] == [(match.first_dealer + k) % 4 for k in range(6)]
    assert match.play(agents(1)) == match.totals and len(match.results) == 6


def test_a_match_has_at_least_one_hand() -> None:
    with pytest.raises(ValueError):
        Match(RULES, hands=0)


def test_hand_spec_is_what_the_table_needs() -> None:
    spec = HandSpec(number=1, seed=99, dealer=2, prevalent_wind=0)
    table = Match(RULES).table(spec)
    assert isinstance(table, Table) and table.dealer == 2 and table.seed == 99


def test_play_until_asked_stops_where_the_person_must_act() -> None:
    """Bots play one move at a time until seat 0 (no agent) must act; in a claim window the bots
    answer first; the person's seat is never played for; with a bot at every seat the moves and
    the result are those of play_hand with every seat a bot."""
    from majiang.bots import make_bot
    from majiang.engine.match import play_until_asked

    rules = GuobiaoRules()
    for seed in range(6):
        table, alone = Table(rules, seed, dealer=1), Table(rules, seed, dealer=1)
        bots = [make_bot("efficient", seed * 4 + s) for s in range(4)]
        players = [None, *bots[1:]]
        asked = windows = 0
        while not table.is_over:
            moved = list(play_until_asked(table, players))
            assert 0 not in moved
            if table.is_over:
                break
            assert table.to_act() == [0]  # only the person is left to act
            windows += table.phase.value != "turn"
            table.apply(0, bots[0](table.observation(0)))
            asked += 1
        assert asked and play_hand(alone, bots) == table.result
        assert alone.events == table.events  # the same moves (answers to a window in any order)
    assert windows


def test_agent_turn_names_the_first_seat_to_act_that_has_an_agent() -> None:
    """In a claim window where the person at seat 0 and bots must answer, a bot answers first
    (the first such seat in ``to_act``, with its own agent); with only the person left, or
    nobody with an agent, or the hand over, nobody."""
    from majiang.bots import make_bot
    from majiang.engine.match import agent_turn

    shared_windows = 0
    for seed in range(8):
        table = Table(RULES, seed, dealer=1)
        bots = [make_bot("efficient", seed * 4 + s) for s in range(4)]
        players = [None, *bots[1:]]
        while not table.is_over:
            to_act = table.to_act()
            assert agent_turn(table, [None] * 4) is None
            turn = agent_turn(table, players)
            if to_act == [0]:
                assert turn is None
                table.apply(0, bots[0](table.observation(0)))
                continue
            assert turn is not None
            seat, chosen = turn
            assert seat == next(s for s in to_act if s != 0) and chosen is bots[seat]
            shared_windows += 0 in to_act
            table.apply(seat, chosen(table.observation(seat)))
        assert agent_turn(table, bots) is None
    assert shared_windows  # the person and a bot were asked together, and the bot came first
