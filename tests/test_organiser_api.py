"""The organiser's HTTP API on SQLite and PostgreSQL: tokens, every change in one transaction
or none, corrections with their history, exports, a tournament from registration to standings.

PostgreSQL: the URL comes from ``MAJIANG_TEST_POSTGRES`` (``.ci/postgres.sh`` starts a server and
prints it); without it the PostgreSQL half is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from majiang.server import create_app
from majiang.server.organiser_routes import TOKEN_HEADER
from server_helpers import fresh_postgres_database

API = "/organiser/api"
NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A server on a fresh database of each kind, shared by the tests (each makes its own
    sheets and tournaments)."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("organiser") / "org.db"
        with TestClient(create_app(f"sqlite:///{path}")) as c:
            yield c
        return
    with fresh_postgres_database() as url, TestClient(create_app(url)) as c:
        yield c


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def refused(response: Any, status: int, message: str) -> None:
    assert response.status_code == status, response.text
    assert message in response.json()["detail"], response.json()["detail"]


def new_game(client: TestClient, **settings: Any) -> tuple[str, dict[str, str]]:
    body = ok(client.post(f"{API}/games", json={"rules": "gb", "names": NAMES, **settings}), 201)
    return body["code"], {TOKEN_HEADER: body["token"]}


def enter(client: TestClient, code: str, token: dict[str, str], entry: dict[str, Any],
          **extra: Any) -> Any:
    return client.post(f"{API}/games/{code}/entries", headers=token,
                       json={"entry": entry, **extra})


WIN = {"kind": "win", "winner": 0, "discarder": 2, "points": 10}


def test_a_sheet_records_hands_and_shows_the_payments_first(client: TestClient) -> None:
    code, token = new_game(client)
    refused(client.post(f"{API}/games/{code}/preview", json={"entry": WIN}), 403, "token")
    preview = ok(client.post(f"{API}/games/{code}/preview", headers=token, json={"entry": WIN}))
    assert preview["line"]["deltas"] == [34, -8, -18, -8] and preview["totals"] == [34, -8, -18,
                                                                                     -8]
    assert ok(client.get(f"{API}/games/{code}"))["entries"] == []  # a preview saves nothing
    game = ok(enter(client, code, token, WIN), 201)
    assert game["totals"] == [34, -8, -18, -8] and game["hands_played"] == 1
    assert game["next_hand"] == {"number": 2, "dealer": 1, "prevalent_wind": 0,
                                 "dealer_count": 1, "thrown": [0, 0, 0, 0],
                                 "seat_winds": [3, 0, 1, 2]}
    hand = "[CCC,1][SSS,2]123m456m1m1m"
    game = ok(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": None,
                                          "tiles": hand}), 201)
    line = game["entries"][1]
    assert line["points"] == 11 and line["detail"]["counted_by"] == "tiles"
    assert [f["en"] for f in line["detail"]["fans"]][:2] == ["Half Flush", "Dragon Pung"]


def test_changes_need_the_token_and_reading_does_not(client: TestClient) -> None:
    code, token = new_game(client)
    refused(enter(client, code, {}, WIN), 403, "needs its token")
    refused(enter(client, code, {TOKEN_HEADER: "wrong"}, WIN), 403, "needs its token")
    assert client.get(f"{API}/games/{code}/access", headers=token).status_code == 204
    assert client.get(f"{API}/games/{code}/access").status_code == 403
    ok(enter(client, code, token, WIN), 201)
    assert ok(client.get(f"{API}/games/{code.lower()}"))["totals"] == [34, -8, -18, -8]
    refused(client.get(f"{API}/games/NOSUCH"), 404, "no score sheet")


def test_bad_entries_save_nothing(client: TestClient) -> None:
    code, token = new_game(client)
    ok(enter(client, code, token, WIN), 201)
    before = ok(client.get(f"{API}/games/{code}"))
    refused(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": 1,
                                        "points": 8}), 422, "seat 1 is entered twice")
    refused(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": 0,
                                        "tiles": "123m456p789s11sEE1p"}), 422,
            "hand 2: not a winning hand")
    refused(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": 0,
                                        "points": 5}), 422,
            "5 fans without flowers is under the 8-fan minimum: not a win")
    refused(client.post(f"{API}/games/{code}/entries", headers=token, content=b"{not json"),
            422, "not JSON")
    refused(client.post(f"{API}/games/{code}/entries", headers=token,
                        content=b'{"entry": "' + b"x" * 70_000 + b'"}'), 413, "larger than")
    after = ok(client.get(f"{API}/games/{code}"))
    assert after == before
    assert len(ok(client.get(f"{API}/games/{code}/history"))) == 1


def test_a_false_win_is_recorded_where_the_game_plays_them(client: TestClient) -> None:
    code, token = new_game(client, options={"false_win": True})
    game = ok(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": 0,
                                          "points": 5}), 201)
    line = game["entries"][0]
    assert line["kind"] == "false_win" and "recorded as a false win" in line["message"]
    assert game["totals"] == [10, -30, 10, 10] and game["next_hand"]["number"] == 1


def test_a_correction_recomputes_and_is_kept_in_the_history(client: TestClient) -> None:
    code, token = new_game(client)
    ok(enter(client, code, token, WIN), 201)
    game = ok(enter(client, code, token, {"kind": "win", "winner": 1, "discarder": None,
                                          "points": 8}), 201)
    first = game["entries"][0]["id"]
    game = ok(client.put(f"{API}/games/{code}/entries/{first}", headers=token,
                         json={"entry": {**WIN, "points": 20}}))
    assert game["entries"][0]["totals"] == [44, -8, -28, -8]
    assert game["totals"] == [44 - 16, -8 + 48, -28 - 16, -8 - 16]
    history = ok(client.get(f"{API}/games/{code}/history"))
    assert [h["action"] for h in history] == ["added", "added", "corrected"]
    assert history[2]["before"]["points"] == 10 and history[2]["after"]["points"] == 20
    game = ok(client.delete(f"{API}/games/{code}/entries/{first}", headers=token))
    assert len(game["entries"]) == 1 and game["entries"][0]["hand"]["number"] == 1
    assert game["totals"] == [-16, 48, -16, -16]
    assert ok(client.get(f"{API}/games/{code}/history"))[-1]["action"] == "deleted"


def test_a_correction_that_breaks_a_later_hand_saves_nothing(client: TestClient) -> None:
    code, token = new_game(client, rules="huangyan")
    none = {"1": 0, "2": 0, "3": 0}
    game = ok(enter(client, code, token, {"kind": "win", "winner": 0, "discarder": None,
                                          "points": 50, "losers": none}), 201)
    ok(enter(client, code, token, {"kind": "draw", "throw": 1, "accepted": [1]}), 201)
    first = game["entries"][0]["id"]
    before = ok(client.get(f"{API}/games/{code}"))
    refused(client.put(f"{API}/games/{code}/entries/{first}", headers=token, json={"entry": {
        "kind": "win", "winner": 1, "discarder": None, "points": 50,
        "losers": {"0": 0, "2": 0, "3": 0}}}), 422,
        "this change would make entry 2 impossible: hand 2: the dealer")
    assert ok(client.get(f"{API}/games/{code}")) == before
    # a draw passes the deal to seat 1, who throws; without the draw seat 0 deals and accepts
    code, token = new_game(client, rules="huangyan")
    game = ok(enter(client, code, token, {"kind": "draw"}), 201)
    ok(enter(client, code, token, {"kind": "draw", "throw": 1, "accepted": [0]}), 201)
    before = ok(client.get(f"{API}/games/{code}"))
    refused(client.delete(f"{API}/games/{code}/entries/{game['entries'][0]['id']}",
                          headers=token), 422, "deleting it would make a later entry impossible")
    assert ok(client.get(f"{API}/games/{code}")) == before


def test_an_entry_inserted_before_another(client: TestClient) -> None:
    code, token = new_game(client)
    game = ok(enter(client, code, token, WIN), 201)
    first = game["entries"][0]["id"]
    for _ in range(12):  # more than the gap between two positions allows without renumbering
        game = ok(enter(client, code, token, {"kind": "draw"}, before=first), 201)
    kinds = [e["kind"] for e in game["entries"]]
    assert kinds == ["draw"] * 12 + ["win"]
    assert game["entries"][-1]["hand"]["number"] == 13


def test_a_change_made_meanwhile_is_refused(client: TestClient) -> None:
    code, token = new_game(client)
    version = ok(client.get(f"{API}/games/{code}"))["version"]
    ok(enter(client, code, token, WIN, version=version), 201)
    refused(enter(client, code, token, WIN, version=version), 409, "changed meanwhile")


def test_exports(client: TestClient) -> None:
    code, token = new_game(client)
    ok(enter(client, code, token, WIN), 201)
    csv = client.get(f"{API}/games/{code}/export.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[1].startswith("1,1,E,Ann,win,Ann,Cat,10")
    document = ok(client.get(f"{API}/games/{code}/export.json"))
    assert document["entries"] == [WIN] and document["code"] == code


def test_filters(client: TestClient) -> None:
    code, token = new_game(client)
    ok(enter(client, code, token, WIN), 201)
    ok(enter(client, code, token, {"kind": "draw"}), 201)
    ok(enter(client, code, token, {"kind": "win", "winner": 3, "discarder": None, "points": 9}),
       201)
    assert [e["kind"] for e in ok(client.get(f"{API}/games/{code}?kind=draw"))["entries"]] == [
        "draw"]
    assert len(ok(client.get(f"{API}/games/{code}?kind=deal_in&seat=2"))["entries"]) == 1
    assert len(ok(client.get(f"{API}/games/{code}?seat=3"))["entries"]) == 1
    assert client.get(f"{API}/games/{code}?kind=lost").status_code == 422


def test_bad_settings(client: TestClient) -> None:
    refused(client.post(f"{API}/games", json={"rules": "gb", "names": ["A", "B", "C"]}), 422,
            "four names")
    refused(client.post(f"{API}/games", json={"rules": "riichi", "names": NAMES}), 422,
            "unknown rule set")
    refused(client.post(f"{API}/games", json={"names": NAMES, "hands": 0}), 422,
            "the number of hands must be a whole number from 1 to 64")
    rules = ok(client.get(f"{API}/rules"))
    assert [r["name"] for r in rules] == ["gb", "huangyan"]
    assert rules[1]["sheet"]["losers_count"] and not rules[0]["sheet"]["losers_count"]


# ---------------------------------------------------------------------------- tournaments


def test_a_tournament_from_registration_to_standings(client: TestClient) -> None:
    body = ok(client.post(f"{API}/tournaments", json={"name": "Spring", "rounds": 2, "seed": 9}),
              201)
    code, token = body["code"], {TOKEN_HEADER: body["token"]}
    base = f"{API}/tournaments/{code}"
    refused(client.post(f"{base}/players", json={"name": "X"}), 403, "need the tournament's token")
    for i in range(8):
        ok(client.post(f"{base}/players", headers=token, json={"name": f"P{i + 1}"}), 201)
    refused(client.post(f"{base}/players", headers=token, json={"name": "p1"}), 422,
            "registered already")
    view = ok(client.post(f"{base}/rounds", headers=token), 201)
    tables = view["rounds"][0]["tables"]
    assert len(tables) == 2 and view["settings"]["seed"] == 9
    public = ok(client.get(base))
    assert "seed" not in public["settings"] and not public["organiser"]
    assert public["rounds"] == view["rounds"]
    version = ok(client.get(f"{base}/version"))["version"]
    refused(client.put(f"{base}/rounds/1/tables/1/result", headers=token,
                       json={"scores": [10, 0, 0, 0]}), 422, "sum to 10, not 0")
    ok(client.put(f"{base}/rounds/1/tables/1/result", headers=token,
                  json={"scores": [30, 10, -10, -30]}))
    sheet = ok(client.post(f"{base}/rounds/1/tables/2/sheet", headers=token))["code"]
    game = ok(client.get(f"{API}/games/{sheet}"))
    assert game["settings"]["names"] == [p["name"] for p in tables[1]["players"]]
    assert game["tournament"] == {"code": code, "name": "Spring", "round": 1, "table": 2}
    ok(enter(client, sheet, token, WIN), 201)  # the tournament's token opens its tables' sheets
    view = ok(client.put(f"{base}/rounds/1/tables/2/result", headers=token,
                         json={"from_sheet": True}))
    assert view["rounds"][0]["tables"][1]["scores"] == [34, -8, -18, -8]
    assert view["complete_rounds"] == [1]
    assert ok(client.get(f"{base}/version"))["version"] > version
    ranked = view["standings"]
    assert [r["table_points"] for r in ranked][:2] == [4.0, 4.0]
    assert ranked[0]["score"] == 34
    first = tables[0]["players"][0]["id"]
    view = ok(client.post(f"{base}/penalties", headers=token,
                          json={"round": 1, "player": first, "points": 30, "reason": "late"}),
              201)
    penalised = next(s for s in view["standings"] if s["player"] == first)
    assert penalised["score"] == 0 and penalised["penalties"] == 30
    csv = client.get(f"{base}/standings.csv").text.splitlines()
    assert csv[0] == ("rank,name,table points,score,penalties,round 1 table points,"
                      "round 1 score")
    ok(client.post(f"{base}/rounds", headers=token), 201)
    view = ok(client.get(f"{base}?after=1"))
    assert all(len(s["rounds"]) == 1 for s in view["standings"])
    assert view["report"]["rounds"][1]["repeat_meetings"] >= 2


def test_organiser_changes_are_checked(client: TestClient) -> None:
    body = ok(client.post(f"{API}/tournaments", json={"name": "Small", "rounds": 3}), 201)
    code, token = body["code"], {TOKEN_HEADER: body["token"]}
    base = f"{API}/tournaments/{code}"
    for i in range(5):
        ok(client.post(f"{base}/players", headers=token, json={"name": f"P{i + 1}"}), 201)
    refused(client.post(f"{base}/rounds", headers=token), 422,
            "5 players need 3 substitutes")
    for i in range(3):
        ok(client.post(f"{base}/players", headers=token,
                       json={"name": f"S{i + 1}", "substitute": True}), 201)
    view = ok(client.post(f"{base}/rounds", headers=token), 201)
    a = view["rounds"][0]["tables"][0]["players"][0]["id"]
    b = view["rounds"][0]["tables"][1]["players"][0]["id"]
    view = ok(client.post(f"{base}/rounds/1/swap", headers=token, json={"a": a, "b": b}))
    assert view["rounds"][0]["tables"][1]["players"][0]["id"] == a
    ok(client.put(f"{base}/rounds/1/tables/1/result", headers=token,
                  json={"scores": [0, 0, 0, 0]}))
    refused(client.post(f"{base}/rounds/1/swap", headers=token, json={"a": a, "b": b}), 422,
            "has its result")
    refused(client.delete(f"{base}/rounds/1", headers=token), 422, "has results")
    ok(client.delete(f"{base}/rounds/1/tables/1/result", headers=token))
    ok(client.delete(f"{base}/rounds/1", headers=token))
    view = ok(client.post(f"{base}/players/1/withdraw", headers=token, json={}))
    assert view["players"][0]["withdrawn"]
    view = ok(client.post(f"{base}/rounds", headers=token), 201)  # four left: one table
    assert [p["id"] for p in view["rounds"][0]["tables"][0]["players"]] != []
    assert 1 not in [p["id"] for t in view["rounds"][0]["tables"] for p in t["players"]]
    refused(client.get(base, headers={TOKEN_HEADER: "wrong"}), 403, "not this tournament")
    refused(client.get(f"{API}/tournaments/NOSUCH"), 404, "no tournament")
