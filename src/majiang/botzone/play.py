"""Playing hands with Botzone programs at some seats, and Botzone's one-hand scoring.

:func:`play_hand` drives a table with one agent per seat (Botzone programs and majiang bots
alike) and collects the programs' faults; :func:`hand_deltas` adds Botzone's -30 / +10 for the
first fault of each faulty seat when the rule set plays ``botzone_scoring``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.match import Agent
from ..engine.match import play_hand as play_table
from ..engine.state import HandResult
from ..engine.table import Table
from ..rules.base import RuleSet
from ..rules.guobiao.payments import botzone_penalty_deltas
from .agent import BotzoneAgent, Fault
from .wall import dealer_draw_flowers


@dataclass(slots=True)
class BotzoneHand:
    """A finished hand: the table's result, the programs' faults and the hand's score."""

    table: Table
    result: HandResult
    faults: list[Fault] = field(default_factory=list)
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)
    """The result's deltas, plus Botzone's fault penalties under ``botzone_scoring``."""
    adjusted: list[tuple[int, str]] = field(default_factory=list)
    """(seat, move) that Botzone allows and majiang does not offer, replaced without a fault."""

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields."""
        return {
            "result": self.result.to_json(),
            "faults": [f.to_json() for f in self.faults],
            "deltas": list(self.deltas),
            "adjusted": [{"seat": s, "move": m} for s, m in self.adjusted],
        }


def botzone_scoring(rules: RuleSet) -> bool:
    """Whether a rule set plays Botzone's one-hand scoring."""
    return bool(getattr(rules.options, "botzone_scoring", False))


def hand_deltas(
    result: HandResult, faults: Sequence[Fault], rules: RuleSet, stake: int = 1
) -> tuple[int, int, int, int]:
    """A hand's score changes: the result's, plus -30 / +10 (× stake) for each charged fault
    when ``rules`` plays ``botzone_scoring``."""
    deltas = list(result.deltas)
    if botzone_scoring(rules):
        for fault in faults:
            if fault.charged:
                for seat, amount in enumerate(botzone_penalty_deltas(fault.seat, stake)):
                    deltas[seat] += amount
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def play_hand(table: Table, agents: Sequence[Agent]) -> BotzoneHand:
    """Play ``table`` to its end with one agent per seat; Botzone programs start a new game
    and are stopped when the hand is over. On a four-part or single-ended table (the judges'
    walls) the programs see the judge's requests exactly, the deal in the order dealt and the
    dealer's first-draw flowers included; under ``botzone_scoring`` a move refused for the wall
    alone is charged as the judge's WA."""
    programs = [a for a in agents if isinstance(a, BotzoneAgent)]
    fresh = len(table.history) == 0 and not table.is_over
    extra = 0
    if table.single_end and fresh:
        extra = dealer_draw_flowers(table.wall.tiles, table.layout)
    strict = botzone_scoring(table.rules)
    for seat, agent in enumerate(agents):
        if isinstance(agent, BotzoneAgent):
            agent.new_hand(extra, table.dealt[seat] if fresh else ())
            agent.strict = strict
    try:
        result = play_table(table, list(agents))
    finally:
        for program in programs:
            program.end_hand()
    faults = [f for a in programs for f in a.hand_faults]
    adjusted = [
        (seat, move)
        for seat, a in enumerate(agents)
        if isinstance(a, BotzoneAgent)
        for move in a.adjusted
    ]
    deltas = hand_deltas(result, faults, table.rules, table.stake)
    return BotzoneHand(table, result, faults, deltas, adjusted)


__all__ = ["BotzoneHand", "botzone_scoring", "hand_deltas", "play_hand"]
