"""Observations as JSON: what servers send to a seat or a spectator, and tables render.

Tiles are written in the hand notation (``"5m"``, ``"E"``, ``"a"``); a meld is
``{"kind": "pung", "tile": "5m", "source": 1}`` (``tile`` is the lowest tile; a face-down kong
is ``{"kind": "kong", "tile": null, "source": 0}``). A spectator's view has no concealed tiles,
no drawn tile, no legal actions, and every concealed kong face down.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..hand import Meld
from ..tiles import tile_name
from .actions import action_to_json
from .state import NO_EXTENSION_STATE
from .table import HIDDEN, Observation


def meld_to_json(meld: Meld) -> dict[str, Any]:
    """One declared set; a face-down kong has no tile."""
    return {
        "kind": meld.kind.name.lower(),
        "tile": None if meld.tile == HIDDEN else tile_name(meld.tile),
        "source": meld.source,
    }


@lru_cache(maxsize=8192)
def _names(tiles: tuple[int, ...]) -> list[str]:
    """Tile names of a pond or a hand (cached: the same pond is sent to every seat; the lists
    are shared, never mutated)."""
    return [tile_name(t) for t in tiles]


@lru_cache(maxsize=8192)
def _melds(melds: tuple[Meld, ...]) -> list[dict[str, Any]]:
    return [meld_to_json(m) for m in melds]


def _face_down(meld: Meld) -> dict[str, Any]:
    if meld.is_concealed_kong:
        return {"kind": "kong", "tile": None, "source": 0}
    return meld_to_json(meld)


def _tile(tile: int | None) -> str | None:
    return None if tile is None else tile_name(tile)


def state_to_json(state: tuple[bool, int, tuple[int, ...]]) -> dict[str, Any]:
    """The JSON fields of ``(late, dealer_count, thrown)`` (see ``extension_state``)."""
    late, dealer_count, thrown = state
    return {"raw_phase": late, "dealer_count": dealer_count, "thrown": list(thrown)}


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """Everything one seat may know, as JSON (field names as ``Observation``'s, then the rule
    set's extension's own fields; without one, :func:`state_to_json` of the defaults, the
    fields every client has always read)."""
    return {
        "seat": obs.seat,
        "dealer": obs.dealer,
        "prevalent_wind": obs.prevalent_wind,
        "seat_wind": obs.seat_wind,
        "phase": obs.phase.value,
        "current": obs.current,
        "hand": _names(obs.hand),
        "drawn": _tile(obs.drawn),
        "melds": [_melds(melds) for melds in obs.melds],
        "flowers": [_names(f) for f in obs.flowers],
        "discards": [_names(pond) for pond in obs.discards],
        "hand_sizes": list(obs.hand_sizes),
        "wall_remaining": obs.wall_remaining,
        "drawable": obs.drawable,
        "last_discard": _tile(obs.last_discard),
        "legal_actions": [action_to_json(a) for a in obs.legal_actions],
        "deltas": list(obs.deltas),
        "may_win": obs.may_win,
        "win_reaches_minimum": obs.win_reaches_minimum,
        "wild": _tile(obs.wild),
        "indicator": _tile(obs.indicator),
        **(state_to_json(NO_EXTENSION_STATE) if obs.extension is None else obs.extension.to_json()),
    }


def spectator_json(obs: Observation) -> dict[str, Any]:
    """The public part of any seat's observation: what a spectator may see."""
    out = observation_to_json(obs)
    out.update(
        seat=None,
        seat_wind=None,
        hand=[],
        drawn=None,
        legal_actions=[],
        may_win=None,
        win_reaches_minimum=None,
        melds=[[_face_down(m) for m in melds] for melds in obs.melds],
    )
    return out


__all__ = ["meld_to_json", "observation_to_json", "spectator_json", "state_to_json"]
