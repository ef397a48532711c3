"""The game server with four websocket clients playing whole matches of both rule sets.

A real uvicorn server runs in a thread on loopback; four clients (seats 0-3, each with its own
token) and a spectator connect over websockets and play by choosing among the legal actions in
their frames. Checked on every frame: the seat's observation holds its own concealed tiles and
nothing of anybody else's (re-derived afterwards by replaying each hand's record to the frame's
step), other seats' draws carry no tile, other seats' concealed kongs are face down, the
spectator sees no concealed tile at all. Also: the HTTP endpoints, tokens (never echoed, one
seat cannot act for another), errors that change nothing.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from majiang.engine.actions import action_from_json
from majiang.engine.record import replay, table_from_header
from majiang.tiles import tile_name
from server_helpers import ThreadedServer


class Server(ThreadedServer):
    """A uvicorn server in a background thread."""

    def ws(self, code: str, token: str | None = None) -> ClientConnection:
        query = f"?token={token}" if token else ""
        return connect(f"ws://127.0.0.1:{self.port}/ws/{code}{query}", legacy=True)



@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "server.db")
    yield s
    s.stop()


def receive(ws: ClientConnection, timeout: float = 0.001) -> dict[str, Any] | None:
    try:
        return json.loads(ws.recv(timeout=timeout))  # type: ignore[no-any-return]
    except TimeoutError:
        return None


class Player:
    """A websocket client that plays its seat: wins when it may, else a seeded legal action."""

    def __init__(self, ws: ClientConnection, seat: int | None, seed: int) -> None:
        self.ws = ws
        self.seat = seat
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.answered: set[tuple[int, int]] = set()
        self.done = False

    def pump(self) -> None:
        while (frame := receive(self.ws)) is not None:
            self.frames.append(frame)
            if frame["type"] in ("state", "update") and frame.get("observation") is not None:
                self.latest = frame
            elif frame["type"] == "match_end":
                self.done = True
            elif frame["type"] == "error":
                self.errors.append(frame["message"])
                if frame["message"].startswith("too many"):
                    time.sleep(0.05)
                self.answered.clear()  # refused: ask for the state again and answer it
                self.ws.send(json.dumps({"type": "resync"}))

    def play(self) -> bool:
        """Answer the latest frame if it asks this seat to act; whether it did."""
        frame = self.latest
        if frame is None or self.seat is None:
            return False
        legal = frame["observation"]["legal_actions"]
        if not legal or (frame["hand"], frame["step"]) in self.answered:
            return False
        self.answered.add((frame["hand"], frame["step"]))
        wins = [a for a in legal if a["type"] == "win"]
        action = wins[0] if wins else self.rng.choice(legal)
        self.ws.send(json.dumps({"type": "act", "action": action, "step": frame["step"]}))
        self.latest = None  # wait for the frame that answers it
        return True


def create_room(server: Server, **fields: Any) -> str:
    fields = {"bot_seconds": 0, "next_seconds": 0, **fields}
    response = server.http.post("/rooms", json=fields)
    assert response.status_code == 201, response.text
    return str(response.json()["code"])


def take_seats(server: Server, code: str, seats: list[int]) -> dict[int, dict[str, Any]]:
    grants = {}
    for seat in seats:
        response = server.http.post(f"/rooms/{code}/seats/{seat}", json={"name": f"p{seat}"})
        assert response.status_code == 201, response.text
        grants[seat] = response.json()
    return grants


def play_match(server: Server, code: str, grants: dict[int, dict[str, Any]]) -> list[Player]:
    players = [Player(server.ws(code, g["token"]), seat, seat) for seat, g in grants.items()]
    spectator = Player(server.ws(code), None, 99)
    for p in players:
        p.ws.send(json.dumps({"type": "ready"}))
    deadline = time.monotonic() + 120
    while not all(p.done for p in players):
        assert time.monotonic() < deadline, "the match did not finish"
        acted = False
        for p in [*players, spectator]:
            p.pump()
            acted = p.play() or acted
        if not acted:
            time.sleep(0)
    time.sleep(0.05)
    for p in [*players, spectator]:
        p.pump()
        p.ws.close()
    return [*players, spectator]


# --------------------------------------------------------------------------- leak checks


def check_frames(server: Server, code: str, clients: list[Player]) -> int:
    """Every frame against the record of its hand replayed to the frame's step."""
    hands = server.http.get(f"/rooms/{code}/hands").json()
    checked = 0
    for hand in hands:
        lines = server.http.get(f"/hands/{hand['id']}/record").json()
        assert replay(lines).result is not None
        table = table_from_header(lines[0])
        actions = [(line["seat"], action_from_json(line["action"])) for line in lines[1:-1]]
        frames: dict[int, list[tuple[Player, dict[str, Any]]]] = {}
        for client in clients:
            for frame in client.frames:
                if frame.get("hand") == hand["number"] and frame.get("observation") is not None:
                    frames.setdefault(frame["step"], []).append((client, frame))
        for step in range(len(actions) + 1):
            for client, frame in frames.get(step, []):
                check_frame(table, client.seat, frame)
                checked += 1
            if step < len(actions):
                table.apply(*actions[step])
    return checked


def check_frame(table: Any, seat: int | None, frame: dict[str, Any]) -> None:
    obs = frame["observation"]
    if seat is None:  # a spectator: nothing concealed at all
        assert obs["hand"] == [] and obs["drawn"] is None and obs["legal_actions"] == []
        assert all(m["tile"] is None for melds in obs["melds"] for m in melds
                   if m["kind"] == "kong" and m["source"] == 0)
    else:
        own = [tile_name(t) for t in range(34) for _ in range(table.concealed[seat][t])]
        assert obs["hand"] == own
        for other in range(4):
            if other != seat:
                for m in obs["melds"][other]:
                    if m["kind"] == "kong" and m["source"] == 0:
                        assert m["tile"] is None
    assert obs["hand_sizes"] == [sum(c) for c in table.concealed]
    for event in frame.get("events", []):
        if event["type"] == "draw" and event["seat"] != seat:
            assert "tile" not in event
    text = json.dumps(frame)
    assert "wall" not in json.loads(text)["observation"]
    assert "token" not in text


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize(
    "rules,options", [("gb", {}), ("huangyan", {"throw_limit": 2})], ids=["gb", "huangyan"]
)
def test_four_clients_play_a_match_and_see_nothing_hidden(
    server: Server, rules: str, options: dict[str, Any]
) -> None:
    code = create_room(server, rules=rules, options=options, hands=2, seed=11, turn_seconds=30)
    grants = take_seats(server, code, [0, 1, 2, 3])
    view = server.http.get(f"/rooms/{code}").json()
    assert [s["player"] for s in view["seats"]] == ["p0", "p1", "p2", "p3"]
    assert "token" not in json.dumps(view)
    clients = play_match(server, code, grants)
    assert check_frames(server, code, clients) > 200
    spectator_frames = [f for f in clients[-1].frames if f.get("observation")]
    assert spectator_frames
    hands = server.http.get(f"/rooms/{code}/hands").json()
    assert [h["number"] for h in hands] == [1, 2] and all(h["finished"] for h in hands)
    totals = [0, 0, 0, 0]
    for h in hands:
        totals = [a + b for a, b in zip(totals, h["result"]["deltas"], strict=True)]
    end = next(f for f in clients[0].frames if f["type"] == "match_end")
    assert end["totals"] == totals and sum(totals) == 0
    assert server.http.get(f"/rooms/{code}").json()["status"] == "finished"
    stats = server.http.get(f"/players/{grants[0]['player_id']}/stats").json()
    assert stats["hands"] == 2 and stats["points"] == totals[0]


def test_bots_fill_empty_seats_and_one_person_plays(server: Server) -> None:
    code = create_room(server, rules="gb", hands=1, seed=3, bots=[None, "random", None, None])
    grants = take_seats(server, code, [2])
    clients = play_match(server, code, grants)
    view = server.http.get(f"/rooms/{code}").json()
    assert [s["bot"] for s in view["seats"]] == ["efficient", "random", None, "efficient"]
    assert check_frames(server, code, clients) > 10


def test_tokens_errors_and_refusals(server: Server) -> None:
    code = create_room(server, rules="gb", hands=1, seed=4)
    grants = take_seats(server, code, [0, 1])
    assert server.http.post(f"/rooms/{code}/seats/0", json={"name": "x"}).status_code == 409
    assert server.http.post(f"/rooms/{code}/seats/7", json={"name": "x"}).status_code == 422
    assert server.http.get("/rooms/NOPE99").status_code == 404
    bad = server.http.post("/rooms", json={"rules": "gb", "bots": ["wild", None, None, None]})
    assert bad.status_code == 422 and "does not play gb" in bad.text
    # a bot that thinks for seconds would hold up every table on the server's event loop
    for thinker in ({"bots": ["search", None, None, None]}, {"fill_bot": "search@0.25"}):
        slow = server.http.post("/rooms", json={"rules": "gb", **thinker})
        assert slow.status_code == 422 and "thinks too long to play here" in slow.text
    assert server.http.post("/rooms", json={"rules": "xx"}).status_code == 422
    assert server.http.post("/rooms", json={"options": {"nope": 1}}).status_code == 422
    with pytest.raises(ConnectionClosed) as closed, server.ws(code, "not-a-token") as ws:
        ws.recv(timeout=2)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    one = server.ws(code, grants[0]["token"])
    two = server.ws(code, grants[1]["token"])
    frames = [json.loads(one.recv(timeout=2)) for _ in range(3)]
    assert [f["type"] for f in frames] == ["welcome", "state", "room"] and frames[0]["seat"] == 0
    assert [s["connected"] for s in frames[2]["view"]["seats"]] == [True, True, False, False]
    for message in ("not json", json.dumps({"type": "dance"}), json.dumps([1, 2]),
                    json.dumps({"type": "act", "action": {"type": "discard", "tile": "9z"}}),
                    "x" * 5000):
        one.send(message)
        reply = json.loads(one.recv(timeout=2))
        assert reply["type"] == "error", reply
    for ws in (one, two):
        ws.send(json.dumps({"type": "ready"}))
    deadline = time.monotonic() + 20
    state = None
    while state is None or state["observation"]["current"] not in (0, 1):
        assert time.monotonic() < deadline
        frame = receive(one, 0.5)
        if frame and frame["type"] in ("state", "update") and frame.get("observation"):
            state = frame
        receive(two, 0.001)
    on_turn = state["observation"]["current"]
    other = two if on_turn == 0 else one
    legal = state["observation"]["legal_actions"] if on_turn == 0 else None
    other.send(json.dumps({"type": "act", "action": {"type": "discard", "tile": "1m"}}))
    while True:
        reply = json.loads(other.recv(timeout=2))
        if reply["type"] == "error":
            break
    assert "not this seat's decision" in reply["message"] or "not in the concealed" in reply[
        "message"
    ]
    if legal:
        one.send(json.dumps({"type": "act", "action": legal[0], "step": state["step"] + 5}))
        while (reply := json.loads(one.recv(timeout=2)))["type"] != "error":
            pass
        assert "stale action" in reply["message"]
    one.close()
    two.close()


def test_a_huangyan_room_of_one_round(server: Server) -> None:
    """The match lasts until the deal has gone round once; the dealer keeps it when he wins,
    so the round may take more than four hands."""
    code = create_room(server, rules="huangyan", rounds=1, seed=21, bots=[None, "wild", "wild",
                                                                         "wild"])
    assert server.http.get(f"/rooms/{code}").json()["rounds"] == 1
    grants = take_seats(server, code, [0])
    clients = play_match(server, code, grants)
    hands = server.http.get(f"/rooms/{code}/hands").json()
    dealers = [h["dealer"] for h in hands]
    passes = sum(1 for a, b in itertools.pairwise(dealers) if a != b)
    last = hands[-1]["result"]
    assert passes == 3 and last["winner"] != dealers[-1]  # the fourth pass ended the match
    assert len(hands) >= 4
    for before, after, h in zip(dealers, dealers[1:], hands, strict=False):
        assert (after == before) == (h["result"]["winner"] == before)  # 连庄 only on his win
    assert check_frames(server, code, clients) > 10


def test_spectators_see_the_table_some_actions_late(server: Server) -> None:
    """With ``spectator_delay`` the spectator's view during a hand is the table that many actions
    ago (checked against the record at the frame's step); the end of the hand is shown at once."""
    code = create_room(server, rules="gb", hands=1, seed=5, spectator_delay=4)
    grants = take_seats(server, code, [0, 1, 2, 3])
    clients = play_match(server, code, grants)
    assert check_frames(server, code, clients) > 100
    spectator, players = clients[-1], clients[:-1]
    delayed = [f for f in spectator.frames if f.get("delayed")]
    assert delayed and all(f["events"] == [] for f in delayed)
    latest_step = max(f["step"] for p in players for f in p.frames if f.get("step") is not None)
    assert max(f["step"] for f in delayed) <= latest_step - 4
