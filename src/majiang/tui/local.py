"""The local driver: a whole match in-process, the player in seat 0 against bots."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from ..bots import check_bot, make_bot
from ..engine.actions import action_from_json
from ..engine.match import Agent, Match, play_until_asked
from ..engine.serialize import meld_to_json, observation_to_json
from ..engine.table import Table, events_for
from ..errors import MajiangError, OptionError
from ..hints import hints
from ..rules.registry import DEFAULT_RULES, RULE_SETS, make_rules, rule_set
from ..sim.runner import derive_seed
from ..tiles import tile_name
from .driver import Driver, Sink
from .model import (
    HandEnded,
    HintsReady,
    Json,
    MatchEnded,
    Problem,
    Snapshot,
    TableChanged,
    unique_names,
)

ME = 0
"""The player's seat at a local table."""


def default_bot(rules: str) -> str:
    """The bot the other seats get unless told: the rule set's
    :attr:`~majiang.rules.info.RuleSetDescription.practice_bot`."""
    return rule_set(rules).practice_bot


def final_tiles(table: Table) -> Json:
    """Every seat's tiles as the hand ended (the fields of the replay's last view the score
    sheet uses): concealed ``hands``, ``melds`` and ``drawn`` per seat, and the ``wild``."""
    views = [table.observation(seat) for seat in range(4)]
    return {
        "hands": [[tile_name(t) for t in view.hand] for view in views],
        "melds": [[meld_to_json(m) for m in views[s].melds[s]] for s in range(4)],
        "drawn": [None if view.drawn is None else tile_name(view.drawn) for view in views],
        "wild": None if views[0].wild is None else tile_name(views[0].wild),
    }


class LocalDriver(Driver):
    """Plays a match of ``hands`` hands from ``seed``: seat 0 is the player, seats 1-3 the
    ``bots`` (one name for all three, or three). ``delay`` seconds pass after each bot move
    that shows something (a discard, a claim, a kong; not a draw), so that a person can follow
    the play."""

    def __init__(
        self,
        rules: str = DEFAULT_RULES,
        *,
        seed: int = 0,
        bots: Sequence[str] | None = None,
        hands: int = 4,
        name: str = "You",
        options: dict[str, Any] | None = None,
        delay: float = 0.0,
    ) -> None:
        if rules not in RULE_SETS:
            raise OptionError(f"unknown rule set {rules!r}; known: {', '.join(RULE_SETS)}")
        names = list(bots) if bots else [default_bot(rules)]
        if len(names) == 1:
            names *= 3
        if len(names) != 3:
            raise OptionError(f"--bots needs 3 names (or one for all three), not {len(names)}")
        for bot in names:
            check_bot(bot, rules, heavy=True)
        if hands < 1:
            raise OptionError(f"--hands must be at least 1, not {hands}")
        if seed < 0:
            raise OptionError(f"--seed must be 0 or more, not {seed}")
        if delay < 0:
            raise OptionError(f"--delay must be 0 or more, not {delay}")
        self.rules = rules
        self.match = Match(make_rules(rules, options), seed, hands=hands)
        self.agents: dict[int, Agent] = {
            seat: make_bot(bot, derive_seed(seed, "seat", seat))
            for seat, bot in enumerate(names, start=1)
        }
        self.names = unique_names([name, *(f"{bot} bot" for bot in names)])
        self.delay = delay
        self.table: Table | None = None
        self.hand = 0
        self._actions: asyncio.Queue[Json] = asyncio.Queue()
        self._go_on = asyncio.Event()
        self._sink: Sink | None = None
        self._asked: tuple[int, int] | None = None
        """The question seat 0 was last shown: (hand, events so far)."""

    def _snapshot(self, table: Table) -> Snapshot:
        return Snapshot(
            rules=self.rules,
            seat=ME,
            observation=observation_to_json(table.observation(ME)),
            hand=self.hand,
            hands=self.match.hands,
            step=len(table.history),
            names=self.names,
            totals=tuple(self.match.totals),
            bullets=tuple(self.match.bullets),
        )

    async def run(self, sink: Sink) -> None:
        """Play every hand of the match."""
        match = self.match
        self._sink = sink
        players = [self.agents.get(seat) for seat in range(4)]  # None: the person at ME
        for spec in match.specs():
            self.hand = spec.number
            table = self.table = match.table(spec)
            shown = len(table.events)
            sink(TableChanged(self._snapshot(table), events_for(table.events, ME), fresh=True))
            while not table.is_over:
                for _ in play_until_asked(table, players):
                    if self.delay and not table.is_over and any(
                        e["type"] != "draw" for e in table.events[shown:]
                    ):
                        shown = self._report(sink, table, shown)
                        await asyncio.sleep(self.delay)  # a person can follow the play
                if table.is_over:
                    break
                shown = self._report(sink, table, shown)
                action = await self._actions.get()
                try:
                    table.apply(ME, action_from_json(action))
                except MajiangError as error:
                    sink(Problem(str(error)))
                    self._asked = None  # ask again
                    await asyncio.sleep(0)
            self._report(sink, table, shown)
            assert table.result is not None
            match.record(table.result)
            sink(HandEnded(
                table.result.to_json(), tuple(match.totals), tuple(match.bullets), self.names,
                spec.dealer, spec.number, final_tiles(table),
            ))
            if not match.is_over:
                await self._go_on.wait()
                self._go_on.clear()
        sink(MatchEnded(tuple(match.totals), tuple(match.bullets), self.names))

    def _report(self, sink: Sink, table: Table, shown: int) -> int:
        """Send the new events (as seat 0 may see them) with a fresh snapshot: when there are
        new events, or when seat 0 is asked something it was not asked yet (a question stays
        the same while only the other seats' passes come in, which make no events)."""
        asked = ME in table.to_act()
        key = (self.hand, len(table.events))
        if len(table.events) > shown or (asked and self._asked != key):
            sink(TableChanged(self._snapshot(table), events_for(table.events[shown:], ME)))
        self._asked = key if asked else None
        return len(table.events)

    async def act(self, action: Json) -> None:
        """Queue the player's action for the table."""
        self._actions.put_nowait(action)

    async def request_hints(self) -> None:
        """Hints for seat 0 from :func:`majiang.hints.hints` (reported at once)."""
        table = self.table
        if table is None or table.is_over or self._sink is None:
            return
        self._sink(HintsReady(hints(table.observation(ME), table.rules)))

    async def next_hand(self) -> None:
        """Deal the next hand."""
        self._go_on.set()


__all__ = ["ME", "LocalDriver", "default_bot"]
