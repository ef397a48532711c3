"""Hands pasted from other tools: Botzone tile names, Tenhou's z honours, upper-case suit letters
are detected (or named with --notation), scored as the same hand and echoed in majiang's
notation; what is in none of them gets an error naming the notations accepted."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang import NotationError, format_hand, parse_hand
from majiang.botzone.tiles import botzone_name
from majiang.cli import main
from majiang.pasted import detect, to_project
from majiang.tiles import tile_name

HAND = "123m456p789s11sEEE"
CANONICAL = "123m11789s456pEEE"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as stop:
        code = int(stop.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 F1 F1 F1", "botzone"),
        ("W1,W2,W3,B4,B5,B6,T7,T8,T9,T1,T1,F1,F1,F1", "botzone"),
        ("123m456p789s11s111z", "tenhou"),
        ("123m456p789s11S111Z", "tenhou"),
        ("123M456P789S11SEEE", "upper"),
        ("123M456P789S11S111z", "tenhou"),
        (HAND, "majiang"),
    ],
)
def test_each_notation_scores_the_same_hand(
    text: str, notation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert detect(text) == notation
    code, out, _ = run(["score", text], capsys)
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith(f"Hand     {CANONICAL}")
    assert ("read from" in first) == (notation != "majiang")
    code, named, _ = run(["score", text, "--notation", notation], capsys)
    assert code == 0 and named == out
    _, as_json, _ = run(["score", text, "--json"], capsys)
    _, reference, _ = run(["score", HAND, "--json"], capsys)
    assert json.loads(as_json) == json.loads(reference)


def test_tenhou_honour_order_white_green_red() -> None:
    assert to_project("1234567z", "tenhou")[0] == "ESWNPFC"  # 5z white, 6z green, 7z red
    assert to_project("19m19p19s12345677z")[0] == "19m19p19sESWNPFCC"
    assert to_project("406m", "tenhou")[0] == "456m"  # Tenhou's red five is a five


def test_botzone_dragons_and_flowers() -> None:
    assert to_project("J1 J2 J3", "botzone")[0] == "CFP"  # red, green, white
    hand = parse_hand(to_project("H1 H8 W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 J3 J3 J3")[0])
    assert format_hand(hand) == "ah123m11789s456pPPP"


tile_lists = st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
    lambda tiles: max(tiles.count(t) for t in tiles) <= 4
)


@settings(max_examples=100, deadline=None)
@given(tiles=tile_lists, flowers=st.sets(st.integers(34, 41)))
def test_botzone_names_of_any_tiles_read_back(tiles: list[int], flowers: set[int]) -> None:
    """Botzone's names as the Botzone bridge writes them give the same hand as majiang's names
    of the same tiles, the last one the winning tile."""
    ordered = [*sorted(flowers), *tiles]
    botzone = " ".join(botzone_name(t) for t in ordered)
    majiang = "".join(tile_name(t) for t in ordered)
    assert parse_hand(to_project(botzone)[0]) == parse_hand(majiang)


@pytest.mark.parametrize(
    ("command", "text", "says"),
    [
        (["score"], "W1 W2 F5", "Botzone has no tile F5"),
        (["score"], "123m456p789s11s118z", "8z is no tile"),
        (["score"], "123m456p789s11sEEX", "a hand is written in majiang's notation"),
        (["analyze"], "123m456p789s11sEX", "Botzone tile names (W1"),
        (["score", "--rules", "huangyan", "--wild", "7p"], "123m456p789s11sEEX", "Tenhou"),
        (["score", "--notation", "botzone"], HAND, "not Botzone tile names"),
    ],
)
def test_unrecognised_hand_names_the_notations(
    command: list[str], text: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*command, text], capsys)
    assert code == 1 and out == ""
    assert err.startswith("majiang: error: ") and says in err and err.count("\n") == 1


def test_typo_lower_case_honour_is_an_error_not_a_flower(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(["score", "123m456p789s11sEE55se"], capsys)
    assert code == 1 and "flower 'e' after the tiles" in err and "'E'" in err
    with pytest.raises(NotationError):
        parse_hand("123m456p789s11sEEEc")


def test_analyze_reads_pasted_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["analyze", "W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 F1 F1"], capsys)
    assert code == 0
    assert out.splitlines()[0] == "Hand     123m11789s456pEE (read from Botzone tile names)"
