"""The game engine: one hand as a state machine (``Table``), matches, records and replay.

Every front end drives the same interface: ``to_act()``, ``legal_actions(seat)``,
``apply(seat, action)``, ``observation(seat)``. Rule sets plug in through ``majiang.rules.base``.
"""

from . import actions
from .actions import *  # noqa: F403  (the actions' public names, listed in actions.__all__)
from .table import HandResult, IllegalAction, Observation, Phase, Table, events_for

__all__ = ["HandResult", "IllegalAction", "Observation", "Phase", "Table", "events_for"]
__all__ += actions.__all__
