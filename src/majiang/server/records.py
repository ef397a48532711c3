"""A finished hand's record, rebuilt from the committed actions (for replays and history)."""

from __future__ import annotations

from typing import Any

from ..engine.record import record_of
from ..engine.table import Table
from ..rules.registry import make_rules
from .models import HandRow, MatchRow, Room
from .store import Store


def hand_record(store: Store, hand_id: int) -> list[dict[str, Any]] | None:
    """The record of a finished hand, rebuilt from its committed actions; None if unfinished
    (a record shows every tile)."""
    with store.session() as session:
        hand = session.get(HandRow, hand_id)
        if hand is None or hand.result is None:
            return None
        match_row = session.get(MatchRow, hand.match_id)
        assert match_row is not None
        room = session.get(Room, match_row.room_id)
        assert room is not None
        table = Table(
            make_rules(room.rules, room.options),
            hand.seed,
            dealer=hand.dealer,
            prevalent_wind=hand.prevalent_wind,
            stake=room.stake,
            dealer_count=hand.dealer_count,
            thrown=tuple(hand.thrown),
        )
        store.replay_actions(session, hand.id, table)
    return record_of(table)


__all__ = ["hand_record"]
