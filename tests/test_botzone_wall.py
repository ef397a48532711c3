"""Botzone's single-ended wall (docs/botzone.md, "Walls"): the engine's ``single_end`` mode, its
records, and a simulation of Botzone's judge that plays the same walltiles from the same moves
and must give every player the same tiles, at the same moments, with the same requests."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from majiang.bots import make_bot
from majiang.botzone import (
    BotzoneAgent,
    RequestDeriver,
    botzone_deal,
    botzone_name,
    botzone_tile,
    format_request,
    from_walltiles,
    play_hand,
    seeded_wall,
    to_walltiles,
)
from majiang.botzone.wall import dealer_draw_flowers
from majiang.cli import main
from majiang.engine import (
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Observation,
    Pass,
    Pung,
    Table,
    Win,
)
from majiang.engine.actions import Action
from majiang.engine.match import play_hand as play_table
from majiang.engine.record import RecordError, record_of, replay, table_from_header
from majiang.engine.wall import roll_dice
from majiang.errors import MajiangError
from majiang.hand import WinContext
from majiang.notation import parse_tiles
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.registry import rules_options
from majiang.tiles import FLOWER_LETTERS, tile_from_name, tile_name

RULES = GuobiaoRules()
BOTS = Path(__file__).parent / "botzone_bots"
PLAYER = [sys.executable, "-I", "-S", str(BOTS / "simple_player.py"), "simple", "--keep-running"]


def tiles(text: str) -> list[int]:
    """Tiles in the hand notation, in written order; flowers ``a``-``h`` one by one."""
    out: list[int] = []
    for part in text.split():
        out += [tile_from_name(part)] if part in FLOWER_LETTERS else parse_tiles(part)
    return out


def built_wall(prefix: list[int], suffix: list[int] | None = None) -> list[int]:
    """A whole wall (draw order): ``prefix``, the other tiles sorted (flowers last), then
    ``suffix``."""
    rest = Counter(RULES.wall_tiles())
    rest.subtract(prefix + (suffix or []))
    assert min(rest.values()) >= 0, "more copies than the wall holds"
    return prefix + sorted(rest.elements()) + (suffix or [])


# ---------------------------------------------------------------------- Botzone's judge


@dataclass
class Judge:
    """Botzone's judge (ailab-pku/Chinese-Standard-Mahjong ``judge/main.cpp``) as far as the
    wall, the order of play and the requests go. The older judge takes every tile from the
    end of the walltiles list; the current one (``four_part``) cuts the list into four equal
    parts, player ``i`` taking from the end of part ``i`` and the game drawn when the player
    to draw has none left. The players' responses are the moves of a majiang hand
    (``history``), in Botzone's player ids (the dealer is player 0)."""

    walltiles: str
    quan: int = 0
    four_part: bool = False
    piles: list[list[str]] = field(init=False)
    hands: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    dealt: list[list[str]] = field(default_factory=list)
    """Each player's 13 tiles as dealt."""
    flowers: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    requests: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    taken: list[tuple[str, int, str]] = field(default_factory=list)
    """Every tile taken: ("deal" | "flower" | "draw", player, tile)."""
    end: tuple[object, ...] = ()
    """("HUANG",) or ("HU", player, self_drawn, last tile of the wall, about a kong)."""

    def __post_init__(self) -> None:
        wall = self.walltiles.split(" ")
        assert len(wall) in (136, 144)
        size = len(wall) // 4
        four = [wall[size * i : size * (i + 1)] for i in range(4)]
        self.piles = four if self.four_part else [wall]

    def pile(self, player: int) -> list[str]:
        """Where ``player`` draws: his part, or the one wall."""
        return self.piles[player % len(self.piles)]

    def _all(self, text: str) -> None:
        for player in range(4):
            self.requests[player].append(text)

    def deal(self) -> None:
        for i in range(4):
            self.requests[i].append(f"0 {i} {self.quan}")
        for i in range(4):  # roundStage -1: until each holds 13 tiles, flowers aside
            while len(self.hands[i]) < 13:
                tile = self.pile(i).pop()
                flower = tile[0] == "H"
                (self.flowers if flower else self.hands)[i].append(tile)
                self.taken.append(("flower" if flower else "deal", i, tile))
        self.dealt = [list(h) for h in self.hands]
        counts = " ".join(str(len(f)) for f in self.flowers)
        shown = " ".join(t for f in self.flowers for t in f)
        for i in range(4):
            self.requests[i].append(" ".join(x for x in ("1", counts, *self.hands[i], shown) if x))

    def play(self, moves: Iterator[tuple[int, Action]]) -> None:
        """Play from the dealer's first draw until the game ends."""
        stage: tuple[str, int, str] = ("draw", 0, "")
        about_kong = False
        while True:
            kind, p, text = stage
            if kind == "draw":
                if not self.pile(p):
                    self.end = ("HUANG",)
                    return
                tile = self.pile(p).pop()
                if tile[0] == "H":
                    self.flowers[p].append(tile)
                    self.taken.append(("flower", p, tile))
                    self._all(f"3 {p} BUHUA {tile}")
                    about_kong = False  # the judge's kong flags last one draw
                    continue
                self.taken.append(("draw", p, tile))
                for i in range(4):
                    self.requests[i].append(f"2 {tile}" if i == p else f"3 {p} DRAW")
                self.hands[p].append(tile)
                seat, action = next(moves)
                assert seat == p
                if isinstance(action, Win):
                    self.end = ("HU", p, True, not self.pile(p + 1), about_kong)
                    return
                about_kong = False
                if isinstance(action, Discard):
                    stage = ("play", p, self._discard(p, action.tile, "PLAY"))
                elif isinstance(action, ConcealedKong):
                    for _ in range(4):
                        self.hands[p].remove(botzone_name(action.tile))
                    self._all(f"3 {p} GANG")
                    about_kong = True
                else:
                    assert isinstance(action, AddedKong)
                    name = botzone_name(action.tile)
                    self.hands[p].remove(name)
                    self._all(f"3 {p} BUGANG {name}")
                    answers = self._answers(moves, p)
                    for i in (1, 2, 3):  # robbing the kong, in the judge's order
                        if isinstance(answers[(p + i) % 4], Win):
                            self.end = ("HU", (p + i) % 4, False, not self.pile(p + 1), True)
                            return
                    about_kong = True
            else:  # a discard (PLAY, or the one named with PENG / CHI) on offer
                self._all(text)
                answers = self._answers(moves, p)
                offered = text.split()[-1]
                for i in (1, 2, 3):
                    if isinstance(answers[(p + i) % 4], Win):
                        self.end = ("HU", (p + i) % 4, False, not self.pile(p + 1), False)
                        return
                stage = ("draw", (p + 1) % 4, "")
                claims = sorted(answers.items(), key=lambda qa: isinstance(qa[1], Chow))
                for q, answer in claims:  # PENG / GANG first, then CHI
                    if isinstance(answer, Pung):
                        self._remove(q, [offered] * 2)
                        seat, discard = next(moves)
                        assert seat == q and isinstance(discard, Discard)
                        stage = ("play", q, self._discard(q, discard.tile, "PENG"))
                        break
                    if isinstance(answer, ExposedKong):
                        self._remove(q, [offered] * 3)
                        self._all(f"3 {q} GANG")
                        stage, about_kong = ("draw", q, ""), True
                        break
                    if isinstance(answer, Chow):
                        low = answer.low
                        chow = [botzone_name(t) for t in (low, low + 1, low + 2)]
                        chow.remove(offered)
                        self._remove(q, chow)
                        seat, discard = next(moves)
                        assert seat == q and isinstance(discard, Discard)
                        mid = botzone_name(answer.low + 1)
                        stage = ("play", q, self._discard(q, discard.tile, f"CHI {mid}"))
                        break

    def _remove(self, p: int, names: list[str]) -> None:
        for name in names:
            self.hands[p].remove(name)

    def _discard(self, p: int, tile: int, how: str) -> str:
        name = botzone_name(tile)
        self.hands[p].remove(name)
        return f"3 {p} {how} {name}"

    @staticmethod
    def _answers(moves: Iterator[tuple[int, Action]], p: int) -> dict[int, Action]:
        """The three other players' answers (majiang asks every seat at every window)."""
        answers = dict(next(moves) for _ in range(3))
        assert sorted(answers) == sorted({0, 1, 2, 3} - {p})
        return answers


def judge_hand(table: Table, walltiles: str) -> Judge:
    """Botzone's game of ``walltiles`` with the moves of the finished ``table`` (the current
    judge for a four-part table, the older one for a single-ended table)."""
    dealer = table.dealer
    judge = Judge(walltiles, table.prevalent_wind, table.layout == "four_part")
    judge.deal()
    moves = (((seat - dealer) % 4, action) for seat, action in table.history)
    judge.play(moves)
    assert next(moves, None) is None, "the judge ended the game before majiang did"
    return judge


def assert_played_alike(table: Table, start: list[tuple[int, ...]], walltiles: str) -> Judge:
    """Botzone's judge, dealt ``walltiles`` and given the moves of the finished single-ended
    ``table`` (whose seats held ``start`` after the deal), deals the same hands and flowers,
    gives every draw, flower and kong replacement to the same player in the same order, and
    ends the same way (the last-tile and kong fans included)."""
    dealer = table.dealer
    judge = judge_hand(table, walltiles)
    first = next(t for kind, p, t in judge.taken if kind == "draw")
    for i in range(4):
        dealt = judge.dealt[i] + ([first] if i == 0 else [])
        assert sorted(botzone_tile(t) for t in dealt) == sorted(start[(i + dealer) % 4])
    ours = [
        (e["type"], (e["seat"] - dealer) % 4, tile_from_name(e["tile"]))
        for e in table.events
        if e["type"] in ("flower", "draw")
    ]
    theirs = [(k, p, botzone_tile(t)) for k, p, t in judge.taken if k != "deal"]
    theirs.remove(("draw", 0, botzone_tile(first)))  # the dealer's 14th: no draw event here
    assert ours == theirs
    result = table.result
    assert result is not None
    if judge.end == ("HUANG",):
        assert result.winner is None
    else:
        _, winner, self_drawn, last, about_kong = judge.end
        assert (winner + dealer) % 4 == result.winner and self_drawn == result.self_drawn
        fans = {f["en"] for f in result.detail["fans"]}
        assert last == bool(fans & {"Last Tile Draw", "Last Tile Claim"})
        assert about_kong == bool(fans & {"Out with Replacement Tile", "Robbing the Kong"})
    return judge


# ---------------------------------------------------------------------- bots that kong


class KongBot:
    """Wins, kongs and pungs whenever it may; otherwise plays like its base bot."""

    def __init__(self, base: str, seed: int) -> None:
        self.base = make_bot(base, seed)

    def __call__(self, obs: Observation) -> Action:
        for kind in (Win, ConcealedKong, AddedKong, ExposedKong, Pung):
            for action in obs.legal_actions:
                if isinstance(action, kind):
                    return action
        return self.base(obs)


def kong_bots(seed: int) -> list[KongBot]:
    return [KongBot("random" if (seed + s) % 2 else "efficient", seed * 4 + s) for s in range(4)]


def _as_announced(requests: list[str], me: int) -> list[str]:
    """The judge's requests to player ``me`` with the one liberty majiang's Botzone seats take
    (docs/botzone.md, decision 12): another player's flowers drawn in a turn in which he also
    declared a concealed kong are all announced before his first draw of that turn."""
    out: list[str] = []
    run: list[str] = []
    for request in [*requests, ""]:
        words = request.split()
        if len(words) >= 3 and words[0] == "3" and int(words[1]) != me and (
            words[2] in ("BUHUA", "DRAW") or (words[2] == "GANG" and run)
        ):
            run.append(request)
            continue
        out += [r for r in run if " BUHUA " in r] + [r for r in run if " BUHUA " not in r]
        run = []
        out.append(request)
    return out[:-1]


def _normal(request: str) -> str:
    """The deal request with its 13 tiles sorted (the judge lists them in dealing order)."""
    words = request.split()
    if words[0] != "1":
        return request
    return " ".join([*words[:5], *sorted(words[5:18], key=botzone_tile), *words[18:]])


# ---------------------------------------------------------------------- the engine's mode


def test_the_single_ended_deal_is_botzones() -> None:
    """Each seat from the dealer takes tiles until it holds 13, a flower replaced at once by
    the next tile; then the dealer's 14th tile, its flowers replaced likewise."""
    dealer13 = tiles("123m456m789m123p4p")
    south = tiles("1s2s3s4s a 5s6s7s8s9s1p1p1p2p")  # a flower, replaced by the next tile
    west = tiles("2m2m2m3m3m3m4m4m4m5m5m5m6m")
    north = tiles("E E E S S S W W W N N N C")
    first = tiles("b c 7p")  # the dealer's first draw: two flowers, then 7p
    wall = built_wall(dealer13 + south + west + north + first)
    table = Table(RULES, wall=wall, dealer=1, single_end=True)
    assert sorted(table.observation(1).hand) == sorted([*dealer13, tile_from_name("7p")])
    assert table.observation(1).drawn == tile_from_name("7p")
    hands = [sorted(table.observation(s).hand) for s in (2, 3, 0)]
    assert hands == [sorted(south[:4] + south[5:]), sorted(west), sorted(north)]
    assert table.flowers == [[], tiles("b c"), tiles("a"), []]
    flowers = [(e["seat"], e["tile"]) for e in table.events if e["type"] == "flower"]
    assert flowers == [(2, "a"), (1, "b"), (1, "c")]
    assert table.wall.front == 13 + 14 + 13 + 13 + 3 and table.wall.back == 144
    assert table.replacements == 3 and table.draw_source == "initial"
    assert dealer_draw_flowers(wall) == 2
    walltiles = to_walltiles(wall, layout="single_end")
    assert from_walltiles(walltiles, layout="single_end") == wall and walltiles.split()[-1] == "W1"
    _, flowers_b, first_b = botzone_deal(walltiles, "single_end")
    assert first_b == tiles("b c 7p") and flowers_b == [[], tiles("a"), [], []]
    # Botzone announces the dealer's first-draw flowers after the deal request
    deriver = RequestDeriver()
    deriver.reset(dealer_draw_flowers=2)
    requests = [format_request(r) for r in deriver.requests(table.observation(1))]
    assert requests[1].startswith("1 0 1 0 0 ") and requests[1].endswith(" H1")
    assert requests[2:] == ["3 0 BUHUA H2", "3 0 BUHUA H3", "2 B7"]


KONG_WALL = built_wall(
    tiles("1m1m1m1m2p3p4p5s6s7s E S C")  # seat 0, the dealer: a concealed kong of 1m
    + tiles("C C C 2m3m4m5m6m7m8p8p P 9s")  # seat 1: an exposed kong of the dealer's C
    + tiles("P P 1s2s3s4p5p6p7p8p9p9m N")  # seat 2: pungs seat 1's P, adds the fourth
    + tiles("5p5p6p6p7p7p8m8m9m9m F F W")  # seat 3
    + tiles("N")  # the dealer's 14th tile
    + tiles("8s 2s 3s 4m 6m P 1p")  # then, from the front: draws and replacements alike
)


def _pass_all(table: Table) -> None:
    for seat in table.to_act():
        table.apply(seat, Pass())


def _last_draw(table: Table) -> tuple[int, str, str]:
    event = [e for e in table.events if e["type"] == "draw"][-1]
    return event["seat"], event["tile"], event["source"]


def test_kongs_draw_their_replacement_from_the_front() -> None:
    """A concealed, an exposed and an added kong each take the next tile of the front, like a
    live draw; nothing is ever taken from the tail."""
    table = Table(RULES, wall=KONG_WALL, dealer=0, single_end=True)
    start = [table.observation(s).hand for s in range(4)]
    m1, c, p = tile_from_name("1m"), tile_from_name("C"), tile_from_name("P")
    table.apply(0, ConcealedKong(m1))
    assert _last_draw(table) == (0, "8s", "kong") and table.wall.front == 54
    table.apply(0, Discard(c))
    table.apply(1, ExposedKong())
    _pass_all(table)
    assert _last_draw(table) == (1, "2s", "kong") and table.wall.front == 55
    table.apply(1, Discard(p))
    table.apply(2, Pung())
    _pass_all(table)
    table.apply(2, Discard(tile_from_name("N")))
    _pass_all(table)
    assert _last_draw(table) == (3, "3s", "wall")
    for seat, drawn in ((3, "3s"), (0, "4m"), (1, "6m")):
        table.apply(seat, Discard(tile_from_name(drawn)))
        _pass_all(table)
    assert _last_draw(table) == (2, "P", "wall")
    table.apply(2, AddedKong(p))
    _pass_all(table)  # nobody robs
    assert _last_draw(table) == (2, "1p", "kong") and table.wall.front == 60
    assert table.wall.back == 144 and table.replacements == 3
    kongs = [m for s in (0, 1, 2) for m in table.melds[s] if m.tiles[0] in (m1, c, p)]
    assert [m.is_concealed_kong for m in kongs] == [True, False, False]
    # to the end of the hand, everyone discarding what he draws; then Botzone's judge, fed the
    # same moves, gives the same tiles to the same players
    while not table.is_over:
        seat = table.to_act()[0]
        obs = table.observation(seat)
        if obs.drawn is None:
            _pass_all(table)
        else:
            table.apply(seat, Win() if Win() in obs.legal_actions else Discard(obs.drawn))
    judge = assert_played_alike(table, start, to_walltiles(KONG_WALL, layout="single_end"))
    draws = [(p_, t) for kind, p_, t in judge.taken if kind == "draw"]
    assert draws[:8] == [
        (0, "F4"), (0, "T8"), (1, "T2"), (3, "T3"), (0, "W4"), (1, "W6"), (2, "J3"), (2, "B1")
    ]


def test_a_two_ended_table_is_unchanged() -> None:
    """The default wall still replaces from the tail."""
    table = Table(RULES, 3, dealer=0)
    assert not table.single_end and not table.wall.single_end
    back = table.wall.back
    table.wall.draw_back()
    assert table.wall.back == back - 1
    single = Table(RULES, 3, dealer=0, single_end=True)
    assert single.wall.tiles == table.wall.tiles and single.wall.dice == table.wall.dice


LAST_WALL = built_wall(
    tiles("1m2m3m4m5m6m7m8m1p2p3p4p5s")  # seat 0, the dealer
    + tiles("1s2s3s4s5s6s7s8s9s5p6p7p8p")  # seat 1
    + tiles("9m9m9m9m C C C 1p2p3p E S W")  # seat 2: a kong of 9m, three C
    + tiles("2m3m4m2s3s4s5m6m7m4p5p6p N")  # seat 3
    + tiles("9p a b c d e f g h"),  # the dealer's 14th; seat 1's first draw: all 8 flowers
    tiles("C"),  # the last tile of the wall
)


def test_the_last_tile_may_replace_a_kong_and_then_the_wall_is_empty() -> None:
    """Everyone discards what he draws. With one tile left seat 2 may still kong (a
    replacement remains); the replacement is the wall's last tile; then he holds four C but
    may not kong them (nothing left to replace them), his discard is the final one (only a win
    may claim it) and the next draw ends the hand. Botzone's judge plays it alike."""
    table = Table(RULES, wall=LAST_WALL, dealer=0, single_end=True)
    start = [table.observation(s).hand for s in range(4)]
    m9, c = tile_from_name("9m"), tile_from_name("C")
    while not (table.to_act() == [2] and table.wall.remaining == 1):
        seat = table.to_act()[0]
        obs = table.observation(seat)
        if obs.drawn is None:
            _pass_all(table)
        else:
            table.apply(seat, Discard(obs.drawn))
    assert ConcealedKong(m9) in table.legal_actions(2)
    table.apply(2, ConcealedKong(m9))
    assert _last_draw(table) == (2, "C", "kong") and table.wall.remaining == 0
    assert table.concealed[2][c] == 4 and all(type(a) is Discard for a in table.legal_actions(2))
    table.apply(2, Discard(c))
    assert all(table.legal_actions(s) == [Pass()] for s in table.to_act())
    _pass_all(table)
    assert table.is_over and table.result is not None and table.result.winner is None
    judge = assert_played_alike(table, start, to_walltiles(LAST_WALL, layout="single_end"))
    assert judge.end == ("HUANG",)


# ---------------------------------------------------------------------- the judge agrees


@pytest.mark.parametrize(
    ("layout", "flowers", "seeds"),
    [("single_end", True, range(0, 50)), ("single_end", True, range(50, 100)),
     ("four_part", False, range(0, 50)), ("four_part", False, range(50, 100)),
     ("four_part", True, range(100, 150))],
)
def test_botzones_judge_plays_every_hand_alike(layout: str, flowers: bool, seeds: range) -> None:
    """For many seeded hands whose bots kong whenever they can, on a four-part table (the
    current judge) or a single-ended one (the older judge), with flowers or without: the judge,
    dealt the exported walltiles and given the same moves, deals the same hands and flowers,
    gives every draw, flower and kong replacement to the same player in the same order, ends
    the same way (the last-tile and kong fans included), and sends each player exactly the
    requests that majiang's Botzone seats derive from their observations."""
    kongs: Counter[str] = Counter()
    dealer_flowers = ended_by_wall = 0
    for seed in seeds:
        dealer = seed % 4
        rules = GuobiaoRules({"flowers": flowers})
        table = Table(rules, seed, dealer=dealer, prevalent_wind=seed % 3, layout=layout)
        walltiles = to_walltiles(seeded_wall(seed, flowers=flowers), layout=layout)
        start = [table.observation(s).hand for s in range(4)]
        extra = dealer_draw_flowers(table.wall.tiles, layout)
        dealer_flowers += extra > 0
        derivers = [RequestDeriver() for _ in range(4)]
        for seat, deriver in enumerate(derivers):
            deriver.reset(extra, table.dealt[seat])
        derived: list[list[str]] = [[], [], [], []]
        bots = kong_bots(seed)
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                derived[seat] += [format_request(r) for r in derivers[seat].requests(obs)]
                action = bots[seat](obs)
                derivers[seat].note(action)
                table.apply(seat, action)
        judge = assert_played_alike(table, start, walltiles)
        ended_by_wall += judge.end == ("HUANG",)
        # the requests: a seat's derived requests are the judge's to that player (those after
        # its last decision are never sent)
        for seat in range(4):
            mine = _as_announced(judge.requests[(seat - dealer) % 4], (seat - dealer) % 4)
            sent = derived[seat]  # the deal request in the judge's order too
            assert sent == mine[: len(sent)], (seed, seat)
        kongs.update(e["type"] for e in table.events if e["type"].endswith("kong"))
    assert min(kongs[k] for k in ("concealed_kong", "exposed_kong", "added_kong")) >= 1, kongs
    assert sum(kongs.values()) >= len(seeds) // 2 and ended_by_wall >= 5
    assert dealer_flowers >= 1 if flowers else not any(table.flowers)


def test_a_botzone_program_gets_botzones_requests() -> None:
    """A real program at a single-ended table whose dealer draws a flower first: its requests
    are exactly those Botzone's judge sends it."""
    seed = next(s for s in range(100) if dealer_draw_flowers(seeded_wall(s)) > 0)
    table = Table(GuobiaoRules({"botzone_scoring": True}), seed, dealer=0, single_end=True)
    agent = BotzoneAgent(PLAYER, io="simple", keep_running=True, time_limit=6)
    try:
        hand = play_hand(table, [agent, *kong_bots(seed)[1:]])
    finally:
        agent.close()
    assert not hand.faults
    judge = judge_hand(table, to_walltiles(seeded_wall(seed), layout="single_end"))
    sent = [_normal(r) for r in agent.requests]
    assert sent == [_normal(r) for r in _as_announced(judge.requests[0], 0)[: len(sent)]]
    assert any(" BUHUA " in r for r in sent[2:4])


# ---------------------------------------------------------------------- records and the CLI


def test_single_ended_records_replay() -> None:
    for seed in range(6):
        table = Table(RULES, seed, dealer=seed % 4, single_end=True)
        play_table(table, kong_bots(seed))
        lines = record_of(table)
        assert lines[0]["single_end"] is True
        again = replay(json.loads(json.dumps(lines)))
        assert again.single_end and again.history == table.history
        assert again.result == table.result and again.events == table.events
    plain = Table(RULES, 1, dealer=0)
    assert "single_end" not in record_of(plain)[0]
    header = {**record_of(plain)[0], "single_end": "yes"}
    with pytest.raises(RecordError, match="single_end"):
        table_from_header(header)
    walled = Table(RULES, wall=KONG_WALL, dealer=0, single_end=True)
    walled.apply(0, ConcealedKong(tile_from_name("1m")))
    again = replay(record_of(walled))
    assert again.wall.front == walled.wall.front and "wall" in record_of(walled)[0]


def test_cli_wall_and_play_use_the_single_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["botzone", "wall", "--seed", "5", "--flowers", "--layout", "single_end"]) == 0
    walltiles = capsys.readouterr().out.strip()
    names = [tile_name(t) for t in Table(RULES, 5).wall.tiles]
    assert [tile_name(botzone_tile(n)) for n in reversed(walltiles.split())] == names
    assert main(["botzone", "wall", "--seed", "5", "--flowers", "--two-ended"]) == 0
    two = capsys.readouterr().out.strip()
    assert two == to_walltiles(seeded_wall(5), single_end=False) != walltiles
    assert from_walltiles(two, single_end=False) == seeded_wall(5)
    args = ["botzone", "play", "--seat", "random", "--fill", "random", "--walltiles", walltiles,
            "--records", str(tmp_path), "--json", "--layout", "single_end"]
    assert main(args) == 0
    (hand,) = json.loads(capsys.readouterr().out)["hands"]
    assert hand["walltiles"] == walltiles
    lines = [json.loads(x) for x in (tmp_path / "hand-0001.jsonl").read_text().splitlines()]
    assert lines[0]["single_end"] is True and "wall" in lines[0]
    table = replay(lines)
    assert table.single_end and table.wall.tiles == Table(RULES, 5, single_end=True).wall.tiles
    assert main(["botzone", "play", "--seat", "random", "--seed", "3", "--json",
                 "--layout", "single_end", "--option", "flowers=on"]) == 0
    (hand,) = json.loads(capsys.readouterr().out)["hands"]
    replayed = Table(RULES, wall=from_walltiles(hand["walltiles"], layout="single_end"), dealer=0,
                     single_end=True)
    seeded = Table(RULES, hand["seed"], single_end=True)
    assert replayed.observation(0).hand == seeded.observation(0).hand


# ---------------------------------------------------------------------- flowers, dice, layouts


def test_guobiao_without_flowers() -> None:
    """The option ``flowers`` off: 136 tiles in the wall, the deal and the draws; no 花牌; the
    scorer refuses a hand with flowers; walls of the other size are refused, with the count."""
    rules = GuobiaoRules({"flowers": False})
    assert len(rules.wall_tiles()) == 136 and len(RULES.wall_tiles()) == 144
    for seed in range(20):
        table = Table(rules, seed, dealer=seed % 4)
        play_table(table, kong_bots(seed))
        assert not any(table.flowers) and len(table.wall.tiles) == 136
        assert table.tile_census() == [4] * 34 + [0] * 8
    with pytest.raises(MajiangError, match="136 tiles, not 144"):
        Table(rules, wall=RULES.wall_tiles())
    with pytest.raises(MajiangError, match="144 tiles, not 136"):
        Table(RULES, wall=rules.wall_tiles())
    with pytest.raises(MajiangError, match="without flowers"):
        rules.score_written("a 123m456m789m123p55p", WinContext(self_drawn=True))
    assert rules.score_written("123m456m789m123p55p", WinContext()).detail["flowers"] == 0
    assert rules_options(RULES)["flowers"] is True  # the lobby lists the options from these


def test_an_explicit_wall_with_its_dice_deals_as_it_was_dealt() -> None:
    """The tiles as they lay before the break, with the dice: the table breaks the wall where
    the dice say, as a seeded wall; its record keeps the dice and replays."""
    for layout in ("two_ended", "four_part"):
        seeded = Table(RULES, 11, layout=layout)
        dice = (seeded.wall.dice.first, seeded.wall.dice.second)
        _, start = roll_dice(*dice, 144)
        cut = 144 - start  # the broken wall starts at ``start`` of the tiles as they lay
        laid = seeded.wall.tiles[cut:] + seeded.wall.tiles[:cut]
        table = Table(RULES, wall=laid, dice=dice, layout=layout)
        assert table.wall.tiles == seeded.wall.tiles and table.wall.dice == seeded.wall.dice
        assert [table.observation(s).hand for s in range(4)] == [
            seeded.observation(s).hand for s in range(4)
        ]
        play_table(table, kong_bots(11))
        header = record_of(table)[0]
        assert header["dice"] == [list(dice[0]), list(dice[1])]
        assert header.get("wall_layout", "two_ended") == layout
        again = replay(json.loads(json.dumps(record_of(table))))
        assert again.history == table.history and again.layout == layout
    with pytest.raises(MajiangError, match="dice show 1-6"):
        Table(RULES, wall=RULES.wall_tiles(), dice=((0, 1), (2, 3)))
    with pytest.raises(MajiangError, match="explicit wall"):
        Table(RULES, 3, dice=((1, 1), (2, 3)))
    with pytest.raises(MajiangError, match="wall layout"):
        Table(RULES, 3, layout="three_part")
    with pytest.raises(RecordError, match="wall_layout"):
        table_from_header({**record_of(Table(RULES, 1))[0], "wall_layout": "round"})


def test_botzone_scoring_tables_play_the_four_part_wall() -> None:
    """A table of ``botzone_scoring`` (a room's too) deals the judge's four-part wall; the other
    Guobiao tables are two-ended; each part is its player's, drawn from its front."""
    botzone = GuobiaoRules({"botzone_scoring": True, "flowers": False})
    table = Table(botzone, 4, dealer=2)
    assert table.layout == "four_part" and Table(RULES, 4).layout == "two_ended"
    play_table(table, kong_bots(4))
    draws = [e for e in table.events if e["type"] == "draw"]
    parts = [table.wall.tiles[34 * p : 34 * (p + 1)] for p in range(4)]
    taken = [0, 0, 0, 0]
    for seat in range(4):
        taken[(seat - 2) % 4] = len(table.dealt[seat])
    for event in draws:
        part = (event["seat"] - 2) % 4
        assert tile_from_name(event["tile"]) == parts[part][taken[part]]
        taken[part] += 1
    assert record_of(table)[0]["wall_layout"] == "four_part"
