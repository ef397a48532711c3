"""``majiang serve``'s limits: every one an option that reaches the application, its default the
server's own, and a bad value a usage error (one line, exit 2)."""

from __future__ import annotations

from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from majiang.cli import main
from majiang.cli import serve as serve_cmd
from majiang.server.limits import WEBSOCKET_BURST, Limits


def served_app(tmp_path: Path, options: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The application ``majiang serve`` builds with ``options``, stopped before it listens."""
    built: list[Any] = []
    real_open_app = serve_cmd.open_app

    def open_app(url: str, **kwargs: Any) -> Any:
        built.append(real_open_app(url, **kwargs))
        return built[-1]

    def bind(host: str, port: int) -> Any:
        raise serve_cmd.ServeError("stopped before listening")

    monkeypatch.setattr(serve_cmd, "open_app", open_app)
    monkeypatch.setattr(serve_cmd, "bind", bind)
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 's.db'}", *options]) == 1
    return built[0]


LIMIT_OPTIONS = [
    ("--room-rate", "0.5", "room_rate", 0.5),
    ("--room-burst", "3", "room_burst", 3.0),
    ("--seat-rate", "2.5", "seat_rate", 2.5),
    ("--seat-burst", "7", "seat_burst", 7.0),
    ("--rooms-per-address", "4", "rooms_per_address", 4),
    ("--waiting-rooms", "30", "waiting_rooms", 30),
    ("--min-turn-seconds", "5", "min_turn_seconds", 5.0),
    ("--min-bot-seconds", "0.5", "min_bot_seconds", 0.5),
    ("--unwatched-seconds", "120", "unwatched_seconds", 120.0),
    ("--idle-seconds", "30", "idle_seconds", 30.0),
    ("--live-rooms", "50", "live_rooms", 50),
]


def test_every_limit_has_an_option() -> None:
    assert sorted(name for _, _, name, _ in LIMIT_OPTIONS) == sorted(
        f.name for f in fields(Limits))


@pytest.mark.parametrize(("flag", "text", "name", "value"), LIMIT_OPTIONS)
def test_a_limit_option_reaches_the_application(
    flag: str, text: str, name: str, value: float, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = served_app(tmp_path, [flag, text], monkeypatch)
    expected = {**asdict(Limits()), name: value}
    assert asdict(app.state.rooms.limits) == expected


def test_without_options_the_limits_are_the_servers_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, [], monkeypatch)
    assert app.state.rooms.limits == Limits()


def test_the_rooms_per_address_and_turn_minimum_are_enforced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--rooms-per-address", "1", "--min-turn-seconds", "5"],
                     monkeypatch)
    with TestClient(app) as client:
        short = client.post("/rooms", json={"turn_seconds": 4})
        assert short.status_code == 422 and "at least 5" in short.json()["detail"]
        assert client.post("/rooms", json={"turn_seconds": 5}).status_code == 201
        second = client.post("/rooms", json={"turn_seconds": 5})
        assert second.status_code == 429 and "1 rooms not finished" in second.json()["detail"]


def test_the_bot_pace_minimum_is_enforced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--min-bot-seconds", "0.5"], monkeypatch)
    with TestClient(app) as client:
        fast = client.post("/rooms", json={"bot_seconds": 0})
        assert fast.status_code == 422
        assert fast.json()["detail"] == "bot_seconds must be at least 0.5 on this server"
        assert client.post("/rooms", json={"bot_seconds": 0.5}).status_code == 201


def test_the_message_rate_and_burst_reach_the_websockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--message-rate", "0.01", "--message-burst", "2"], monkeypatch)
    with TestClient(app) as client:
        code = client.post("/rooms", json={}).json()["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.receive_json(), ws.receive_json()  # welcome, state
            answers = []
            for _ in range(3):
                ws.send_json({"type": "ping"})
                answers.append(ws.receive_json())
        assert [a["type"] for a in answers] == ["pong", "pong", "error"]
        assert answers[2]["message"] == "too many messages: slow down"


def test_the_default_message_burst_is_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--message-rate", "0.01"], monkeypatch)
    with TestClient(app) as client:
        code = client.post("/rooms", json={}).json()["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.receive_json(), ws.receive_json()
            kinds = []
            for _ in range(int(WEBSOCKET_BURST) + 1):
                ws.send_json({"type": "ping"})
                kinds.append(ws.receive_json()["type"])
        assert kinds == ["pong"] * int(WEBSOCKET_BURST) + ["error"]


def welcomed(client: TestClient, code: str, site: str) -> bool:
    """Whether a websocket from a page of ``site`` is let in."""
    with client.websocket_connect(f"/ws/{code}", headers={"Origin": site}) as ws:
        frame = ws.receive()
    return frame.get("type") != "websocket.close"


def test_the_allowed_origins_reach_the_application(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--origin", "https://friend.example",
                                "--origin", "http://other.example:8080"], monkeypatch)
    with TestClient(app) as client:
        code = client.post("/rooms", json={}).json()["code"]
        assert welcomed(client, code, "https://friend.example")
        assert welcomed(client, code, "http://other.example:8080")
        assert not welcomed(client, code, "https://stranger.example")


def test_without_origins_only_the_servers_own_pages_open_websockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, [], monkeypatch)
    with TestClient(app) as client:
        code = client.post("/rooms", json={}).json()["code"]
        assert welcomed(client, code, "http://testserver")
        assert not welcomed(client, code, "https://friend.example")


def test_any_origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = served_app(tmp_path, ["--origin", "*"], monkeypatch)
    with TestClient(app) as client:
        code = client.post("/rooms", json={}).json()["code"]
        assert welcomed(client, code, "https://stranger.example")


def test_no_chosen_seeds_reaches_the_application(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = served_app(tmp_path, ["--no-chosen-seeds"], monkeypatch)
    with TestClient(app) as client:
        assert client.post("/rooms", json={"seed": 7}).status_code == 403


@pytest.mark.parametrize(
    ("flag", "text", "says"),
    [
        ("--room-rate", "0", "'0' is not a number more than 0"),
        ("--seat-rate", "-1", "'-1' is not a number more than 0"),
        ("--seat-rate", "inf", "'inf' is not a number more than 0"),
        ("--room-burst", "0.5", "'0.5' is not a number at least 1"),
        ("--seat-burst", "many", "'many' is not a number at least 1"),
        ("--rooms-per-address", "0", "'0' is not a whole number at least 1"),
        ("--waiting-rooms", "2.5", "'2.5' is not a whole number at least 1"),
        ("--live-rooms", "", "'' is not a whole number at least 1"),
        ("--min-turn-seconds", "-0.5", "'-0.5' is not a number at least 0"),
        ("--unwatched-seconds", "nan", "'nan' is not a number at least 0"),
        ("--idle-seconds", "1e999", "'1e999' is not a number at least 0"),
        ("--message-rate", "0", "'0' is not a number more than 0"),
        ("--message-burst", "0", "'0' is not a number at least 1"),
        ("--origin", "friend.example", "'friend.example' is not an origin"),
        ("--origin", "https://friend.example/", "'https://friend.example/' is not an origin"),
        ("--origin", "ftp://friend.example", "'ftp://friend.example' is not an origin"),
        ("--origin", "https://", "'https://' is not an origin"),
    ],
)
def test_a_bad_limit_is_a_usage_error(
    flag: str, text: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", flag, text])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"majiang serve: usage error: argument {flag}: {says}")


def test_the_help_shows_each_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--room-rate PER_S rooms one address may create a second, on average (0.1)" in text
    assert "--live-rooms N the most rooms held in memory (1000)" in text
    assert "--message-burst N messages one websocket may send at once (100)" in text
