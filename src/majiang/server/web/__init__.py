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
from ...rules.guobiao.fan_definitions import definitions_by_name
from ...rules.guobiao.fan_tiles import fan_tiles
from ...rules.huangyan.doubling_definitions import definitions_by_name as doubling_definitions
from ...rules.registry import RULE_SETS
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
    """Every rule set's description (:meth:`~majiang.rules.info.RuleSetInfo.to_json`): its
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
    for the score sheet's (i): Guobiao's fans by English name, a Huangyan winner's doublings by
    the scorer's Chinese name. Empty for a draw."""
    result = table.result
    if result is None or result.winner is None:
        return {}
    if result.detail.get("fans"):
        return definitions_by_name([str(fan["en"]) for fan in result.detail["fans"]])
    doublings = (result.detail.get("winner") or {}).get("fans") or []
    return doubling_definitions([str(fan["zh"]) for fan in doublings])


def fan_highlights(table: Table) -> dict[str, list[str] | None]:
    """For a finished hand won with Guobiao fans: each fan's tiles in the winner's hand
    (:func:`majiang.rules.guobiao.fan_tiles.fan_tiles`; None where the tiles alone do not say),
    for the score sheet that highlights them. Empty for a draw or a win counted otherwise."""
    result = table.result
    assert result is not None
    fans = result.detail.get("fans") if result.winner is not None else None
    if not fans:
        return {}
    winner = result.winner
    assert winner is not None
    view = table.observation(winner)
    concealed = [tile_name(t) for t in view.hand]
    melds = [meld_to_json(m) for m in view.melds[winner]]
    flowers = [tile_name(t) for t in view.flowers[winner]]
    winning = tile_name(result.winning_tile) if result.winning_tile is not None else None
    return {
        str(fan["en"]): fan_tiles(
            str(fan["en"]), concealed, melds, flowers, winning,
            seat_wind=view.seat_wind, prevalent_wind=view.prevalent_wind,
        )
        for fan in fans
    }


__all__ = [
    "STATIC_DIR", "RevalidatedFiles", "fan_definitions", "fan_highlights", "full_view",
    "replay_steps", "rule_sets",
]
