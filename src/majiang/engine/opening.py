"""A rule set's opening phase on a table: the decisions before the deal (the ``BULLETS`` phase),
asked of its ``opening_phase`` hook (:class:`~majiang.rules.base.OpeningPhase`) round by round.

The hook names actions in their JSON form, as the rules layer does not know the engine's action
classes; this module turns its options into actions and the seats' answers back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import MajiangError
from ..rules.base import OpeningAction, OpeningPhase, OpeningView, RuleSet
from .actions import ACCEPT_BULLETS_ACTION, PASS_ACTION, Action, action_from_json, action_to_json

_ACTIONS: dict[tuple[Any, ...], Action] = {
    tuple(action_to_json(a).items()): a for a in (PASS_ACTION, ACCEPT_BULLETS_ACTION)
}
"""Each action an opening has offered, by its JSON form's items (a hand's opening offers the
same few): the engine's shared objects, so that the opening offers the ones bots and codecs hold."""


class Opening:
    """One hand's opening: the rule set's hook and the rounds answered so far."""

    def __init__(self, hook: OpeningPhase) -> None:
        self.hook = hook
        self.rounds: list[dict[int, OpeningAction]] = []
        """Each round's answers, by seat."""

    @staticmethod
    def of(rules: RuleSet) -> Opening | None:
        """The opening of a hand under ``rules``; None: the tiles are dealt at once."""
        hook: OpeningPhase | None = getattr(rules, "opening_phase", None)
        return Opening(hook) if hook is not None else None

    def next_round(
        self, table: OpeningView, answers: Mapping[int, Action] | None = None
    ) -> dict[int, list[Action]]:
        """The next round's seats and their actions, once ``answers`` (each seat's, None at the
        start) have taken effect; empty: the opening is over."""
        if answers is not None:
            self.rounds.append({s: action_to_json(answers[s]) for s in sorted(answers)})
        options = self.hook.next_options(table, self.rounds)
        if any(seat not in range(4) or not offered for seat, offered in options.items()):
            raise MajiangError(f"an opening round names seats 0-3, each with actions: {options!r}")
        return {
            seat: [_action(data) for data in offered]
            for seat, offered in options.items()
        }

    def why_refused(self, table: OpeningView, seat: int, action: Action) -> str:
        """The rule set's reason for refusing ``action`` of ``seat``, one of the round's seats."""
        try:
            data = action_to_json(action)
        except (TypeError, IndexError, KeyError):
            return "not an action"
        return self.hook.why_refused(table, self.rounds, seat, data)


def _action(data: OpeningAction) -> Action:
    """The action of a JSON form; raises ``ActionFormatError`` for a bad one."""
    try:
        key = tuple(data.items())
        action = _ACTIONS.get(key)
    except (AttributeError, TypeError):  # not a mapping, or an unhashable value
        return action_from_json(data)
    if action is None:
        action = _ACTIONS[key] = action_from_json(data)
    return action


__all__ = ["Opening"]
