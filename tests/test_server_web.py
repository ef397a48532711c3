"""Issue 7, the server side of the browser table: the page and its files, the list of rooms, the
rule sets' options, a finished hand's replay step by step, and the ``hint`` message.

In-process (FastAPI's TestClient, SQLite in a temporary directory): every answer is checked
against the engine itself (the record replayed, ``majiang.hints.hints`` on the seat's own
observation), and bad requests leave the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from majiang.engine.actions import action_from_json
from majiang.engine.record import replay, table_from_header
from majiang.engine.serialize import meld_to_json, observation_to_json
from majiang.hints import hints
from majiang.rules.registry import make_rules, rules_options
from majiang.server import create_app
from majiang.server.room import RoomRuntime
from majiang.tiles import tile_name
from server_helpers import SeatClient, new_room, no_rate_limit, play, take_seat

_OPEN: list[SeatClient] = []
"""Websocket clients still open: closed before the app stops, even when a test fails."""


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as c:
        try:
            yield c
        finally:
            while _OPEN:
                _OPEN.pop().close()


def connected(client: TestClient, code: str, token: str | None) -> SeatClient:
    """A websocket client of a seat (or a spectator), connected."""
    player = SeatClient(client, code, token)
    _OPEN.append(player)
    player.connect()
    return player


def runtime_of(client: TestClient, code: str) -> RoomRuntime:
    runtime: RoomRuntime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
    return runtime


def seated(client: TestClient, code: str, seat: int = 0) -> SeatClient:
    """A player in ``seat``, connected and ready (the match starts: the other seats are bots)."""
    grant = take_seat(client, code, seat, f"p{seat}")
    player = connected(client, code, grant["token"])
    player.send({"type": "ready"})
    player.barrier()
    return player


def finished_match(client: TestClient, rules: str = "gb", seed: int = 3,
                   hands: int = 1) -> tuple[str, list[dict[str, Any]]]:
    """A match of bots and one random player, played to its end: (code, its hands)."""
    code = new_room(client, rules=rules, hands=hands, seed=seed,
                    bots=[None, "random", "random", "random"])
    player = seated(client, code)
    play([player], random.Random(seed))
    player.close()
    listing = client.get(f"/rooms/{code}/hands").json()
    assert [h["finished"] for h in listing] == [True] * hands
    return code, listing


# ---------------------------------------------------------------------- the page


def test_the_page_and_its_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "i18n.js", "tiles.js", "board.js", "table.js", "sheet.js", "replay.js",
                 "lobby.js", "util.js", "style.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert response.text.strip(), name
    script = client.get("/static/app.js")
    assert script.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert script.headers["cache-control"] == "no-cache"  # revalidated: never a stale module
    assert client.get("/static/app.js", headers={"if-none-match": script.headers["etag"]}
                      ).status_code == 304
    labels = client.get("/static/labels.json")
    assert labels.headers["content-type"].startswith("application/json")
    assert labels.json()["labels"]["title"] == ["Mahjong", "麻将"]
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


# ---------------------------------------------------------------------- rule sets


def test_rule_sets_list_every_option_with_its_default(client: TestClient) -> None:
    answer = client.get("/rules").json()
    assert [r["name"] for r in answer] == ["gb", "huangyan"]
    for rule_set in answer:
        defaults = rules_options(make_rules(rule_set["name"]))
        assert {o["name"]: o["default"] for o in rule_set["options"]} == defaults
        assert rule_set["default_bot"] in rule_set["bots"]
        for option in rule_set["options"]:
            kind = type(option["default"])
            assert option["type"] == {bool: "bool", int: "int", str: "choice"}[kind]
            if option["type"] == "choice":
                assert option["default"] in option["choices"]
            assert option["doc"], option["name"]  # the options' own docstrings
    huangyan = {o["name"]: o for o in answer[1]["options"]}
    assert huangyan["gunner_test"]["choices"] == ["P1", "P2", "P3"]
    assert answer[0]["bots"] == ["random", "efficient", "fan", "guarded"]
    assert answer[1]["bots"] == ["random", "wild"]
    # every option listed is accepted back when creating a room
    for rule_set in answer:
        options = {o["name"]: o["default"] for o in rule_set["options"]}
        response = client.post("/rooms", json={"rules": rule_set["name"], "options": options})
        assert response.status_code == 201, response.text


# ---------------------------------------------------------------------- the list of rooms


def test_rooms_are_listed_newest_first_with_their_open_seats(client: TestClient) -> None:
    assert client.get("/rooms").json() == []
    first = new_room(client, rules="gb", bots=[None, None, "random", "fan"])
    second = new_room(client, rules="huangyan", hands=2, stake=3)
    rooms = client.get("/rooms").json()
    assert [r["code"] for r in rooms] == [second, first]
    assert rooms[0] == {
        "code": second, "rules": "huangyan", "status": "waiting", "stake": 3, "hands": 2,
        "rounds": None, "open_seats": [0, 1, 2, 3], "chosen_seed": False, "paused": False,
        "seats": [{"seat": s, "player": None, "bot": None} for s in range(4)],
    }
    assert rooms[1]["open_seats"] == [0, 1]
    grant = take_seat(client, first, 1, "Bo")
    listed = {r["code"]: r for r in client.get("/rooms").json()}[first]
    assert listed["open_seats"] == [0]
    assert listed["seats"][1] == {"seat": 1, "player": "Bo", "bot": None}
    assert grant["token"] not in client.get("/rooms").text

    # Bo is ready: the match starts, no open seat any more, the empty one filled by a bot
    player = connected(client, first, grant["token"])
    player.send({"type": "ready"})
    player.barrier()
    playing = client.get("/rooms", params={"status": "playing"}).json()
    assert [r["code"] for r in playing] == [first] and playing[0]["open_seats"] == []
    assert [r["code"] for r in client.get("/rooms?status=waiting").json()] == [second]
    assert client.get("/rooms?limit=1").json()[0]["code"] == second
    player.close()
    assert client.get("/rooms?status=lost").status_code == 422
    assert client.get("/rooms?limit=0").status_code == 422


# ---------------------------------------------------------------------- replays


@pytest.mark.parametrize("rules", ["gb", "huangyan"])
def test_a_finished_hand_replays_step_by_step(client: TestClient, rules: str) -> None:
    code, hands = finished_match(client, rules)
    hand_id = hands[0]["id"]
    answer = client.get(f"/hands/{hand_id}/replay")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    record = client.get(f"/hands/{hand_id}/record").json()
    assert data["id"] == hand_id and data["room"] == code and data["number"] == 1
    assert data["rules"] == rules and data["options"] == record[0]["options"]
    assert data["dealer"] == record[0]["dealer"] and data["result"] == record[-1]["result"]
    assert data["result"] == hands[0]["result"]
    assert data["seats"][0] == {"seat": 0, "player": "p0", "bot": None}
    assert [s["bot"] for s in data["seats"][1:]] == ["random"] * 3

    # the steps are the engine's: the deal, then each action of the record with its events and
    # the table after it, every hand face up
    steps = data["steps"]
    actions = record[1:-1]
    assert len(steps) == len(actions) + 1
    assert steps[0]["seat"] is None and steps[0]["action"] is None
    table = table_from_header(record[0])
    assert steps[0]["events"] == table.events
    for step, line in zip(steps[1:], actions, strict=True):
        assert (step["seat"], step["action"], step["events"]) == (
            line["seat"], line["action"], line["events"])
        table.apply(line["seat"], action_from_json(line["action"]))
    for index in (0, len(steps) // 2, len(steps) - 1):
        view = steps[index]["view"]
        table = table_from_header(record[0])
        for line in actions[:index]:
            table.apply(line["seat"], action_from_json(line["action"]))
        for seat in range(4):
            obs = table.observation(seat)
            assert view["hands"][seat] == [tile_name(t) for t in obs.hand]
            assert view["melds"][seat] == [meld_to_json(m) for m in obs.melds[seat]]
            assert view["drawn"][seat] == (None if obs.drawn is None else tile_name(obs.drawn))
        public = observation_to_json(table.observation(0))
        for key in ("discards", "flowers", "wall_remaining", "phase", "current", "dealer",
                    "deltas", "wild", "indicator", "raw_phase", "hand_sizes"):
            assert view[key] == public[key], key
        assert view["to_act"] == table.to_act()
        assert view["legal_actions"] == [] and view["hand"] is None
    final = replay(record)
    assert steps[-1]["view"]["deltas"] == list(final.result.deltas)  # type: ignore[union-attr]
    # only the last step (a score sheet shows the hands it was won with)
    short = client.get(f"/hands/{hand_id}/replay", params={"last": "true"}).json()
    assert short["steps"] == [steps[-1]] and short["result"] == data["result"]


def test_replays_of_unknown_or_unfinished_hands_are_404(client: TestClient) -> None:
    assert client.get("/hands/12345/replay").status_code == 404
    assert client.get("/hands/abc/replay").status_code == 422
    code = new_room(client, rules="gb", hands=2, seed=5, turn_seconds=60,
                    bots=[None, "random", "random", "random"])
    player = seated(client, code)
    hands = client.get(f"/rooms/{code}/hands").json()
    assert len(hands) == 1 and not hands[0]["finished"]
    answer = client.get(f"/hands/{hands[0]['id']}/replay")
    assert answer.status_code == 404 and "no finished hand" in answer.json()["detail"]
    # and the game goes on untouched
    play([player], random.Random(1))
    assert player.finished and not player.errors
    player.close()


# ---------------------------------------------------------------------- hints


def expected_hints(client: TestClient, code: str, seat: int) -> dict[str, Any]:
    runtime = runtime_of(client, code)
    assert runtime.table is not None
    return hints(runtime.table.observation(seat), runtime.table.rules)


@pytest.mark.parametrize("rules", ["gb", "huangyan"])
def test_a_seat_gets_the_hints_of_its_own_hand(client: TestClient, rules: str) -> None:
    rng = random.Random(4)
    code = new_room(client, rules=rules, hands=1, seed=11, turn_seconds=60,
                    bots=[None, "random", "random", "random"])
    player = seated(client, code)
    asked = 0
    while not player.finished and asked < 6:
        frame = player.to_answer()
        if frame is None:
            player.barrier()
            continue
        if frame["observation"]["hand"]:
            player.send({"type": "hint"})
            answer = player.receive()
            assert answer == {"v": 1, "room": code, "type": "hint",
                              "hints": expected_hints(client, code, 0)}
            assert answer["hints"]["rules"] == rules and answer["hints"]["tiles"] in (13, 14)
            asked += 1
        else:  # Huangyan's bullets before the deal: no tiles to advise on
            player.send({"type": "hint"})
            assert player.receive()["type"] == "error"
            assert player.errors.pop() == "no tiles in hand yet: nothing to advise on"
        player.answer(rng)
    assert asked == 6 and not player.errors
    player.close()


def test_hints_refused_to_spectators_and_seats_without_tiles(client: TestClient) -> None:
    code = new_room(client, rules="gb", hands=1, seed=2, turn_seconds=60,
                    bots=[None, "random", "random", "random"])
    grant = take_seat(client, code, 0, "p0")
    player = connected(client, code, grant["token"])
    player.send({"type": "hint"})  # before the match: no hand
    assert player.receive() == {"v": 1, "type": "error", "message": "no hand is being played"}
    assert player.errors.pop() == "no hand is being played"
    player.send({"type": "ready"})
    player.barrier()

    watcher = connected(client, code, None)
    before = watcher.latest
    assert before is not None
    watcher.send({"type": "hint"})
    error = watcher.receive()
    assert error == {"v": 1, "type": "error", "message": "spectators get no hints"}
    watcher.send({"type": "hint", "seat": 0})  # nothing to smuggle in
    assert watcher.receive()["type"] == "error"
    watcher.send({"type": "resync"})
    again = watcher.receive()
    assert again["step"] == before["step"] and again["observation"] == before["observation"]
    assert again["observation"]["hand"] == [] and again["observation"]["legal_actions"] == []

    # the game is intact: the seat plays the hand to its end; after it, no hints
    play([player], random.Random(2))
    assert player.finished and not player.errors
    player.send({"type": "hint"})
    assert player.receive()["type"] == "error"
    watcher.close()
    player.close()


def test_the_last_step_names_each_fans_tiles_in_the_winning_hand(client: TestClient) -> None:
    """A won Guobiao hand's last step says which of the winner's tiles make each fan (for the
    score sheet's highlight): the fans of the result, each with tiles of the winner's hand or
    None, and each fan's definition in Chinese and English; the helper itself on a pure
    straight."""
    from collections import Counter

    from majiang.rules.guobiao.fan_definitions import DEFINITIONS
    from majiang.rules.guobiao.fan_tiles import fan_tiles
    from majiang.rules.guobiao.fans import FANS

    for seed in range(3, 12):
        _, hands = finished_match(client, "gb", seed=seed)
        if hands[0]["result"]["winner"] is not None:
            break
    result = hands[0]["result"]
    assert result["winner"] is not None, "no seed won: choose others"
    view = client.get(f"/hands/{hands[0]['id']}/replay", params={"last": "true"}).json()[
        "steps"][0]["view"]
    winner = result["winner"]
    assert set(view["fan_tiles"]) == {f["en"] for f in result["detail"]["fans"]}
    held = Counter(view["hands"][winner] + view["flowers"][winner])
    for meld in view["melds"][winner]:
        tile = meld["tile"]
        held.update([f"{int(tile[0]) + i}{tile[1]}" for i in range(3)] if meld["kind"] == "chow"
                    else [tile] * (4 if meld["kind"] == "kong" else 3))
    for fan, tiles in view["fan_tiles"].items():  # tiles of the winner's hand, or None
        assert tiles is None or not Counter(tiles) - held, (fan, tiles, held)
    # and each fan's definition in both languages, for the sheet's (i)
    by_name = {FANS[fan].en: (zh, en) for fan, (zh, en) in DEFINITIONS.items()}
    assert {fan: (d["zh"], d["en"]) for fan, d in view["fan_definitions"].items()} == {
        f["en"]: by_name[f["en"]] for f in result["detail"]["fans"]}
    hand = [f"{r}m" for r in range(1, 10)] + ["1p", "2p", "3p", "5s", "5s"]
    straight = fan_tiles("Pure Straight", hand, [], [], "5s", seat_wind=0, prevalent_wind=0)
    assert straight == [f"{r}m" for r in range(1, 10)]
    winds = {"seat_wind": 0, "prevalent_wind": 0}
    assert fan_tiles("Self-Drawn", ["5s"], [], [], "5s", **winds) == ["5s"]
    pung = [{"kind": "pung", "tile": "F", "source": 1}]
    assert fan_tiles("Dragon Pung", ["C", "C", "C", "1m"], pung, [], "1m", **winds) == (
        ["C"] * 3 + ["F"] * 3)
    assert fan_tiles("Pure Double Chow", ["1m"], [], [], "1m", **winds) is None


def test_a_huangyan_winners_last_step_defines_each_doubling(client: TestClient) -> None:
    """A Huangyan hand won with doublings: the last step's ``fan_definitions`` holds each
    doubling's definition by the scorer's Chinese name, in both languages."""
    from majiang.rules.huangyan.doubling_definitions import DEFINITIONS

    for seed in range(1, 40):
        _, hands = finished_match(client, "huangyan", seed=seed)
        result = hands[0]["result"]
        if result["winner"] is not None and result["detail"]["winner"]["fans"]:
            break
    else:
        raise AssertionError("no seed won with a doubling: choose others")
    view = client.get(f"/hands/{hands[0]['id']}/replay", params={"last": "true"}).json()[
        "steps"][0]["view"]
    doublings = result["detail"]["winner"]["fans"]
    assert {name: (d["zh"], d["en"]) for name, d in view["fan_definitions"].items()} == {
        f["zh"]: DEFINITIONS[f["zh"]] for f in doublings}
