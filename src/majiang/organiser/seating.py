"""Seating the players of a tournament round: tables of four, as few repeat meetings as
possible, each player in each seat wind as evenly as possible, the same for the same seed.

The cost of a round's seating is, first, the number of repeat meetings it adds (each pair at one
table counts the times the two have already met) and then its wind cost (each player counts the
times he has already sat in the wind he gets). A table's best winds are found exactly (all 24
orders); the tables themselves by a local search: from a start, exchange two players of
different tables while that lowers the cost, restarted from several starts (shuffles, and
shuffles dealt so that each table holds one player for each wind he has sat in least), keeping
the best.
Every shuffle comes from ``random.Random(f"{seed}:{round}")``: the same seed, players and history
give the same seating.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MajiangError

Table = tuple[int, int, int, int]
"""Player ids in the winds East, South, West, North."""
WINDS = "ESWN"
_ORDERS = tuple(itertools.permutations(range(4)))


@dataclass(frozen=True, slots=True)
class Seating:
    """One round: its tables (players by wind) and the players sitting out (byes)."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def seat_of(self, player: int) -> tuple[int, int] | None:
        """(table index, wind 0-3) of a player, None when he does not play this round."""
        for t, table in enumerate(self.tables):
            if player in table:
                return t, table.index(player)
        return None

    def players(self) -> list[int]:
        """Everyone seated at a table."""
        return [p for table in self.tables for p in table]


@dataclass(slots=True)
class History:
    """What earlier rounds did: how often each pair met, each player's winds, his byes."""

    meetings: dict[frozenset[int], int] = field(default_factory=dict)
    winds: dict[int, list[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    played: dict[int, int] = field(default_factory=dict)

    def met(self, a: int, b: int) -> int:
        """Times two players have sat at one table."""
        return self.meetings.get(frozenset((a, b)), 0)

    def wind_counts(self, player: int) -> list[int]:
        """Times a player sat East, South, West, North."""
        return self.winds.get(player, [0, 0, 0, 0])

    def add(self, seating: Seating) -> None:
        """Count one more round."""
        for table in seating.tables:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                self.meetings[key] = self.meetings.get(key, 0) + 1
            for wind, player in enumerate(table):
                counts = self.winds.setdefault(player, [0, 0, 0, 0])
                counts[wind] += 1
                self.played[player] = self.played.get(player, 0) + 1
        for player in seating.byes:
            self.byes[player] = self.byes.get(player, 0) + 1


def history_of(seatings: Iterable[Seating]) -> History:
    """The history of these rounds."""
    history = History()
    for seating in seatings:
        history.add(seating)
    return history


def table_cost(players: Sequence[int], history: History) -> tuple[int, int, Table]:
    """(repeat meetings, wind cost, the players in their best winds) of one table."""
    repeats = sum(history.met(a, b) for a, b in itertools.combinations(players, 2))
    counts = [history.wind_counts(p) for p in players]
    best_cost, best_order = -1, _ORDERS[0]
    for order in _ORDERS:  # order[i]: the wind of players[i]
        cost = counts[0][order[0]] + counts[1][order[1]] + counts[2][order[2]] + counts[3][order[3]]
        if best_cost < 0 or cost < best_cost:
            best_cost, best_order = cost, order
    seated = [0, 0, 0, 0]
    for player, wind in zip(players, best_order, strict=True):
        seated[wind] = player
    return repeats, best_cost, (seated[0], seated[1], seated[2], seated[3])


def restarts_for(count: int) -> int:
    """How many shuffles the search starts from: more for small fields, where it is cheap."""
    return max(6, min(60, 2400 // max(count, 1)))


def seat_tables(
    players: Sequence[int], history: History, seed: int | str, round_number: int
) -> tuple[Table, ...]:
    """Tables of four for ``players`` (a multiple of four) after ``history``."""
    if len(players) % 4:
        raise MajiangError(f"{len(players)} players do not make tables of four")
    if len(set(players)) != len(players):
        raise MajiangError("a player is entered twice in the round")
    if not players:
        raise MajiangError("nobody to seat")
    rng = random.Random(f"{seed}:{round_number}")
    cache: dict[frozenset[int], tuple[int, int, Table]] = {}

    def cost(group: Sequence[int]) -> tuple[int, int, Table]:
        key = frozenset(group)
        found = cache.get(key)
        if found is None:
            found = cache[key] = table_cost(sorted(group), history)
        return found

    count = len(players) // 4
    best: tuple[tuple[int, int], list[list[int]]] | None = None
    base = sorted(players)
    # no seating does better than no repeat and each player in one of his least-used winds
    least = {p: min(history.wind_counts(p)) for p in base}
    bound = (0, sum(least.values()))
    for attempt in range(restarts_for(len(players))):
        order = base[:]
        rng.shuffle(order)
        if attempt % 2:
            order = _by_wind(order, history, rng)
        groups = [order[4 * t: 4 * t + 4] for t in range(count)]
        costs = [cost(g)[:2] for g in groups]
        if attempt % 2:  # first exchange only players of one queue: the winds stay at best
            _descend(groups, costs, cost, least, bound, same_place=True)
        _descend(groups, costs, cost, least, bound, same_place=False)
        total = (sum(c[0] for c in costs), sum(c[1] for c in costs))
        if best is None or total < best[0]:
            best = (total, [g[:] for g in groups])
        if best[0] == bound:
            break
    assert best is not None
    tables = [cost(g)[2] for g in best[1]]
    return tuple(sorted(tables, key=lambda t: min(t)))


def _descend(groups: list[list[int]], costs: list[tuple[int, int]], cost: Any,
             least: dict[int, int], bound: tuple[int, int], same_place: bool) -> None:
    """Exchange players of two tables (at the same place only, if ``same_place``) while an
    exchange lowers (repeats, wind cost), until none does or the cost is ``bound``; ``groups``
    and ``costs`` change in place. ``least``: each player's fewest times in one wind. Two
    tables that both have no repeat and give each player one of his least-used winds are
    left alone: no exchange between them can lower the cost."""
    pairs = [(i, i) for i in range(4)] if same_place else list(itertools.product(range(4),
                                                                                 range(4)))

    def settled(t: int) -> bool:
        return costs[t][0] == 0 and costs[t][1] == sum(least[p] for p in groups[t])

    improved = True
    while improved:
        if (sum(c[0] for c in costs), sum(c[1] for c in costs)) == bound:
            return
        improved = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            if settled(a) and settled(b):
                continue
            for i, j in pairs:
                ga, gb = groups[a], groups[b]
                ga[i], gb[j] = gb[j], ga[i]
                ca, cb = cost(ga)[:2], cost(gb)[:2]
                old = (costs[a][0] + costs[b][0], costs[a][1] + costs[b][1])
                if (ca[0] + cb[0], ca[1] + cb[1]) < old:
                    costs[a], costs[b] = ca, cb
                    improved = True
                else:
                    ga[i], gb[j] = gb[j], ga[i]


def _by_wind(order: list[int], history: History, rng: random.Random) -> list[int]:
    """A start that gives each table one player for each wind he has sat in least: players
    dealt into four queues by a least-used wind, the tables taken one from each queue."""
    queues: list[list[int]] = [[], [], [], []]
    for player in order:
        counts = history.wind_counts(player)
        least = min(counts)
        winds = [w for w in range(4) if counts[w] == least]
        queues[min(winds, key=lambda w: (len(queues[w]), rng.random()))].append(player)
    size = len(order) // 4
    spill = [p for q in queues for p in q[size:]]
    for q in queues:
        del q[size:]
        while len(q) < size:
            q.append(spill.pop())
    return [q[t] for t in range(size) for q in queues]


def choose_byes(
    players: Sequence[int], count: int, history: History, seed: int | str, round_number: int
) -> tuple[int, ...]:
    """The ``count`` players who sit out: those with the fewest byes so far (then the fewest
    rounds played), the rest of a tie drawn by the seed."""
    order = list(players)
    random.Random(f"{seed}:{round_number}:byes").shuffle(order)
    order.sort(key=lambda p: (history.byes.get(p, 0), -history.played.get(p, 0)))
    return tuple(sorted(order[:count]))


def swap(seating: Seating, a: int, b: int) -> Seating:
    """The seating with two players' places exchanged (tables and winds, or a bye)."""
    if a == b:
        raise MajiangError("choose two different players to swap")
    places = {p for t in seating.tables for p in t} | set(seating.byes)
    for player in (a, b):
        if player not in places:
            raise MajiangError(f"player {player} has no place in round {seating.round}")

    def moved(p: int) -> int:
        return b if p == a else a if p == b else p

    tables = tuple(
        (moved(t[0]), moved(t[1]), moved(t[2]), moved(t[3])) for t in seating.tables
    )
    return Seating(seating.round, tables, tuple(sorted(moved(p) for p in seating.byes)))


def report(seatings: Sequence[Seating], names: Mapping[int, str]) -> dict[str, Any]:
    """Repeat meetings (by round, and every pair that met more than once) and each player's
    winds with their spread (most minus fewest times in one wind)."""
    history = History()
    rounds: list[dict[str, Any]] = []
    for seating in seatings:
        repeats: list[dict[str, Any]] = []
        added = 0
        for t, table in enumerate(seating.tables):
            for a, b in itertools.combinations(table, 2):
                before = history.met(a, b)
                if before:
                    added += before
                    repeats.append({"table": t + 1, "players": [names[a], names[b]],
                                    "times_before": before})
        rounds.append({"round": seating.round, "repeats": repeats, "repeat_meetings": added})
        history.add(seating)
    again = [(n, sorted(names[p] for p in pair)) for pair, n in history.meetings.items() if n > 1]
    again.sort(key=lambda item: (-item[0], item[1]))
    winds: list[dict[str, Any]] = []
    spreads = [0]
    for player in sorted(history.winds, key=lambda p: names[p]):
        counts = history.wind_counts(player)
        spreads.append(max(counts) - min(counts))
        winds.append({"player": names[player], "winds": dict(zip(WINDS, counts, strict=True)),
                      "spread": spreads[-1]})
    return {
        "rounds": rounds,
        "repeat_meetings": sum(n - 1 for n in history.meetings.values()),
        "pairs_met_again": [{"players": pair, "times": n} for n, pair in again],
        "winds": winds,
        "worst_wind_spread": max(spreads),
        "byes": {names[p]: n for p, n in sorted(history.byes.items())},
    }


__all__ = [
    "WINDS",
    "History",
    "Seating",
    "Table",
    "choose_byes",
    "history_of",
    "report",
    "seat_tables",
    "swap",
    "table_cost",
]
