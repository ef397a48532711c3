"""Seeds: drawn from ``secrets`` unless chosen; a chosen seed marks the room everywhere it is
listed and a public server refuses it; the seed's hash is published before the hand (and the
match) begins and the seed itself once it is over."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from fastapi.testclient import TestClient

from majiang.server import create_app
from server_helpers import SeatClient, new_room, no_rate_limit, play, take_seat


def sha(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def test_chosen_seeds_are_marked_and_a_public_server_refuses_them(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}")) as client:
        chosen = new_room(client, seed=424242)
        secret = new_room(client)
        other = new_room(client)
        listed = {r["code"]: r for r in client.get("/rooms").json()}
        assert listed[chosen]["chosen_seed"] is True and listed[secret]["chosen_seed"] is False
        view = client.get(f"/rooms/{chosen}").json()
        assert view["chosen_seed"] is True and view["seed"] is None  # not shown while open
        assert view["seed_hash"] == sha(424242)
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        seeds = {rooms.live[code].seed for code in (secret, other)}
        assert len(seeds) == 2 and 424242 not in seeds
        assert client.get(f"/rooms/{secret}").json()["seed_hash"] == sha(rooms.live[secret].seed)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", chosen_seeds=False)) as client:
        refused = client.post("/rooms", json={"seed": 424242})
        assert refused.status_code == 403 and "chosen seeds" in refused.text
        assert client.post("/rooms", json={}).status_code == 201


def test_the_seed_hash_is_published_before_and_the_seed_revealed_after(tmp_path: Path) -> None:
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}")) as client:
        code = new_room(client, rules="gb", hands=1, bots=[None, "random", "random", "random"])
        committed = client.get(f"/rooms/{code}").json()["seed_hash"]
        grant = take_seat(client, code, 0, "Ann")
        seat = SeatClient(client, code, grant["token"])
        seat.connect()
        seat.send({"type": "ready"})
        seat.barrier()
        first = next(f for f in seat.frames if f["type"] == "state" and f["hand"] == 1)
        assert first["step"] == 0  # published as the hand begins, before any action
        hand_hash = first["seed_hash"]
        play([seat], random.Random(1))
        seat.close()
        view = client.get(f"/rooms/{code}").json()
        assert view["status"] == "finished" and sha(view["seed"]) == committed
        hand = client.get(f"/rooms/{code}/hands").json()[0]
        record = client.get(f"/hands/{hand['id']}/record").json()
        assert sha(record[0]["seed"]) == hand_hash
