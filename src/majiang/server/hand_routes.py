"""HTTP routes of the hands played: a room's hands so far, a finished hand's record and its
replay, a player's results over the hands he sat in."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Path

from .models import HandRow, MatchRow, Room
from .protocol import HandSummary, PlayerStats, Replay
from .records import hand_record
from .server_state import Served, room_or_404
from .web import replay_steps

router = APIRouter()


def _id() -> Any:
    """A database id in a path: larger ones are a 422, not a database overflow."""
    return Path(ge=1, lt=2**63)


@router.get("/rooms/{code}/hands", response_model=list[HandSummary])
async def match_history(code: str,
                        server: Served) -> list[dict[str, Any]]:
    """The hands of the room's match so far, with the results of finished ones."""
    runtime = await room_or_404(server.rooms, code)
    if runtime.match_id is None:
        return []
    store = server.store
    with store.session() as session:
        return [
            {
                "id": h.id,
                "number": h.number,
                "dealer": h.dealer,
                "finished": h.result is not None,
                "result": h.result,
            }
            for h in store.hands_of(session, runtime.match_id)
        ]


@router.get("/hands/{hand_id}/record")
def record(server: Served, hand_id: int = _id()) -> list[dict[str, Any]]:
    """A finished hand's record (the replay log, as a list of JSON lines)."""
    lines = hand_record(server.store, hand_id)
    if lines is None:
        raise HTTPException(404, f"no finished hand {hand_id}")
    return lines


@router.get("/hands/{hand_id}/replay", response_model=Replay)
def hand_replay(server: Served, hand_id: int = _id(), last: bool = False) -> dict[str, Any]:
    """A finished hand replayed by the engine: one full view per step (every hand shown)
    with the action and the events of that step (``last``: the final step only, for a
    score sheet); 404 while the hand is played."""
    store = server.store
    lines = hand_record(store, hand_id)
    if lines is None:
        raise HTTPException(404, f"no finished hand {hand_id}")
    with store.session() as session:
        hand = session.get(HandRow, hand_id)
        assert hand is not None
        match_row = session.get(MatchRow, hand.match_id)
        assert match_row is not None
        room = session.get(Room, match_row.room_id)
        assert room is not None
        seats = []
        for row in room.seats:
            player_id = hand.players[row.seat]
            player = store.player(session, player_id) if player_id is not None else None
            seats.append(
                {
                    "seat": row.seat,
                    "player": player.name if player is not None else None,
                    "bot": row.bot if player is None else None,
                }
            )
        code, number, rules = room.code, hand.number, room.rules
    return {
        "id": hand_id,
        "room": code,
        "number": number,
        "rules": rules,
        "options": lines[0].get("options", {}),
        "seats": seats,
        "dealer": lines[0]["dealer"],
        "prevalent_wind": lines[0]["prevalent_wind"],
        "steps": replay_steps(lines, last=last),
        "result": lines[-1]["result"],
    }


@router.get("/players/{player_id}/stats", response_model=PlayerStats)
def player_stats(server: Served, player_id: int = _id()) -> dict[str, Any]:
    """A player's wins, deal-ins and points over the finished hands he sat in."""
    store = server.store
    with store.session() as session:
        player = store.player(session, player_id)
        if player is None:
            raise HTTPException(404, f"no player {player_id}")
        stats = {"hands": 0, "wins": 0, "self_drawn": 0, "deal_ins": 0, "points": 0}
        for seat_row in store.seats_of_player(session, player_id):
            match_row = store.match_of(session, seat_row.room_id)
            if match_row is None:
                continue
            for hand in store.hands_of(session, match_row.id):
                result = hand.result
                if result is None or hand.players[seat_row.seat] != player_id:
                    continue
                seat = seat_row.seat
                stats["hands"] += 1
                stats["points"] += result["deltas"][seat]
                if result["winner"] == seat:
                    stats["wins"] += 1
                    stats["self_drawn"] += bool(result["self_drawn"])
                elif result["winner"] is not None and result["discarder"] == seat:
                    stats["deal_ins"] += 1
        return {"player_id": player_id, "name": player.name, **stats}
