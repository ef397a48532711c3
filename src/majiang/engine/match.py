"""A match: a sequence of hands with the deal moving (or staying) and the prevalent wind changing.

The rule set decides whether the dealer deals again (Huangyan's 连庄 after a dealer's win);
otherwise the deal passes to the next player, drawn hands included. The prevalent wind moves on
after every four passes of the deal. Guobiao plays 16 hands, four rounds of four
(rules/guobiao.md §2.2); a match may also be told to last a number of rounds, a round ending when
the deal has gone round all four players. The first dealer and every hand's wall come from the
match seed; thrown bullets (Huangyan's 抛弹) stay with the dealership that accepted them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Protocol

from ..errors import MajiangError
from ..rules.base import RuleSet
from .actions import Action
from .table import HandResult, Observation, Table

Agent = Callable[[Observation], Action]
"""A player: given its observation (with ``legal_actions``), choose one of them."""


@dataclass(frozen=True, slots=True)
class HandSpec:
    """What a hand of the match needs: its number, seed, dealer, prevalent wind, the dealer's
    hands in a row and the thrown bullets in force."""

    number: int
    seed: int
    dealer: int
    prevalent_wind: int
    dealer_count: int = 1
    thrown: tuple[int, int, int, int] = (0, 0, 0, 0)


class HandSetup(Protocol):
    """How a hand is dealt: a :class:`HandSpec`, or a stored hand with the same fields."""

    @property
    def seed(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def prevalent_wind(self) -> int: ...
    @property
    def dealer_count(self) -> int: ...
    @property
    def thrown(self) -> Sequence[int]: ...


def hand_table(
    rules: RuleSet, setup: HandSetup, *, stake: int = 1, every_seat_answers: bool = True
) -> Table:
    """A fresh table for the hand ``setup`` describes."""
    return Table(
        rules,
        setup.seed,
        dealer=setup.dealer,
        prevalent_wind=setup.prevalent_wind,
        stake=stake,
        every_seat_answers=every_seat_answers,
        dealer_count=setup.dealer_count,
        thrown=setup.thrown,
    )


@dataclass(eq=False)
class Match:
    """The hands of a match and the running totals of players 0-3.

    ``hands``: the match lasts that many hands; ``rounds``: it lasts until the deal has passed
    ``4 × rounds`` times. Neither: 16 hands.
    """

    rules: RuleSet
    seed: int = 0
    _: KW_ONLY
    hands: int | None = None
    rounds: int | None = None
    stake: int = 1
    every_seat_answers: bool = True

    def __post_init__(self) -> None:
        if self.hands is not None and self.rounds is not None:
            raise ValueError("a match lasts a number of hands or of rounds, not both")
        if self.hands is None and self.rounds is None:
            self.hands = 16
        if (self.hands is not None and self.hands < 1) or (
            self.rounds is not None and self.rounds < 1
        ):
            raise ValueError("a match has at least one hand")
        self._rng = random.Random(self.seed)
        self.first_dealer = self._rng.randrange(4)
        self.hand_seeds: list[int] = []
        """The seed of each hand so far (drawn from the match seed in order)."""
        self.totals = [0, 0, 0, 0]
        self.bullets = [0, 0, 0, 0]
        """Running totals of the second ledger (Huangyan's bullets)."""
        self.results: list[HandResult] = []
        self.dealer = self.first_dealer
        self.dealer_count = 1
        self.thrown: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.passes = 0
        """How many times the deal has passed to the next player."""

    @property
    def is_over(self) -> bool:
        """Whether the match has played all its hands or rounds."""
        return self._over(len(self.results), self.passes)

    def _over(self, hands: int, passes: int) -> bool:
        if self.hands is not None:
            return hands >= self.hands
        assert self.rounds is not None
        return passes >= 4 * self.rounds

    def _seed(self, number: int) -> int:
        while len(self.hand_seeds) < number:
            self.hand_seeds.append(self._rng.getrandbits(63))
        return self.hand_seeds[number - 1]

    def specs(self) -> Iterator[HandSpec]:
        """Every hand of the match in order, from the first. A hand after the recorded ones
        can be listed ahead only when the rule set always passes the deal; otherwise record
        each hand's result before asking for the next."""
        dealer, count, thrown, passes = self.first_dealer, 1, (0, 0, 0, 0), 0
        number = 0
        while not self._over(number, passes):
            number += 1
            yield HandSpec(
                number=number,
                seed=self._seed(number),
                dealer=dealer,
                prevalent_wind=(passes // 4) % 4,
                dealer_count=count,
                thrown=thrown,
            )
            if number <= len(self.results):
                result = self.results[number - 1]
                winner, thrown = result.winner, result.stake("thrown")
            elif self.rules.keeps_deal(dealer, dealer):
                raise MajiangError("record each hand's result before asking for the next hand")
            else:
                winner = None
            if self.rules.keeps_deal(dealer, winner):
                count += 1
            else:
                dealer, count, thrown, passes = (dealer + 1) % 4, 1, (0, 0, 0, 0), passes + 1

    def table(self, spec: HandSpec) -> Table:
        """A fresh table for one hand of the match."""
        return hand_table(
            self.rules, spec, stake=self.stake, every_seat_answers=self.every_seat_answers
        )

    def record(self, result: HandResult) -> None:
        """Add a finished hand to the running totals and move the deal on (or keep it)."""
        self.results.append(result)
        for seat in range(4):
            self.totals[seat] += result.deltas[seat]
            self.bullets[seat] += result.ledger("bullets")[seat]
        if self.rules.keeps_deal(self.dealer, result.winner):
            self.dealer_count += 1
            self.thrown = result.stake("thrown")
        else:
            self.dealer = (self.dealer + 1) % 4
            self.dealer_count = 1
            self.thrown = (0, 0, 0, 0)
            self.passes += 1

    def play(self, agents: list[Agent]) -> list[int]:
        """Play every hand with one agent per player; return the totals."""
        for spec in self.specs():
            table = self.table(spec)
            play_hand(table, agents)
            assert table.result is not None
            self.record(table.result)
        return list(self.totals)


def agent_turn(table: Table, agents: Sequence[Agent | None]) -> tuple[int, Agent] | None:
    """Who acts next and the agent that answers for him: the first seat to act that has an
    agent, so that the agents answer a claim window before a person does; None once the hand
    is over or when only seats without an agent (people: ``None``) must act. The one rule every
    driver of a table follows (:func:`play_until_asked`, the server's rooms)."""
    if table.is_over:
        return None
    for seat in table.to_act():
        agent = agents[seat]
        if agent is not None:
            return seat, agent
    return None


def play_until_asked(table: Table, agents: Sequence[Agent | None]) -> Iterator[int]:
    """Let the agents play (:func:`agent_turn`) until a seat without one (a person: ``None``)
    must act, or the hand ends: one action at a time, each seat yielded after its action is
    applied (a front end may show each move)."""
    while (turn := agent_turn(table, agents)) is not None:
        seat, agent = turn
        table.apply(seat, agent(table.observation(seat)))
        yield seat


def play_hand(table: Table, agents: Sequence[Agent]) -> HandResult:
    """Drive a table to its end, asking each seat's agent in turn."""
    for _ in play_until_asked(table, agents):
        pass
    assert table.result is not None
    return table.result
