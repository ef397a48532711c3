"""The game engine: one hand as a state machine (``Table``), matches, records and replay.

Every front end drives the same interface: ``to_act()``, ``legal_actions(seat)``,
``apply(seat, action)``, ``observation(seat)``. Rule sets plug in through ``majiang.rules.base``.
"""

from .actions import (
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Pass,
    Pung,
    Win,
    action_from_json,
    action_to_json,
)
from .table import HandResult, IllegalAction, Observation, Phase, Table, events_for

__all__ = [
    "Action",
    "AddedKong",
    "Chow",
    "ConcealedKong",
    "Discard",
    "ExposedKong",
    "HandResult",
    "IllegalAction",
    "Observation",
    "Pass",
    "Phase",
    "Pung",
    "Table",
    "Win",
    "action_from_json",
    "action_to_json",
    "events_for",
]
