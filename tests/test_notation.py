"""The hand notation of rules/guobiao.md §1.2: parsing, every rule, and the canonical form."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majiang import (
    Hand,
    InvalidHandError,
    Meld,
    MeldKind,
    format_hand,
    parse_hand,
    parse_tiles,
)
from majiang.errors import NotationError
from majiang.notation import format_meld, format_tiles
from majiang.tiles import FLOWER_LETTERS, tile_name

# Tile ids used below (see majiang.tiles): 0-8 = 1m-9m, 9-17 = 1s-9s, 18-26 = 1p-9p.
E, S, W, N, C, F, P = range(27, 34)


def m(rank: int) -> int:
    return rank - 1


def s(rank: int) -> int:
    return 9 + rank - 1


def p(rank: int) -> int:
    return 18 + rank - 1


def flower(letter: str) -> int:
    return 34 + FLOWER_LETTERS.index(letter)


CHOW, PUNG, KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG


# --------------------------------------------------------------------------- the §1.2 examples


def test_example_four_concealed_kongs() -> None:
    h = parse_hand("[EEEE][CCCC][FFFF][PPPP]NN")
    assert h.melds == (Meld(KONG, E, 0), Meld(KONG, C, 0), Meld(KONG, F, 0), Meld(KONG, P, 0))
    assert all(meld.is_concealed_kong for meld in h.melds)
    assert h.concealed == (N,)
    assert h.win_tile == N
    assert h.flowers == ()
    assert h.tile_count == 14


def test_example_nine_gates() -> None:
    h = parse_hand("1112345678999s9s")
    assert h.melds == ()
    assert h.concealed == (s(1), s(1), s(1), s(2), s(3), s(4), s(5), s(6), s(7), s(8), s(9),
                           s(9), s(9))
    assert h.win_tile == s(9)


def test_example_exposed_kong_and_pung() -> None:
    h = parse_hand("[WWWW,1][444s]45m678pFF6m")
    assert h.melds == (Meld(KONG, W, 1), Meld(PUNG, s(4), 1))
    assert not h.melds[0].is_concealed_kong
    assert not h.melds[0].is_added_kong
    assert h.concealed == (m(4), m(5), p(6), p(7), p(8), F, F)
    assert h.win_tile == m(6)
    assert h.flowers == ()


def test_example_thirteen_orphans_with_flowers() -> None:
    h = parse_hand("ac19m19p119sESWNFPC")
    assert h.flowers == (flower("a"), flower("c"))
    assert h.melds == ()
    assert h.win_tile == C
    assert h.concealed == (m(1), m(9), s(1), s(1), s(9), p(1), p(9), E, S, W, N, F, P)
    # The canonical form sorts s before p.
    assert format_hand(h) == "ac19m119s19pESWNFPC"


@pytest.mark.parametrize(
    "text",
    ["[EEEE][CCCC][FFFF][PPPP]NN", "1112345678999s9s", "[WWWW,1][444s]45m678pFF6m"],
)
def test_canonical_examples_format_to_themselves(text: str) -> None:
    assert format_hand(parse_hand(text)) == text


# --------------------------------------------------------------------------- rule 1: tiles


def test_digit_run_takes_the_following_suit_letter() -> None:
    assert parse_tiles("123m456p") == [m(1), m(2), m(3), p(4), p(5), p(6)]
    assert parse_tiles("1m2s3p") == [m(1), s(2), p(3)]
    assert parse_tiles("9m1s") == [m(9), s(1)]


def test_all_tile_names() -> None:
    text = "123456789m123456789s123456789pESWNCFP"
    assert parse_tiles(text) == list(range(34))
    assert [tile_name(t) for t in range(34)] == (
        [f"{r}m" for r in range(1, 10)]
        + [f"{r}s" for r in range(1, 10)]
        + [f"{r}p" for r in range(1, 10)]
        + list("ESWNCFP")
    )


def test_honour_letters_stand_alone() -> None:
    assert parse_tiles("ESWNCFP") == [E, S, W, N, C, F, P]
    h = parse_hand("EE123m456s789pSSN")
    assert h.concealed == (m(1), m(2), m(3), s(4), s(5), s(6), p(7), p(8), p(9), E, E, S, S)
    assert h.win_tile == N


def test_case_sensitivity_green_dragon_versus_orchid() -> None:
    upper = parse_hand("123m456s789p11pFFF")
    assert upper.win_tile == F
    assert upper.flowers == ()
    lower = parse_hand("f123m456s789p11pFFF")
    assert lower.flowers == (flower("f"),)
    assert lower.win_tile == F
    # e (plum) vs E (East).
    h = parse_hand("e123m456s789p11pEEE")
    assert h.flowers == (flower("e"),)
    assert h.concealed.count(E) == 2
    assert h.win_tile == E


def test_all_flower_letters() -> None:
    h = parse_hand("hgfedcba123m456s789p11pEEE")
    assert h.flowers == tuple(range(34, 42))


def test_spaces_are_ignored() -> None:
    plain = parse_hand("[WWWW,1][444s]45m678pFF6m")
    assert parse_hand("  [WWWW, 1] [444s]  45m 678p FF 6m ") == plain
    assert parse_hand("[W W W W ,1][4 4 4 s]4 5 m6 7 8pF F6 m") == plain
    assert parse_hand("\t[WWWW,1]\n[444s]45m678pFF6m") == plain
    assert parse_tiles("1 2 3 m") == [m(1), m(2), m(3)]


# --------------------------------------------------------------------------- rule 2: declared sets


@pytest.mark.parametrize("source", [1, 2, 3])
def test_chow_source(source: int) -> None:
    h = parse_hand(f"[567m,{source}]123s456p99pEEE")
    assert h.melds == (Meld(CHOW, m(5), source),)
    assert h.melds[0].tiles == (m(5), m(6), m(7))


def test_chow_default_source_and_unsorted_tiles() -> None:
    assert parse_hand("[567m]123s456p99pEEE").melds == (Meld(CHOW, m(5), 1),)
    assert parse_hand("[756m,3]123s456p99pEEE").melds == (Meld(CHOW, m(5), 3),)
    assert parse_hand("[7s5s6s]123s456p99pEEE").melds == (Meld(CHOW, s(5), 1),)


@pytest.mark.parametrize("source", [1, 2, 3])
def test_pung_source(source: int) -> None:
    h = parse_hand(f"[999s,{source}]123m456p99pEEE")
    assert h.melds == (Meld(PUNG, s(9), source),)
    assert h.melds[0].tiles == (s(9),) * 3


def test_pung_default_source_and_honour_pung() -> None:
    assert parse_hand("[999s]123m456p99pEEE").melds == (Meld(PUNG, s(9), 1),)
    assert parse_hand("[CCC,2]123m456p99pEEE").melds == (Meld(PUNG, C, 2),)


def test_concealed_kong_has_no_digit() -> None:
    h = parse_hand("[SSSS]123m456p789s1pE")
    (kong,) = h.melds
    assert kong == Meld(KONG, S, 0)
    assert kong.is_concealed_kong
    assert not kong.is_exposed
    assert kong.tiles == (S,) * 4
    assert h.tile_count == 14


@pytest.mark.parametrize("source", [1, 2, 3])
def test_exposed_kong(source: int) -> None:
    (kong,) = parse_hand(f"[8888p,{source}]123m456p789s1sE").melds
    assert kong == Meld(KONG, p(8), source)
    assert kong.is_exposed
    assert not kong.is_concealed_kong
    assert not kong.is_added_kong


@pytest.mark.parametrize("source", [5, 6, 7])
def test_added_kong(source: int) -> None:
    (kong,) = parse_hand(f"[1111s,{source}]123m456p789s2sE").melds
    assert kong == Meld(KONG, s(1), source)
    assert kong.is_added_kong
    assert kong.is_exposed
    assert not kong.is_concealed_kong


def test_east_kong_concealed_versus_exposed() -> None:
    assert parse_hand("[EEEE]123m456p789s1sS").melds[0].is_concealed_kong
    assert not parse_hand("[EEEE,1]123m456p789s1sS").melds[0].is_concealed_kong


@pytest.mark.parametrize(
    ("old", "new", "tail"),
    [
        ("[567m2]", "[567m,2]", "123s456p99pEEE"),
        ("[999s3]", "[999s,3]", "123m456p99pEEE"),
        ("[CCC2]", "[CCC,2]", "123m456p99pEEE"),
        ("[8888p1]", "[8888p,1]", "123m456s789s1sE"),
        ("[1111s6]", "[1111s,6]", "123m456p789sE2s"),
        ("[EEEE7]", "[EEEE,7]", "123m456p789s1sS"),
        ("[567m1]", "[567m]", "123s456p99pEEE"),
        ("[567m 3]", "[567m,3]", "123s456p99pEEE"),
    ],
)
def test_old_form_without_comma(old: str, new: str, tail: str) -> None:
    a = parse_hand(old + tail)
    b = parse_hand(new + tail)
    assert a == b
    assert format_hand(a) == format_hand(b)


def test_old_form_emitted_with_comma() -> None:
    assert format_hand(parse_hand("[567m2]123s456p99pEEE")) == "[567m,2]123s45699pEEE"
    assert format_hand(parse_hand("[1111s6]123m456p789sE2s")) == "[1111s,6]123m789s456pE2s"


def test_melds_keep_their_order() -> None:
    text = "[PPP,3][123m][EEEE][9999s,5]1p1p"
    h = parse_hand(text)
    assert h.melds == (
        Meld(PUNG, P, 3),
        Meld(CHOW, m(1), 1),
        Meld(KONG, E, 0),
        Meld(KONG, s(9), 5),
    )
    assert format_hand(h) == text


# --------------------------------------------------------------------------- rule 3: win tile


def test_last_concealed_tile_is_the_winning_tile() -> None:
    h = parse_hand("5m123m456p789s11sEE")
    assert h.win_tile == E
    assert h.concealed == (m(1), m(2), m(3), m(5), s(1), s(1), s(7), s(8), s(9), p(4), p(5), p(6),
                           E)
    # The concealed tiles are stored sorted, not in the written order.
    assert list(h.concealed) == sorted(h.concealed)


def test_tile_count_counts_a_kong_as_three() -> None:
    h = parse_hand("[1111m][2222m][3333m][4444m]55m")
    assert h.tile_count == 14
    assert len(h.all_tiles()) == 18


def test_thirteen_tiles_accepted_by_default_and_rejected_for_scoring() -> None:
    h = parse_hand("123m456p789s11sEE")
    assert h.tile_count == 13
    with pytest.raises(InvalidHandError, match="13 tiles"):
        parse_hand("123m456p789s11sEE", allowed_counts=(14,))


def test_thirteen_tile_hand_has_no_winning_tile() -> None:
    h = parse_hand("123m456p789s11sEE")
    assert h.win_tile is None
    assert h.concealed == (m(1), m(2), m(3), s(1), s(1), s(7), s(8), s(9), p(4), p(5), p(6), E, E)


def test_allowed_counts_keyword() -> None:
    h = parse_hand("[EEEE][SSSS][WWWW][NNNN]", allowed_counts=(12,))
    assert h.tile_count == 12
    assert h.concealed == ()
    assert h.win_tile is None


# --------------------------------------------------------------------------- rule 4: flowers


def test_flowers_come_first_and_are_never_the_winning_tile() -> None:
    base = parse_hand("ab[567m]123s456p99pEEE")
    assert base.flowers == (flower("a"), flower("b"))
    assert parse_hand("ba[567m]123s456p99pEEE") == base
    assert base.win_tile == E


@pytest.mark.parametrize(
    ("text", "position", "says"),
    [
        ("[567m]ab123s456p99pEEE", 7, "flower 'a' after the tiles"),
        ("[567m]123s456pb99pEEEa", 15, "flower 'b' after the tiles"),
        ("b[567m]123s456p99pEaEE", 20, "flower 'a' after the tiles"),
        ("123m456s789p11pEE55se", 21, "flower 'e' after the tiles: flowers are written first"),
        ("123m456s789p11pEEEc", 19, "the honour is 'C'"),
    ],
)
def test_a_flower_after_the_tiles_is_an_error(text: str, position: int, says: str) -> None:
    """A lower-case honour letter (c, e, f) typed among the tiles is a typo, not a flower."""
    with pytest.raises(NotationError, match=re.escape(says)) as error:
        parse_hand(text)
    assert error.value.position == position - 1


def test_flowers_sorted_in_hand_and_output() -> None:
    h = parse_hand("hcfa123m456s789p11pEEE")
    assert h.flowers == (flower("a"), flower("c"), flower("f"), flower("h"))
    assert format_hand(h).startswith("acfh")


def test_flowers_do_not_count_as_tiles() -> None:
    h = parse_hand("abcdefgh123m456s789p11pEEE")
    assert h.tile_count == 14


# --------------------------------------------------------------------------- rule 6: canonical form


def test_canonical_concealed_order_and_one_suit_letter_per_run() -> None:
    h = parse_hand("PFCNWSE9p1p5s4s1m2mE")
    assert format_hand(h) == "12m45s19pESWNCFPE"


def test_canonical_win_tile_gets_its_own_suit_letter() -> None:
    assert format_hand(parse_hand("1m123m456s789p11pE4m")) == "1123m456s11789pE4m"
    assert format_hand(parse_hand("4m123m456s789p11pE1p")) == "1234m456s11789pE1p"
    # A 13-tile (waiting) hand has no winning tile: everything is sorted.
    assert format_hand(parse_hand("1m123m456s789p11p4m")) == "11234m456s11789p"


def test_canonical_source_one_omitted_for_chows_and_pungs_kept_for_kongs() -> None:
    h = parse_hand("[123m,1][EEE,1][SSSS,1][9999p,5]NN")
    assert format_hand(h) == "[123m][EEE][SSSS,1][9999p,5]NN"
    h = parse_hand("[123m,2][EEE,3][SSSS][9999p,2]NN")
    assert format_hand(h) == "[123m,2][EEE,3][SSSS][9999p,2]NN"


def test_canonical_flowers_then_melds_then_concealed() -> None:
    h = parse_hand("e a b5s[123m]6s[EEE,2]7s88pN N")
    assert format_hand(h) == "abe[123m][EEE,2]567s88pNN"


def test_format_tiles_in_given_order() -> None:
    assert format_tiles([0, 1, 27]) == "12mE"
    assert format_tiles([9, 0, 1, 27, 18]) == "1s12mE1p"


def test_str_of_hand_is_the_canonical_form() -> None:
    h = parse_hand("[WWWW,1][444s]45m678pFF6m")
    assert str(h) == "[WWWW,1][444s]45m678pFF6m"


# --------------------------------------------------------------------------- hypothesis


@st.composite
def melds_and_counts(draw: st.DrawFn) -> tuple[list[Meld], list[int]]:
    """Up to four well-formed declared sets, every kind and source, at most 4 copies."""
    counts = [0] * 34
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from([CHOW, PUNG, KONG]))
        if kind is CHOW:
            tile = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            source = draw(st.integers(1, 3))
        else:
            tile = draw(st.integers(0, 33))
            source = draw(
                st.integers(1, 3) if kind is PUNG else st.sampled_from([0, 1, 2, 3, 5, 6, 7])
            )
        meld = Meld(kind, tile, source)
        if all(counts[t] + meld.tiles.count(t) <= 4 for t in meld.tiles):
            for t in meld.tiles:
                counts[t] += 1
            melds.append(meld)
    return melds, counts


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...] = (14,)) -> Hand:
    """A random (not necessarily winning) hand of 13 or 14 tiles; 14-tile hands have a win tile."""
    melds, counts = draw(melds_and_counts())
    size = draw(st.sampled_from(sizes))
    tiles: list[int] = []
    for _ in range(size - 3 * len(melds)):
        t = draw(st.sampled_from([k for k in range(34) if counts[k] < 4]))
        counts[t] += 1
        tiles.append(t)
    flowers = draw(st.lists(st.integers(34, 41), unique=True, max_size=8))
    if size == 14:
        return Hand.of(melds, tiles[:-1], tiles[-1], flowers)
    return Hand.of(melds, tiles, None, flowers)


def meld_variant(draw: st.DrawFn, meld: Meld) -> str:
    """A non-canonical but valid spelling of a declared set."""
    tiles = draw(st.permutations(list(meld.tiles)))
    # Either one suit letter per tile or one per run.
    per_tile = draw(st.booleans())
    body = "".join(tile_name(t) for t in tiles) if per_tile else format_tiles(tiles)
    source = meld.source
    if meld.kind is KONG and source == 0:
        return f"[{body}]"
    style = draw(st.sampled_from(["comma", "old", "default"]))
    if style == "default" and meld.kind is not KONG and source == 1:
        return f"[{body}]"
    if style == "old":
        return f"[{body}{source}]"
    return f"[{body},{source}]"


@st.composite
def spelled(draw: st.DrawFn) -> tuple[Hand, str]:
    """A 14-tile hand and a scrambled spelling of it (order, spaces, old forms, flower order)."""
    hand = draw(hands())
    tokens: list[str] = [meld_variant(draw, meld) for meld in hand.melds]
    concealed = draw(st.permutations(list(hand.concealed)))
    if draw(st.booleans()):
        tokens.extend(tile_name(t) for t in concealed)
    else:
        tokens.append(format_tiles(concealed))
    assert hand.win_tile is not None
    tokens.append(tile_name(hand.win_tile))
    for placed, f in enumerate(hand.flowers):  # flowers first, in any order among themselves
        tokens.insert(draw(st.integers(0, placed)), FLOWER_LETTERS[f - 34])
    text = "".join(tokens)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + " " + text[i:]
    return hand, text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_roundtrip_parse_format(hand: Hand) -> None:
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text


@settings(max_examples=50, deadline=None)
@given(hands(sizes=(13,)))
def test_roundtrip_parse_format_thirteen_tiles(hand: Hand) -> None:
    assert parse_hand(format_hand(hand)) == hand


def expected_canonical(hand: Hand) -> str:
    """An independent writer of the §1.2 rule 6 canonical form."""
    out = "".join(sorted(FLOWER_LETTERS[f - 34] for f in hand.flowers))
    for meld in hand.melds:
        if meld.tile < 27:
            body = "".join(str(t % 9 + 1) for t in meld.tiles) + "msp"[meld.tile // 9]
        else:
            body = "ESWNCFP"[meld.tile - 27] * len(meld.tiles)
        digit = meld.source != 0 if meld.kind is KONG else meld.source != 1
        out += f"[{body},{meld.source}]" if digit else f"[{body}]"
    concealed = sorted(hand.concealed)
    for suit in range(3):
        ranks = [str(t % 9 + 1) for t in concealed if t < 27 and t // 9 == suit]
        if ranks:
            out += "".join(ranks) + "msp"[suit]
    out += "".join("ESWNCFP"[t - 27] for t in concealed if t >= 27)
    if hand.win_tile is not None:
        w = hand.win_tile
        out += f"{w % 9 + 1}{'msp'[w // 9]}" if w < 27 else "ESWNCFP"[w - 27]
    return out


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(13, 14)))
def test_canonical_form_matches_rule_6(hand: Hand) -> None:
    text = format_hand(hand)
    assert text == expected_canonical(hand)
    # format(parse(.)) is idempotent.
    once = format_hand(parse_hand(text))
    assert format_hand(parse_hand(once)) == once
    if hand.win_tile is not None:
        assert once == text


@settings(max_examples=200, deadline=None)
@given(spelled())
def test_any_spelling_parses_to_the_same_hand(case: tuple[Hand, str]) -> None:
    hand, text = case
    assert parse_hand(text) == hand
    canonical = format_hand(parse_hand(text))
    assert canonical == format_hand(hand)
    assert format_hand(parse_hand(canonical)) == canonical


@settings(max_examples=200, deadline=None)
@given(hands(), st.randoms(use_true_random=False))
def test_shuffled_concealed_order_gives_the_same_canonical_form(hand: Hand, rnd) -> None:
    concealed = list(hand.concealed)
    rnd.shuffle(concealed)
    assert hand.win_tile is not None
    flowers = "".join(FLOWER_LETTERS[f - 34] for f in hand.flowers)
    melds = "".join(format_meld(meld) for meld in hand.melds)
    text = flowers + melds + format_tiles(concealed) + format_tiles([hand.win_tile])
    once = format_hand(parse_hand(text))
    assert once == format_hand(hand)
    assert format_hand(parse_hand(once)) == once
