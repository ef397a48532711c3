"""What one client address may ask over HTTP: rooms and seats are rate-limited (429 with a
``Retry-After``), its unfinished rooms are capped (429), and so are the waiting rooms of the
whole server (503); turn timers have a minimum."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from majiang.server import create_app
from majiang.server.limits import MAX_ADDRESSES, AddressBuckets, Limits
from server_helpers import new_room


def app_with(tmp_path: Path, **limits: float) -> TestClient:
    loose = {"room_rate": 1e9, "room_burst": 1e9, "seat_rate": 1e9, "seat_burst": 1e9,
             "rooms_per_address": 10**9, "waiting_rooms": 10**9}
    return TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}",
                                 limits=Limits(**{**loose, **limits})))  # type: ignore[arg-type]


@pytest.fixture()
def tight(tmp_path: Path) -> Iterator[TestClient]:
    with app_with(tmp_path, room_rate=0.01, room_burst=3, seat_rate=0.5, seat_burst=2) as c:
        yield c


def test_room_creation_is_rate_limited_per_address(tight: TestClient) -> None:
    codes = [new_room(tight) for _ in range(3)]
    refused = tight.post("/rooms", json={})
    assert refused.status_code == 429
    assert refused.json()["detail"] == "too many new rooms from your address: try again in 100 s"
    assert refused.headers["retry-after"] == "100"
    assert len(tight.get("/rooms").json()) == 3  # nothing created
    # another address is not held back by this one
    other = TestClient(tight.app, client=("203.0.113.9", 5000))
    assert other.post("/rooms", json={}).status_code == 201
    assert tight.get(f"/rooms/{codes[0]}").status_code == 200  # reading is not limited


def test_seat_taking_is_rate_limited_per_address(tight: TestClient) -> None:
    code = new_room(tight)
    for seat in (0, 1):
        assert tight.post(f"/rooms/{code}/seats/{seat}", json={"name": "A"}).status_code == 201
    refused = tight.post(f"/rooms/{code}/seats/2", json={"name": "A"})
    assert refused.status_code == 429 and refused.headers["retry-after"] == "2"
    assert tight.get(f"/rooms/{code}").json()["seats"][2]["player"] is None
    other = TestClient(tight.app, client=("203.0.113.9", 5000))
    assert other.post(f"/rooms/{code}/seats/2", json={"name": "B"}).status_code == 201


def test_an_address_may_leave_only_so_many_rooms_unfinished(tmp_path: Path) -> None:
    with app_with(tmp_path, rooms_per_address=2) as client:
        new_room(client)
        finished = new_room(client, bots=["random"] * 4, hands=1)  # bots only: plays at once
        refused = client.post("/rooms", json={})
        if refused.status_code == 201:  # the bots' match already ended: the room no longer counts
            assert client.get(f"/rooms/{finished}").json()["status"] == "finished"
            refused = client.post("/rooms", json={})
        assert refused.status_code == 429 and "rooms not finished" in refused.json()["detail"]
        assert refused.headers["retry-after"] == "60"
        other = TestClient(client.app, client=("203.0.113.9", 5000))
        assert other.post("/rooms", json={}).status_code == 201


def test_the_server_takes_only_so_many_waiting_rooms(tmp_path: Path) -> None:
    with app_with(tmp_path, waiting_rooms=2) as client:
        new_room(client)
        new_room(client)
        other = TestClient(client.app, client=("203.0.113.9", 5000))
        refused = other.post("/rooms", json={})
        assert refused.status_code == 503 and "2 rooms waiting" in refused.json()["detail"]
        assert len(client.get("/rooms").json()) == 2


def test_the_buckets_remember_a_bounded_number_of_addresses() -> None:
    buckets = AddressBuckets(rate=1e-9, burst=1)
    for n in range(MAX_ADDRESSES + 10):
        assert buckets.wait(f"a{n}") == 0
    assert len(buckets.buckets) <= MAX_ADDRESSES
    assert buckets.wait(f"a{MAX_ADDRESSES + 9}") > 0  # the latest still remembered


def test_a_turn_timer_under_the_minimum_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}")) as client:
        refused = client.post("/rooms", json={"turn_seconds": 0.01})
        assert refused.status_code == 422
        assert refused.json()["detail"] == "turn_seconds must be at least 1 on this server"
        assert client.post("/rooms", json={"turn_seconds": 1, "grace_seconds": 0,
                                           "bot_seconds": 0, "next_seconds": 0}).status_code == 201

