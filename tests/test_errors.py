"""Bad input: every error is the documented MajiangError subclass with a clear message."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang import (
    InvalidHandError,
    MajiangError,
    NotationError,
    NotWinningError,
    OptionError,
    SituationError,
    format_hand,
    parse_hand,
    parse_tiles,
    score,
)
from majiang.random_hands import random_winning_hand

VALID = "123m456p789s11sEEE"  # 14 tiles, wins on E while holding two more E


def test_hierarchy() -> None:
    assert issubclass(MajiangError, ValueError)
    for exc in (InvalidHandError, SituationError, OptionError):
        assert issubclass(exc, MajiangError)
    assert issubclass(NotationError, InvalidHandError)
    assert issubclass(NotWinningError, InvalidHandError)


def test_valid_reference_hand_scores() -> None:
    assert score(VALID).total > 0


def position_in(message: str, text: str) -> int | None:
    """The 1-based position named by 'at position N of <text>' in an error message."""
    found = re.search(r"at position (\d+) of (.*)$", message)
    if found is None:
        return None
    assert found.group(2) == repr(text)
    return int(found.group(1))


# --------------------------------------------------------------------------- notation errors

# (text, what the message says, 1-based position of the culprit)
POSITIONED = [
    # unknown characters
    ("123m456p789s11sEEX", "unexpected character 'X'", 18),
    ("123m456p789s11sEE#", "unexpected character '#'", 18),
    ("123m456p789s11sE-EE", "unexpected character '-'", 17),
    ("123m456p789s11sEE中E", "unexpected character '中'", 18),
    # bad suit suffix (letters are case-sensitive: M is not a suit)
    ("123x456p789s11sEEE", "unexpected character 'x'", 4),
    ("123M456p789s11sEEE", "unexpected character 'M'", 4),
    ("123m456P789s11sEEE", "digits without a suit letter", 5),
    # digit 0
    ("023m456p789s11sEEE", "0 is not a tile rank", 1),
    ("123m456p709s11sEEE", "0 is not a tile rank", 10),
    # digits without a suit letter
    ("123m456p789s11sEE1", "digits without a suit letter", 18),
    ("123m456p789s11EEE", "digits without a suit letter", 13),
    ("123m456p789s11sEE12", "digits without a suit letter", 18),
    ("12E3m456p789s11sEE", "digits without a suit letter", 1),
    # suit letter without digits
    ("m23m456p789s11sEEE", "suit letter 'm' without digits", 1),
    ("123m456pp789s11sEEE", "suit letter 'p' without digits", 9),
    ("123m456p789s11sEEEs", "suit letter 's' without digits", 19),
    # brackets
    ("[123m456p789s11sEEE", "'[' is never closed", 1),
    ("123m456p789s11sEE[E", "'[' is never closed", 18),
    ("[123m[456p]789s11sEEE", "'[' inside a set", 6),
    ("123m]456p789s11sEEE", "']' without '['", 5),
    ("123m,456p789s11sEEE", "',' outside a set", 5),
    # flowers
    ("aa123m456p789s11sEEE", "flower 'a' appears twice", 2),
    ("aba123m456p789s11sEEE", "flower 'a' appears twice", 3),
    ("a123m456p789s11sEEEb", "flower 'b' after the tiles", 20),
    ("[123ma]456p789s11sEEE", "a flower cannot be part of a set", 6),
    ("[EEhE]456p789s11sEEE", "a flower cannot be part of a set", 4),
]


@pytest.mark.parametrize(("text", "says", "where"), POSITIONED)
def test_notation_error_with_position(text: str, says: str, where: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    message = str(info.value)
    assert says in message
    assert position_in(message, text) == where
    assert info.value.position == where - 1
    assert info.value.text == text


# (text, what the message says); the position must point inside the offending set.
BAD_MELDS = [
    ("[12m]456p789s11sEEE", "chow, pung or kong"),
    ("[EEF]456p789s11sEEE", "chow, pung or kong"),
    ("[EFP]456p789s11sEE", "chow, pung or kong"),
    ("[89m1s]456p789s11sEE", "chow, pung or kong"),
    ("[1m2s3p]456p789s11sEE", "chow, pung or kong"),
    ("[135m]456p789s11sEE", "chow, pung or kong"),
    ("[11m]456p789s11sEEE", "chow, pung or kong"),
    ("[11111m]456p789s11sE", "chow, pung or kong"),
    ("[1234m]456p789s11sE", "chow, pung or kong"),
    ("[]123m456p789s11sEEE", "chow, pung or kong"),
    ("[,1]123m456p789s11sE", "chow, pung or kong"),
    ("[123m,4]456p789s11sEE", "1-3"),
    ("[123m,0]456p789s11sEE", "1-3"),
    ("[123m,5]456p789s11sEE", "1-3"),
    ("[123m4]456p789s11sEE", "1-3"),
    ("[111s,5]456p789m11sEE", "1-3"),
    ("[EEE,7]456p789s11sNN", "1-3"),
    ("[EEEE,4]456p789s11sNN", "5-7"),
    ("[EEEE,0]456p789s11sNN", "5-7"),
    ("[EEEE,8]456p789s11sNN", "5-7"),
    ("[EEEE,9]456p789s11sNN", "5-7"),
    ("[123m,]456p789s11sEE", "source digit"),
    ("[123m,x]456p789s11sEE", "'x'"),
    ("[EEE,12]456p789s11sEE", "source digit"),
    ("[EEE,1E]456p789s11sE", "source digit"),
    ("[123m,1 2]456p789s11sEE", "source digit"),
    ("[123m,1,2]456p789s11sEE", "source"),
]


@pytest.mark.parametrize(("text", "says"), BAD_MELDS)
def test_malformed_meld(text: str, says: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    message = str(info.value)
    assert says in message
    where = position_in(message, text)
    assert where is not None
    assert 1 <= where <= text.index("]") + 1


def test_more_than_four_declared_sets() -> None:
    text = "[111m][222m][333m][444m][555m]5m"
    with pytest.raises(NotationError, match="more than 4 declared sets") as info:
        parse_hand(text)
    assert info.value.position is not None
    assert info.value.position >= text.index("[555m]")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("11111m456p789s11sE", "5 copies of 1m"),
        ("[1111m]1m456p789s11sE", "5 copies of 1m"),
        ("[EEE][EEE]123m456pEE", "8 copies of E"),
        ("[123m][123m][123m]123m1m1m", "6 copies of 1m"),
        ("[FFFF,2]123m456p789sFF", "6 copies of F"),
    ],
)
def test_more_than_four_copies(text: str, says: str) -> None:
    with pytest.raises(InvalidHandError, match=re.escape(says)):
        parse_hand(text)
    with pytest.raises(InvalidHandError, match=re.escape(says)):
        score(text)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   ", 0),
        ("abc", 0),
        ("123m", 3),
        ("123m456p789s11sEEEE", 15),
        ("[EEEE][SSSS][WWWW][NNNN]", 12),
        ("[EEEE][SSSS][WWWW][NNNN]CCC", 15),
        ("123m456p789s1sEEE", 13),
    ],
)
def test_wrong_tile_count(text: str, count: int) -> None:
    if count != 13:
        with pytest.raises(InvalidHandError, match=f"{count} tiles"):
            parse_hand(text)
    with pytest.raises(InvalidHandError, match=f"{count} tiles"):
        parse_hand(text, allowed_counts=(14,))
    with pytest.raises(InvalidHandError, match=f"{count} tiles"):
        score(text)


@pytest.mark.parametrize("value", [123, None, b"123m456p789s11sEEE", ["1m"]])
def test_parse_hand_needs_a_string(value: object) -> None:
    with pytest.raises(NotationError, match="string"):
        parse_hand(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "says", "where"),
    [
        ("12x", "unexpected character 'x'", 3),
        ("0m", "0 is not a tile rank", 1),
        ("m", "suit letter 'm' without digits", 1),
        ("12", "digits without a suit letter", 1),
        ("1E", "digits without a suit letter", 1),
    ],
)
def test_parse_tiles_errors(text: str, says: str, where: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert says in str(info.value)
    assert position_in(str(info.value), text) == where


@pytest.mark.parametrize(
    "text",
    [
        "０12m456p789s11sEEE",  # full-width zero: currently read as rank 0, i.e. 9p
        "１23m456p789s11sEEE",  # full-width one
        "²23m456p789s11sEEE",  # superscript two: currently a bare ValueError from int()
        "٣45m678p999s11sEEE",  # Arabic-Indic three
        "[123m,٣]456p789s11sEE",  # non-ASCII source digit
        "[123m,²]456p789s11sEE",
    ],
)
def test_non_ascii_digits_are_unknown_characters(text: str) -> None:
    with pytest.raises(NotationError, match="unexpected"):
        parse_hand(text)


# --------------------------------------------------------------------------- not a winning shape


@pytest.mark.parametrize(
    "text",
    [
        "13579m2468s1357pE",
        "123m456p789s11sEEN",
        "[EEEE]123m456p789s1sN",
        "[123m][456m][789m][EEE]SN",
        "1122334455667m7p",  # six pairs and two singles
        "19m19s19pESWNCFFF",  # thirteen orphans missing P
        "147m258s369pESWCC",  # honours and knitted with a pair
    ],
)
def test_not_winning(text: str) -> None:
    with pytest.raises(NotWinningError, match="not a winning hand"):
        score(text)


# --------------------------------------------------------------------------- situations


def test_kong_replacement_without_a_kong() -> None:
    with pytest.raises(SituationError, match="kong"):
        score(VALID, self_drawn=True, kong=True)
    # With a declared kong the same flags are fine.
    result = score("[EEEE]123m456p789s1s1s", self_drawn=True, kong=True)
    assert "杠上开花" in {fc.fan.zh for fc in result.fans}


@pytest.mark.parametrize(
    "text",
    [
        VALID,  # E held twice in the concealed hand
        "123m456p789sEEE1s1s",  # 1s held in the concealed hand
        "[789s]123m456pEEE9s9s",  # 9s in an exposed chow
        "[111s]123m456p23sEE1s",  # 1s in a melded pung
    ],
)
def test_robbing_a_kong_of_a_tile_held_elsewhere(text: str) -> None:
    with pytest.raises(SituationError, match="robbing"):
        score(text, kong=True)


def test_robbing_a_kong_allowed_when_no_other_copy() -> None:
    result = score("123m456p78s11sEEE9s", kong=True)
    assert "抢杠和" in {fc.fan.zh for fc in result.fans}


def test_robbing_a_kong_on_the_final_discard() -> None:
    with pytest.raises(SituationError):
        score("123m456p78s11sEEE9s", kong=True, last_tile=True)


@pytest.mark.parametrize("self_drawn", [False, True])
@pytest.mark.parametrize("text", [VALID, "123m456p789sEEE1s1s", "1122334455667m7m"])
def test_fourth_tile_with_another_copy_concealed(text: str, self_drawn: bool) -> None:
    with pytest.raises(SituationError, match="4th tile"):
        score(text, fourth_tile=True, self_drawn=self_drawn)


def test_fourth_tile_allowed_when_no_other_copy() -> None:
    result = score("123m456p78s11sEEE9s", fourth_tile=True)
    assert "和绝张" in {fc.fan.zh for fc in result.fans}


@pytest.mark.parametrize(
    ("letters", "extra"),
    [("", 9), ("abc", 6), ("abcdefgh", 1), ("h", 8), ("", 100), ("", -1)],
)
def test_more_than_eight_flowers(letters: str, extra: int) -> None:
    with pytest.raises(SituationError, match="flower"):
        score(letters + VALID, flowers=extra)


@pytest.mark.parametrize(("letters", "extra"), [("", 8), ("abc", 5), ("abcdefgh", 0)])
def test_eight_flowers_are_fine(letters: str, extra: int) -> None:
    assert score(letters + VALID, flowers=extra).flowers == 8


@pytest.mark.parametrize("flowers", [True, 1.0, "2", None])
def test_flowers_must_be_a_whole_number(flowers: object) -> None:
    with pytest.raises(SituationError, match="flowers"):
        score(VALID, flowers=flowers)  # type: ignore[arg-type]


@pytest.mark.parametrize("which", ["seat_wind", "prevalent_wind"])
@pytest.mark.parametrize("value", ["e", "X", "ES", "", "East", "东", 4, -1, True, None, 1.0])
def test_bad_wind(which: str, value: object) -> None:
    with pytest.raises(SituationError, match="wind") as info:
        score(VALID, **{which: value})  # type: ignore[arg-type]
    assert "E, S, W, N" in str(info.value)


@pytest.mark.parametrize("which", ["seat_wind", "prevalent_wind"])
@pytest.mark.parametrize("value", ["E", "S", "W", "N", 0, 1, 2, 3])
def test_good_wind(which: str, value: object) -> None:
    assert score(VALID, **{which: value}).total > 0  # type: ignore[arg-type]


@pytest.mark.parametrize("flag", ["self_drawn", "last_tile", "kong", "fourth_tile"])
@pytest.mark.parametrize("value", [1, 0, "yes", "True", None, 1.0])
def test_non_bool_flags(flag: str, value: object) -> None:
    with pytest.raises(SituationError, match=flag):
        score(VALID, **{flag: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"no_such_option": True}, "no_such_option"),
        ({"mixed_kong_pair_5": "maybe"}, "mixed_kong_pair_5"),
        ({"mixed_kong_pair_5": 2}, "mixed_kong_pair_5"),
        ({"false_win_penalty": -1}, "false_win_penalty"),
        ({"false_win_penalty": "x"}, "false_win_penalty"),
        ({"false_win_penalty": True}, "false_win_penalty"),
    ],
)
def test_bad_options(options: dict[str, object], says: str) -> None:
    with pytest.raises(OptionError, match=says):
        score(VALID, options=options)


@pytest.mark.parametrize("options", ["x", [("mixed_kong_pair_5", True)], 5])
def test_options_not_a_mapping(options: object) -> None:
    with pytest.raises(OptionError):
        score(VALID, options=options)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [123, None, b"123m456p789s11sEEE"])
def test_score_needs_a_string_or_hand(value: object) -> None:
    with pytest.raises(MajiangError):
        score(value)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- fuzz

NOTATION = "123456789mspESWNCFPabcdefgh[], "
JUNK = "0xMAZ#-.;!\t\n中é,"
ALPHABET = NOTATION + NOTATION + JUNK

WINDS = st.sampled_from(["E", "S", "W", "N", 0, 3, "X", 4, None, True])
FLAGS = st.sampled_from([True, False, True, False, 1, None])
FLOWERS = st.sampled_from([0, 0, 1, 3, 8, 9, -1, True])


def flag_kwargs(draw: st.DrawFn) -> dict[str, object]:
    return {
        "self_drawn": draw(FLAGS),
        "seat_wind": draw(WINDS),
        "prevalent_wind": draw(WINDS),
        "flowers": draw(FLOWERS),
        "last_tile": draw(FLAGS),
        "kong": draw(FLAGS),
        "fourth_tile": draw(FLAGS),
    }


def only_majiang_errors(text: str, kwargs: dict[str, object] | None = None) -> None:
    try:
        hand = parse_hand(text)
    except MajiangError as error:
        assert str(error)
    else:
        assert parse_hand(format_hand(hand)) == hand or hand.tile_count == 13
    try:
        score(text, **(kwargs or {}))  # type: ignore[arg-type]
    except MajiangError as error:
        assert str(error)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_fuzz_arbitrary_text(text: str) -> None:
    only_majiang_errors(text)


@st.composite
def mutated_hands(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """A random winning hand's notation with a few random edits, and random (maybe bad) flags."""
    hand, _ = random_winning_hand(random.Random(draw(st.integers(0, 2**32))))
    text = format_hand(hand)
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        ch = draw(st.sampled_from(ALPHABET))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "replace":
            text = text[:i] + ch + text[i + 1 :]
        elif i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    return text, flag_kwargs(draw)


@settings(max_examples=200, deadline=None)
@given(mutated_hands())
def test_fuzz_mutated_hands(case: tuple[str, dict[str, object]]) -> None:
    text, kwargs = case
    only_majiang_errors(text, kwargs)
