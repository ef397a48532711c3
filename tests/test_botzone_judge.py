"""Conformance with Botzone's judge (docs/botzone.md, "Conformance"): hand-built four-part walls
on which four scripted Botzone programs make each move the judge gives a verdict on, and the
score majiang gives them under ``botzone_scoring``, which must be the judge's.

The judge's scores (``judge/main.cpp`` of ailab-pku/Chinese-Standard-Mahjong): a self-drawn win
of F fans (flowers included) +3(8 + F) to the winner and -(8 + F) to each other player; a win on
a discard or robbing a kong +(24 + F), -(8 + F) to the discarder (the kong's declarer), -8 to the
other two; a false win (WH) and any move it rejects (WA) -30 to the offender, +10 to each other
player, and the game ends; the wall exhausted (HUANG), 0 each. Each case's fan total is the one
the judge's calculator gives for it (the same as majiang's scorer: checked by the cases that
win).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from majiang.botzone import BotzoneAgent, botzone_name, botzone_tile, play_hand, to_walltiles
from majiang.botzone.codec import TurnInput, TurnOutput
from majiang.botzone.process import BotProcess, Reply
from majiang.engine import Table
from majiang.notation import parse_tiles
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.tiles import FLOWER_LETTERS, tile_from_name


def names(text: str) -> list[str]:
    """Botzone names of tiles in the hand notation, in written order (flowers ``a``-``h``)."""
    out: list[int] = []
    for part in text.split():
        out += [tile_from_name(part)] if part in FLOWER_LETTERS else parse_tiles(part)
    return [botzone_name(t) for t in out]


def four_part_wall(
    deals: list[str], draws: list[str], tails: list[str] | None = None, flowers: bool = False
) -> list[int]:
    """A four-part wall in majiang's draw order: part ``p`` (player ``p``, the dealer first)
    holds ``deals[p]`` (what the judge deals him, flowers included), then ``draws[p]``, then
    filler, then ``tails[p]`` (his last draws)."""
    tiles = GuobiaoRules({"flowers": flowers}).wall_tiles()
    size = len(tiles) // 4
    heads = [names(deals[p]) + names(draws[p]) for p in range(4)]
    ends = [names(t) for t in tails] if tails else [[], [], [], []]
    rest = Counter(botzone_name(t) for t in tiles)
    rest.subtract(n for part in heads + ends for n in part)
    assert min(rest.values()) >= 0, "more copies than the wall holds"
    filler = sorted(rest.elements(), key=botzone_tile)
    parts = []
    for p in range(4):
        take = size - len(heads[p]) - len(ends[p])
        parts.append(heads[p] + filler[:take] + ends[p])
        filler = filler[take:]
    return [botzone_tile(n) for part in parts for n in part]


class Scripted(BotProcess):
    """A Botzone program in this process: ``script`` maps a request to the response it gives
    the first time it sees it; otherwise it plays the tile it drew and passes the rest."""

    def __init__(self, script: dict[str, str]) -> None:
        super().__init__(["scripted"])
        self.script = dict(script)

    def turn(self, history: TurnInput, time_limit: float) -> Reply:
        request = history.requests[-1]
        answer = self.script.pop(request, None)
        if answer is None:
            words = request.split()
            answer = f"PLAY {words[1]}" if words[0] == "2" else "PASS"
        return Reply(TurnOutput(answer))


@dataclass(frozen=True)
class Case:
    """A hand on a hand-built wall (dealer 0) and the judge's verdict on it."""

    deals: list[str]
    draws: list[str]
    scripts: dict[int, dict[str, str]]
    verdict: str
    """``HU``, ``HUANG``, ``WA`` or ``WH``: the judge's ``display.action``."""
    player: int | None
    deltas: tuple[int, int, int, int]
    fans: int | None = None
    tails: list[str] | None = None
    flowers: bool = False
    notes: list[str] = field(default_factory=list)


FANS = {
    # 清龙 16, 不求人 4, 平和 2, 喜相逢 1, 缺一门 1, 单钓将 1: the dealer's fourteenth tile
    # is an ordinary draw to the judge, so its wait fan counts
    "self-drawn win": 25,
    # 清龙 16, 门前清 2, 平和 2, 喜相逢 1, 缺一门 1, 单钓将 1
    "win on a discard": 23,
    # the self-drawn win and 花牌 3
    "self-drawn win with flowers": 28,
    # 清龙 16, 抢杠和 8, 门前清 2, 平和 2, 喜相逢 1, 嵌张 1
    "robbing a kong": 30,
}
"""The fan totals (flowers included) the judge's calculator gives the winning hands."""


def self_drawn(fans: int, winner: int) -> tuple[int, int, int, int]:
    out = [-(8 + fans)] * 4
    out[winner] = 3 * (8 + fans)
    return (out[0], out[1], out[2], out[3])


def on_discard(fans: int, winner: int, loser: int) -> tuple[int, int, int, int]:
    out = [-8] * 4
    out[winner], out[loser] = 24 + fans, -(8 + fans)
    return (out[0], out[1], out[2], out[3])


def penalty(offender: int) -> tuple[int, int, int, int]:
    out = [10] * 4
    out[offender] = -30
    return (out[0], out[1], out[2], out[3])


HONOURS = "EEESSSWWWNNNC"
READY = "123456789m123p5p"  # a pure straight waiting on 5p alone
BAMBOO = "2223334448889s"
P2 = "123456789m12p12s"
P3 = "666777s99p99m456p"

CASES = {
    "self-drawn win": Case(
        [READY, HONOURS, BAMBOO, P3], ["5p", "", "", ""], {0: {"2 B5": "HU"}},
        "HU", 0, self_drawn(FANS["self-drawn win"], 0), FANS["self-drawn win"],
    ),
    "win on a discard": Case(
        [HONOURS, READY, BAMBOO, P3], ["5p", "", "", ""], {1: {"3 0 PLAY B5": "HU"}},
        "HU", 1, on_discard(FANS["win on a discard"], 1, 0), FANS["win on a discard"],
    ),
    # two flowers dealt to the dealer and one drawn (BUHUA) before his winning tile
    "self-drawn win with flowers": Case(
        ["123m a 456m789m b 123p5p", HONOURS, BAMBOO, P3], ["c 5p", "", "", ""],
        {0: {"2 B5": "HU"}}, "HU", 0, self_drawn(FANS["self-drawn win with flowers"], 0),
        FANS["self-drawn win with flowers"], flowers=True,
    ),
    # the dealer pungs 5p, then adds the fourth to it; player 2 robs the kong
    "robbing a kong": Case(
        ["55p EEESSSWWWNN", "5p 222333444888s", "123456789m46p99s", "111666777s11p99m"],
        ["C 5p", "P", "", ""],
        {0: {"3 1 PLAY B5": "PENG F4", "2 B5": "BUGANG B5"}, 1: {"2 J3": "PLAY B5"},
         2: {"3 0 BUGANG B5": "HU"}},
        "HU", 2, on_discard(FANS["robbing a kong"], 2, 0), FANS["robbing a kong"],
    ),
    # HU without a winning shape
    "false win, no shape": Case(
        [HONOURS, READY, BAMBOO, P3], ["5p", "", "", ""], {0: {"2 B5": "HU"}},
        "WH", 0, penalty(0),
    ),
    # HU on a shape under 8 fans (平和, 门前清, 喜相逢, 连六, 无字)
    "false win, under 8 fans": Case(
        [HONOURS, "234m567m234p67p99s", BAMBOO, "111666777s11p99m"], ["8p", "", "", ""],
        {1: {"3 0 PLAY B8": "HU"}}, "WH", 1, penalty(1),
    ),
    # a chow from across the table
    "chow from across": Case(
        [HONOURS, BAMBOO, "46p123456789m12s", "111666777s11p99m"], ["5p", "", "", ""],
        {2: {"3 0 PLAY B5": "CHI B5 W1"}}, "WA", 2, penalty(2),
    ),
    # a pung without the pair
    "pung without a pair": Case(
        [HONOURS, BAMBOO, P2, P3], ["5p", "", "", ""], {1: {"3 0 PLAY B5": "PENG T2"}},
        "WA", 1, penalty(1),
    ),
    # a concealed kong on the dealer's last draw (his part is then empty)
    "kong on the last turn": Case(
        ["111m EEESSSWWWN", BAMBOO, "23456789m1234p1s", P3], ["", "", "", ""],
        {0: {"2 W1": "GANG W1"}}, "WA", 0, penalty(0), tails=["1m", "", "", ""],
    ),
    # a pung of the final discard (the dealer's part is empty: no one draws after it)
    "pung of the final discard": Case(
        [HONOURS, "CC 22233344488s", P2, P3], ["", "", "", ""],
        {1: {"3 3 PLAY J1": "PENG T2"}}, "WA", 1, penalty(1), tails=["", "", "", "C"],
    ),
    # nobody wins: the dealer's part runs out first
    "exhaustive draw": Case(
        [HONOURS, BAMBOO, P2, P3], ["5p", "", "", ""], {}, "HUANG", None, (0, 0, 0, 0),
    ),
}


def play_case(case: Case) -> tuple[Table, object]:
    wall = four_part_wall(case.deals, case.draws, case.tails, case.flowers)
    rules = GuobiaoRules({"botzone_scoring": True, "flowers": case.flowers})
    table = Table(rules, wall=wall, dealer=0, layout="four_part")
    agents = []
    for player in range(4):
        agent = BotzoneAgent(["scripted"], seat=player)
        agent.process = Scripted(case.scripts.get(player, {}))
        agents.append(agent)
    return table, play_hand(table, agents)


@pytest.mark.parametrize("name", list(CASES))
def test_the_judges_verdicts(name: str) -> None:
    case = CASES[name]
    table, hand = play_case(case)
    result = table.result
    assert result is not None
    assert hand.deltas == case.deltas  # type: ignore[attr-defined]
    faults = hand.faults  # type: ignore[attr-defined]
    if case.verdict in ("WA", "WH"):
        assert [(f.seat, f.verdict, f.charged) for f in faults] == [
            (case.player, case.verdict, True)
        ]
        assert result.winner is None and result.deltas == (0, 0, 0, 0)  # the rest: a draw
    else:
        assert not faults and not hand.adjusted  # type: ignore[attr-defined]
        assert result.winner == case.player
        if case.fans is not None:
            assert result.points == case.fans
            assert result.detail["flowers"] == (3 if case.flowers else 0)


def test_the_cases_cover_every_verdict() -> None:
    assert {c.verdict for c in CASES.values()} == {"HU", "HUANG", "WA", "WH"}


def test_walls_of_the_cases_are_botzone_walls() -> None:
    """Each case's wall exported as walltiles holds the judge's 136 (or 144) names, and the
    judge's parts are the table's: part p ends (is drawn from) with p's first dealt tile."""
    for case in CASES.values():
        wall = four_part_wall(case.deals, case.draws, case.tails, case.flowers)
        text = to_walltiles(wall).split()
        size = len(text) // 4
        assert len(text) == (144 if case.flowers else 136)
        for p in range(4):
            assert text[size * (p + 1) - 1] == names(case.deals[p])[0]


def test_outside_botzone_scoring_the_wall_moves_are_replaced() -> None:
    """Without ``botzone_scoring`` the engine's rule stands: the kong on the last turn and the
    pung of the final discard are replaced by what the engine offers, and nobody is charged."""
    for name in ("kong on the last turn", "pung of the final discard"):
        case = CASES[name]
        wall = four_part_wall(case.deals, case.draws, case.tails)
        table = Table(GuobiaoRules({"flowers": False}), wall=wall, dealer=0, layout="four_part")
        agents = []
        for player in range(4):
            agent = BotzoneAgent(["scripted"], seat=player)
            agent.process = Scripted(case.scripts.get(player, {}))
            agents.append(agent)
        hand = play_hand(table, agents)
        assert not hand.faults and hand.deltas == (0, 0, 0, 0)
        assert [seat for seat, _ in hand.adjusted] == [case.player]
