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
from .state import HIDDEN, NO_EXTENSION_STATE, Observation, PublicView


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
    return _view_to_json(obs, obs)


def public_view_to_json(view: PublicView) -> dict[str, Any]:
    """What a spectator may see, as JSON: the keys of :func:`observation_to_json`, with no
    hand, drawn tile or legal action, and ``seat``, ``seat_wind``, ``may_win`` and
    ``win_reaches_minimum`` null."""
    return _view_to_json(view, None)


def _view_to_json(view: Observation | PublicView, own: Observation | None) -> dict[str, Any]:
    """The public facts from ``view``, the seat's own from ``own`` (none for a spectator)."""
    return {
        "seat": None if own is None else own.seat,
        "dealer": view.dealer,
        "prevalent_wind": view.prevalent_wind,
        "seat_wind": None if own is None else own.seat_wind,
        "phase": view.phase.value,
        "current": view.current,
        "hand": [] if own is None else _names(own.hand),
        "drawn": None if own is None else _tile(own.drawn),
        "melds": [_melds(melds) for melds in view.melds],
        "flowers": [_names(f) for f in view.flowers],
        "discards": [_names(pond) for pond in view.discards],
        "hand_sizes": list(view.hand_sizes),
        "wall_remaining": view.wall_remaining,
        "drawable": view.drawable,
        "last_discard": _tile(view.last_discard),
        "legal_actions": [] if own is None else [action_to_json(a) for a in own.legal_actions],
        "deltas": list(view.deltas),
        "may_win": None if own is None else own.may_win,
        "win_reaches_minimum": None if own is None else own.win_reaches_minimum,
        "wild": _tile(view.wild),
        "indicator": _tile(view.indicator),
        **(state_to_json(NO_EXTENSION_STATE) if view.extension is None
           else view.extension.to_json()),
    }


__all__ = ["meld_to_json", "observation_to_json", "public_view_to_json", "state_to_json"]
