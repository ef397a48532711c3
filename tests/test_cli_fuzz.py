"""Fuzzing every sub-command's arguments and input files, for both rule sets: whatever a user
types or feeds, ``majiang`` exits 0, 1 or 2 with at most one line on stderr, never a traceback.

Kept to about two minutes: few examples per command, tiny games (a simulated game is a hand).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majiang.cli import main
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.rules.huangyan.options import HuangyanOptions

NOTATION = "123456789msp0ESWNCFPabcdefghz[],MSPZWTBJH "
OPTIONS = [*GuobiaoOptions.names(), *HuangyanOptions.names(), "nonsense"]
BOTS = ["efficient", "random", "fan", "wild", "nobody", "efficient:x", ""]

hands = st.one_of(
    st.text(NOTATION, max_size=24),
    st.sampled_from(
        [
            "123m456p789s11sEEE",
            "[EEE,1][SSSS,1]WWWNN55pN",
            "W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 F1 F1 F1",
            "123m456p789s11s111z",
            "SS5s123m789m34p66p2p",
        ]
    ),
    st.text(max_size=12),
)
option_values = st.sampled_from(["on", "off", "1", "-3", "x", "", "P1", "every", "99999999999"])
options = st.lists(
    st.builds(lambda n, v: ["--option", f"{n}={v}"], st.sampled_from(OPTIONS), option_values),
    max_size=2,
).map(lambda pairs: [word for pair in pairs for word in pair])
rules = st.sampled_from([[], ["--rules", "gb"], ["--rules", "huangyan"], ["--rules", "riichi"]])
small = st.sampled_from(["0", "1", "2", "-1", "x", "1.5"])
json_lines = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"hand": hands},
            optional={
                "wild": st.sampled_from(["5s", "P", "9z", 7]),
                "win": st.sampled_from(["self_drawn", "discard", 3]),
                "seat_wind": st.sampled_from(["E", "X", 1]),
                "flowers": st.integers(-2, 12),
                "visible": st.text(NOTATION, max_size=6),
                "id": st.integers(),
            },
        ).map(json.dumps),
        st.text(max_size=20),
        st.just("[" * 5000),
    ),
    max_size=4,
).map(lambda lines: "\n".join(lines) + "\n")
file_bytes = st.one_of(
    json_lines.map(str.encode),
    json_lines.map(lambda text: text.encode("utf-16")),
    st.binary(max_size=64),
)

def few(examples: int) -> Any:
    """Hypothesis settings for ``examples`` runs (the fixtures used only hold paths)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


FUZZ = few(25)


def check(args: list[str], stdin: str = "") -> None:
    """Run ``majiang ARGS``: exit 0, 1 or 2 and no traceback, whatever the arguments."""
    err = io.StringIO()
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code: Any = main(args)
            except SystemExit as stop:  # argparse: --help, usage errors
                code = stop.code
    finally:
        sys.stdin = sys.__stdin__
    text = err.getvalue()
    assert code in (0, 1, 2, None), (args, code, text)
    assert "Traceback" not in text, (args, text)
    if code == 1:
        lines = [line for line in text.splitlines() if not line.startswith("majiang: notice")]
        assert len(lines) == 1 and lines[0].startswith("majiang"), (args, text)


@pytest.fixture
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(
    hand=hands,
    rule=rules,
    opts=options,
    flags=st.lists(
        st.sampled_from(
            [["--self-drawn"], ["--kong"], ["--last-tile"], ["--fourth-tile"], ["--json"],
             ["--explain"], ["--wild", "5s"], ["--wild", "9z"], ["--flowers", "3"],
             ["--stake", "0"], ["--seat", "S"], ["--notation", "tenhou"],
             ["--notation", "botzone"], ["--notation", "riichi"]]
        ),
        max_size=3,
    ),
)
def test_score_arguments(
    hand: str, rule: list[str], opts: list[str], flags: list[list[str]]
) -> None:
    check(["score", hand, *rule, *opts, *[w for f in flags for w in f]])


@FUZZ
@given(content=file_bytes, rule=rules, wild=st.sampled_from([[], ["--wild", "7p"]]))
def test_score_batch_files(folder: Path, content: bytes, rule: list[str], wild: list[str]) -> None:
    path = folder / "batch.jsonl"
    path.write_bytes(content)
    check(["score", "--batch", str(path), *rule, *wild])
    text = content.decode("utf-8", "replace")
    check(["score", "--batch", "-", *rule, *wild], stdin=text)


@FUZZ
@given(hand=hands, visible=st.text(NOTATION, max_size=8), content=file_bytes, opts=options)
def test_analyze(folder: Path, hand: str, visible: str, content: bytes, opts: list[str]) -> None:
    check(["analyze", hand, "--visible", visible, *opts])
    path = folder / "analyze.jsonl"
    path.write_bytes(content)
    check(["analyze", "--batch", str(path), *opts])


@pytest.fixture(scope="module")
def record_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("fuzz-records")
    assert main(["simulate", "--games", "1", "--seed", "3", "--records", str(folder),
                 "--no-progress", "--rules", "huangyan"]) == 0
    return (folder / "hand-000000.jsonl").read_text().splitlines()


@FUZZ
@given(
    cut=st.integers(0, 80),
    edit=st.tuples(st.integers(0, 80), st.text(max_size=8)),
    content=file_bytes,
)
def test_replay_files(
    folder: Path, record_lines: list[str], cut: int, edit: tuple[int, str], content: bytes
) -> None:
    lines = list(record_lines)
    at, text = edit
    if lines and text:
        lines[at % len(lines)] = text
    path = folder / "record.jsonl"
    path.write_text("\n".join(lines[: max(cut, 1)]) + "\n")
    check(["replay", str(path), "--quiet"])
    path.write_bytes(content)
    check(["replay", str(path)])


@few(12)
@given(
    rule=rules,
    bots=st.lists(st.sampled_from(BOTS), min_size=1, max_size=4).map(",".join),
    games=small,
    seed=small,
    opts=options,
    extra=st.sampled_from([[], ["--json"], ["--jobs", "0"], ["--address", "x"]]),
)
def test_simulate(
    folder: Path, rule: list[str], bots: str, games: str, seed: str, opts: list[str],
    extra: list[str],
) -> None:
    check(["simulate", *rule, "--bots", bots, "--games", games, "--seed", seed, *opts, *extra,
           "--records", str(folder / "records"), "--no-progress"])


@few(8)
@given(rule=rules, deals=st.sampled_from(["1", "0", "x"]), content=file_bytes, opts=options)
def test_tournament(
    folder: Path, rule: list[str], deals: str, content: bytes, opts: list[str]
) -> None:
    out = folder / "tournament"
    out.mkdir(exist_ok=True)
    (out / "hands.jsonl").write_bytes(content)
    check(["tournament", *rule, "--deals", deals, "--bots", "efficient", *opts, "--out", str(out),
           "--no-plot", "--no-progress"])


@FUZZ
@given(
    stdin=st.one_of(st.text(max_size=40), json_lines, st.just("[" * 100_000)),
    io_mode=st.sampled_from(["json", "simple", "x"]),
    keep=st.booleans(),
    walls=st.one_of(st.text("W1T2B3F4J1H5 ", max_size=40), file_bytes.map(bytes.hex)),
    content=file_bytes,
)
def test_botzone(
    folder: Path, stdin: str, io_mode: str, keep: bool, walls: str, content: bytes
) -> None:
    check(["botzone", "bot", "--io", io_mode, *(["--keep-running"] if keep else [])], stdin=stdin)
    check(["botzone", "play", "--seat", "efficient", "--walltiles", walls])
    path = folder / "walls.txt"
    path.write_bytes(content)
    check(["botzone", "play", "--seat", "efficient", "--walltiles-file", str(path)])


@few(10)
@given(
    db=st.one_of(
        st.text(max_size=12), st.sampled_from(["foo", "mysql://a@b/c", "sqlite:////x/y/z.db"])
    ),
    action=st.sampled_from(
        [["new", "A,B,C,D"], ["new", "A,B"], ["show"], ["export"], ["play"], []]
    ),
    stdin=st.text(max_size=30),
)
def test_sheet(db: str, action: list[str], stdin: str) -> None:
    check(["sheet", "--db", db, *action], stdin=stdin)


@few(10)
@given(
    port=st.one_of(st.sampled_from(["99999", "-1", "http", "1"]), st.text(max_size=6)),
    db=st.one_of(st.text(max_size=12), st.sampled_from(["foo", "nosuch://x", "mysql://a@b/c"])),
)
def test_serve(port: str, db: str) -> None:
    """Arguments that cannot serve (a port that is no port or not ours, a database URL that does
    not open); ``serve`` never gets as far as serving here."""
    check(["serve", "--port", port, "--db", db])


@few(8)
@given(
    args=st.lists(
        st.sampled_from(
            [["--rules", "riichi"], ["--seed", "x"], ["--bots", "a,b"], ["--hands", "0"],
             ["--room", "ABC"], ["--seat", "7"], ["--token", "t"], ["--delay", "-1"]]
        ),
        max_size=3,
    )
)
def test_play_without_a_terminal(args: list[list[str]]) -> None:
    check(["play", *[w for a in args for w in a]])


@few(15)
@given(content=file_bytes, log=st.one_of(file_bytes, st.just(b'{"log": ' + b"[" * 50_000 + b"}")))
def test_botzone_logs_and_review(folder: Path, content: bytes, log: bytes) -> None:
    """Files that are not a record or a Botzone log (``review`` gets no valid record here: its
    rollouts would take seconds)."""
    path = folder / "log.json"
    path.write_bytes(log)
    check(["botzone", "replay", str(path)])
    record = folder / "record.jsonl"
    record.write_bytes(content)
    check(["botzone", "export", str(record)])
    check(["review", str(record), "--seat", "0"])
    check(["botzone", "wall", "--seed", content.hex()[:6] or "x"])
