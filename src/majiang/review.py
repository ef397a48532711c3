"""A review of one seat's decisions in recorded hands: what each choice was expected to cost.

Each hand is replayed from its record. At every decision of the seat with more than one legal
action (discards, claims and passes, kongs, wins declared or passed) the search bot
(:class:`~majiang.bots.search.SearchBot`) weighs the candidates from the seat's observation at
that moment, that is from what the seat could see, never from the record's hidden tiles; the
action taken is always among them. A decision's loss is the best candidate's mean payment
minus the taken action's, over the deals both were played on (common random numbers), and
never below zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .bots.search import Candidate, SearchBot, Z
from .engine.actions import Action, action_to_json, describe
from .engine.record import RecordError, replay_iter, table_from_header
from .engine.state import Observation, Phase
from .errors import MajiangError
from .notation import format_meld, format_tiles
from .tiles import tile_name

REVIEWED_PHASES = (Phase.TURN, Phase.CLAIM, Phase.ROB)
MIN_SAMPLES = 6
"""Deals every reviewed decision gets, whatever the time budget (an interval needs two)."""


def _as_given(record: object, *names: str) -> dict[str, Any]:
    """The named attributes of ``record`` as JSON fields of the same names, unchanged."""
    return {name: getattr(record, name) for name in names}


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate of a decision: its mean payment and 95% interval."""

    action: Action
    mean: float
    half_width: float
    rollouts: int

    @property
    def label(self) -> str:
        """The action as a short label (``discard 5m``)."""
        return describe(self.action)

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields."""
        finite = self.half_width != float("inf")
        return {
            "action": action_to_json(self.action),
            "label": self.label,
            "mean": round(self.mean, 2),
            "interval": [round(self.mean - self.half_width, 2),
                         round(self.mean + self.half_width, 2)] if finite else None,
            "rollouts": self.rollouts,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: where it was, the ranked candidates, what was taken."""

    hand: int
    """The hand's number in the match (1 for a single record)."""
    step: int
    """The action's number in the hand's record (1 = the first action)."""
    phase: str
    wall: int
    """Tiles left in the wall."""
    tiles: str
    """The seat's concealed tiles and melds, in the hand notation."""
    offer: str | None
    """The tile on offer (a claim window), if any."""
    drawn: str | None
    """The tile just drawn (a turn after a draw), if any."""
    choices: tuple[Choice, ...]
    """Best first."""
    taken: Action
    loss: float
    loss_interval: tuple[float, float] | None = None
    """The 95% interval of the best candidate's payment minus the taken action's, over the
    deals both were played on, before the loss is floored at zero (None with a single deal)."""

    @property
    def matched(self) -> bool:
        """The action taken was the top choice."""
        return self.choices[0].action == self.taken

    def taken_label(self) -> str:
        """The action taken, as a short label (``discard 5m``)."""
        return describe(self.taken)

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields."""
        return {
            **_as_given(self, "hand", "step", "phase", "wall", "tiles", "offer", "drawn"),
            "taken": action_to_json(self.taken),
            "taken_label": self.taken_label(),
            "matched": self.matched,
            "loss": round(self.loss, 2),
            "loss_interval": (None if self.loss_interval is None
                              else [round(x, 2) for x in self.loss_interval]),
            "choices": [c.to_json() for c in self.choices],
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed decision of one seat, and the summary."""

    seat: int
    hands: int
    decisions: tuple[Decision, ...]
    think: float | None
    samples: int
    seed: int

    @property
    def total_loss(self) -> float:
        """Expected points lost over all decisions."""
        return sum(d.loss for d in self.decisions)

    @property
    def matched(self) -> int:
        """Decisions whose action taken was the top choice."""
        return sum(1 for d in self.decisions if d.matched)

    def worst_first(self) -> list[Decision]:
        """The decisions by loss, the biggest first (ties in the order played)."""
        return sorted(self.decisions, key=lambda d: (-d.loss, d.hand, d.step))

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields."""
        n = len(self.decisions)
        return {
            **_as_given(self, "seat", "hands", "think", "samples", "seed"),
            "summary": {
                "decisions": n,
                "matched": self.matched,
                "matched_share": round(self.matched / n, 4) if n else None,
                "expected_loss": round(self.total_loss, 2),
            },
            "decisions": [d.to_json() for d in self.worst_first()],
        }


Progress = Callable[[int, int], None]
"""Called with (decisions reviewed, decisions in all) as the review goes."""


def review_records(
    records: Sequence[list[dict[str, Any]]],
    seat: int,
    *,
    think: float | None = 1.0,
    samples: int = 200,
    seed: int = 0,
    steps: Collection[int] | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review ``seat``'s decisions in the finished hands ``records`` (one per hand, in order);
    with ``steps``, only the decisions at those steps (action numbers) of each hand.

    Raises :class:`~majiang.errors.MajiangError` for a seat outside 0-3, a record that does
    not replay or a hand that is not finished."""
    if seat not in range(4):
        raise MajiangError(f"seat {seat} is out of range: seats are 0-3")
    positions = [
        [p for p in _positions(lines, seat, number) if steps is None or p[0] in steps]
        for number, lines in enumerate(records, 1)
    ]
    total = sum(len(p) for p in positions)
    done = 0
    decisions = []
    for number, (hand_positions, lines) in enumerate(zip(positions, records, strict=True), 1):
        rules = table_from_header(lines[0]).base_rules
        bot = SearchBot(seed, think=think, samples=samples, rules=rules,
                        min_samples=min(samples, MIN_SAMPLES))
        for step, obs, taken in hand_positions:
            decisions.append(_decide(bot, number, step, obs, taken))
            done += 1
            if progress is not None:
                progress(done, total)
    return Review(seat, len(records), tuple(decisions), think, samples, seed)


def _positions(
    lines: list[dict[str, Any]], seat: int, number: int
) -> list[tuple[int, Observation, Action]]:
    """Replay one hand; the seat's observation and the action it took at each decision."""
    where = f"hand {number}"
    if not lines or "format" not in lines[0]:
        raise RecordError(f"{where}: no record header")
    found = []
    before: Observation | None = None  # the seat's observation before the next action
    try:
        for table, step in replay_iter(lines, verify=False):
            if step.seat == seat and before is not None and len(before.legal_actions) > 1:
                assert step.action is not None
                found.append((step.number - 1, before, step.action))
            before = None
            if table.phase in REVIEWED_PHASES and seat in table.to_act():
                before = table.observation(seat)
    except RecordError as error:
        raise RecordError(f"{where}, {error}") from None
    if not table.is_over:
        raise RecordError(f"{where}: the hand is not finished (a review needs its end)")
    return found


def _decide(bot: SearchBot, hand: int, step: int, obs: Observation, taken: Action) -> Decision:
    evaluation = bot.evaluate(obs, required=[taken])
    ranked = evaluation.candidates
    taken_candidate = next(c for c in ranked if c.action == taken)
    best = max(ranked, key=lambda c: c.mean if len(c.values) == evaluation.samples else -1e9)
    gap, half_width = _paired_gap(best, taken_candidate)
    loss = max(0.0, gap)
    interval = None if half_width == math.inf else (gap - half_width, gap + half_width)
    ranked = sorted(ranked, key=lambda c: -c.mean)
    if loss == 0.0 and ranked[0].action != taken:
        ranked.remove(taken_candidate)  # a tie with the best: the choice taken ranks first
        ranked.insert(0, taken_candidate)
    choices = tuple(Choice(c.action, c.mean, c.half_width, len(c.values)) for c in ranked)
    melds = " ".join(format_meld(m) for m in obs.melds[obs.seat])
    tiles = format_tiles(list(obs.hand)) + (f" {melds}" if melds else "")
    offer = tile_name(obs.last_discard) if obs.last_discard is not None else None
    drawn = tile_name(obs.drawn) if obs.drawn is not None else None
    return Decision(hand, step, obs.phase.value, obs.wall_remaining, tiles, offer, drawn,
                    choices, taken, loss, interval)


def _paired_gap(best: Candidate, other: Candidate) -> tuple[float, float]:
    """Mean of best - other over the deals both were played on (the first ones), and half its
    95% interval (0 when the two are one, infinite with fewer than two deals)."""
    n = min(len(best.values), len(other.values))
    if best is other:
        return 0.0, 0.0
    if n == 0:
        return 0.0, math.inf
    gaps = [best.values[i] - other.values[i] for i in range(n)]
    mean = sum(gaps) / n
    if n < 2:
        return mean, math.inf
    var = sum((g - mean) ** 2 for g in gaps) / (n - 1)
    return mean, Z * math.sqrt(var / n)


__all__ = ["Choice", "Decision", "Review", "review_records"]
