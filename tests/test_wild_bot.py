"""The wild-aware Huangyan bot and shanten with 得 jokers (majiang.bots.wild_shanten/wild_aware).

Shanten with jokers (the kernel ``is_winning_shape`` also asks) is checked against a brute force
that gives each 得 every identity and reads the tiles as sets and a pair (-1 exactly on winning
14-tile hands; 0 exactly on 13-tile hands that some face completes) and, by induction, the true
draw-and-discard distance: from shanten ``k >= 1`` some draw and discard reaches ``k - 1`` and
none goes lower. Wild faces tried: suited (5m, 7s, 7p), a wind, a live dragon and the white
dragon itself (no stand-in).
"""

from __future__ import annotations

import dataclasses
import random
import time
from itertools import combinations_with_replacement
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majiang.bots import BOTS, WildBot, make_bot
from majiang.bots.wild_aware import bullet_choice, physical_unseen
from majiang.bots.wild_shanten import (
    WildDiscards,
    face_of,
    identity_of,
    split_hand,
    useful_count,
    useful_faces,
    wild_shanten,
)
from majiang.engine import Chow, Discard, Observation, Pass, Phase, Pung, Win
from majiang.engine.actions import Action, ConcealedKong
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.huangyan.observation import HuangyanObservation
from majiang.rules.huangyan.scoring import is_winning_shape
from majiang.rules.huangyan.wild import Wild
from majiang.shanten import regular_shanten
from majiang.shapes import regular_readings

try:
    from majiang.engine.actions import AcceptBullets, ThrowBullets
except ImportError:  # before the engine knows thrown bullets: the bot matches by class name

    @dataclasses.dataclass(frozen=True)
    class ThrowBullets:  # type: ignore[no-redef]
        count: int

    @dataclasses.dataclass(frozen=True)
    class AcceptBullets:  # type: ignore[no-redef]
        pass


M5, S7, P5, P6, P7, EAST, RED, WHITE = 4, 15, 22, 23, 24, 27, 31, 33
WILD_FACES = (M5, S7, P7, EAST, RED, WHITE)
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def T(text: str) -> list[int]:
    return list(parse_tiles(text))


# --------------------------------------------------------------------------- hand generation


@st.composite
def states(draw: st.DrawFn, size: int) -> tuple[list[int], int, int]:
    """(physical faces, melds, wild face) of a ``size``-tile state (13 or 14, a meld counts 3),
    built from sets near completion, some tiles replaced by random ones and by 得."""
    wild = draw(st.sampled_from(WILD_FACES))
    melds = draw(st.integers(0, 4))
    n = size - 3 * melds
    ids: list[int] = []
    for _ in range(4 - melds):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            ids += [draw(st.integers(0, 33))] * 3
        elif kind == 1:
            s = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            ids += [s, s + 1, s + 2]
        else:
            ids += [draw(st.integers(0, 33)) for _ in range(3)]
    ids += [draw(st.integers(0, 33))] * 2
    ids = ids[:n] if size == 14 else ids[1 : n + 1]
    for _ in range(draw(st.integers(0, 4))):
        ids[draw(st.integers(0, n - 1))] = draw(st.integers(0, 33))
    jokers = draw(st.integers(0, min(3, n)))
    faces = [wild] * jokers
    for x in ids[jokers:]:
        if x == wild and wild == WHITE:
            x = draw(st.integers(0, 32))  # with F white, identity F exists only as a 得
        faces.append(face_of(x, wild))
    counts = _counts(faces)
    assume(counts[wild] <= 3 and max(counts) <= 4)
    assert len(faces) == n
    return faces, melds, wild


def _counts(faces: list[int]) -> list[int]:
    return [faces.count(t) for t in range(34)]


def _shanten(faces: list[int], melds: int, wild: int) -> int:
    ids, jokers = split_hand(faces, wild)
    return wild_shanten(ids, jokers, melds)


def _completes_by_brute_force(faces: list[int], wild: int) -> bool:
    """Whether some identity for each 得 reads the concealed tiles as sets and a pair."""
    ids, jokers = split_hand(faces, wild)
    for assign in combinations_with_replacement(range(34), jokers):
        grown = list(ids)
        for x in assign:
            grown[x] += 1
        if regular_readings(grown):
            return True
    return False


def _draws(faces: list[int], wild: int) -> list[int]:
    """Faces that can be drawn: a fifth natural copy cannot (a 得 can stand for one anyway)."""
    ids, _ = split_hand(faces, wild)
    return [f for f in range(34) if f == wild or ids[identity_of(f, wild)] < 4]


def _after_draw(faces: list[int], melds: int, wild: int, draw: int) -> int:
    """The best shanten after drawing ``draw`` and discarding any tile (brute force)."""
    grown = [*faces, draw]
    return min(
        _shanten(grown[:i] + grown[i + 1 :], melds, wild)
        for i in range(len(grown))
        if grown[i] not in grown[:i]
    )


# --------------------------------------------------------------------------- wild shanten


@SETTINGS
@given(states(14))
def test_complete_exactly_when_winning_shape(state: tuple[list[int], int, int]) -> None:
    faces, melds, wild = state
    s = _shanten(faces, melds, wild)
    assert s >= -1
    assert (s == -1) == _completes_by_brute_force(faces, wild)
    assert (s == -1) == is_winning_shape(_counts(faces), melds, Wild(wild))


@SETTINGS
@given(states(13))
def test_ready_exactly_when_some_face_completes(state: tuple[list[int], int, int]) -> None:
    faces, melds, wild = state
    s = _shanten(faces, melds, wild)
    assert s >= 0
    completing = [
        f for f in _draws(faces, wild)
        if is_winning_shape(_counts([*faces, f]), melds, Wild(wild))
    ]
    assert (s == 0) == bool(completing)
    if s == 0:
        assert wild in completing  # a drawn 得 completes any ready hand


@SETTINGS
@given(states(13))
def test_each_step_lowers_by_one(state: tuple[list[int], int, int]) -> None:
    """Shanten k >= 1: some draw and discard reaches k - 1, none lower (so, with the two tests
    above, shanten is the exact number of draws and discards still needed). The useful faces
    are exactly the draws that lower it."""
    faces, melds, wild = state
    s = _shanten(faces, melds, wild)
    draws = _draws(faces, wild)
    if s >= 1:
        assert min(_after_draw(faces, melds, wild, f) for f in draws) == s - 1
    grown = {f: _shanten([*faces, f], melds, wild) for f in draws}
    for f, g in grown.items():
        assert g >= s - 1
        if g >= 0:  # a 14-tile state's shanten is the best after one discard
            assert g == _after_draw(faces, melds, wild, f)
    ids, jokers = split_hand(faces, wild)
    held = _counts(faces)
    drawable = [f for f in draws if held[f] < (3 if f == wild else 4)]
    assert useful_faces(ids, jokers, melds, wild) == sorted(f for f in drawable if grown[f] < s)
    unseen = [int(f in drawable) for f in range(34)]
    assert useful_count(ids, jokers, melds, wild, unseen) == sum(
        1 for f in drawable if grown[f] < s
    )


@SETTINGS
@given(states(14))
def test_discard_table_matches_brute_force(state: tuple[list[int], int, int]) -> None:
    faces, melds, wild = state
    ids, jokers = split_hand(faces, wild)
    table = WildDiscards(ids, jokers, melds, wild)
    for f in set(faces):
        rest = list(faces)
        rest.remove(f)
        assert table.options[f] == _shanten(rest, melds, wild), f
        rest_ids, rest_jokers = split_hand(rest, wild)
        unseen = [(t * 7) % 5 for t in range(34)]
        assert table.acceptance(f, unseen) == useful_count(
            rest_ids, rest_jokers, melds, wild, unseen
        )
    assert table.best == min(table.options.values()) == max(_shanten(faces, melds, wild), 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 32), min_size=13, max_size=14), st.integers(0, 3))
def test_no_jokers_is_the_regular_shape(tiles: list[int], melds: int) -> None:
    tiles = tiles[: len(tiles) - 3 * melds]
    if max(tiles.count(t) for t in tiles) > 4:
        return
    assert wild_shanten(_counts(tiles), 0, melds) == regular_shanten(tiles, melds)
    assert _shanten(tiles, melds, WHITE) == regular_shanten(tiles, melds)  # no white held


def test_examples() -> None:
    # rules example 13: F = 5s, S self-draws 2p
    assert _shanten(T("SS5s123m789m34p66p2p"), 0, 13) == -1
    # F = 7p: a white dragon is a 7p, so 56p+P is a run; the 得 pairs with the lone 9s
    assert _shanten(T("56pP123m456m789s9s7p"), 0, P7) == -1
    assert _shanten(T("56pP123m456m789s9s"), 0, P7) == 0
    # F = P: the white dragons are the 得 tiles and there is no stand-in
    assert _shanten(T("56pP123m456m789s9s"), 0, WHITE) == 0
    assert _shanten(T("56pPP123m456m789s9s"), 0, WHITE) == -1
    # three 得 and eleven loose honours and terminals
    loose = T("1m9m1s9s1pESWNCF")
    assert _shanten(loose + [M5] * 3, 0, M5) == 5
    assert _shanten(loose + [M5] * 2, 0, M5) == 6
    ids, jokers = split_hand(T("123m678m789sEEE5m"), M5)
    assert (ids[M5], jokers) == (0, 1)
    assert useful_faces(ids, jokers, 0, M5) == list(range(34))  # a 得 waits on anything
    ids, jokers = split_hand(T("56p123m456m789sEE"), P7)
    assert useful_faces(ids, jokers, 0, P7) == [21, P7, WHITE]  # 4p, a 得, a stand-in 7p


# --------------------------------------------------------------------------- observations


def make_obs(
    hand: list[int],
    actions: list[Any],
    *,
    wild: int | None,
    phase: Phase = Phase.TURN,
    raw_phase: bool = False,
    discards: tuple[tuple[int, ...], ...] = ((), (), (), ()),
    melds: tuple[tuple[Meld, ...], ...] = ((), (), (), ()),
    last_discard: int | None = None,
    seat: int = 0,
    plain: bool = False,
) -> Observation:
    """An observation of seat ``seat``. ``plain``: a Guobiao observation (no wild face, no
    indicator, no raw-tile phase)."""
    base: dict[str, Any] = dict(
        seat=seat, dealer=0, prevalent_wind=0, seat_wind=seat, phase=phase,
        current=seat if phase is Phase.TURN else (seat + 3) % 4, hand=tuple(sorted(hand)),
        drawn=None, melds=melds, flowers=((), (), (), ()), discards=discards,
        hand_sizes=(13, 13, 13, 13), wall_remaining=40, last_discard=last_discard,
        legal_actions=tuple(actions), deltas=(0, 0, 0, 0), may_win=True,
        win_reaches_minimum=True if Win() in actions else None,
    )
    if not plain:
        base.update(wild=wild, indicator=wild, drawable=30,
                    extension=HuangyanObservation(raw_phase, 1, (0, 0, 0, 0)))
    return Observation(**base)


def discards_of(hand: list[int]) -> list[Action]:
    return [Discard(t) for t in sorted(set(hand))]


def test_keeps_the_de_over_a_useless_tile() -> None:
    hand = [*T("123m456m789s1pNW"), P7, P7]  # two 得 (7p)
    assert WildBot(0)(make_obs(hand, discards_of(hand), wild=P7)) in (
        Discard(18), Discard(29), Discard(30)
    )
    # every natural tile in a set or a partial set: it still keeps the 得
    hand = [*T("123m456m789s13p57s"), P7]
    assert WildBot(0)(make_obs(hand, discards_of(hand), wild=P7)) != Discard(P7)


@SETTINGS
@given(states(14), st.booleans())
def test_never_discards_a_de_and_keeps_the_lowest_shanten(
    state: tuple[list[int], int, int], raw: bool
) -> None:
    faces, melds, wild = state
    mine = tuple(Meld(MeldKind.PUNG, x) for x in (0, 9, 18, 27)[:melds])
    obs = make_obs(faces, discards_of(faces), wild=wild, melds=(mine, (), (), ()), raw_phase=raw)
    action = WildBot(1)(obs)
    assert action in obs.legal_actions
    assert isinstance(action, Discard)
    if any(t != wild for t in faces):
        assert action.tile != wild
    if not raw:
        rest = list(faces)
        rest.remove(action.tile)
        assert _shanten(rest, melds, wild) == max(_shanten(faces, melds, wild), 0)


def test_raw_phase_prefers_a_known_discard() -> None:
    # 1s, E and N leave the same shanten; N keeps the most useful tiles, but only 1s is known
    hand = [*T("123m456m78p22s1sEN"), S7]
    pond = ((), (9,), (), ())
    raw = make_obs(hand, discards_of(hand), wild=S7, raw_phase=True, discards=pond)
    assert WildBot(0)(raw) == Discard(9)
    normal = make_obs(hand, discards_of(hand), wild=S7, raw_phase=False, discards=pond)
    assert WildBot(0)(normal) == Discard(30)
    table = WildDiscards(*split_hand(hand, S7), 0, S7)
    assert table.options[9] == table.options[30] == table.best
    # not ready after any discard: a known tile goes even at the cost of a shanten step
    hand = [*T("123m46m78p22s59sEN"), S7]
    pond = ((), (T("7p")[0],), (), ())
    obs = make_obs(hand, discards_of(hand), wild=S7, raw_phase=True, discards=pond)
    assert WildBot(0)(obs) == Discard(T("7p")[0])
    normal = make_obs(hand, discards_of(hand), wild=S7, raw_phase=False, discards=pond)
    assert WildBot(0)(normal) != Discard(T("7p")[0])


def test_raw_phase_ready_hand_plays_for_the_win() -> None:
    # discarding the raw N or 1p leaves the hand ready; the known 2s would not
    hand = [*T("123m456m789p24sN1p"), S7]
    pond = ((), (10,), (), ())
    obs = make_obs(hand, discards_of(hand), wild=S7, raw_phase=True, discards=pond)
    assert WildBot(0)(obs) in (Discard(30), Discard(18))


def test_raw_phase_all_raw_and_not_ready_is_excused() -> None:
    # no face of the hand lies in a pond and no discard makes it ready: play for shanten
    hand = [*T("123m46m78p22s59sEN"), S7]
    pond = ((), (T("3p")[0],), (), ())
    obs = make_obs(hand, discards_of(hand), wild=S7, raw_phase=True, discards=pond)
    normal = make_obs(hand, discards_of(hand), wild=S7, discards=pond)
    assert WildBot(0)(obs) == WildBot(0)(normal)


def test_wins_when_offered() -> None:
    hand = [*T("123m456m789s11p56p"), P7]
    obs = make_obs(hand, [Win(), *discards_of(hand)], wild=P7)
    assert WildBot(0)(obs) == Win()
    hand13 = T("123m456m789s11p56p")
    obs = make_obs(hand13, [Win(), Chow(P5), Pass()], wild=P7, phase=Phase.CLAIM,
                   last_discard=WHITE, seat=1)
    assert WildBot(0)(obs) == Win()


def test_declines_a_pung_that_does_not_help() -> None:
    # ready on 3s/6s with the 1m pair; punging 1m leaves a worse single wait
    hand = T("11m234m567p789s45s")
    obs = make_obs(hand, [Pung(), Pass()], wild=EAST, phase=Phase.CLAIM, last_discard=0, seat=2)
    assert WildBot(0)(obs) == Pass()


def test_takes_a_pung_that_helps() -> None:
    hand = T("11m234m99p789s45sN")
    obs = make_obs(hand, [Pung(), Pass()], wild=EAST, phase=Phase.CLAIM, last_discard=0, seat=2)
    assert WildBot(0)(obs) == Pung()


def test_takes_a_value_pung_that_keeps_the_shanten() -> None:
    # the red-dragon pair is a fan when punged; the shanten does not move
    hand = T("CC234m567p789s4s6s")
    hand += [P7]
    obs = make_obs(hand[:13], [Pung(), Pass()], wild=P7, phase=Phase.CLAIM, last_discard=RED,
                   seat=2)
    assert WildBot(0)(obs) == Pung()


def test_chow_with_a_stand_in() -> None:
    # F = 7p: a discarded 6p is chowed with 5p and a white dragon (run 5p-6p-7p)
    hand = T("5pP123m456mEE19sN")
    obs = make_obs(hand, [Chow(P5), Pass()], wild=P7, phase=Phase.CLAIM, last_discard=P6,
                   seat=1)
    assert WildBot(0)(obs) == Chow(P5)


def test_never_claims_a_discarded_de() -> None:
    hand = T("77p123m456mEE19sN")
    obs = make_obs(hand, [Pung(), Pass()], wild=M5, phase=Phase.CLAIM, last_discard=M5, seat=1)
    assert WildBot(0)(obs) == Pass()


def test_concealed_kong_of_stand_ins() -> None:
    hand = [*T("PPPP123m456m78sE"), P7]
    obs = make_obs(hand, [ConcealedKong(WHITE), *discards_of(hand)], wild=P7)
    assert WildBot(0)(obs) == ConcealedKong(WHITE)


def test_bullets() -> None:
    throws: list[Any] = [ThrowBullets(2), ThrowBullets(0), ThrowBullets(1)]
    assert WildBot(0)(make_obs([], throws, wild=None, phase=Phase.TURN)) == ThrowBullets(0)
    offer: list[Any] = [AcceptBullets(), Pass()]
    assert WildBot(0)(make_obs([], offer, wild=None, phase=Phase.TURN)) == Pass()
    assert bullet_choice([AcceptBullets()]) == AcceptBullets()
    assert bullet_choice([Pass(), Discard(3)]) is None


def test_plain_observations_without_the_huangyan_fields() -> None:
    hand = T("123m456m789s1pN67pW")
    plain = make_obs(hand, discards_of(hand), wild=None, plain=True)
    assert WildBot(0)(plain) in (Discard(29), Discard(30))
    assert physical_unseen(plain, None)[0] == 3


def test_unseen_counts_melds_by_identity() -> None:
    hand = T("123m")
    melds = ((), (Meld(MeldKind.PUNG, P7), Meld(MeldKind.CHOW, P5)), (), ())
    obs = make_obs(hand, [Pass()], wild=P7, melds=melds, discards=((P7,), (), (), ()))
    unseen = physical_unseen(obs, P7)
    assert unseen[WHITE] == 0  # three in the pung, one in the chow
    assert unseen[P7] == 2  # the indicator and a discarded 得
    assert unseen[P5] == 3 and unseen[P6] == 3


def test_registered() -> None:
    assert isinstance(BOTS["wild"](3), WildBot)
    assert isinstance(make_bot("wild", 3), WildBot)


# --------------------------------------------------------------------------- solitaire


def solitaire(seed: int, hands: int) -> tuple[int, int, float]:
    """Draw-and-discard hands with a wild face, the bot deciding every turn: (decisions, wins,
    seconds spent in the bot). Checks that it never throws a 得 while a natural tile is left."""
    rng = random.Random(seed)
    decisions = wins = 0
    spent = 0.0
    for _ in range(hands):
        wild = rng.randrange(34)
        wall = [t for t in range(34) for _ in range(4)]
        wall.remove(wild)
        rng.shuffle(wall)
        hand, wall = wall[:13], wall[13:]
        pond: list[int] = []
        bot = WildBot(seed)
        raw = False
        while len(wall) > 14:
            hand.append(wall.pop())
            raw = len(wall) <= 30
            if is_winning_shape(_counts(hand), 0, Wild(wild)):
                obs = make_obs(hand, [Win(), *discards_of(hand)], wild=wild, raw_phase=raw)
            else:
                obs = make_obs(hand, discards_of(hand), wild=wild, raw_phase=raw,
                               discards=((), tuple(pond), (), ()))
            start = time.perf_counter()
            action = bot(obs)
            spent += time.perf_counter() - start
            decisions += 1
            if action == Win():
                wins += 1
                break
            assert isinstance(action, Discard) and action in obs.legal_actions
            assert action.tile != wild or all(t == wild for t in hand)
            hand.remove(action.tile)
            pond.append(action.tile)
    return decisions, wins, spent


def test_solitaire_plays_fast_and_wins() -> None:
    decisions, wins, spent = solitaire(7, 60)
    assert wins >= 30  # alone at the table, most hands finish before the wall runs out
    assert spent / decisions < 0.005  # well under a millisecond in practice


def test_plays_legal_guobiao_hands() -> None:
    """Without a wild face (Guobiao observations) it plays the regular shape, legally."""
    from majiang.engine import Table
    from majiang.engine.match import play_hand
    from majiang.rules.guobiao.ruleset import GuobiaoRules

    for seed in range(3):
        bots = [make_bot("wild", seed * 4 + i) for i in range(4)]

        def agent(obs: Observation, bots: list[Any] = bots) -> Any:
            action = bots[obs.seat](obs)
            assert action in obs.legal_actions
            return action

        result = play_hand(Table(GuobiaoRules(), seed, dealer=seed % 4), [agent] * 4)
        assert sum(result.deltas) == 0
