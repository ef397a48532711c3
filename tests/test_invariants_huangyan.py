"""Invariants over thousands of simulated Huangyan hands (issue 5), as for Guobiao.

Seeded agents play whole hands, thrown bullets included: in one hand in three two seats play
the wild-aware bot, otherwise all four are seeded random players that win (mostly) when they
may, kong often and claim sometimes. About 1,600 hands in all; most reach the raw-tile phase and
many end in the exhaustive draw at 14 or 15 tiles.

At every step of every hand:

* every tile is accounted for: ``tile_census()`` is 4 of each face (the indicator included);
* the running score changes sum to zero;
* the agents only ever play from ``legal_actions``.

At the end of every hand both ledgers (hu and bullets) are zero-sum; a draw leaves exactly
``T(k)`` tiles and settles nothing; a win's hu ledger is what ``settle_hand`` gives for the
winner's total and the losers' own counts. Every eighth hand's record replays, through JSON,
to the same final state and scores.

On a fully checked sample, at every step also: each seat's legal actions are exactly those an
independent reading of rules/huangyan.md §2 allows from that seat's observation (the wild tile
never claimed, the stand-in playing as the wild face, chows from the right-hand player only,
the skipped-pung restriction, the kong threshold ``R - 1 >= T(k + 1)``, the final discard only
winnable); each observation equals one rebuilt from public information and the seat's own tiles;
now and then an illegal action raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from majiang.bots import make_bot
from majiang.engine import (
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Pass,
    Phase,
    Pung,
    Table,
    Win,
)
from majiang.engine.actions import AcceptBullets, Action, ThrowBullets
from majiang.engine.match import Agent
from majiang.engine.record import load_record, record_of, replay, save_record
from majiang.engine.table import Observation
from majiang.hand import MeldKind
from majiang.rules.huangyan.phase import draw_threshold
from majiang.rules.huangyan.ruleset import HuangyanRules
from majiang.rules.huangyan.scoring import is_winning_shape
from majiang.rules.huangyan.settlement import settle_hand
from majiang.rules.huangyan.wild import Wild
from test_invariants import OBSERVATION_FIELDS, expected_observation, probe_illegal

PLAIN = HuangyanRules()
VARIANT = HuangyanRules({"rob_kong": False, "skipped_win_restriction": True, "throw_limit": 2})
FULL_CENSUS = [4] * 34
LIGHT_CHUNKS, LIGHT_HANDS = 4, 140
"""Per rule variant: hands with the census, zero-sum and settlement checks."""
FULL_HANDS = 25
"""Per rule variant: hands with every check at every step."""
REPLAY_EVERY = 8


# --------------------------------------------------------------------------- agents


def random_agent(seed: int, declare: float = 0.9, claim: float = 0.4) -> Agent:
    """Wins (mostly) when it may, kongs often, claims sometimes, discards at random."""
    rng = random.Random(seed)

    def play(obs: Observation) -> Action:
        legal = obs.legal_actions
        if Win() in legal and rng.random() < declare:
            return Win()
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            kongs = [a for a in legal if isinstance(a, ConcealedKong | AddedKong)]
            if kongs and rng.random() < 0.6:
                return rng.choice(kongs)
            return rng.choice(discards)
        others = [a for a in legal if not isinstance(a, Win | Pass)]
        if others and rng.random() < claim:
            return rng.choice(others)
        return Pass() if Pass() in legal else rng.choice(list(legal))

    return play


def agents(seed: int) -> list[Agent]:
    """Two wild-aware bots and two random players in one hand in three (the bots win early),
    four random players in the others (their hands reach the raw-tile phase and the draw)."""
    if seed % 3:
        return [random_agent(seed * 4 + p) for p in range(4)]
    return [
        make_bot("wild", seed * 4) if p % 2 == 0 else random_agent(seed * 4 + p)
        for p in range(4)
    ]


# --------------------------------------------------------------------------- the rules, again


def counts_of(hand: tuple[int, ...]) -> list[int]:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return counts


def replacements(t: Table) -> int:
    """k, from the events: every kong is followed by one draw from the tail."""
    return sum(1 for e in t.events if e["type"] == "draw" and e["source"] == "kong")


def may_kong(obs: Observation, k: int) -> bool:
    return obs.wall_remaining - 1 >= draw_threshold(k + 1)


class Memory:
    """What the independent reading must remember from the events: skipped pungs and wins."""

    def __init__(self) -> None:
        self.skipped: list[set[int]] = [set(), set(), set(), set()]
        self.passed_win: set[int] = set()

    def answered(self, seat: int, action: Action, offered: list[Action], ident: int) -> None:
        if type(action) is Pass and Pung() in offered:
            self.skipped[seat].add(ident)
        if type(action) is not Win and Win() in offered:
            self.passed_win.add(seat)

    def took(self, seat: int, drew: bool) -> None:
        self.skipped[seat].clear()
        if drew:
            self.passed_win.discard(seat)


def expected_turn(t: Table, obs: Observation, k: int) -> set[Action]:
    """§2.1, §2.5: discard any tile; win on a complete hand (not right after a claim); kongs
    with no 得, also right after a claim, while a replacement draw is allowed."""
    wild = Wild(obs.wild if obs.wild is not None else 0)
    counts = counts_of(obs.hand)
    melds = obs.melds[obs.seat]
    actions: set[Action] = {Discard(x) for x in set(obs.hand)}
    claimed = t.events[-1]["type"] in ("chow", "pung")
    if not claimed and is_winning_shape(counts, len(melds), wild):
        actions.add(Win())
    if may_kong(obs, k):
        actions |= {ConcealedKong(x) for x in range(34) if counts[x] == 4 and x != wild.face}
        for m in melds:
            face = wild.physical(m.tile)
            if m.kind is MeldKind.PUNG and counts[face]:
                actions.add(AddedKong(face))
    return actions


def expected_claims(
    t: Table, obs: Observation, memory: Memory, k: int, robbing: bool
) -> set[Action]:
    """§2.2-2.4: win (never on a 得; robbing as the option says), pung (not a skipped
    identity), kong (a replacement left), chow by the right-hand player; none of them with a
    得, and on the final discard only a win."""
    seat, tile, offerer = obs.seat, obs.last_discard, obs.current
    assert tile is not None and obs.wild is not None
    wild = Wild(obs.wild)
    ident = wild.identity(tile)
    counts = counts_of(obs.hand)
    options = t.rules.options
    actions: set[Action] = set()
    final = not robbing and obs.drawable == 0
    counts[tile] += 1
    win_ok = tile != wild.face and (not robbing or options.rob_kong)
    if options.skipped_win_restriction and seat in memory.passed_win:
        win_ok = False
    if win_ok and is_winning_shape(counts, len(obs.melds[seat]), wild):
        actions.add(Win())
    counts[tile] -= 1
    if not robbing and not final and tile != wild.face:
        if counts[tile] >= 2 and ident not in memory.skipped[seat]:
            actions.add(Pung())
        if counts[tile] >= 3 and may_kong(obs, k):
            actions.add(ExposedKong())
        if ident < 27 and seat == (offerer + 1) % 4:
            for low in range(ident - 2, ident + 1):
                run = (low, low + 1, low + 2)
                if low >= 0 and low // 9 == (low + 2) // 9 == ident // 9 and all(
                    counts[wild.physical(x)] for x in run if x != ident
                ):
                    actions.add(Chow(low))
    if actions or t.every_seat_answers:
        actions.add(Pass())
    return actions


def expected_bullets(t: Table, obs: Observation) -> set[Action]:
    """§3.4: the dealer throws 0 to ``throw_limit``; then the others accept or decline."""
    if any(e["type"] == "throw_bullets" for e in t.events):
        return {AcceptBullets(), Pass()} if obs.seat != obs.dealer else set()
    if obs.seat != obs.dealer:
        return set()
    return {ThrowBullets(n) for n in range(t.rules.throw_limit + 1)}


def check_step(t: Table, memory: Memory) -> list[Observation]:
    """Observations rebuilt independently and every seat's legal actions re-derived."""
    k = replacements(t)
    assert k == t.replacements
    observations = []
    waiting = set(t.to_act())
    for seat in range(4):
        obs = t.observation(seat)
        assert set(obs._fields) == OBSERVATION_FIELDS
        assert obs == expected_observation(t, seat)
        assert obs.drawable == max(0, obs.wall_remaining - draw_threshold(k))
        legal = set(obs.legal_actions)
        if t.phase is Phase.END or seat not in waiting:
            assert not legal
        elif t.phase is Phase.BULLETS:
            assert legal == expected_bullets(t, obs)
        elif t.phase is Phase.TURN:
            assert legal == expected_turn(t, obs, k)
        else:
            assert legal == expected_claims(t, obs, memory, k, t.phase is Phase.ROB)
        observations.append(obs)
    return observations


# --------------------------------------------------------------------------- one hand


def play(
    t: Table, players: list[Agent], *, full: bool = False, rng: random.Random | None = None
) -> None:
    """Play one hand to its end with the census and zero-sum checks at every step (and, with
    ``full``, the independent reading of the rules and probes of illegal actions)."""
    memory = Memory()
    steps = 0
    while not t.is_over:
        observations = check_step(t, memory) if full else None
        if full and rng is not None and observations is not None and steps % 7 == 3:
            probe_illegal(t, rng, observations)
        for seat in t.to_act():
            obs = t.observation(seat)
            action = players[seat](obs)
            assert action in obs.legal_actions
            phase, offered = t.phase, list(obs.legal_actions)
            ident = t.rules.identity(t.last_tile) if phase is Phase.CLAIM and t.last_tile else 0
            before = len(t.events)
            t.apply(seat, action)
            if phase is Phase.CLAIM or phase is Phase.ROB:
                memory.answered(seat, action, offered, ident)
            for event in t.events[before:]:
                if event["type"] in ("draw", "chow", "pung", "exposed_kong"):
                    memory.took(event["seat"], event["type"] == "draw")
            steps += 1
            assert t.tile_census()[:34] == FULL_CENSUS
            assert sum(t.deltas) == 0
            if t.is_over:
                break
    if full:
        check_step(t, memory)


def check_result(t: Table) -> None:
    """Both ledgers zero-sum; a draw at T(k) settles nothing; a win settles as §5.8 says."""
    r = t.result
    assert r is not None
    assert sum(r.deltas) == 0 and sum(r.ledger("bullets")) == 0
    if r.is_draw:
        assert t.wall.remaining == draw_threshold(t.replacements)
        assert r.deltas == (0, 0, 0, 0) and r.ledger("bullets") == (0, 0, 0, 0)
        return
    assert r.winner is not None
    detail = r.detail
    losers = {int(s): total for s, total in detail["losers"].items()}
    settlement = settle_hand(
        r.winner,
        r.points,
        losers,
        dealer=t.dealer,
        self_drawn=r.self_drawn,
        gunner=detail["gunner"],
        dealer_count=t.dealer_count,
        thrown={s: n for s, n in enumerate(r.stake("thrown")) if n},
        options=t.rules.options,
    )
    assert r.deltas == tuple(h * t.stake for h in settlement.hu)
    assert r.ledger("bullets") == settlement.bullets
    assert r.points == detail["winner"]["total"] and r.points % 10 == 0
    assert 0 < r.points <= t.rules.options.limit
    if detail["gunner"] is not None:
        assert detail["gunner"] == r.discarder and t.late


def check_replay(t: Table, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.jsonl"
    save_record(t, path)
    lines = load_record(path)
    assert lines == json.loads(json.dumps(record_of(t)))
    again = replay(lines)
    assert again.result == t.result
    assert again.concealed == t.concealed and again.melds == t.melds
    assert again.tile_census() == t.tile_census()


# --------------------------------------------------------------------------- the runs


class Figures:
    def __init__(self) -> None:
        self.hands = self.wins = self.draws = self.raw = self.gunners = self.kongs = 0
        self.draw_at: set[int] = set()
        self.thrown = 0

    def add(self, t: Table) -> None:
        r = t.result
        assert r is not None
        self.hands += 1
        self.wins += not r.is_draw
        self.draws += r.is_draw
        self.raw += t.late
        self.gunners += r.detail.get("gunner") is not None
        self.kongs += t.replacements > 0
        self.thrown += any(r.stake("thrown"))
        if r.is_draw:
            self.draw_at.add(t.wall.remaining)


@pytest.mark.parametrize("rules", [PLAIN, VARIANT], ids=["plain", "variant"])
@pytest.mark.parametrize("chunk", range(LIGHT_CHUNKS))
def test_census_zero_sum_settlement_and_replay(
    rules: HuangyanRules, chunk: int, tmp_path: Path
) -> None:
    figures = Figures()
    for i in range(LIGHT_HANDS):
        seed = chunk * 100_000 + i
        answers = i % 4 == 0
        t = Table(
            rules,
            seed,
            dealer=seed % 4,
            every_seat_answers=answers,
            dealer_count=1 + i % 3,
            thrown=(0, 0, 0, 0) if i % 5 else tuple(0 if s == seed % 4 else s for s in range(4)),
        )
        play(t, agents(seed))
        check_result(t)
        figures.add(t)
        if i % REPLAY_EVERY == 0:
            check_replay(t, tmp_path, f"hand-{seed}")
    # the hands cover what the invariants are about
    assert figures.wins >= LIGHT_HANDS // 5 and figures.draws >= LIGHT_HANDS // 10
    assert figures.raw >= LIGHT_HANDS // 3 and figures.kongs and figures.thrown
    assert 14 in figures.draw_at


@pytest.mark.parametrize("rules", [PLAIN, VARIANT], ids=["plain", "variant"])
def test_every_check_at_every_step(rules: HuangyanRules, tmp_path: Path) -> None:
    figures = Figures()
    rng = random.Random(7)
    for i in range(FULL_HANDS):
        seed = 900_000 + i
        t = Table(rules, seed, dealer=i % 4, every_seat_answers=bool(i % 2))
        play(t, agents(seed), full=True, rng=rng)
        check_result(t)
        check_replay(t, tmp_path, f"full-{seed}")
        figures.add(t)
    assert figures.wins and figures.raw


def test_gunners_and_draws_at_fifteen_happen() -> None:
    """Over enough hands the rarer endings occur: a gunner, a draw after an odd k."""
    figures = Figures()
    for seed in range(400):
        t = Table(PLAIN, 500_000 + seed, dealer=seed % 4, every_seat_answers=False)
        play(t, [random_agent(seed * 4 + p, claim=0.8) for p in range(4)])
        check_result(t)
        figures.add(t)
    assert figures.gunners
    assert {14, 15} <= figures.draw_at


def summary(figures: Figures) -> dict[str, Any]:  # pragma: no cover - a debugging aid
    return dict(vars(figures))
