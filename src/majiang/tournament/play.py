"""Playing deals: one seeded wall per deal, played in every order of the entrants.

Each hand's wall, dealer and prevalent wind come from the tournament's seed and the deal alone;
each agent's seed from the deal, the order and the entrant. A hand's outcome therefore never
depends on which process plays it, or when: any chunking of the deals gives the same records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.match import Agent, play_hand
from ..engine.table import Table
from ..errors import OptionError
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES, make_rules
from ..sim.runner import check_rules_and_seats, derive_seed, worker_rules
from .entrants import check_entrant, entrant_from_spec, is_external
from .schedule import Order, deal_setup, orders, seats_of


@dataclass(frozen=True)
class TournamentConfig:
    """Four entrant specs (positions 0-3), ``deals`` deals from ``seed``, the rules and their
    options, and whether every deal is played in all 24 orders instead of the 4 rotations."""

    bots: tuple[str, ...]
    deals: int = 100
    seed: int = 0
    rules: str = DEFAULT_RULES
    options: dict[str, Any] = field(default_factory=dict)
    permutations: bool = False
    time_limit: float = 1.0
    """Seconds per decision of an external program (``botzone:CMD``)."""

    @property
    def external(self) -> bool:
        """Whether an entrant is an external program (its hands are played through
        :func:`majiang.botzone.play_hand`, every seat answering every claim window)."""
        return any(is_external(spec) for spec in self.bots)

    @property
    def orders(self) -> list[Order]:
        """The orders every deal is played in."""
        return orders(self.permutations)

    def validate(self) -> RuleSet:
        """Check the values; return the rule set. Raises a :class:`~majiang.errors.MajiangError`."""
        check_rules_and_seats(self.rules, self.bots)
        for spec in self.bots:
            check_entrant(spec, self.rules)
        if self.deals < 1:
            raise OptionError(f"--deals must be at least 1, not {self.deals}")
        if self.seed < 0:
            raise OptionError(f"--seed must be 0 or more, not {self.seed}")
        if not self.time_limit > 0:
            raise OptionError(f"--time-limit must be more than 0, not {self.time_limit}")
        return make_rules(self.rules, self.options)


def _close(agent: Agent) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def play_hand_record(
    config: TournamentConfig, rules: RuleSet, deal: int, order_index: int, order: Order
) -> dict[str, Any]:
    """Play one deal in one order; its line of ``hands.jsonl`` (figures per entrant)."""
    dealer, prevalent = deal_setup(deal)
    external = config.external
    table = Table(rules, derive_seed(config.seed, "deal", deal), dealer=dealer,
                  prevalent_wind=prevalent, every_seat_answers=external)
    agents = [
        entrant_from_spec(config.bots[entrant],
                          derive_seed(config.seed, "entrant", deal, order_index, entrant),
                          config.rules, config.time_limit)
        for entrant in order
    ]
    faults: list[tuple[int, str]] = []  # (seat, the judge's verdict) of each charged fault
    try:
        if external:  # Botzone programs: their faults are charged as Botzone does
            from ..botzone import play_hand as play_botzone_hand

            hand = play_botzone_hand(table, agents)
            deltas = list(hand.deltas)
            faults = [(f.seat, f.verdict) for f in hand.faults if f.charged]
        else:
            play_hand(table, agents)
    finally:
        for agent in agents:
            _close(agent)
    result = table.result
    assert result is not None
    if not external:
        deltas = list(result.deltas)
    seat = seats_of(order)
    won = result.winner is not None
    record: dict[str, Any] = {
        "deal": deal,
        "order": order_index,
        "seats": list(order),
        "winner": order[result.winner] if result.winner is not None else None,
        "discarder": order[result.discarder] if won and result.discarder is not None else None,
        "self_drawn": bool(won and result.self_drawn),
        "fans": result.points if won else 0,
        "points": [deltas[seat[e]] for e in range(4)],
    }
    if faults:
        record["faults"] = [sum(s == seat[e] for s, _ in faults) for e in range(4)]
        record["verdicts"] = [[v for s, v in faults if s == seat[e]] for e in range(4)]
    bullets = result.ledger("bullets")
    if any(bullets):
        record["bullets"] = [bullets[seat[e]] for e in range(4)]
    gunner = result.detail.get("gunner")
    if isinstance(gunner, int):
        record["gunner"] = order[gunner]
    false_wins = [e["seat"] for e in table.events if e["type"] == "false_win"]
    if false_wins:
        record["false_wins"] = [false_wins.count(seat[e]) for e in range(4)]
    return record


def play_deal(config: TournamentConfig, rules: RuleSet, deal: int) -> list[dict[str, Any]]:
    """The records of one deal played in every order."""
    return [play_hand_record(config, rules, deal, k, order)
            for k, order in enumerate(config.orders)]


def play_deals(job: tuple[TournamentConfig, tuple[int, ...]]) -> list[dict[str, Any]]:
    """Play some deals (a backend's unit of work); their records, deal by deal."""
    config, deals = job
    rules = worker_rules(config.rules, config.options)
    return [record for deal in deals for record in play_deal(config, rules, deal)]


__all__ = ["TournamentConfig", "play_deal", "play_deals", "play_hand_record"]
