"""Botzone compatibility (docs/botzone.md): the tile names and the codec, the seat-local view and
the requests derived from observations, walltiles, Botzone's scoring option, Botzone programs
at majiang tables (JSON and simple I/O, one-shot and long-running, faulty ones) and majiang bots
as Botzone programs. Subprocesses are slow: few hands, short ones."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import UnknownBotError, make_bot
from majiang.botzone import (
    BotzoneAgent,
    BotzoneBot,
    BotzoneError,
    RequestDeriver,
    RequestTracker,
    agent_from_spec,
    botzone_deal,
    botzone_name,
    botzone_tile,
    format_request,
    from_walltiles,
    hand_deltas,
    parse_request,
    parse_response,
    play_hand,
    run,
    seeded_wall,
    to_walltiles,
)
from majiang.botzone.agent import Fault
from majiang.botzone.answers import Misplay, answer_move
from majiang.botzone.codec import (
    KEEP_RUNNING,
    TurnInput,
    json_input,
    parse_json_input,
    parse_json_output,
    parse_simple_output,
    read_simple_input,
    simple_input,
)
from majiang.botzone.process import BotProcess, Reply
from majiang.botzone.wall import botzone_order, dealer_draw_flowers, majiang_wall, split_order
from majiang.cli import main
from majiang.engine import (
    Chow,
    ConcealedKong,
    Discard,
    Observation,
    Pass,
    Phase,
    Pung,
    Table,
    Win,
)
from majiang.engine.actions import Action
from majiang.engine.match import play_hand as play_table
from majiang.engine.record import record_of, replay
from majiang.notation import parse_tiles
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.rules.guobiao.payments import botzone_penalty_deltas, seat_deltas
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.tiles import FLOWER_LETTERS, tile_from_name

BOTS = Path(__file__).parent / "botzone_bots"
PY = sys.executable
PLAYER = [PY, "-I", "-S", str(BOTS / "simple_player.py")]
MAJIANG_BOT = [PY, "-m", "majiang", "botzone", "bot", "--bot", "fan", "--seed", "2"]
SHORT_HAND = 14
"""A seed whose hand (simple_player at seat 0, fan elsewhere, dealer 2) ends after ~50 requests."""


def tiles(text: str) -> list[int]:
    """Tiles in the hand notation, flowers ``a``-``h`` included."""
    flowers = [tile_from_name(c) for c in text if c in FLOWER_LETTERS]
    return list(parse_tiles("".join(c for c in text if c not in FLOWER_LETTERS))) + flowers


def fans(seats: Sequence[int] = (1, 2, 3)) -> dict[int, Any]:
    return {s: make_bot("fan", s) for s in seats}


def botzone_table(seed: int, **options: Any) -> Table:
    return Table(GuobiaoRules({"botzone_scoring": True, **options}), seed, dealer=seed % 4)


def seat_zero(agent: Any, seed: int) -> tuple[Table, Any]:
    """A hand with ``agent`` at seat 0 and fan bots elsewhere."""
    table = botzone_table(seed)
    hand = play_hand(table, [agent, *fans().values()])
    return table, hand


# ---------------------------------------------------------------------- tile names and the codec


def test_tile_names_map_the_suits() -> None:
    assert [botzone_name(t) for t in tiles("5m5s5p")] == ["W5", "T5", "B5"]
    assert [botzone_name(t) for t in tiles("ESWNCFP")] == ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    assert [botzone_name(t) for t in tiles("ah")] == ["H1", "H8"]
    for bad in ("W0", "B10", "Z1", "w1", "", "J4", "H9"):
        with pytest.raises(BotzoneError):
            botzone_tile(bad)


@given(st.integers(0, 41))
def test_tile_name_round_trip(tile: int) -> None:
    assert botzone_tile(botzone_name(tile)) == tile


REQUESTS = [
    "0 2 1",
    "1 1 0 2 0 W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F2 J1 J3 H3 H1 H8",
    "2 T6",
    "3 1 BUHUA H7",
    "3 1 DRAW",
    "3 1 PLAY B1",
    "3 0 PENG W9",
    "3 3 CHI T2 W3",
    "3 2 GANG",
    "3 2 BUGANG W3",
]


@pytest.mark.parametrize("line", REQUESTS)
def test_requests_round_trip(line: str) -> None:
    assert format_request(parse_request(line)) == line


def test_deal_request_fields() -> None:
    request = parse_request(REQUESTS[1])
    assert request.hand == tuple(tiles("123m456s789pESCP"))
    assert request.flowers == (tuple(tiles("c")), (), tuple(tiles("ah")), ())


@pytest.mark.parametrize(
    "line",
    ["", "4 1", "0 4 0", "0 1", "1 0 0 0 0 W1", "2 H1x", "3 5 DRAW", "3 1 DANCE", "3 1 PLAY",
     "3 1 CHI T2", "1 1 0 0 0 W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F2 J1 J3 W4", "2 X1"],
)
def test_bad_requests_raise(line: str) -> None:
    with pytest.raises(BotzoneError):
        parse_request(line)


@pytest.mark.parametrize("text", ["PASS", "HU", "PLAY W1", "GANG T9", "GANG", "BUGANG J3",
                                  "PENG B2", "CHI T3 F1"])
def test_responses_round_trip(text: str) -> None:
    assert str(parse_response(text)) == text
    assert str(parse_response(text + "\n")) == text


@pytest.mark.parametrize("text", ["", "PLAY  W1", " PASS", "PASS ", "PLAY", "PLAY W0", "HU W1",
                                  "PENG", "CHI W2", "GANG W1 W2", "PLAY H1", "pass", "PLAY W1 W2"])
def test_bad_responses_raise(text: str) -> None:
    with pytest.raises(BotzoneError):
        parse_response(text)


def test_turn_inputs_and_outputs() -> None:
    turn = TurnInput(["0 1 0", "1 0 0 0 0 " + " ".join(["W1"] * 13)], ["PASS"], "d", "")
    line = json_input(turn, 1.0)
    assert "\n" not in line and json.loads(line)["time_limit"] == 1.0
    back = parse_json_input(line)
    assert (back.requests, back.responses, back.data) == (turn.requests, turn.responses, "d")
    text = simple_input(turn)
    assert text.splitlines() == ["2", "0 1 0", "PASS", turn.requests[1], "d", ""]
    back = read_simple_input(io.StringIO(text).readline)
    assert (back.requests, back.responses, back.data) == (turn.requests, turn.responses, "d")
    assert parse_json_output(['{"response":"PASS","data":{"x":1}}']).data == {"x": 1}
    assert parse_simple_output(["PLAY W1", "debug", "data", "g1", "g2"]).globaldata == "g1\ng2"
    for bad in (['{"reply":"PASS"}'], ["PASS"], []):
        with pytest.raises(BotzoneError):
            parse_json_output(bad)
    with pytest.raises(BotzoneError):
        parse_json_input('{"requests": ["0 1 0"], "responses": ["PASS"]}')


# ---------------------------------------------------------------------- the view and the derivation


def _rotated(values: Sequence[Any], dealer: int) -> tuple[Any, ...]:
    return tuple(values[(dealer + i) % 4] for i in range(4))


def _same_view(view: Observation, obs: Observation) -> bool:
    """The Botzone view (ids from the dealer) against the engine's observation."""
    d = obs.dealer
    return (
        view.hand == obs.hand and view.drawn == obs.drawn and view.phase is obs.phase
        and view.legal_actions == obs.legal_actions and view.last_discard == obs.last_discard
        and view.wall_remaining == obs.wall_remaining
        and view.win_reaches_minimum == obs.win_reaches_minimum
        and view.melds == _rotated(obs.melds, d) and view.discards == _rotated(obs.discards, d)
        and view.flowers == _rotated(obs.flowers, d)
        and view.hand_sizes == _rotated(obs.hand_sizes, d)
        and view.current == (obs.current - d) % 4 and view.seat_wind == obs.seat_wind
        and view.prevalent_wind == obs.prevalent_wind
    )


@pytest.mark.parametrize(
    ("bot", "seeds", "single_end"),
    [("random", range(40), False), ("fan", range(6), False), ("random", range(36, 76), True)],
)
def test_requests_rebuild_every_observation(bot: str, seeds: range, single_end: bool) -> None:
    """Each seat's requests, derived from its observations alone, rebuild exactly the
    observation (and the legal actions) the engine gives it, claimed turns included; on a
    single-ended table too, the dealer's first-draw flowers announced as Botzone does."""
    for seed in seeds:
        table = Table(GuobiaoRules(), seed, dealer=seed % 4, prevalent_wind=seed % 3,
                      single_end=single_end)
        bots = [make_bot(bot, seed * 4 + s) for s in range(4)]
        derivers = [RequestDeriver() for _ in range(4)]
        for deriver in derivers:
            deriver.reset(dealer_draw_flowers(table.wall.tiles) if single_end else 0)
        views = [RequestTracker() for _ in range(4)]
        after_claim: list[Observation | None] = [None] * 4
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                requests = derivers[seat].requests(obs)
                for request in requests:
                    views[seat].apply(format_request(request))
                if requests:
                    assert _same_view(views[seat].observation(), obs), (seed, seat)
                else:
                    claimed = after_claim[seat]
                    assert claimed is not None and _same_view(claimed, obs), (seed, seat)
                action = bots[seat](obs)
                if isinstance(action, Pung | Chow):
                    after_claim[seat] = views[seat].after_claim(action)
                if isinstance(action, ConcealedKong):
                    views[seat].note(f"GANG {botzone_name(action.tile)}")
                derivers[seat].note(action)
                table.apply(seat, action)


def test_derived_requests_read_like_botzone() -> None:
    table = Table(GuobiaoRules(), 3, dealer=1, prevalent_wind=2)
    deriver = RequestDeriver()
    while 0 not in table.to_act():
        seat = table.to_act()[0]
        table.apply(seat, make_bot("fan", 0)(table.observation(seat)))
    requests = [format_request(r) for r in deriver.requests(table.observation(0))]
    assert requests[0] == "0 3 2"  # seat 0 is North when seat 1 deals: Botzone's player 3
    assert requests[1].startswith("1 ") and len(requests[1].split()) >= 18
    assert requests[2:] == ["3 0 DRAW", requests[3]] and requests[3].startswith("3 0 PLAY ")


@pytest.mark.parametrize(
    ("layout", "flowers"), [("four_part", False), ("four_part", True), ("single_end", True)]
)
@pytest.mark.parametrize("seed", [0, 7, 12, 31])
def test_the_deal_request_lists_the_tiles_in_the_judges_order(
    seed: int, layout: str, flowers: bool
) -> None:
    """The judge sends the 13 tiles in the order they were dealt, not sorted; a bot that
    shuffles or picks by position plays the same game only if it gets them so."""
    rules = GuobiaoRules({"flowers": flowers})
    text = to_walltiles(seeded_wall(seed, flowers=flowers), layout=layout)
    hands, _, _ = botzone_deal(text, layout)
    table = Table(rules, wall=from_walltiles(text, layout=layout), dealer=0, layout=layout)
    extra = dealer_draw_flowers(table.wall.tiles, layout)

    def deal_request(seat: int) -> tuple[int, ...]:
        deriver = RequestDeriver()
        deriver.reset(extra if seat == 0 else 0, table.dealt[seat])
        return parse_request(format_request(deriver.requests(table.observation(seat))[1])).hand

    sent = [deal_request(0)]
    table.apply(0, Discard(table.observation(0).drawn))  # type: ignore[arg-type]
    assert table.to_act() == [1, 2, 3]  # each seat's first decision: the dealer's discard
    sent += [deal_request(seat) for seat in (1, 2, 3)]
    assert [list(h) for h in sent] == hands
    assert any(list(h) != sorted(h) for h in sent)
    with BotzoneAgent(PLAYER, time_limit=5) as agent:
        again = Table(rules, wall=from_walltiles(text, layout=layout), dealer=0, layout=layout)
        play_hand(again, [agent, *fans().values()])
    assert agent.requests[1] == format_request(parse_request(agent.requests[1]))
    assert agent.requests[1].split()[5:18] == [botzone_name(t) for t in hands[0]]


def test_a_table_without_every_seat_answering_cannot_be_followed() -> None:
    table = Table(GuobiaoRules(), 5, dealer=0, every_seat_answers=False)
    agent = BotzoneAgent(PLAYER, time_limit=5)
    with pytest.raises(BotzoneError, match="every_seat_answers"):
        play_table(table, [agent, *fans().values()])
    agent.close()


# ---------------------------------------------------------------------- walltiles


@pytest.mark.parametrize(
    ("layout", "size"),
    [("four_part", 136), ("four_part", 144), ("single_end", 144), ("two_ended", 144),
     ("single_end", 136)],
)
@pytest.mark.parametrize("seed", [0, 7, 31])
def test_walltiles_round_trip_deals_the_same_hands(seed: int, layout: str, size: int) -> None:
    """A seeded wall exported as walltiles (for a four-part table: each part reversed; for a
    single-ended table: its draw order reversed; for a two-ended one: rearranged) comes back
    the same and deals Botzone's hands."""
    rules = GuobiaoRules({"flowers": size == 144})
    wall = seeded_wall(seed, flowers=size == 144)
    walltiles = to_walltiles(wall, layout=layout)
    names = walltiles.split()
    assert len(names) == size and sorted(names) == sorted(botzone_name(t) for t in wall)
    assert from_walltiles(walltiles, layout=layout) == wall
    if layout == "single_end":
        assert names == [botzone_name(t) for t in reversed(wall)]
    if layout == "four_part":  # the judge's pTileWall: player p draws from the end of part p
        part = size // 4
        assert names[part - 1] == botzone_name(wall[0])
        assert names[2 * part - 1] == botzone_name(wall[part])
    judge = "four_part" if layout == "four_part" else "single_end"
    hands, flowers, first = botzone_deal(walltiles, judge)  # as Botzone's judge deals it
    explicit = from_walltiles(walltiles, layout=layout)
    table = Table(rules, wall=explicit, dealer=0, layout=layout)
    for player in range(4):
        obs = table.observation(player)
        own = hands[player] + ([first[-1]] if player == 0 else [])
        assert sorted(obs.hand) == sorted(own)
        extra = first[:-1] if player == 0 else []
        assert sorted(obs.flowers[player]) == sorted(flowers[player] + extra)
    seeded = Table(rules, seed, layout=layout)
    assert table.observation(0).hand == seeded.observation(0).hand


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_botzone_order_is_a_majiang_wall(rng: random.Random) -> None:
    order = GuobiaoRules().wall_tiles()
    rng.shuffle(order)
    wall = majiang_wall(order)
    assert botzone_order(wall) == order
    assert from_walltiles(to_walltiles(wall, single_end=False), single_end=False) == wall
    assert from_walltiles(to_walltiles(wall)) == wall
    assert from_walltiles(to_walltiles(wall, layout="single_end"), layout="single_end") == wall


def test_draws_follow_the_botzone_order_until_a_kong() -> None:
    """Without kongs, a two-ended table draws and replaces flowers in Botzone's order exactly
    (a single-ended one does so with kongs too: tests/test_botzone_wall.py)."""
    played = 0
    for seed in range(12):
        table = Table(GuobiaoRules(), seed, dealer=0)
        play_table(table, [make_bot("efficient", s) for s in range(4)])
        if any("kong" in e["type"] for e in table.events):
            continue
        events = table.events[table.event_marks[0] :]
        drawn = [tile_from_name(e["tile"]) for e in events if e["type"] in ("draw", "flower")]
        _, _, rest = split_order(botzone_order(table.wall.tiles))
        assert drawn == rest[: len(drawn)], seed
        played += 1
    assert played >= 6


@pytest.mark.parametrize(
    ("text", "match"),
    [(" ".join(["W1"] * 136), "136 tiles of Guobiao"), ("W1 W2", "136 tile names"),
     (" ".join(["W1"] * 144), "without the 8 flowers"),
     (to_walltiles(seeded_wall(1)).replace("W1", "X1"), "X1")],
)
def test_bad_walltiles(text: str, match: str) -> None:
    with pytest.raises(BotzoneError, match=match):
        from_walltiles(text)


def test_a_walltiles_hand_has_a_replayable_record() -> None:
    walltiles = to_walltiles(seeded_wall(7))
    table = Table(GuobiaoRules(), wall=from_walltiles(walltiles), dealer=0, single_end=True)
    play_table(table, [make_bot("fan", s) for s in range(4)])
    seeded = Table(GuobiaoRules(), 7, dealer=0, single_end=True)
    play_table(seeded, [make_bot("fan", s) for s in range(4)])
    assert table.history == seeded.history  # the same deal, the same hand
    record = record_of(table)
    assert record[0]["single_end"] is True and "wall" in record[0]
    assert replay(record).result == table.result


# ---------------------------------------------------------------------- Botzone's scoring


def test_the_scoring_option() -> None:
    assert GuobiaoOptions().botzone_scoring is False
    assert GuobiaoOptions.from_mapping({"botzone_scoring": "on"}).botzone_scoring is True
    rules = GuobiaoRules({"botzone_scoring": True, "false_win_penalty": 25})
    assert rules.false_win_deltas(1, 1) == [10, -30, 10, 10]  # Botzone's, not 25
    assert rules.false_win_deltas(0, 2) == [-60, 20, 20, 20]
    assert GuobiaoRules({"false_win_penalty": 25}).false_win_deltas(1, 1) == [25, -75, 25, 25]
    assert botzone_penalty_deltas(3) == (10, 10, 10, -30)


@pytest.mark.parametrize(
    ("winner", "discarder", "fans", "expected"),
    [
        (0, None, 8, (48, -16, -16, -16)),  # self-drawn: each pays 8 + F, winner 3 × (8 + F)
        (2, 1, 10, (-8, -18, 34, -8)),  # discard: discarder 8 + F, others 8, winner 24 + F
        (3, 0, 88, (-96, -8, -8, 112)),
    ],
)
def test_botzone_win_payments(
    winner: int, discarder: int | None, fans: int, expected: tuple[int, ...]
) -> None:
    """Botzone's judge pays exactly the §4.1 formula, which the option therefore keeps."""
    assert seat_deltas(winner, discarder, fans) == expected


def test_fault_penalties_apply_with_the_option() -> None:
    table = botzone_table(SHORT_HAND)
    play_table(table, [make_bot("fan", s) for s in range(4)])
    assert table.result is not None
    faults = [
        Fault(0, "timeout", "3 1 DRAW", None, "", charged=True),
        Fault(2, "illegal", "2 W1", "PLAY W9", "", charged=True),
        Fault(2, "crash", "3 1 DRAW", None, "", charged=False),
    ]
    deltas = hand_deltas(table.result, faults, table.rules)
    base = table.result.deltas
    assert deltas == (base[0] - 20, base[1] + 20, base[2] - 20, base[3] + 20)
    assert sum(deltas) == 0
    plain = Table(GuobiaoRules(), 1)
    assert hand_deltas(table.result, faults, plain.rules) == base


# ---------------------------------------------------------------------- answers to decisions


def _obs(phase: Phase, hand: str, legal: Sequence[Action], **fields: Any) -> Observation:
    base: dict[str, Any] = dict(
        seat=1, dealer=0, prevalent_wind=0, seat_wind=1, phase=phase, current=1,
        hand=tuple(sorted(tiles(hand))), drawn=None, melds=((), (), (), ()),
        flowers=((), (), (), ()), discards=((), (), (), ()), hand_sizes=(13, 13, 13, 13),
        wall_remaining=40, last_discard=None, legal_actions=tuple(legal), deltas=(0, 0, 0, 0),
        may_win=True,
    )
    base.update(fields)
    return Observation(**base)


def test_answers_map_to_legal_actions() -> None:
    hand = "1112345678999m"
    m1, m9 = tiles("1m9m")
    legal: list[Action] = [Win(), *[Discard(t) for t in tiles("123456789m")]]
    turn = _obs(Phase.TURN, hand, legal, drawn=m9, win_reaches_minimum=True)
    assert answer_move(turn, "HU").action == Win()
    assert answer_move(turn, "PLAY W5").action == Discard(tiles("5m")[0])
    with pytest.raises(Misplay) as fault:
        answer_move(turn, "PASS")
    assert fault.value.kind == "illegal"
    with pytest.raises(Misplay, match="8 fans"):
        answer_move(_obs(Phase.TURN, hand, [Discard(m9)], drawn=m9), "HU")
    with pytest.raises(Misplay) as fault:
        answer_move(turn, "PLAY  W5")
    assert fault.value.kind == "garbage"
    claim = _obs(Phase.CLAIM, "11m345p", [Pung(), Pass()], current=0, last_discard=m1)
    move = answer_move(claim, "PENG B3")
    assert move.action == Pung() and move.discard == tiles("3p")[0]
    with pytest.raises(Misplay, match="not in the hand"):
        answer_move(claim, "PENG W1")
    with pytest.raises(Misplay):
        answer_move(claim, "GANG")
    rob = _obs(Phase.ROB, "11m345p", [Pass()], current=0, last_discard=m1)
    assert answer_move(rob, "PASS").action == Pass()
    with pytest.raises(Misplay):
        answer_move(rob, "PENG B3")


def test_chow_answers_follow_botzone() -> None:
    m3 = tiles("3m")[0]
    claim = _obs(Phase.CLAIM, "24m55p", [Chow(m3 - 1), Pass()], current=0, last_discard=m3)
    move = answer_move(claim, "CHI W3 B5")
    assert move.action == Chow(m3 - 1) and move.discard == tiles("5p")[0]
    for bad in ("CHI W4 B5", "CHI B3 B5", "CHI W3 W2", "CHI W1 B5"):
        with pytest.raises(Misplay):
            answer_move(claim, bad)
    across = _obs(Phase.CLAIM, "24m55p", [Pass()], current=3, last_discard=m3)
    with pytest.raises(Misplay):
        answer_move(across, "CHI W3 B5")  # only the next player may chow


def test_moves_botzone_allows_and_majiang_does_not_become_passes() -> None:
    m1 = tiles("1m")[0]
    final = _obs(Phase.CLAIM, "111m345p", [Pass()], current=0, last_discard=m1, wall_remaining=0)
    for text in ("PENG B3", "GANG"):
        move = answer_move(final, text)
        assert move.action == Pass() and "not offered" in move.adjusted and move.discard is None
    empty = _obs(Phase.TURN, "1111m345p", [Discard(m1), *[Discard(t) for t in tiles("345p")]],
                 drawn=tiles("5p")[0], wall_remaining=0)
    move = answer_move(empty, "GANG W1")
    assert move.action == Discard(tiles("5p")[0]) and move.adjusted
    # under Botzone's scoring the judge's WA: a fault, charged
    for obs, text in ((final, "PENG B3"), (final, "GANG"), (empty, "GANG W1")):
        with pytest.raises(Misplay, match="the wall has no tile left") as caught:
            answer_move(obs, text, strict=True)
        assert caught.value.kind == "illegal"


# ---------------------------------------------------------------------- Botzone programs at tables


def test_one_shot_json_program_plays_a_hand() -> None:
    with BotzoneAgent(PLAYER, time_limit=5) as agent:
        table, hand = seat_zero(agent, SHORT_HAND)
    assert table.is_over and not hand.faults and sum(hand.deltas) == 0
    assert agent.requests[0] == f"0 {(0 - table.dealer) % 4} 0"
    assert agent.requests[1].startswith("1 ") and len(agent.responses) == len(agent.requests)
    assert any(r.startswith("PENG ") or r.startswith("PLAY ") for r in agent.responses)
    offers = ("PLAY", "PENG", "CHI", "BUGANG")
    for request, response in zip(agent.requests, agent.responses, strict=True):
        words = request.split()
        if words[0] == "2":
            continue
        if words[0] in ("0", "1") or words[2] not in offers or words[1] == agent.requests[0][2]:
            assert response == "PASS", request  # nothing to decide: Botzone wants PASS
    again = BotzoneAgent([*PLAYER, "simple", "--keep-running"], io="simple", keep_running=True,
                         time_limit=5)
    with again:
        table2, _ = seat_zero(again, SHORT_HAND)
    assert table2.history == table.history  # the same bot, long-running and in simple I/O
    assert again.requests == agent.requests and again.responses == agent.responses


@pytest.mark.parametrize("keep", [False, True])
def test_a_program_printing_styled_json_is_read_as_botzone_reads_it(keep: bool) -> None:
    """The official sample bot prints jsoncpp's styled JSON, one object over several lines:
    Botzone reads the whole output of the turn, and so does the agent (no fault, no charge)."""
    flags = ["--styled", "--keep-running"] if keep else ["--styled"]
    with BotzoneAgent([*PLAYER, *flags], keep_running=keep, time_limit=5) as agent:
        table, hand = seat_zero(agent, SHORT_HAND)
    assert not hand.faults and table.is_over
    with BotzoneAgent(PLAYER, time_limit=5) as compact:
        table2, _ = seat_zero(compact, SHORT_HAND)
    assert table2.history == table.history and compact.responses == agent.responses


def test_json_output_over_several_lines() -> None:
    styled = ["{", '\t"data" : {', '\t\t"x" : 1', "\t},", '\t"response" : "PLAY W1"', "}", ""]
    out = parse_json_output(styled)
    assert (out.response, out.data) == ("PLAY W1", {"x": 1})
    assert parse_json_output(["", '{"response":"PASS"}', "after the object"]).response == "PASS"
    with pytest.raises(BotzoneError, match=re.escape("""not JSON: '{ "response" :'""")):
        parse_json_output(["{", '"response" :'])


@pytest.mark.parametrize("seed", [3, 218])  # an exhaustive draw; a kong by the program
def test_long_running_program_plays_hands(seed: int) -> None:
    with BotzoneAgent([*PLAYER, "--keep-running"], keep_running=True, time_limit=5) as agent:
        table, hand = seat_zero(agent, seed)
        assert not hand.faults
        table2, _ = seat_zero(agent, seed)  # the next hand starts a new game
    assert table2.history == table.history
    if seed == 218:
        assert any(isinstance(a, ConcealedKong) for s, a in table.history if s == 0)
    else:
        assert table.result is not None and table.result.is_draw


@pytest.mark.parametrize(
    ("mode", "turn", "kind"),
    [("crash", 3, "crash"), ("garbage", 4, "garbage"), ("illegal", 3, "illegal"),
     ("hu", 3, "false_win"), ("notpass", 2, "not_pass")],
)
def test_faulty_programs_are_penalised_and_the_hand_goes_on(
    mode: str, turn: int, kind: str
) -> None:
    command = [PY, "-I", "-S", str(BOTS / "faulty.py"), mode, str(turn)]
    with BotzoneAgent(command, io="simple", time_limit=5) as agent:
        table, hand = seat_zero(agent, SHORT_HAND)
    assert table.is_over and [f.kind for f in hand.faults] == [kind]
    assert hand.faults[0].charged and hand.faults[0].seat == 0
    assert hand.deltas[0] == table.result.deltas[0] - 30  # type: ignore[union-attr]
    assert sum(hand.deltas) == 0
    assert len(agent.requests) > turn  # the seat played on (passes, discards its draws)


def test_a_program_that_times_out_is_stopped() -> None:
    command = [PY, "-I", "-S", str(BOTS / "faulty.py"), "sleep", "3"]
    with BotzoneAgent(command, io="simple", time_limit=1.5) as agent:
        table, hand = seat_zero(agent, SHORT_HAND)
    assert [f.kind for f in hand.faults] == ["timeout"] and table.is_over
    assert "1.5 s" in hand.faults[0].detail and not agent.process.running


def test_a_missing_program_is_an_error() -> None:
    agent = BotzoneAgent(["/no/such/botzone-program"])
    with pytest.raises(BotzoneError, match="cannot run"):
        seat_zero(agent, 1)


def test_agent_from_spec() -> None:
    assert type(agent_from_spec("fan", 0)).__name__ == "FanBot"
    agent = agent_from_spec("botzone:python3 my bot.py", 2, 3.0)
    assert isinstance(agent, BotzoneAgent)
    assert agent.process.command == ["python3", "my", "bot.py"]
    assert (agent.process.io, agent.process.keep_running, agent.time_limit) == ("json", False, 3)
    agent = agent_from_spec("botzone/simple/keep:'./my bot'", 1)
    assert isinstance(agent, BotzoneAgent)
    assert agent.process.command == ["./my bot"]
    assert (agent.process.io, agent.process.keep_running) == ("simple", True)
    for bad in ("botzone:", "botzone/fast:bot", "botzone:'open"):
        with pytest.raises(BotzoneError):
            agent_from_spec(bad, 0)
    with pytest.raises(UnknownBotError):
        agent_from_spec("wild", 0)  # a Huangyan bot


# ---------------------------------------------------------------------- majiang bots on Botzone


@pytest.mark.parametrize(("seed", "io_mode"), [(2, "json"), (1, "simple")])
def test_majiang_bot_through_the_protocol_decides_as_in_process(seed: int, io_mode: str) -> None:
    """`majiang botzone bot --bot fan` at seat 2 (the dealer with seed 2) plays the hand exactly
    as the fan bot does in-process."""
    reference = Table(GuobiaoRules(), seed, dealer=seed % 4)
    play_table(reference, [make_bot("fan", s) for s in range(4)])
    command = [*MAJIANG_BOT, "--io", io_mode, "--keep-running"]
    with BotzoneAgent(command, io=io_mode, keep_running=True, time_limit=20) as agent:
        agents: list[Any] = [make_bot("fan", s) for s in range(4)]
        agents[2] = agent
        table = Table(GuobiaoRules(), seed, dealer=seed % 4)
        hand = play_hand(table, agents)
    assert not hand.faults and table.history == reference.history


class InProcess(BotProcess):
    """``majiang botzone bot`` run in this process, one turn per call (one-shot)."""

    def turn(self, history: TurnInput, time_limit: float) -> Reply:
        text = json_input(history) + "\n" if self.io == "json" else simple_input(history)
        out = io.StringIO()
        run(BotzoneBot(make_bot("fan", 2)), io.StringIO(text), out, self.io, False)
        parse = parse_json_output if self.io == "json" else parse_simple_output
        return Reply(parse(out.getvalue().splitlines()))


@pytest.mark.parametrize("io_mode", ["json", "simple"])
def test_one_shot_majiang_bot_replays_the_history(io_mode: str) -> None:
    seed = 6
    reference = Table(GuobiaoRules(), seed, dealer=seed % 4)
    play_table(reference, [make_bot("fan", s) for s in range(4)])
    agent = BotzoneAgent(["in-process"], io=io_mode)
    agent.process = InProcess(["in-process"], io=io_mode)
    agents: list[Any] = [make_bot("fan", s) for s in range(4)]
    agents[1] = agent
    table = Table(GuobiaoRules(), seed, dealer=seed % 4)
    play_hand(table, agents)
    assert table.history == reference.history
    # and the real program, once, on a decision of that hand
    decision = max(i for i, r in enumerate(agent.responses) if r != "PASS")
    history = TurnInput(agent.requests[: decision + 1], agent.responses[:decision])
    real = BotProcess([*MAJIANG_BOT, "--io", io_mode], io=io_mode).turn(history, 20)
    assert real.output is not None and real.output.response == agent.responses[decision]


def test_the_bot_keeps_running_on_plain_request_lines() -> None:
    lines = ['{"requests":["0 0 0"],"responses":[]}', "", '"1 0 0 0 0 W1 W1 W1 W2 W3 W4 W5 W6 '
             'W7 W8 W9 W9 W9"', "2 J1"]
    out = io.StringIO()
    run(BotzoneBot(make_bot("fan", 0)), io.StringIO("\n".join(lines) + "\n"), out, "json", True)
    replies = out.getvalue().splitlines()
    assert replies[1::2] == [KEEP_RUNNING] * 3
    assert [json.loads(r)["response"] for r in replies[0::2]] == ["PASS", "PASS", "PLAY J1"]


# ---------------------------------------------------------------------- the command line


def test_cli_wall(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["botzone", "wall", "--seed", "7", "--deal"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == to_walltiles(seeded_wall(7, flowers=False))
    assert out[1].startswith("player 0 (E): ") and out[5].startswith("player 0 draws: ")


def test_cli_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = "botzone/simple:" + " ".join([*PLAYER[:3], str(BOTS / "faulty.py"), "crash", "5"])
    walltiles = to_walltiles(seeded_wall(SHORT_HAND))
    args = ["botzone", "play", "--seat", spec, "--walltiles", walltiles, "--time-limit", "5",
            "--records", str(tmp_path), "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["botzone_scoring"] is True
    (hand,) = data["hands"]
    assert [f["kind"] for f in hand["faults"]] == ["crash"]
    assert [p["points"] for p in data["players"]] == hand["deltas"]
    assert hand["deltas"][0] == hand["result"]["deltas"][0] - 30
    lines = [json.loads(x) for x in (tmp_path / "hand-0001.jsonl").read_text().splitlines()]
    assert replay(lines).result is not None and "wall" in lines[0]
    assert lines[0]["wall_layout"] == "four_part"
    keep = "botzone/simple/keep:" + " ".join([*PLAYER, "simple", "--keep-running"])
    assert main(["botzone", "play", "--seat", keep, "--seat", "efficient", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "hand 1 (dealer 0, prevalent E)" in out and "hand 2 (dealer 1" in out
    assert out.splitlines()[-3].endswith("efficient")


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["botzone", "play", "--seat", "fan", "--walltiles", "W1 W2"], 1, "144"),
        (["botzone", "play"] + ["--seat", "fan"] * 5, 1, "--seat"),
        (["botzone", "play", "--seat", "nobot"], 1, "unknown bot"),
        (["botzone", "play", "--seat", "fan", "--hands", "0"], 1, "--hands"),
        (["botzone", "play", "--seat", "fan", "--option", "nope=1"], 1, "nope"),
        (["botzone", "wall"], 2, "--seed"),
        (["botzone"], 2, "ACTION"),
        (["botzone", "bot", "--bot", "wild"], 1, "does not play gb"),
    ],
)
def test_cli_bad_input(
    args: list[str], status: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if status == 2:  # usage errors leave through argparse
        with pytest.raises(SystemExit) as exit_:
            main(args)
        assert exit_.value.code == 2
    else:
        assert main(args) == status
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_cli_bot_rejects_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json\n"))
    assert main(["botzone", "bot"]) == 1
    assert capsys.readouterr().err.startswith("majiang: error: the input is not JSON")
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"requests":["3 9 PLAY W1"],"responses":[]}\n'))
    assert main(["botzone", "bot"]) == 1
    assert "bad player" in capsys.readouterr().err
