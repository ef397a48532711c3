"""The tournament's rules: table points with shared ties, standings with the score as
tie-break and penalties, seating as good as a brute-force search on small fields, byes,
substitutes, withdrawals and swaps."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from majiang.errors import MajiangError
from majiang.organiser.ranking import (
    BYE_TABLE_POINTS,
    PlayedTable,
    points_text,
    standings,
    table_points,
)
from majiang.organiser.seating import History, Seating, seat_tables, swap, table_cost
from majiang.organiser.tournament import Player, Tournament, tournament_settings

F = Fraction


# ---------------------------------------------------------------------------- table points


@pytest.mark.parametrize("scores,points", [
    ((30, 10, -15, -25), (4, 2, 1, 0)),
    ((-25, 30, -15, 10), (0, 4, 1, 2)),
    ((20, 20, -5, -35), (3, 3, 1, 0)),
    ((40, -10, -10, -20), (4, F(3, 2), F(3, 2), 0)),
    ((40, 10, -25, -25), (4, 2, F(1, 2), F(1, 2))),
    ((10, 10, 10, -30), (F(7, 3), F(7, 3), F(7, 3), 0)),
    ((30, -10, -10, -10), (4, 1, 1, 1)),
    ((0, 0, 0, 0), (F(7, 4),) * 4),
    ((20, 20, -20, -20), (3, 3, F(1, 2), F(1, 2))),
])
def test_table_points_by_rank_with_ties_sharing_their_places(scores: tuple[int, ...],
                                                             points: tuple[Fraction, ...]) -> None:
    got = table_points(scores)
    assert got == tuple(F(p) for p in points)
    assert sum(got) == 7


def test_table_points_read_as_people_write_them() -> None:
    assert [points_text(F(x)) for x in (4, F(3, 2), F(7, 3), F(7, 4), 0)] == [
        "4", "1.5", "2.33", "1.75", "0"]


# ---------------------------------------------------------------------------- standings


def people(*names: str, substitutes: tuple[str, ...] = ()) -> list[Player]:
    everyone = [*names, *substitutes]
    return [Player(i + 1, n, n in substitutes) for i, n in enumerate(everyone)]


def test_standings_rank_by_table_points_then_score() -> None:
    entrants = people(*"ABCDEFGH")
    tables = [
        PlayedTable(1, 0, (1, 2, 3, 4), (50, 10, -20, -40)),
        PlayedTable(1, 1, (5, 6, 7, 8), (20, 15, -5, -30)),
        PlayedTable(2, 0, (1, 5, 2, 6), (-10, 40, -10, -20)),
        PlayedTable(2, 1, (3, 7, 4, 8), (25, -5, -5, -15)),
    ]
    rows = standings(entrants, tables, {})
    assert [(s.name, s.rank, s.table_points, s.score) for s in rows] == [
        ("E", 1, 8, 60),         # 4 + 4
        ("A", 2, F(11, 2), 40),  # 4 + 1.5 (tied second in round 2)
        ("C", 3, 5, 5),          # 1 + 4
        ("B", 4, F(7, 2), 0),    # 2 + 1.5
        ("G", 5, F(5, 2), -10),  # 1 + 1.5
        ("F", 6, 2, -5),         # 2 + 0: fewer table points, though a better score than G
        ("D", 7, F(3, 2), -45),
        ("H", 8, 0, -45),
    ]
    assert [r.round for r in rows[0].rounds] == [1, 2]


def test_the_score_breaks_a_tie_in_table_points() -> None:
    entrants = people(*"ABCDEFGH")
    tables = [PlayedTable(1, 0, (1, 2, 3, 4), (50, 10, -20, -40)),
              PlayedTable(1, 1, (5, 6, 7, 8), (60, 15, -5, -70))]
    rows = standings(entrants, tables, {})
    assert [s.name for s in rows[:4]] == ["E", "A", "F", "B"]


def test_equal_table_points_and_score_share_a_rank() -> None:
    entrants = people("A", "B", "C", "D")
    rows = standings(entrants, [PlayedTable(1, 0, (1, 2, 3, 4), (20, 20, -20, -20))], {})
    assert [(s.name, s.rank) for s in rows] == [("A", 1), ("B", 1), ("C", 3), ("D", 3)]


def test_substitutes_play_but_are_not_ranked() -> None:
    entrants = people("A", "B", "C", substitutes=("Sub",))
    rows = standings(entrants, [PlayedTable(1, 0, (4, 1, 2, 3), (30, 10, -10, -30))], {})
    assert [(s.name, s.rank) for s in rows] == [("A", 1), ("B", 2), ("C", 3), ("Sub", None)]
    assert rows[-1].table_points == 4 and rows[-1].substitute


def test_penalties_come_off_the_score_after_the_table_points() -> None:
    entrants = people("A", "B", "C", "D")
    table = PlayedTable(1, 0, (1, 2, 3, 4), (30, 20, -20, -30))
    rows = standings(entrants, [table], {(1, 1): 15})
    a = next(s for s in rows if s.name == "A")
    assert (a.table_points, a.score, a.penalties) == (4, 15, 15)
    assert a.rounds[0].score == 30 and a.rounds[0].penalty == 15
    before = standings(entrants, [table], {(1, 1): 15}, penalties_before_table_points=True)
    a = next(s for s in before if s.name == "A")
    assert (a.table_points, a.score) == (2, 15)  # 30 - 15 = 15 < B's 20: second at the table
    assert next(s for s in before if s.name == "B").table_points == 4


def test_a_bye_is_worth_the_mean_table_points() -> None:
    rows = standings(people("A"), [], {}, byes=[(1, 1)])
    assert rows[0].table_points == BYE_TABLE_POINTS == F(7, 4) and rows[0].score == 0
    assert rows[0].rounds[0].table is None


# ---------------------------------------------------------------------------- seating


def partitions(players: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, 3):
        left = [p for p in rest if p not in others]
        for tail in partitions(left):
            yield [(first, *others), *tail]


def brute_force(players: list[int], history: History) -> tuple[int, int]:
    """The least (repeat meetings, wind cost) of any seating: every partition into tables,
    every order of winds at each table."""
    best_table: dict[tuple[int, ...], tuple[int, int]] = {}
    for table in itertools.combinations(sorted(players), 4):
        repeats = sum(history.met(a, b) for a, b in itertools.combinations(table, 2))
        winds = min(sum(history.wind_counts(p)[w] for p, w in zip(table, order, strict=True))
                    for order in itertools.permutations(range(4)))
        best_table[table] = (repeats, winds)
    best = None
    for part in partitions(sorted(players)):
        costs = [best_table[table] for table in part]
        total = (sum(c[0] for c in costs), sum(c[1] for c in costs))
        if best is None or total < best:
            best = total
    assert best is not None
    return best


def cost_of(tables: tuple[tuple[int, int, int, int], ...], history: History) -> tuple[int, int]:
    repeats = sum(history.met(a, b) for t in tables for a, b in itertools.combinations(t, 2))
    winds = sum(history.wind_counts(p)[w] for t in tables for w, p in enumerate(t))
    return repeats, winds


@pytest.mark.parametrize("count,seed", [(8, 1), (8, 2), (12, 1), (12, 2), (12, 3)])
def test_every_round_is_as_good_as_a_brute_force_search(count: int, seed: int) -> None:
    players = list(range(1, count + 1))
    history = History()
    for number in range(1, 5):
        tables = seat_tables(players, history, seed, number)
        assert sorted(p for t in tables for p in t) == players
        assert cost_of(tables, history) == brute_force(players, history)
        history.add(Seating(number, tables))


def test_a_random_history_too() -> None:
    rng = random.Random(7)
    players = list(range(1, 13))
    history = History()
    for number in range(1, 4):  # three random rounds first
        order = players[:]
        rng.shuffle(order)
        tables = tuple((order[4 * i], order[4 * i + 1], order[4 * i + 2], order[4 * i + 3])
                       for i in range(3))
        history.add(Seating(number, tables))
    tables = seat_tables(players, history, 5, 4)
    assert cost_of(tables, history) == brute_force(players, history)


def test_twelve_players_must_meet_again_in_round_two_and_meet_least() -> None:
    # round 2's four-player tables draw from round 1's three tables: each repeats a pair
    history = History()
    players = list(range(1, 13))
    first = seat_tables(players, history, 1, 1)
    history.add(Seating(1, first))
    second = seat_tables(players, history, 1, 2)
    assert cost_of(second, history)[0] == 3


def test_with_room_to_spare_four_rounds_give_each_wind_once_and_no_repeat() -> None:
    history = History()
    for number in range(1, 5):
        history.add(Seating(number, seat_tables(list(range(40)), history, 3, number)))
    assert all(counts == [1, 1, 1, 1] for counts in history.winds.values())
    assert max(history.meetings.values()) == 1


def test_repeats_come_before_winds() -> None:
    # 8 players, round 2: a table keeping nobody from round 1's table is impossible, and a
    # seating with fewer repeats wins over one with better winds
    history = History()
    history.add(Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8))))
    tables = seat_tables(list(range(1, 9)), history, 1, 2)
    assert cost_of(tables, history) == (4, 0) == brute_force(list(range(1, 9)), history)


def test_the_same_seed_gives_the_same_seating() -> None:
    players = list(range(1, 21))
    one = seat_tables(players, History(), 11, 1)
    assert one == seat_tables(list(reversed(players)), History(), 11, 1)
    assert one != seat_tables(players, History(), 12, 1)


def test_table_cost_finds_the_best_winds() -> None:
    history = History()
    history.add(Seating(1, ((1, 2, 3, 4),)))
    repeats, winds, seated = table_cost([1, 2, 3, 4], history)
    assert repeats == 6 and winds == 0 and seated != (1, 2, 3, 4)
    assert sorted(seated) == [1, 2, 3, 4]


def test_swapping_two_players() -> None:
    seating = Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8)), (9,))
    assert swap(seating, 2, 7).tables == ((1, 7, 3, 4), (5, 6, 2, 8))
    assert swap(seating, 9, 1).tables[0] == (9, 2, 3, 4) and swap(seating, 9, 1).byes == (1,)
    with pytest.raises(MajiangError, match="no place in round 1"):
        swap(seating, 1, 10)


# ---------------------------------------------------------------------------- the tournament


def tournament(players: int, rounds: int = 3, *, subs: int = 0, fill: str = "substitutes",
               seed: int = 4) -> Tournament:
    t = Tournament(tournament_settings("Club", rounds, seed, fill=fill))
    for i in range(players):
        t.players.append(Player(i + 1, f"P{i + 1}"))
    for i in range(subs):
        t.players.append(Player(players + i + 1, f"Sub{i + 1}", substitute=True))
    return t


def play(t: Tournament, rng: random.Random) -> None:
    seating = t.next_seating()
    t.seatings.append(seating)
    for table in range(len(seating.tables)):
        a, b, c = (rng.randrange(-60, 60) for _ in range(3))
        scores = t.check_result(seating.round, table, [a, b, c, -a - b - c])
        t.results[(seating.round, table)] = scores


def test_a_field_not_a_multiple_of_four_needs_substitutes() -> None:
    with pytest.raises(MajiangError, match="13 players need 3 substitutes to make tables of "
                       "four; 1 registered"):
        tournament(13, subs=1).next_seating()
    t = tournament(13, subs=4)
    rng = random.Random(1)
    for _ in range(3):
        play(t, rng)
    played = [sum(1 for s in t.seatings if s.seat_of(p.id)) for p in t.players]
    assert played[:13] == [3] * 13
    assert sorted(played[13:]) == [2, 2, 2, 3]  # those who played fewest rounds go first
    ranked = [s for s in t.standings() if s.rank is not None]
    assert len(ranked) == 13


def test_byes_rotate_and_score_the_mean() -> None:
    t = tournament(14, rounds=4, fill="byes")
    rng = random.Random(2)
    for _ in range(4):
        play(t, rng)
    byes = [p for s in t.seatings for p in s.byes]
    assert len(byes) == 8 and len(set(byes)) == 8  # two a round, never the same player twice
    standing = {s.player: s for s in t.standings()}
    line = next(r for r in standing[byes[0]].rounds if r.table is None)
    assert line.table_points == BYE_TABLE_POINTS and line.score == 0


def test_a_withdrawn_player_is_not_seated_again_and_keeps_his_results() -> None:
    t = tournament(12, subs=1)
    rng = random.Random(3)
    play(t, rng)
    t.players[4] = Player(5, "P5", withdrawn=True)
    play(t, rng)
    assert t.seatings[1].seat_of(5) is None and t.seatings[1].seat_of(13) is not None
    p5 = next(s for s in t.standings() if s.player == 5)
    assert p5.withdrawn and len(p5.rounds) == 1 and p5.rank is not None


def test_swaps_and_replacements_in_a_round() -> None:
    t = tournament(8, subs=1)
    t.seatings.append(t.next_seating())
    first, second = t.seatings[0].tables
    swapped = t.check_swap(1, first[0], second[1])
    assert swapped.tables[0][0] == second[1] and swapped.tables[1][1] == first[0]
    replaced = t.check_swap(1, first[2], 9)
    assert replaced.tables[0][2] == 9 and replaced.seat_of(first[2]) is None
    t.results[(1, 0)] = (10, 0, 0, -10)
    with pytest.raises(MajiangError, match="table 1 of round 1 has its result"):
        t.check_swap(1, first[0], second[1])
    with pytest.raises(MajiangError, match="choose two different players"):
        t.check_swap(1, second[0], second[0])


def test_results_are_checked() -> None:
    t = tournament(8)
    t.seatings.append(t.next_seating())
    with pytest.raises(MajiangError, match="the four scores sum to 12, not 0"):
        t.check_result(1, 0, [10, 2, 0, 0])
    with pytest.raises(MajiangError, match="round 1 has tables 1-2"):
        t.check_result(1, 2, [0, 0, 0, 0])
    with pytest.raises(MajiangError, match="round 2 is not seated"):
        t.check_result(2, 0, [0, 0, 0, 0])
    with pytest.raises(MajiangError, match="give four final scores"):
        t.check_result(1, 0, [0, 0, 0])
    assert t.check_result(1, 1, [5, -5, 0, 0]) == (5, -5, 0, 0)


def test_rounds_are_limited_and_the_last_may_be_taken_back() -> None:
    t = tournament(8, rounds=1)
    t.seatings.append(t.next_seating())
    with pytest.raises(MajiangError, match="all 1 rounds are seated"):
        t.next_seating()
    t.check_unseat(1)
    t.results[(1, 0)] = (0, 0, 0, 0)
    with pytest.raises(MajiangError, match="round 1 has results"):
        t.check_unseat(1)


def test_registration_is_checked() -> None:
    t = tournament(2)
    with pytest.raises(MajiangError, match="p1 is registered already"):
        t.check_new_player("p1", False)
    with pytest.raises(MajiangError, match="empty"):
        t.check_new_player("  ", False)
    with pytest.raises(MajiangError, match="a tournament has 1 to 20 rounds"):
        tournament_settings("Club", 21, 1)
    with pytest.raises(MajiangError, match="fill must be one of"):
        tournament_settings("Club", 3, 1, fill="ghosts")


def test_standings_after_each_round() -> None:
    t = tournament(12)
    rng = random.Random(5)
    for _ in range(3):
        play(t, rng)
    for number in (1, 2, 3):
        rows = t.standings(number)
        assert all(len(s.rounds) == number for s in rows)
        assert sum(s.table_points for s in rows) == 7 * 3 * number


def test_the_report_counts_repeats_and_winds() -> None:
    t = tournament(12, rounds=3)
    rng = random.Random(6)
    for _ in range(3):
        play(t, rng)
    report = t.report()
    history = History()
    for s in t.seatings:
        history.add(s)
    assert report["repeat_meetings"] == sum(n - 1 for n in history.meetings.values())
    assert report["rounds"][0]["repeat_meetings"] == 0
    assert report["worst_wind_spread"] == max(max(c) - min(c) for c in history.winds.values())
    assert {w["player"] for w in report["winds"]} == {f"P{i}" for i in range(1, 13)}
