"""The browser table: its static files (``static/``, served at ``/`` and ``/static/``) and the
JSON it needs beyond the websocket protocol: each rule set's options and bots (for the lobby's
form) and a finished hand replayed step by step with every hand shown (for the replay viewer).

The browser decides no rule: legal actions come from observations, scores from results, and a
replay's views from the engine replaying the record here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from ...engine.record import replay_iter
from ...engine.serialize import meld_to_json, observation_to_json
from ...engine.table import Table
from ...rules.info import load
from ...rules.registry import RULE_SETS, description_of
from ...tiles import tile_name
from ..protocol import settlement_of

STATIC_DIR = Path(__file__).parent / "static"
"""The browser table's files: ``index.html``, the JavaScript modules and the style sheet."""


class RevalidatedFiles(StaticFiles):
    """The static files, which browsers must revalidate before use (``Cache-Control:
    no-cache``: a 304 when unchanged), so that an upgraded server never meets stale modules."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def rule_sets() -> list[dict[str, Any]]:
    """Every rule set's description (:meth:`~majiang.rules.info.RuleSetDescription.to_json`): its
    titles, options (name, type, default, choices, doc), bots and default bot, what its tables
    show."""
    return [info.to_json() for info in RULE_SETS.values()]


def full_view(table: Table) -> dict[str, Any]:
    """The table with nothing hidden (for a finished hand's replay): the public fields of an
    observation, plus every seat's concealed ``hands``, ``drawn`` tile (per seat) and ``melds``
    with concealed kongs face up, and the seats deciding now (``to_act``)."""
    views = [table.observation(seat) for seat in range(4)]
    out = observation_to_json(views[0])
    out.update(
        seat=None,
        seat_wind=None,
        hand=None,
        legal_actions=[],
        may_win=None,
        win_reaches_minimum=None,
        hands=[[tile_name(t) for t in view.hand] for view in views],
        drawn=[None if view.drawn is None else tile_name(view.drawn) for view in views],
        melds=[[meld_to_json(m) for m in views[seat].melds[seat]] for seat in range(4)],
        to_act=table.to_act(),
    )
    return out


def replay_steps(lines: list[dict[str, Any]], *, last: bool = False) -> list[dict[str, Any]]:
    """A record replayed by the engine: step 0 is the deal, then one step per action with the
    action, the events it caused and the full view after it (``last``: only the final step).
    Raises ``RecordError`` if the replay does not reproduce the record's events and result."""
    steps: list[dict[str, Any]] = []
    for index, (table, step) in enumerate(replay_iter(lines)):
        entry: dict[str, Any] = {"index": index, "seat": step.seat, "action": step.recorded,
                                 "events": step.events}
        if not last:
            steps.append({**entry, "view": full_view(table)})
    if last:
        steps = [{**entry, "view": full_view(table)}]
    if steps and table.result is not None:
        steps[-1]["view"]["fan_tiles"] = fan_highlights(table)
        steps[-1]["view"]["fan_definitions"] = fan_definitions(table)
        steps[-1]["view"]["settlement"] = settlement_of(table)
    return steps


def fan_definitions(table: Table) -> dict[str, dict[str, str]]:
    """For a finished hand with a winner: the definition (``zh``, ``en``) of each fan it counts,
    for the score sheet's (i), keyed as the result names the fan (the rule set's
    :attr:`~majiang.rules.info.RuleSetDescription.fan_definitions`). Empty for a draw."""
    result = table.result
    if result is None or result.winner is None:
        return {}
    found = load(description_of(table.rules).fan_definitions)(result.to_json())
    return {fan.key: fan.definition for fan in found}


def fan_highlights(table: Table) -> dict[str, list[str] | None]:
    """For a finished hand with a winner: each fan's tiles in the winner's hand (the rule set's
    :attr:`~majiang.rules.info.RuleSetDescription.fan_tiles`; None where the tiles alone do not
    say), for the score sheet that highlights them. Empty for a draw or a rule set that names
    no tiles."""
    result = table.result
    assert result is not None
    if result.winner is None:
        return {}
    view = observation_to_json(table.observation(result.winner))
    tiles: dict[str, list[str] | None] = load(description_of(table.rules).fan_tiles)(
        result.to_json(), view)
    return tiles


__all__ = [
    "STATIC_DIR", "RevalidatedFiles", "fan_definitions", "fan_highlights", "full_view",
    "replay_steps", "rule_sets",
]
