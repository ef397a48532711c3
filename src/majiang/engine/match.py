"""A match: a sequence of hands with the dealer moving and the prevalent wind changing.

Guobiao plays 16 hands: four rounds (East, South, West, North) of four hands; the deal passes to
the next player after every hand, drawn ones included (rules/guobiao.md §2.2). The first dealer
and every hand's wall come from the match seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..rules.base import RuleSet
from .actions import Action
from .table import HandResult, Observation, Table

Agent = Callable[[Observation], Action]
"""A player: given its observation (with ``legal_actions``), choose one of them."""


@dataclass(frozen=True, slots=True)
class HandSpec:
    """What a hand of the match needs: its number, seed, dealer and prevalent wind."""

    number: int
    seed: int
    dealer: int
    prevalent_wind: int


class Match:
    """The hands of a match and the running totals of players 0-3."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int = 0,
        *,
        hands: int = 16,
        stake: int = 1,
        every_seat_answers: bool = True,
    ) -> None:
        if hands < 1:
            raise ValueError("a match has at least one hand")
        self.rules = rules
        self.seed = seed
        self.hands = hands
        self.stake = stake
        self.every_seat_answers = every_seat_answers
        rng = random.Random(seed)
        self.first_dealer = rng.randrange(4)
        self.hand_seeds = [rng.getrandbits(63) for _ in range(hands)]
        self.totals = [0, 0, 0, 0]
        self.results: list[HandResult] = []

    def specs(self) -> Iterator[HandSpec]:
        """Every hand of the match in order."""
        for k in range(self.hands):
            yield HandSpec(
                number=k + 1,
                seed=self.hand_seeds[k],
                dealer=(self.first_dealer + k) % 4,
                prevalent_wind=(k // 4) % 4,
            )

    def table(self, spec: HandSpec) -> Table:
        """A fresh table for one hand of the match."""
        return Table(
            self.rules,
            spec.seed,
            dealer=spec.dealer,
            prevalent_wind=spec.prevalent_wind,
            stake=self.stake,
            every_seat_answers=self.every_seat_answers,
        )

    def record(self, result: HandResult) -> None:
        """Add a finished hand to the running totals."""
        self.results.append(result)
        for seat in range(4):
            self.totals[seat] += result.deltas[seat]

    def play(self, agents: list[Agent]) -> list[int]:
        """Play every hand with one agent per player; return the totals."""
        for spec in self.specs():
            table = self.table(spec)
            play_hand(table, agents)
            assert table.result is not None
            self.record(table.result)
        return list(self.totals)


def play_hand(table: Table, agents: list[Agent]) -> HandResult:
    """Drive a table to its end, asking each seat's agent in turn."""
    while not table.is_over:
        for seat in table.to_act():
            table.apply(seat, agents[seat](table.observation(seat)))
    assert table.result is not None
    return table.result
