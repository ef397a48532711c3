"""Invariants over thousands of simulated hands (issue 4), with and without the false-win option.

Seeded agents (random, one of them greedy by shanten) play every hand to its end: about 1,750
hands, a quarter of them with ``every_seat_answers`` (every claim window open to all three seats).
``LIGHT_HANDS`` is the knob that trades hands for time (the file takes ~30 s of CPU).

At every step of every hand:

* every tile is accounted for: ``tile_census()`` is 4 of each kind and 1 of each flower;
* the running score changes sum to zero;
* the agents only ever play from ``legal_actions``.

At the end of every hand the result is zero-sum and matches the payment formula (§4.1) plus the
false-win penalties; two in every sixteen hands' records (``majiang.engine.record``), through
JSON, replay to the same final state and scores.

On a fully checked sample (every record replayed; half the hands claim nearly everything) also,
at every step:

* each seat's legal actions are exactly those an independent reading of the rules (§2.6-2.10)
  allows from that seat's observation, wins judged by ``is_complete`` + the scorer; before each
  discard or added kong, the seats that will be asked are predicted, and exactly they are asked;
* each observation equals one rebuilt from public information and the seat's own tiles only, and
  its drawn tile / tile on offer agree with the last event;
* now and then an action outside the legal set, by any seat, raises ``IllegalAction`` and leaves
  every observation, ``to_act`` and the census unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from majiang.engine import (
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    IllegalAction,
    Pass,
    Phase,
    Pung,
    Table,
    Win,
)
from majiang.engine.actions import Action, action_from_json
from majiang.engine.record import (
    RecordError,
    load_record,
    record_of,
    replay,
    replay_iter,
    save_record,
    table_from_header,
)
from majiang.engine.state import HIDDEN, Observation
from majiang.hand import Hand, Meld, MeldKind, WinContext
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.guobiao.scoring import score_hand
from majiang.rules.huangyan.observation import HuangyanObservation
from majiang.rules.huangyan.ruleset import HuangyanRules
from majiang.shanten import TILE_KEYS, hand_key, shanten_of_key
from majiang.shapes import is_complete
from majiang.tiles import tile_name

FULL_CENSUS = [4] * 34 + [1] * 8
PLAIN = GuobiaoRules()
FALSE_WIN = GuobiaoRules({"false_win": True})
FULL_CHUNKS, FULL_HANDS = 2, 15
"""Per rule variant: hands with every check at every step (about 90 ms a hand)."""
LIGHT_CHUNKS, LIGHT_HANDS = 6, 140
"""Per rule variant: hands with the census, zero-sum and legality checks (10-15 ms a hand)."""
REPLAY_EVERY = 16
"""In the light hands, replay two in every this many hands' records (a replay costs a hand):
one played with ``every_seat_answers``, one without."""
PROBE_EVERY = 7
"""In the full hands, try an illegal action every this many steps."""

OBSERVATION_FIELDS = {
    "seat",
    "dealer",
    "prevalent_wind",
    "seat_wind",
    "phase",
    "current",
    "hand",
    "drawn",
    "melds",
    "flowers",
    "discards",
    "hand_sizes",
    "wall_remaining",
    "last_discard",
    "legal_actions",
    "deltas",
    "may_win",
    "win_reaches_minimum",  # the seat's own offered win: its tiles and public facts only
    "wild",  # the face of the indicator, which lies face up
    "indicator",
    "drawable",  # from the public wall count and replacement count
    "visible",  # counted from the ponds and the exposed melds (expected_observation recounts)
    "extension",  # the rule set's public facts: Huangyan's raw-tile phase (announced to
    # everybody), dealer count and thrown bullets (accepted in public)
}
"""The fields reviewed for leaks; a new field fails the test until it is reviewed here."""

# --------------------------------------------------------------------------- agents


def choose(
    rng: random.Random,
    legal: tuple[Action, ...] | list[Action],
    hand: tuple[int, ...],
    melds: int,
    greedy: bool,
    declare: float,
    claim: float = 0.4,
) -> Action:
    """A seeded player: wins (mostly) when it may, kongs often, claims sometimes; the greedy one
    discards to the lowest shanten. It sees only its legal actions and its own tiles."""
    if Win() in legal and rng.random() < declare:
        return Win()
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:  # on turn
        kongs = [a for a in legal if isinstance(a, ConcealedKong | AddedKong)]
        if kongs and rng.random() < 0.6:
            return rng.choice(kongs)
        if not greedy:
            return rng.choice(discards)
        key = hand_key(hand)
        best: list[Action] = []
        low = 99
        for action in discards:
            assert isinstance(action, Discard)
            value = shanten_of_key(key - TILE_KEYS[action.tile], len(hand) - 1, melds)
            if value < low:
                low, best = value, [action]
            elif value == low:
                best.append(action)
        return rng.choice(best)
    claims = [a for a in legal if not isinstance(a, Win | Pass)]
    if claims and rng.random() < (claim / 2 if greedy else claim):
        return rng.choice(claims)
    return Pass()


# --------------------------------------------------------------------------- the rules, again


def counts_of(hand: tuple[int, ...]) -> list[int]:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return counts


def visible_copies(obs: Observation, tile: int) -> int:
    """Copies of ``tile`` everybody can see: ponds and exposed melds (§5.8)."""
    n = sum(pond.count(tile) for pond in obs.discards)
    for melds in obs.melds:
        for m in melds:
            if m.tile != HIDDEN and m.is_exposed:
                n += m.tiles.count(tile)
    return n


def may_declare(
    t: Table, obs: Observation, win: int, context: WinContext, counts: list[int]
) -> bool:
    """Whether a Win must be offered: a winning shape, and 8 fans or the false-win option."""
    if not obs.may_win or not is_complete(counts, len(obs.melds[obs.seat])):
        return False
    if t.rules.options.false_win:
        return True
    concealed = [x for x in range(34) for _ in range(counts[x])]
    concealed.remove(win)
    hand = Hand(obs.melds[obs.seat], tuple(concealed), win, obs.flowers[obs.seat])
    return score_hand(hand, context, t.rules.options).meets_minimum


def last_draw(t: Table, seat: int) -> dict[str, Any]:
    for event in reversed(t.events):
        if event["type"] == "draw" and event["seat"] == seat:
            return event
    raise AssertionError("no draw")


def expected_turn_actions(t: Table, obs: Observation) -> set[Action]:
    """§2.6: after a chow or pung only a discard; otherwise win, kongs (tiles left), discard."""
    counts = counts_of(obs.hand)
    actions: set[Action] = {Discard(x) for x in set(obs.hand)}
    claimed = t.events[-1]["type"] in ("chow", "pung")
    if claimed:
        assert obs.drawn is None
        return actions
    assert obs.drawn is not None
    if obs.wall_remaining:
        actions |= {ConcealedKong(x) for x in range(34) if counts[x] == 4}
        actions |= {
            AddedKong(m.tile)
            for m in obs.melds[obs.seat]
            if m.kind is MeldKind.PUNG and counts[m.tile]
        }
    initial = not any(e["type"] == "draw" for e in t.events)  # the dealer's first turn
    source = "initial" if initial else last_draw(t, obs.seat)["source"]
    win = obs.drawn
    context = WinContext(
        self_drawn=True,
        seat_wind=obs.seat_wind,
        prevalent_wind=obs.prevalent_wind,
        last_tile=obs.wall_remaining == 0 and source != "initial",
        kong=source == "kong",
        fourth_tile=counts[win] == 1 and visible_copies(obs, win) == 3,
        initial_hand=source == "initial" and not obs.melds[obs.seat],
    )
    if may_declare(t, obs, win, context, counts):
        actions.add(Win())
    return actions


def expected_claims(
    t: Table,
    obs: Observation,
    tile: int,
    offerer: int,
    robbing: bool,
    discards: tuple[tuple[int, ...], ...],
) -> set[Action]:
    """§2.7-2.9: what ``obs.seat`` may answer to ``tile`` offered by ``offerer`` (a discard, or
    the tile added to a pung when ``robbing``): win; pung or kong (not on the final discard,
    a kong only with a replacement left); chow by the next player only."""
    seat = obs.seat
    if seat == offerer:
        return set()
    final = not robbing and obs.wall_remaining == 0
    counts = counts_of(obs.hand)
    actions: set[Action] = set()
    counts[tile] += 1
    if robbing:
        fourth = False  # never with 抢杠和 (§5.8)
    else:
        others = sum(p.count(tile) for p in discards) - 1  # the discard itself is not counted
        others += visible_copies(obs, tile) - sum(p.count(tile) for p in obs.discards)
        fourth = counts[tile] == 1 and others == 3
    context = WinContext(
        self_drawn=False,
        seat_wind=obs.seat_wind,
        prevalent_wind=obs.prevalent_wind,
        last_tile=final,
        kong=robbing,
        fourth_tile=fourth,
    )
    if may_declare(t, obs, tile, context, counts):
        actions.add(Win())
    counts[tile] -= 1
    if not robbing and not final:
        if counts[tile] >= 2:
            actions.add(Pung())
        if counts[tile] >= 3:
            actions.add(ExposedKong())
        if tile < 27 and seat == (offerer + 1) % 4:
            rank = tile % 9
            for low in range(tile - min(rank, 2), tile + 1):
                if low % 9 <= 6 and all(counts[x] for x in (low, low + 1, low + 2) if x != tile):
                    actions.add(Chow(low))
    if actions or t.every_seat_answers:  # then every window is open to all three seats
        actions.add(Pass())
    return actions


# --------------------------------------------------------------------------- observations


def expected_observation(t: Table, seat: int) -> Observation:
    """Rebuilt from public information and ``seat``'s own concealed tiles only."""
    public_melds = tuple(
        tuple(
            m if s == seat or not m.is_concealed_kong else Meld(MeldKind.KONG, HIDDEN, 0)
            for m in t.melds[s]
        )
        for s in range(4)
    )
    on_offer = t.phase in (Phase.CLAIM, Phase.ROB)
    own_turn = t.phase is Phase.TURN and t.current == seat
    drawn = None
    if own_turn and t.events[-1]["type"] not in ("chow", "pung"):
        drawn = t.last_tile
    return Observation(
        seat=seat,
        dealer=t.dealer,
        prevalent_wind=t.prevalent_wind,
        seat_wind=(seat - t.dealer) % 4,
        phase=t.phase,
        current=t.current,
        hand=tuple(x for x in range(34) for _ in range(t.concealed[seat][x])),
        drawn=drawn,
        melds=public_melds,
        flowers=tuple(tuple(f) for f in t.flowers),
        discards=tuple(tuple(p) for p in t.ponds),
        hand_sizes=tuple(sum(c) for c in t.concealed),
        wall_remaining=t.wall.remaining,
        last_discard=t.last_tile if on_offer else None,
        legal_actions=tuple(t.legal_actions(seat)),
        deltas=tuple(t.deltas),
        may_win=seat not in t.cannot_win,
        win_reaches_minimum=offered_win_legal(t, seat),
        wild=t.rules.wild_face,
        indicator=t.indicators[0] if t.indicators else None,
        drawable=max(0, t.wall.remaining - t.rules.reserve(t.replacements)),
        visible=None if t.rules.wild_face is not None else visible_counts(t),
        extension=(HuangyanObservation(t.late, t.dealer_count, tuple(t.thrown))
                   if isinstance(t.rules, HuangyanRules) else None),
    )


def visible_counts(t: Table) -> tuple[int, ...]:
    """Copies of each kind in the ponds and the exposed melds, counted afresh."""
    counts = [0] * 34
    for pond in t.ponds:
        for x in pond:
            counts[x] += 1
    for melds in t.melds:
        for m in melds:
            if not m.is_concealed_kong:
                for x in m.tiles:
                    counts[x] += 1
    return tuple(counts)


def offered_win_legal(t: Table, seat: int) -> bool | None:
    """Whether the offered Win (if any) reaches the minimum, from the rule set's own verdict."""
    if Win() not in t.legal_actions(seat):
        return None
    check = t._self_drawn_check() if t.phase is Phase.TURN else t.checks[seat]
    assert check is not None
    return check.legal


def check_observations(t: Table) -> list[Observation]:
    """Every seat's observation is the rebuilt one; the tile on offer and the drawn tile agree
    with the last event (the discard or added kong, or the seat's own private draw)."""
    observations = []
    last = t.events[-1]
    for seat in range(4):
        obs = t.observation(seat)
        assert set(obs._fields) == OBSERVATION_FIELDS and len(obs) == len(obs._fields)
        assert obs == expected_observation(t, seat)
        if obs.last_discard is not None:
            assert last["type"] in ("discard", "added_kong")
            assert last["tile"] == tile_name(obs.last_discard)
        if last["type"] == "draw" and last["seat"] == seat:
            assert obs.drawn is not None and last["tile"] == tile_name(obs.drawn)
        observations.append(obs)
    return observations


def check_legal(t: Table, observations: list[Observation]) -> None:
    """Each seat's legal actions against the independent reading of the rules."""
    if t.phase is Phase.END:
        assert t.to_act() == [] and all(not o.legal_actions for o in observations)
        return
    if t.phase is Phase.TURN:
        assert t.to_act() == [t.current]
        for obs in observations:
            if obs.seat == t.current:
                assert set(obs.legal_actions) == expected_turn_actions(t, obs)
                assert len(obs.legal_actions) == len(set(obs.legal_actions))
            else:
                assert obs.legal_actions == ()
        return
    waiting = set(t.to_act())
    for obs in observations:
        if obs.seat in waiting:
            assert obs.last_discard is not None
            expected = expected_claims(
                t, obs, obs.last_discard, obs.current, obs.phase is Phase.ROB, obs.discards
            )
            assert set(obs.legal_actions) == expected
        else:
            assert obs.legal_actions == ()


def predicted_window(
    observations: list[Observation], seat: int, action: Action, t: Table
) -> set[int]:
    """The seats that must be asked about a discard or an added kong, before it is made."""
    if not isinstance(action, Discard | AddedKong):
        return set()
    robbing = isinstance(action, AddedKong)
    discards = list(observations[seat].discards)
    if not robbing:
        discards[seat] = (*discards[seat], action.tile)
    return {
        obs.seat
        for obs in observations
        if expected_claims(t, obs, action.tile, seat, robbing, tuple(discards))
    }


# --------------------------------------------------------------------------- illegal actions


def universe(tile: int) -> list[Any]:
    return [
        Discard(tile),
        Chow(tile),
        ConcealedKong(tile),
        AddedKong(tile),
        Pung(),
        ExposedKong(),
        Win(),
        Pass(),
    ]


def probe_illegal(t: Table, rng: random.Random, observations: list[Observation]) -> None:
    seat = rng.randrange(4)
    legal = set(t.legal_actions(seat))
    candidates = [a for a in universe(rng.randrange(34)) if a not in legal]
    action = rng.choice(candidates)
    census = t.tile_census()
    to_act = t.to_act()
    history = len(t.history)
    with pytest.raises(IllegalAction) as info:
        t.apply(seat, action)
    assert f"seat {seat}" in str(info.value)
    assert [t.observation(s) for s in range(4)] == observations
    assert t.tile_census() == census and t.to_act() == to_act and len(t.history) == history


# --------------------------------------------------------------------------- one hand


def play_checked(
    t: Table, rng: random.Random, styles: list[bool], declare: float, claim: float = 0.4
) -> None:
    """Play one hand with every check at every step."""
    steps = 0
    while True:
        assert t.tile_census() == FULL_CENSUS
        assert sum(t.deltas) == 0
        observations = check_observations(t)
        check_legal(t, observations)
        if t.is_over:
            return
        if steps % PROBE_EVERY == 0:
            probe_illegal(t, rng, observations)
        seat = rng.choice(t.to_act())
        obs = observations[seat]
        melds = len(obs.melds[seat])
        action = choose(rng, obs.legal_actions, obs.hand, melds, styles[seat], declare, claim)
        asked = predicted_window(observations, seat, action, t)
        t.apply(seat, action)
        steps += 1
        if asked:  # every eligible seat is asked, and only those
            assert t.phase in (Phase.CLAIM, Phase.ROB) and t.current == seat
            assert set(t.to_act()) == asked
        elif isinstance(action, Discard | AddedKong):
            assert t.phase in (Phase.TURN, Phase.END)


def play_light(t: Table, rng: random.Random, styles: list[bool], declare: float) -> None:
    """Play one hand checking the census, zero-sum and legality at every step."""
    while not t.is_over:
        assert t.tile_census() == FULL_CENSUS
        assert sum(t.deltas) == 0
        seat = rng.choice(t.to_act())
        legal = t.legal_actions(seat)
        hand: tuple[int, ...] = ()
        if styles[seat] and t.phase is Phase.TURN:
            hand = tuple(x for x in range(34) for _ in range(t.concealed[seat][x]))
        action = choose(rng, legal, hand, len(t.melds[seat]), styles[seat], declare)
        t.apply(seat, action)
    assert t.tile_census() == FULL_CENSUS
    assert t.to_act() == [] and all(t.legal_actions(s) == [] for s in range(4))


def check_result(t: Table, coverage: Counter[str]) -> None:
    result = t.result
    assert result is not None
    assert sum(result.deltas) == 0
    penalties = [0, 0, 0, 0]
    for event in t.events:
        coverage[event["type"]] += 1
        if event["type"] == "false_win":
            offender = event["seat"]
            penalty = 10 * t.stake
            for s in range(4):
                penalties[s] += -3 * penalty if s == offender else penalty
    pay = [0, 0, 0, 0]
    if result.winner is not None:
        f = result.points
        assert f == sum(x["points"] * x["count"] for x in result.detail["fans"])
        assert f - result.detail["flowers"] >= 8
        for s in range(4):
            if s == result.winner:
                continue
            if result.discarder is None or s == result.discarder:
                owed = (8 + f) * t.stake
            else:
                owed = 8 * t.stake
            pay[s] -= owed
            pay[result.winner] += owed
        coverage["robbed" if "抢杠和" in str(result.detail) else "won"] += 1
    else:
        coverage["drawn hands"] += 1
    assert list(result.deltas) == [p + q for p, q in zip(pay, penalties, strict=True)]


def check_replay(t: Table) -> None:
    """The record, through JSON, replays (verifying every event) to the same final state."""
    lines = json.loads(json.dumps(record_of(t)))
    again = replay(lines)
    assert again.result == t.result
    assert again.history == t.history
    assert again.events == t.events
    assert [again.observation(s) for s in range(4)] == [t.observation(s) for s in range(4)]
    assert again.tile_census() == t.tile_census()


RULES = {"plain": PLAIN, "false_win": FALSE_WIN}
SEEN_IN_EVERY_CHUNK = {
    "flower",
    "chow",
    "pung",
    "exposed_kong",
    "concealed_kong",
    "added_kong",
    "win",
    "exhaustive_draw",
}
"""Events every chunk of light hands must contain (or the simulation tests too little)."""


def new_hand(variant: str, n: int) -> tuple[Table, random.Random, list[bool]]:
    rng = random.Random(f"{variant}-{n}")
    greedy = rng.randrange(4)
    styles = [seat == greedy for seat in range(4)]
    t = Table(
        RULES[variant],
        n,
        dealer=n % 4,
        prevalent_wind=(n // 4) % 4,
        stake=1 + n % 3,
        every_seat_answers=n % 4 == 1,
    )
    return t, rng, styles


@pytest.mark.parametrize("chunk", range(FULL_CHUNKS))
@pytest.mark.parametrize("variant", ["plain", "false_win"])
def test_every_check_at_every_step(variant: str, chunk: int) -> None:
    coverage: Counter[str] = Counter()
    for k in range(FULL_HANDS):
        n = 1_000_000 + chunk * FULL_HANDS + k
        t, rng, _ = new_hand(variant, n)
        styles = [rng.random() < 0.5 for _ in range(4)]  # more greedy seats: more wins
        claim = 0.9 if k % 2 else 0.4  # every other hand claims nearly everything: more kongs
        play_checked(t, rng, styles, declare=0.9 if variant == "plain" else 0.6, claim=claim)
        check_result(t, coverage)
        check_replay(t)
    assert coverage["win"] and coverage["pung"] and coverage["chow"]


@pytest.mark.parametrize("chunk", range(LIGHT_CHUNKS))
@pytest.mark.parametrize("variant", ["plain", "false_win"])
def test_census_zero_sum_and_legality_over_many_hands(variant: str, chunk: int) -> None:
    coverage: Counter[str] = Counter()
    for k in range(LIGHT_HANDS):
        n = chunk * LIGHT_HANDS + k
        t, rng, styles = new_hand(variant, n)
        play_light(t, rng, styles, declare=0.9 if variant == "plain" else 0.6)
        check_result(t, coverage)
        if n % REPLAY_EVERY in (0, 1):
            check_replay(t)
    expected = SEEN_IN_EVERY_CHUNK | ({"false_win"} if variant == "false_win" else set())
    assert expected <= set(coverage), f"never seen: {expected - set(coverage)}"


def test_saved_records_load_and_replay(tmp_path: Path) -> None:
    for n in range(6):
        t, rng, styles = new_hand("false_win", 2_000_000 + n)
        play_light(t, rng, styles, declare=0.6)
        path = tmp_path / f"hand{n}.jsonl"
        save_record(t, path)
        check_replay(t)
        again = replay(load_record(path))
        assert again.result == t.result and again.events == t.events


def test_replay_iter_steps_through_the_record() -> None:
    """The deal, then one step per action line with the table just after it, its number, the
    action and its events; given a table, the action lines alone do the same; a result line
    ends it, a wrong event or result raises."""
    t, rng, styles = new_hand("false_win", 2_500_000)
    play_light(t, rng, styles, declare=0.6)
    lines = json.loads(json.dumps(record_of(t)))
    actions = lines[1:-1]
    fresh = table_from_header(lines[0])
    steps = []
    for table, step in replay_iter(lines):
        if step.seat is None:
            assert step.number == 1 and step.action is None and step.events == fresh.events
        else:
            line = lines[step.number - 1]
            assert (step.seat, step.recorded, step.events) == (line["seat"], line["action"],
                                                              line["events"])
            assert step.action == action_from_json(line["action"])
            assert fresh.apply(step.seat, step.action) == step.events
        assert table.history == fresh.history
        steps.append(step.number)
    assert steps == list(range(1, len(lines)))  # the header's deal and every action line
    assert table.result == t.result
    given = table_from_header(lines[0])
    numbers = [step.number for _, step in replay_iter(actions, table=given)]
    assert numbers == list(range(len(actions) + 1)) and given.events == t.events
    wrong = [*lines[:-1], {"result": {**lines[-1]["result"], "deltas": [9, -9, 0, 0]}}]
    with pytest.raises(RecordError, match="result differs"):
        list(replay_iter(wrong))
    assert list(replay_iter(wrong, verify=False))[-1][0].result == t.result
    changed = [lines[0], {**lines[1], "events": []}]
    with pytest.raises(RecordError, match="line 2: the replay's events differ"):
        list(replay_iter(changed))
    with pytest.raises(RecordError, match="line 2: bad action line"):
        list(replay_iter([lines[0], {"seat": 0}]))


def test_an_unfinished_hand_replays_to_the_same_state() -> None:
    t, rng, _ = new_hand("plain", 3_000_000)
    for _ in range(37):
        seat = rng.choice(t.to_act())
        t.apply(seat, choose(rng, t.legal_actions(seat), (), 0, False, 0.9))
    again = replay(json.loads(json.dumps(record_of(t))))
    assert again.result is None and not again.is_over
    assert [again.observation(s) for s in range(4)] == [t.observation(s) for s in range(4)]
    assert again.to_act() == t.to_act() and again.tile_census() == t.tile_census()


def test_a_hand_from_an_explicit_wall_replays() -> None:
    wall = list(Table(PLAIN, 5).wall.tiles)
    t = Table(PLAIN, 0, wall=wall)
    rng = random.Random(5)
    for _ in range(20):
        seat = rng.choice(t.to_act())
        t.apply(seat, choose(rng, t.legal_actions(seat), (), 0, False, 0.9))
    again = replay(json.loads(json.dumps(record_of(t))))
    assert [again.observation(s) for s in range(4)] == [t.observation(s) for s in range(4)]
