"""Huangyan's opening phase, thrown bullets (rules/huangyan.md §3.4): before the deal the dealer
throws 0 to ``throw_limit`` bullets; after a throw of at least one, each other player accepts
them (they join his thrown bullets in force) or passes."""

from __future__ import annotations

from ..base import OpeningAction, OpeningView

_ACCEPT: OpeningAction = {"type": "accept_bullets"}
_PASS: OpeningAction = {"type": "pass"}


class ThrownBullets:
    """The :class:`~majiang.rules.base.OpeningPhase` of a Huangyan rule set that allows a throw."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def next_options(
        self, table: OpeningView, rounds: list[dict[int, OpeningAction]]
    ) -> dict[int, list[OpeningAction]]:
        """The dealer's throw, then the others' answers to a throw of at least one."""
        dealer = table.dealer
        if not rounds:
            return {dealer: [{"type": "throw_bullets", "count": n} for n in range(self.limit + 1)]}
        count: int = rounds[0][dealer]["count"]
        if len(rounds) == 1:
            table.events.append({"type": "throw_bullets", "seat": dealer, "count": count})
            if not count:
                return {}
            return {(dealer + i) % 4: [_ACCEPT, _PASS] for i in (1, 2, 3)}
        for seat, answer in sorted(rounds[1].items()):
            if answer == _ACCEPT:
                table.thrown[seat] += count
                table.events.append({"type": "accept_bullets", "seat": seat, "count": count})
        return {}

    def why_refused(
        self, table: OpeningView, rounds: list[dict[int, OpeningAction]], seat: int,
        action: OpeningAction,
    ) -> str:
        """The rule of the throw, or of the answers, that ``action`` breaks."""
        kind = action["type"]
        if kind == "throw_bullets":
            if seat != table.dealer or rounds:
                return "only the dealer throws bullets, once, before the deal"
            return f"the dealer may throw 0 to {self.limit} bullets"
        if kind in ("accept_bullets", "pass"):
            return "only the other players answer the dealer's throw"
        return "before the deal only bullets are thrown and accepted"
