"""Issue 6: fuzzing the websocket message handler, and what each client may see.

Hypothesis sends random JSON values, malformed JSON, wrong types, unknown message types, huge and
binary frames and random actions (legal-looking and not) from two seats and a spectator,
interleaved with legal play. The server never crashes (the connection stays usable), every bad
message gets an error frame, and the table changes only through legal actions (its history and
tile census are compared before and after each message). Every frame any client receives is
checked against the engine: a seat's observation is exactly its own view (its hand is its own
concealed tiles), other seats' draws carry no tile, other seats' concealed kongs are face down,
and a spectator sees no hand at all. A token acts only for its own seat; a spectator cannot act.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from majiang.engine.actions import action_from_json, action_to_json
from majiang.engine.serialize import observation_to_json, public_view_to_json
from majiang.engine.state import public_part
from majiang.engine.table import Table, events_for
from majiang.server import create_app
from majiang.server.clients import Client
from majiang.server.models import ActionRow, HandRow
from majiang.server.room import RoomRuntime
from majiang.tiles import tile_name
from server_helpers import SeatClient, new_room, no_rate_limit, take_seat

ACTION_TYPES = ["discard", "chow", "pung", "exposed_kong", "concealed_kong", "added_kong", "win",
                "pass", "throw_bullets", "accept_bullets"]
RATE_LIMIT = Client.allow
TILES = [tile_name(t) for t in range(34)] + ["a", "h", "0m", "10p", "5z", "", "1m1m", "xyz"]


class Shadow:
    """A client's table of each hand rebuilt from the database, up to any step: what a frame
    sent at that step must show."""

    def __init__(self, runtime: RoomRuntime) -> None:
        self.runtime = runtime
        self.tables: dict[int, Table] = {}
        self.logs: dict[int, list[tuple[int, Any]]] = {}

    def at(self, hand: int, step: int) -> Table:
        runtime, store = self.runtime, self.runtime.store
        table = self.tables.get(hand)
        log = self.logs.setdefault(hand, [])
        if table is None or len(table.history) > step or len(log) < step:
            with store.session() as session:
                row = session.scalars(
                    select(HandRow).where(HandRow.match_id == runtime.match_id,
                                          HandRow.number == hand)
                ).one()
                if table is None or len(table.history) > step:
                    table = Table(runtime.rules, row.seed, dealer=row.dealer,
                                  prevalent_wind=row.prevalent_wind, stake=runtime.stake,
                                  dealer_count=row.dealer_count, thrown=tuple(row.thrown))
                    self.tables[hand] = table
                if len(log) < step:
                    rows = session.scalars(
                        select(ActionRow).where(ActionRow.hand_id == row.id,
                                                ActionRow.index >= len(log))
                        .order_by(ActionRow.index)
                    )
                    log.extend((r.seat, action_from_json(r.action)) for r in rows)
        for seat, action in log[len(table.history):step]:
            table.apply(seat, action)
        assert len(table.history) == step, "a frame ahead of the committed actions"
        return table


def check_frame(shadow: Shadow, client: SeatClient, frame: dict[str, Any]) -> None:
    """Nothing in a frame that its client may not see; its observation is the engine's."""
    if frame["type"] not in ("state", "update") or frame.get("observation") is None:
        return
    seat = client.seat
    table = shadow.at(frame["hand"], frame["step"])
    obs = frame["observation"]
    if seat is None:
        assert obs == public_view_to_json(public_part(table.observation(0)))
        assert obs["hand"] == [] and obs["drawn"] is None and obs["legal_actions"] == []
        viewer = -1
    else:
        assert obs == observation_to_json(table.observation(seat))
        own = [tile_name(t) for t in range(34) for _ in range(table.concealed[seat][t])]
        assert obs["hand"] == own
        viewer = seat
    for other in range(4):
        if other == seat:
            continue
        for shown, meld in zip(obs["melds"][other], table.melds[other], strict=True):
            if meld.is_concealed_kong:
                assert shown["tile"] is None
    assert client.events == events_for(table.events, viewer)
    for event in client.events:
        if event.get("private") and event.get("seat") != seat:
            assert "tile" not in event


@dataclass
class Room:
    client: TestClient
    code: str
    runtime: RoomRuntime
    seats: list[SeatClient]
    spectator: SeatClient
    tokens: list[str]

    def everyone(self) -> list[SeatClient]:
        return [*self.seats, self.spectator]

    def settle(self) -> None:
        for c in self.everyone():
            c.barrier()

    def snapshot(self) -> tuple[Any, ...]:
        table = self.runtime.table
        assert table is not None and self.runtime.spec is not None
        return (self.runtime.spec.number, list(table.history), table.tile_census(),
                [list(c) for c in table.concealed])


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{db}")) as client:
        code = new_room(client, rules="gb", hands=16, seed=99,
                        bots=[None, None, "random", "random"], turn_seconds=600,
                        grace_seconds=600)
        grants = [take_seat(client, code, s, f"p{s}") for s in (0, 1)]
        runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
        shadows: dict[int, Shadow] = {}

        def check(c: SeatClient, f: dict[str, Any]) -> None:
            check_frame(shadows.setdefault(id(c), Shadow(runtime)), c, f)

        seats = [SeatClient(client, code, g["token"], on_frame=check) for g in grants]
        spectator = SeatClient(client, code, None, on_frame=check)
        for c in [*seats, spectator]:
            c.connect()
        for seat in seats:
            seat.send({"type": "ready"})
        r = Room(client, code, runtime, seats, spectator, [g["token"] for g in grants])
        r.settle()
        assert runtime.status == "playing"
        yield r
        for c in r.everyone():
            c.close()


def _json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
        | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                     max_size=4),
        max_leaves=10,
    )


JSON_VALUES = _json_values()


def json_values() -> st.SearchStrategy[Any]:
    return JSON_VALUES


def actions() -> st.SearchStrategy[Any]:
    legal_looking = st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES)},
        optional={"tile": st.sampled_from(TILES) | json_values(),
                  "count": st.integers(-2, 8) | json_values()},
    )
    return legal_looking | st.dictionaries(st.text(max_size=6), json_values(), max_size=3)


def messages() -> st.SearchStrategy[Any]:
    """A message as text (or bytes for a binary frame)."""
    act = st.fixed_dictionaries(
        {"type": st.just("act"), "action": actions() | json_values()},
        optional={"step": st.integers(-3, 300) | json_values(), "seat": st.integers(0, 3),
                  "extra": json_values()},
    )
    unknown = st.fixed_dictionaries({"type": json_values()}, optional={"x": json_values()})
    wrong = st.sampled_from(["ready", "resync", "ping", "act"]).flatmap(
        lambda kind: st.dictionaries(st.text(max_size=8), json_values(), min_size=1, max_size=3)
        .map(lambda extra: {**extra, "type": kind})
    )
    huge = st.integers(4000, 20000).map(lambda n: {"type": "ping", "pad": "x" * n})
    as_text = (act | unknown | wrong | huge | json_values()).map(json.dumps)
    malformed = st.text(max_size=40) | json_values().map(lambda v: json.dumps(v)[:-1])
    binary = st.binary(max_size=64)
    return as_text | malformed | binary


MESSAGES = messages()


def send_one(room: Room, sender: SeatClient, message: str | bytes) -> None:
    """Send one fuzzed message; it is refused with an error frame (and nothing changes) or it is
    a valid message and does exactly what it says. (Every client has read everything sent before:
    the caller settles the room after each change.)"""
    before = room.snapshot()
    table = room.runtime.table
    assert table is not None
    step = len(table.history)
    legal = table.legal_actions(sender.seat) if sender.seat is not None else []
    if isinstance(message, bytes):
        sender.ws.send_bytes(message)
    else:
        sender.send(message)
    frames = sender.barrier()
    errors = [f for f in frames if f["type"] == "error"]
    after = room.snapshot()
    parsed: Any = None
    if isinstance(message, str):
        try:
            parsed = json.loads(message)
        except ValueError:
            parsed = None
    valid_other = isinstance(parsed, dict) and parsed in ({"type": "ping"}, {"type": "resync"})
    if after == before:
        if valid_other:
            assert not errors
            if parsed == {"type": "ping"}:
                assert frames == []  # its pong ended the barrier; the barrier's pong follows
                assert sender.receive()["type"] == "pong"
            else:
                assert [f["type"] for f in frames] == ["state"]
            return
        assert len(errors) == 1, (message, frames)
        assert isinstance(errors[0]["message"], str) and errors[0]["message"]
        return
    # the table moved: only a well-formed, legal action of the sender's own seat may do that
    assert not errors, frames
    assert isinstance(parsed, dict) and set(parsed) <= {"type", "action", "step"}
    assert parsed["type"] == "act" and sender.seat is not None
    action = action_from_json(parsed["action"])
    assert action in legal
    assert after[1][: len(before[1])] == before[1] or after[0] != before[0]
    if after[0] == before[0]:
        assert after[1][step] == (sender.seat, action)
    room.settle()


def play_legal(room: Room, rng: random.Random) -> None:
    """One legal move by whichever person must act (bots follow on their own)."""
    waiting = [s for s in room.seats if s.to_answer() is not None]
    if waiting:
        rng.choice(waiting).answer(rng)
        room.settle()


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_messages_change_nothing(room: Room, data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for _ in range(data.draw(st.integers(1, 4), label="messages")):
        sender = data.draw(st.sampled_from(room.everyone()), label="sender")
        message = data.draw(MESSAGES, label="message")
        send_one(room, sender, message)
    play_legal(room, rng)


def test_legal_looking_actions_of_every_kind(room: Room) -> None:
    """Every action type and tile from each seat and the spectator, at several steps."""
    rng = random.Random(5)
    for _ in range(5):
        for sender in room.everyone():
            table = room.runtime.table
            assert table is not None
            step = len(table.history)
            for kind in ACTION_TYPES:
                action: dict[str, Any] = {"type": kind}
                if kind in ("discard", "chow", "concealed_kong", "added_kong"):
                    action["tile"] = rng.choice(TILES[:34])
                if kind == "throw_bullets":
                    action["count"] = rng.randrange(3)
                for at in (step, step - 1, None):
                    message: dict[str, Any] = {"type": "act", "action": action}
                    if at is not None:
                        message["step"] = at
                    send_one(room, sender, json.dumps(message))
        play_legal(room, rng)


def test_tokens_act_only_for_their_own_seat(room: Room) -> None:
    rng = random.Random(6)
    for _ in range(400):
        room.settle()
        table = room.runtime.table
        assert table is not None
        to_act = table.to_act()
        if to_act == [1] and not table.legal_actions(0):
            break  # seat 1's turn alone
        play_legal(room, rng)
    else:
        pytest.fail("seat 1 never had a turn alone")
    seat0, seat1 = room.seats
    theirs = action_to_json(table.legal_actions(1)[0])
    before = room.snapshot()
    step = len(table.history)
    for message in (
        {"type": "act", "action": theirs, "step": step},
        {"type": "act", "action": theirs, "step": step, "seat": 1},
        {"type": "act", "action": theirs},
    ):
        seat0.send(message)
        frames = seat0.barrier()
        assert [f["type"] for f in frames] == ["error"], frames
        assert room.snapshot() == before
    # a spectator cannot act either, nor take part in the ready check
    for message in ({"type": "act", "action": theirs, "step": step}, {"type": "ready"}):
        room.spectator.send(message)
        frames = room.spectator.barrier()
        assert [f["type"] for f in frames] == ["error"], frames
        assert frames[0]["message"] == "spectators cannot act"
        assert room.snapshot() == before
    # seat 1 itself may
    seat1.send({"type": "act", "action": theirs, "step": step})
    assert not [f for f in seat1.barrier() if f["type"] == "error"]
    assert room.snapshot() != before


def test_bad_tokens_are_refused(room: Room, tmp_path: Path) -> None:
    client = room.client
    for token in ("nonsense", room.tokens[0] + "x", ""):
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect(f"/ws/{room.code}?token={token}") as ws:
            ws.receive_json()
        assert refused.value.code == 4401
    other = new_room(client, rules="gb")
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect(f"/ws/{other}?token={room.tokens[0]}") as ws:
        ws.receive_json()
    assert refused.value.code == 4401
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/ws/NOROOM") as ws:
        ws.receive_json()
    assert refused.value.code == 4404


def test_rate_limit_refuses_floods_with_errors(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the tests' lifted limit: a flood gets error frames, the connection stays usable."""
    monkeypatch.setattr(Client, "allow", RATE_LIMIT)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'flood.db'}", rate=5.0,
                               burst=10.0)) as client:
        code = new_room(client, rules="gb", bots=[None, "random", "random", "random"])
        grant = take_seat(client, code, 0, "p0")
        seat = SeatClient(client, code, grant["token"])
        seat.connect()
        try:
            for _ in range(30):
                seat.send({"type": "ping"})
            frames = [seat.receive() for _ in range(30)]
            kinds = [f["type"] for f in frames]
            assert kinds.count("pong") >= 10 and "error" in kinds, kinds
            assert all(f["message"].startswith("too many messages") for f in frames
                       if f["type"] == "error")
            assert client.get(f"/rooms/{code}").json()["status"] == "waiting"
            time.sleep(0.5)
            assert [f["type"] for f in seat.barrier()] == []  # usable again
        finally:
            seat.close()

