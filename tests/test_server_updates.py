"""``updates=changed``: a client that asks for it gets no ``update`` that would tell it nothing
new, and still misses nothing (every event, its current view), and its answers to the frames it
has are accepted (docs/server.md, "The websocket protocol")."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from majiang.engine.serialize import observation_to_json, public_view_to_json
from majiang.engine.state import public_part
from majiang.engine.table import events_for
from majiang.server import create_app
from majiang.server.room import RoomRuntime
from server_helpers import SeatClient, choose, new_room, no_rate_limit, take_seat


class Client(SeatClient):
    """A seat client that may ask for changes only, and notes every update it is sent."""

    def __init__(self, client: TestClient, code: str, token: str | None, changed: bool) -> None:
        super().__init__(client, code, token)
        self.changed = changed
        self.updates: list[dict[str, Any]] = []

    def query(self) -> list[str]:
        return super().query() + (["updates=changed"] if self.changed else [])

    def take(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "update":
            previous = self.latest
            if (
                self.changed
                and previous is not None
                and previous["type"] == "update"  # the first after a state frame always comes
                and previous["hand"] == frame["hand"]
                and not frame["events"]
                and frame["observation"] == previous["observation"]
            ):
                assert _actor(self, frame) == self.seat, "an update that tells nothing new"
            self.updates.append(frame)
        super().take(frame)


def _actor(client: Client, frame: dict[str, Any]) -> int | None:
    """The seat whose action the update follows (None if that hand is no longer the table's)."""
    runtime: RoomRuntime = client.client.app.state.rooms.live[client.code]  # type: ignore[attr-defined]
    table = runtime.table
    if table is None or runtime.spec is None or runtime.spec.number != frame["hand"]:
        return client.seat
    return table.history[frame["step"] - 1][0]


def _check_current(runtime: RoomRuntime, clients: list[Client]) -> None:
    """Each client's view is the table's now, and it has every event of the hand."""
    table = runtime.table
    assert table is not None and runtime.spec is not None
    for c in clients:
        assert c.latest is not None and c.hand == runtime.spec.number
        if c.seat is None:
            assert c.latest["observation"] == public_view_to_json(public_part(table.observation(0)))
            assert c.events == events_for(table.events, -1)
        else:
            assert c.latest["observation"] == observation_to_json(table.observation(c.seat))
            assert c.events == events_for(table.events, c.seat)


def test_changes_only_misses_nothing_and_answers_count(tmp_path: Path) -> None:
    """Seats 0 and 2 and a spectator ask for changes only, seats 1 and 3 take every update; two
    hands played by random legal answers, each to the seat's latest frame. At every quiet point
    each client's view is the table's and its events are all of the hand's (as it may see them);
    no answer is refused, though the changes-only seats answer frames of earlier steps."""
    rng = random.Random(5)
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'u.db'}")) as client:
        code = new_room(client, rules="gb", hands=2, seed=21, turn_seconds=600,
                        grace_seconds=600)
        grants = [take_seat(client, code, s, f"p{s}") for s in range(4)]
        seats = [Client(client, code, g["token"], changed=g["seat"] % 2 == 0) for g in grants]
        spectator = Client(client, code, None, changed=True)
        try:
            _play(client.app.state.rooms.live[code], seats, spectator, rng)  # type: ignore[attr-defined]
        finally:
            for c in [*seats, spectator]:
                c.close()


def _play(runtime: RoomRuntime, seats: list[Client], spectator: Client,
          rng: random.Random) -> None:
    everyone = [*seats, spectator]
    for c in everyone:
        c.connect()
    for c in seats:
        c.send({"type": "ready"})
    lagging = actions = 0
    actor: Client | None = None
    while True:
        if actor is not None:  # its action handled to the end: every update of it is sent
            actor.barrier()
        for c in everyone:
            c.barrier()
        if all(c.finished for c in seats):
            break
        hand = runtime.spec.number if runtime.spec else None
        table = runtime.table
        assert table is not None
        if not table.is_over and all(c.hand == hand for c in everyone):
            _check_current(runtime, everyone)
        waiting = [c for c in seats if c.to_answer() is not None]
        assert waiting, "nobody to act"
        seat = rng.choice(waiting)
        frame = seat.to_answer()
        assert frame is not None
        lagging += frame["step"] < len(table.history)
        seat.send({"type": "act", "action": choose(frame["observation"], rng),
                   "step": frame["step"]})
        actor = seat
        actions += 1
    for c in everyone:
        assert not c.errors, c.errors
    # the clients that take every update got one per action, the others fewer
    assert all(len(c.updates) == actions for c in seats if not c.changed)
    assert all(len(c.updates) < actions for c in [*seats, spectator] if c.changed)
    assert lagging > 0
