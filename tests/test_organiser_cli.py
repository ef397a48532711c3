"""``majiang sheet``: the score sheet from the terminal, on the server's database: a person
answers the questions, sees the payments, corrects a hand; bad answers are said in one line and
asked again; the browser's sheets and the terminal's are the same."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from majiang.cli import main
from majiang.server import organiser_store as org
from majiang.server.store import Store


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'sheet.db'}"


def new_sheet(db: str, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["sheet", "--db", db, "new", "Ann,Bob,Cat,Dan", *extra]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sheet ") and "token " in out
    return out.split()[1]


def play(db: str, code: str, answers: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["sheet", "--db", db, "play", code]) == 0
    return capsys.readouterr().out


def view(db: str, code: str) -> dict:  # type: ignore[type-arg]
    store = Store(db)
    try:
        return org.game_view(store, code)
    finally:
        store.close()


def test_hands_entered_in_the_terminal(db: str, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code = new_sheet(db, capsys)
    out = play(db, code, [
        "w", "ann", "cat", "t", "123456789m123p5s5s", "", "0", "", "y",  # tiles
        "w", "1", "s", "p", "8", "1", "", "y",                          # 8 fans + a flower
        "d", "", "y",                                                    # a draw
        "w", "dan", "0", "f", "28, 62", "", "", "y",                    # fans picked
        "q",
    ], monkeypatch, capsys)
    assert "-> Ann (E) wins on Cat (W)'s discard, 22 (Pure Straight 16" in out
    assert "Ann +46 (46)  Bob -8 (-8)  Cat -30 (-30)  Dan -8 (-8)" in out
    assert "-> Bob (E) wins, self-drawn, 9" in out
    assert "-> Dan (E) wins on Ann (S)'s discard, 18 (Pure Straight 16, Concealed Hand 2)" in out
    assert f"sheet {code}: hand 5, South round, dealer Ann (E)" in out
    game = view(db, code)
    assert [e["kind"] for e in game["entries"]] == ["win", "win", "draw", "win"]
    assert game["totals"] == [46 - 17 - 26, -8 + 51 - 8, -30 - 17 - 8, -8 - 17 + 42]


def test_bad_answers_are_said_and_asked_again(db: str, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = new_sheet(db, capsys)
    out = play(db, code, [
        "w", "Eve", "ann", "ann", "bob", "x", "p", "eight", "7", "0", "",  # under 8: refused
        "w", "ann", "bob", "t", "123m456p789s11sEE1p", "kongg", "", "0", "",  # does not win
        "hop",
        "e 3",
        "q",
    ], monkeypatch, capsys)
    assert "majiang: error: 'Eve' is none of the seats offered" in out
    assert "majiang: error: 'ann' is none of the seats offered" in out  # the winner again
    assert "majiang: error: answer one of t, f, p" in out
    assert "majiang: error: fans without flowers must be a whole number, not 'eight'" in out
    assert ("majiang: error: hand 1: 7 fans without flowers is under the 8-fan minimum: not a "
            "win, and this game does not play false wins") in out
    assert "majiang: error: 'kongg' is no situation: answer last_tile, kong, fourth_tile" in out
    assert "majiang: error: hand 1: not a winning hand" in out
    assert "majiang: error: unknown command 'hop'" in out
    assert "majiang: error: there is no entry 3 (1-0)" in out
    assert "Traceback" not in out
    assert view(db, code)["entries"] == []


def test_a_correction_and_a_deletion(db: str, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code = new_sheet(db, capsys)
    play(db, code, ["w", "0", "2", "p", "10", "0", "", "y", "d", "", "y", "q"], monkeypatch,
         capsys)
    out = play(db, code, ["e 1", "", "", "", "", "20", "0", "", "y",  # the old answers kept
                          "x 2", "y", "h", "q"], monkeypatch, capsys)
    assert "corrected; every later hand recomputed." in out and "deleted." in out
    assert "corrected: " in out and "deleted: " in out
    game = view(db, code)
    assert game["totals"] == [44, -8, -28, -8] and len(game["entries"]) == 1


def test_huangyan_asks_for_the_wild_the_losers_and_the_gunner(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = new_sheet(db, capsys, "--rules", "huangyan")
    out = play(db, code, [
        "w", "0", "cat", "dan", "p", "120", "", "40", "20", "20", "y", "", "y",
        "q",
    ], monkeypatch, capsys)
    assert "Ann +60 (60)  Bob +20 (20)  Cat +360 (360)  Dan -440 (-440)" in out
    assert "bullets +0 +0 +6 -6" in out


def test_show_and_export(db: str, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    code = new_sheet(db, capsys, "--hands", "4")
    play(db, code, ["w", "0", "s", "p", "8", "0", "", "y", "q"], monkeypatch, capsys)
    assert main(["sheet", "--db", db, "show", code]) == 0
    out = capsys.readouterr().out
    assert "  1. E1  Ann (E) wins, self-drawn, 8" in out
    assert "Ann        1           1         0           0     8     48" in out
    assert main(["sheet", "--db", db, "export", code]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1,1,E,Ann,win,Ann,self-drawn,8")
    assert main(["sheet", "export", code, "--format", "json", "--db", db]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == [48, -16, -16, -16]


def test_errors_are_one_line(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sheet", "--db", db, "show", "NOSUCH"]) == 1
    assert capsys.readouterr().err == "majiang: error: no score sheet 'NOSUCH'\n"
    assert main(["sheet", "--db", db, "new", "Ann,Bob,Ann,Dan"]) == 1
    assert capsys.readouterr().err == ("majiang: error: Ann is entered twice: each seat needs "
                                       "its own name\n")
    assert main(["sheet", "--db", db, "new", "Ann,Bob"]) == 1
    assert "four names" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["sheet", "--db", db, "play"])
    assert stop.value.code == 2
