"""The server's routes, built by ``create_app`` from its router modules: the HTTP paths and
methods it offers, the websocket, the shared parts each application keeps to itself, and the
one builder of the protocol's frames."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from majiang.server import create_app
from majiang.server.protocol import VERSION, build_frame, error_frame

PATHS = {
    ("/hands/{hand_id}/record", "get"),
    ("/hands/{hand_id}/replay", "get"),
    ("/hands/{hand_id}/review", "get"),
    ("/hands/{hand_id}/review", "post"),
    ("/organiser/api/games", "post"),
    ("/organiser/api/games/{code}", "get"),
    ("/organiser/api/games/{code}/access", "get"),
    ("/organiser/api/games/{code}/entries", "post"),
    ("/organiser/api/games/{code}/entries/{entry_id}", "delete"),
    ("/organiser/api/games/{code}/entries/{entry_id}", "put"),
    ("/organiser/api/games/{code}/export.csv", "get"),
    ("/organiser/api/games/{code}/export.json", "get"),
    ("/organiser/api/games/{code}/history", "get"),
    ("/organiser/api/games/{code}/preview", "post"),
    ("/organiser/api/rules", "get"),
    ("/organiser/api/tournaments", "post"),
    ("/organiser/api/tournaments/{code}", "get"),
    ("/organiser/api/tournaments/{code}/penalties", "post"),
    ("/organiser/api/tournaments/{code}/penalties/{penalty_id}", "delete"),
    ("/organiser/api/tournaments/{code}/players", "post"),
    ("/organiser/api/tournaments/{code}/players/{number}/withdraw", "post"),
    ("/organiser/api/tournaments/{code}/rounds", "post"),
    ("/organiser/api/tournaments/{code}/rounds/{number}", "delete"),
    ("/organiser/api/tournaments/{code}/rounds/{number}/swap", "post"),
    ("/organiser/api/tournaments/{code}/rounds/{number}/tables/{table}/result", "delete"),
    ("/organiser/api/tournaments/{code}/rounds/{number}/tables/{table}/result", "put"),
    ("/organiser/api/tournaments/{code}/rounds/{number}/tables/{table}/sheet", "post"),
    ("/organiser/api/tournaments/{code}/standings.csv", "get"),
    ("/organiser/api/tournaments/{code}/version", "get"),
    ("/players/{player_id}/stats", "get"),
    ("/rooms", "get"),
    ("/rooms", "post"),
    ("/rooms/{code}", "get"),
    ("/rooms/{code}/hands", "get"),
    ("/rooms/{code}/seats/{seat}", "delete"),
    ("/rooms/{code}/seats/{seat}", "post"),
    ("/rules", "get"),
}


def test_the_application_offers_every_http_path_and_method(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'm.db'}")
    offered = {(path, method) for path, item in app.openapi()["paths"].items() for method in item}
    assert offered == PATHS


def test_two_applications_keep_their_own_rooms_and_settings(tmp_path: Path) -> None:
    public = create_app(f"sqlite:///{tmp_path / 'a.db'}", chosen_seeds=False)
    private = create_app(f"sqlite:///{tmp_path / 'b.db'}")
    with TestClient(public) as one, TestClient(private) as other:
        assert one.post("/rooms", json={"seed": 7}).status_code == 403
        code = other.post("/rooms", json={"seed": 7}).json()["code"]
        assert other.get(f"/rooms/{code}").status_code == 200
        assert one.get(f"/rooms/{code}").status_code == 404
        assert [room["code"] for room in other.get("/rooms").json()] == [code]
        assert one.get("/rooms").json() == []


def test_every_frame_is_stamped_with_the_protocol_version() -> None:
    assert build_frame("pong") == {"v": VERSION, "type": "pong"}
    assert list(build_frame("hint", room="ABCD", hints={})) == ["v", "type", "room", "hints"]
    assert error_frame("no") == {"v": VERSION, "type": "error", "message": "no"}


def test_the_websocket_answers_with_the_protocol_frames(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}")) as client:
        code = client.post("/rooms", json={}).json()["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            ws.receive_json()  # the state
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == build_frame("pong")
            ws.send_bytes(b"{}")
            assert ws.receive_json() == error_frame("send JSON objects in text frames, not binary")
