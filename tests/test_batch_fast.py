"""The batch's fast path writes exactly what the general path writes, and falls back on the rest."""

from __future__ import annotations

import io
import json
import random

import pytest

from majiang.cli.score import run_batch, score_record
from majiang.random_hands import random_winning_hand
from majiang.rules.guobiao import fast_batch
from majiang.rules.guobiao.fast_batch import score_line
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.tiles import WIND_LETTERS

OPTIONS = (GuobiaoOptions(), GuobiaoOptions(mixed_kong_pair_5=True))


@pytest.fixture(autouse=True, params=["in place", "json.loads"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Lines read byte by byte (what the compiled build does), then decoded by ``json.loads``
    (the source build's way; the compiled build keeps reading in place)."""
    monkeypatch.setattr(fast_batch, "_COMPILED", request.param == "in place")
    return str(request.param)


def general(line: str, options: GuobiaoOptions) -> str:
    """The answer of the general path (as before the fast path existed)."""
    return json.dumps(score_record(json.loads(line), options), ensure_ascii=False)


def records(seed: int, n: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for i in range(n):
        hand, ctx = random_winning_hand(rng)
        record: dict[str, object] = {
            "hand": str(hand),
            "win": "self_drawn" if ctx.self_drawn else "discard",
            "seat_wind": WIND_LETTERS[ctx.seat_wind],
            "prevalent_wind": WIND_LETTERS[ctx.prevalent_wind],
            "last_tile": ctx.last_tile,
            "kong": ctx.kong,
            "fourth_tile": ctx.fourth_tile,
        }
        if i % 3 == 0:
            record["id"] = rng.choice((i, f"hand-{i}", None, [i, "中"], 1.5))
        if i % 4 == 0:
            record["flowers"] = rng.randrange(3)
        if i % 5 == 0:
            for name in ("win", "seat_wind", "last_tile", "kong", "fourth_tile"):
                record.pop(name, None)
        out.append(record)
    return out


@pytest.mark.parametrize("options", OPTIONS)
def test_fast_path_matches_the_general_path(options: GuobiaoOptions) -> None:
    answered = 0
    for record in records(11, 1500):
        line = json.dumps(record, ensure_ascii=False)
        fast = score_line(line, options)
        if fast is not None:
            answered += 1
            assert fast == general(line, options), line
    assert answered > 1200  # the odd situation (e.g. nine flowers) goes the general way


@pytest.mark.parametrize(
    "line",
    [
        "",
        "not json",
        "[1, 2]",
        '{"hand": 5}',
        '{"hand": "123m456p789s11sEE1p"}',  # not winning
        '{"hand": "123m456p789s11sEEE", "colour": "red"}',
        '{"hand": "123m456p789s11sEEE", "seat_wind": 2}',
        '{"hand": "123m456p789s11sEEE", "seat_wind": ["E"]}',
        '{"hand": "123m456p789s11sEEE", "kong": 1}',
        '{"hand": "123m456p789s11sEEE", "flowers": true}',
        '{"hand": "123m456p789s11sEEE", "flowers": 9}',
        '{"hand": "123m456p789s11sEEE", "win": "tsumo"}',
        '{"hand": "123m 456p789s11sEEE"}',
        '{"hand": "[567m2]123s456p99pEEE"}',
        '{"hand": "[567m,9]123s456p99pEEE"}',
        '{"hand": "11111m456p789s11sEE"}',
        '{"hand": "[EEE][EEE]456p789s11s"}',
        '{"hand": "123m456p789s11sEE"}',
        '{"hand": "abcdefgh123m456p789s11sEEE", "flowers": 1}',
        '{"hand": "123m456p789s11sEEE", "kong": true, "win": "self_drawn"}',
        '{"hand": "[124m]456p789s11sEEE"}',  # a malformed set: an error line, the batch goes on
        '{"hand": "[111m,4]456p789s11sEE"}',
        '{"hand": "123m456p789s11sEEE", "hand": "123m456p789s11sEEE"}',
        '{"hand": "123m456p789s11sEEE", "win": "discard", "win": "self_drawn"}',
        '{"hand": "123m456p789s11s\\u0045EE"}',
        '{"hand": "123m456p789s11sEEE", "flowers": 10}',
        '{"hand": "123m456p789s11sEEE", "flowers": 1.0}',
        '{"hand": "123m456p789s11sEEE", "flowers": -0}',
        '{"hand": "123m456p789s11sEEE", "flowers": 01}',
        '{"hand": "123m456p789s11sEEE", "kong": truex}',
        '{"hand": "123m456p789s11sEEE", "id": -0}',
        '{"hand": "123m456p789s11sEEE", "id": 007}',
        '{"hand": "123m456p789s11sEEE", "id": 1e3}',
        '{"hand": "123m456p789s11sEEE", "id": 123456789012345678901234567890}',
        '{"hand": "123m456p789s11sEEE", "id": "a\\"b"}',
        '{"hand": "123m456p789s11sEEE", "id": "中"}',
        '{"hand": "123m456p789s11sEEE", "id": null}',
        '{"hand": "123m456p789s11sEEE", "id": {"a": [1, 2]}}',
        '{"hand": "123m456p789s11sEEE",}',
        '{"hand": "123m456p789s11sEEE"} x',
        '{"hand": "123m456p789s11sEEE"',
        '{"hand" "123m456p789s11sEEE"}',
        '{"hand": "123m456p789s11sEEE", "": 1}',
        '{"handy": "123m456p789s11sEEE"}',
        '{"Hand": "123m456p789s11sEEE"}',
        "{}",
    ],
)
def test_unusual_lines_take_the_general_path(line: str) -> None:
    sink = io.StringIO()
    run_batch(io.StringIO(line + "\n"), sink, GuobiaoOptions())
    fast = score_line(line, GuobiaoOptions())
    try:
        json.loads(line)
    except ValueError:
        assert fast is None
        assert json.loads(sink.getvalue())["error"]
        return
    expected = general(line, GuobiaoOptions())
    assert sink.getvalue() == expected + "\n"
    assert fast is None or fast == expected


def test_batch_in_order_with_errors_and_ids() -> None:
    lines = [
        '{"hand": "1112345678999m9m", "win": "self_drawn", "id": 1}',
        "oops",
        '{"hand": "123m456p789s11sEE1p", "id": "b"}',
        '{"id": 3, "hand": "[EEE,1][SSSS,1]WWWNN55pN", "win": "self_drawn", "seat_wind": 1}',
    ]
    sink = io.StringIO()
    run_batch(io.StringIO("\n".join(lines) + "\n"), sink, GuobiaoOptions())
    out = sink.getvalue().splitlines()
    assert len(out) == 4
    assert out[0].startswith('{"id": 1, "total": 107, "fans": [{"name": "九莲宝灯"')
    assert out[1].startswith('{"error": "line 2 is not JSON')
    assert out[2] == (
        '{"id": "b", "error": "not a winning hand: 123m11789s456pEE1p forms none of the five '
        'winning shapes"}'
    )
    assert json.loads(out[3])["total"] == 98


def spaced(record: dict[str, object], rng: random.Random) -> str:
    """The record as a JSON line with its fields shuffled and random JSON whitespace."""
    items = list(record.items())
    rng.shuffle(items)

    def gap() -> str:
        return "".join(rng.choice(" \t\r\n") for _ in range(rng.choice((0, 0, 0, 1, 2))))

    fields = [f"{gap()}{json.dumps(k)}{gap()}:{gap()}{json.dumps(v)}{gap()}" for k, v in items]
    return gap() + "{" + ",".join(fields) + "}" + gap()


def test_lines_read_in_place_match_the_general_path() -> None:
    rng = random.Random(5)
    answered = 0
    for i, record in enumerate(records(13, 1500)):
        if i % 2:
            record["id"] = rng.choice((i, -i, 0, f"hand {i}", "", "~!@#$%^&*()'", 10**17))
        line = spaced(record, rng)
        fast = score_line(line, OPTIONS[1])
        if fast is not None:
            answered += 1
            assert fast == general(line, OPTIONS[1]), line
    assert answered > 1200


def test_usual_lines_are_read_in_place() -> None:
    """Lines as ``json.dumps`` writes them skip ``json.loads`` (the speed of the batch)."""
    from majiang.rules.guobiao.fast_batch import _read_record

    for i, record in enumerate(records(17, 200)):
        record.pop("id", None)
        if i % 2:
            record["id"] = f"hand {i}" if i % 4 == 1 else i
        line = json.dumps(record)
        assert _read_record(line.encode(), line) is not None, line
