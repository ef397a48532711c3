"""What a stranger's requests meet: security headers on every answer, a 4xx (never a 500) for
text that is not text and ids past 64 bits, websockets from other sites refused, actions with
unknown keys refused."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from majiang.server import create_app
from majiang.server.store import Store, StoreError
from server_helpers import SeatClient, new_room, take_seat


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as c:
        yield c


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/rooms", "/static/app.js", "/rooms/NOPE22"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"


def test_bad_text_and_huge_ids_are_4xx(client: TestClient) -> None:
    code = new_room(client)
    body = b'{"name": "x\\ud800y"}'
    answer = client.post(f"/rooms/{code}/seats/0", content=body,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 422 and "surrogate" in answer.text
    assert client.get(f"/rooms/{code}").json()["seats"][0]["player"] is None  # nothing stored
    huge = 2**64 + 1
    for path in (f"/hands/{huge}/record", f"/hands/{huge}/replay", f"/players/{huge}/stats",
                 f"/hands/{2**63}/record"):
        assert client.get(path).status_code == 422, path
    assert client.get(f"/hands/{2**63 - 1}/record").status_code == 404


def test_a_websocket_from_another_site_is_refused(tmp_path: Path, client: TestClient) -> None:
    code = new_room(client)
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
        f"/ws/{code}", headers={"origin": "https://evil.example"}
    ) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    with client.websocket_connect(f"/ws/{code}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "welcome"
    with client.websocket_connect(f"/ws/{code}") as ws:  # no Origin: not a browser
        assert ws.receive_json()["type"] == "welcome"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}",
                               origins=["https://evil.example"])) as other:
        code = new_room(other)
        with other.websocket_connect(f"/ws/{code}",
                                     headers={"origin": "https://evil.example"}) as ws:
            assert ws.receive_json()["type"] == "welcome"


def test_an_action_with_an_unknown_key_is_refused(client: TestClient) -> None:
    code = new_room(client, bots=[None, "random", "random", "random"], seed=3)
    seat = SeatClient(client, code, take_seat(client, code, 0, "Ann")["token"])
    seat.connect()
    try:
        seat.send({"type": "ready"})
        seat.barrier()
        runtime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
        while seat.to_answer() is None:
            seat.receive()
        frame = seat.to_answer()
        assert frame is not None
        action = dict(frame["observation"]["legal_actions"][0], evil=1)
        steps = len(runtime.table.history)
        seat.send({"type": "act", "action": action, "step": frame["step"]})
        errors = [f for f in seat.barrier() if f["type"] == "error"]
        assert errors and "unknown key in action: evil" in errors[0]["message"]
        assert len(runtime.table.history) == steps
    finally:
        seat.close()


def test_the_server_refuses_to_start_on_a_read_only_database(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    Store(f"sqlite:///{path}").close()
    with pytest.raises(StoreError, match="cannot be written"):
        create_app(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_bots_failed_commit_is_logged_and_not_blamed_on_the_player(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'f.db'}")) as client:
        code = new_room(client, bots=[None, "random", "random", "random"],
                        seed=987654321987, turn_seconds=600)
        seat = SeatClient(client, code, take_seat(client, code, 0, "Ann")["token"])
        seat.connect()
        try:
            seat.send({"type": "ready"})
            seat.barrier()
            runtime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
            while seat.to_answer() is None:
                seat.receive()
            commit = runtime.store.commit_action
            failures = []

            async def failing(hand_id: int, index: int, who: int, action: Any) -> None:
                if who != 0 and not failures:  # the first bot move after the player's fails
                    failures.append(index)
                    raise OSError("disk full")
                await commit(hand_id, index, who, action)

            runtime.store.commit_action = failing
            frame = seat.to_answer()
            assert frame is not None
            ours = len(runtime.table.history)
            seat.send({"type": "act", "action": frame["observation"]["legal_actions"][0],
                       "step": frame["step"]})
            replies = seat.barrier()
            assert not [f for f in replies if f["type"] == "error"], replies  # ours was played
            assert runtime.table.history[ours][0] == 0 and failures
            logged = [r.getMessage() for r in caplog.records if "could not be committed" in
                      r.getMessage()]
            assert logged and code in logged[0] and str(runtime.seed) not in logged[0]
            # the bots go on by themselves once the database takes writes again
            time.sleep(1.5)
            assert len(runtime.table.history) > ours + 1
        finally:
            seat.close()


def test_a_request_body_is_capped(client: TestClient) -> None:
    big = b'{"name": "' + b"x" * (70 * 1024) + b'"}'
    code = new_room(client)
    answer = client.post(f"/rooms/{code}/seats/0", content=big,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.headers["x-content-type-options"] == "nosniff"

    def chunks() -> Any:  # no Content-Length: the chunks add up past the cap
        for _ in range(70):
            yield b"x" * 1024

    answer = client.post("/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert client.post(f"/rooms/{code}/seats/0", json={"name": "Ann"}).status_code == 201
