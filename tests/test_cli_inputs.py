"""The command line's inputs: files that are not UTF-8, JSON nested too deeply, records cut short
or altered, database URLs and ports that cannot serve, missing extras. Each is one line on stderr
and a non-zero exit status, never a traceback."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from majiang.cli import main
from majiang.engine.record import read_record, save_record
from majiang.sim import SimConfig, simulate

HAND = '{"hand": "123m456p789s11sEEE"}\n'
DEEP = "[" * 100_000 + "\n"
SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(args)
    finally:
        sys.stdin = sys.__stdin__
    out = capsys.readouterr()
    return code, out.out, out.err


def one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("majiang: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, err)


# --------------------------------------------------------------------------- deep JSON

BATCHES = [
    ["score", "--batch", "-"],
    ["score", "--rules", "huangyan", "--batch", "-"],
    ["analyze", "--batch", "-"],
]


@pytest.mark.parametrize("args", BATCHES)
def test_deeply_nested_json_line_is_an_error_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys, DEEP + HAND)
    assert code == 0 and err == ""
    first, second = out.splitlines()
    assert json.loads(first) == {"error": "line 1 is not JSON: nested too deeply"}
    assert second == run(args, capsys, HAND)[1].strip()  # the batch goes on


def test_deeply_nested_botzone_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["botzone", "bot", "--io", "json"], capsys, DEEP)
    assert code == 1
    one_error_line(err, "not JSON")


# --------------------------------------------------------------------------- not UTF-8

UTF16 = HAND.encode("utf-16")  # with its byte-order mark, as PowerShell writes
BINARY = bytes(range(256)) * 4


def file_commands(path: str) -> list[list[str]]:
    return [
        ["score", "--batch", path],
        ["score", "--rules", "huangyan", "--batch", path],
        ["analyze", "--batch", path],
        ["replay", path],
        ["botzone", "play", "--seat", "efficient", "--walltiles-file", path],
    ]


@pytest.mark.parametrize(("content", "says"), [(UTF16, "UTF-16"), (BINARY, "not UTF-8")])
def test_a_file_that_is_not_utf8_is_one_line(
    content: bytes, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "input.jsonl"
    path.write_bytes(content)
    for args in file_commands(str(path)):
        code, _, err = run(args, capsys)
        assert code == 1, args
        one_error_line(err, str(path), says)


def test_a_tournament_directory_holding_a_binary_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "hands.jsonl").write_bytes(BINARY)
    code, _, err = run(["tournament", "--deals", "1", "--out", str(tmp_path)], capsys)
    assert code == 1
    one_error_line(err, "hands.jsonl", "not UTF-8")


def test_stdin_that_is_not_utf8() -> None:
    for args in BATCHES:
        done = subprocess.run(
            [sys.executable, "-m", "majiang", *args],
            input=UTF16,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": SRC},
            timeout=60,
        )
        assert done.returncode == 1
        one_error_line(done.stderr.decode(), "stdin is UTF-16")


def test_utf8_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(HAND.encode("utf-8-sig"))
    code, out, _ = run(["score", "--batch", str(path)], capsys)
    assert code == 0 and json.loads(out)["total"] > 0


# --------------------------------------------------------------------------- sealed records


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    simulate(SimConfig(bots=("efficient",) * 4, games=1, seed=7, records=str(folder)))
    return folder / "hand-000000.jsonl"


def test_a_sealed_record_replays(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["lines"] == len(lines)
    assert set(json.loads(lines[-1])) == {"sha256"}
    code, out, err = run(["replay", str(record), "--quiet"], capsys)
    assert code == 0 and err == "" and out.strip().endswith("Verified.")


def test_a_record_cut_short_is_refused(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = record.read_text().splitlines(keepends=True)
    for keep in (1, 5, len(lines) - 2, len(lines) - 1):
        cut = tmp_path / "cut.jsonl"
        cut.write_text("".join(lines[:keep]))
        code, out, err = run(["replay", str(cut)], capsys)
        assert code == 1 and out == ""
        one_error_line(err, "cut short", f"{keep} of its {len(lines)} lines")


@pytest.mark.parametrize(
    "change",
    [
        lambda text: text.replace('"seat": 2', '"seat": 1', 1),
        lambda text: text.replace('"deltas": [34', '"deltas": [35', 1),
        lambda text: text.replace("\n", "\n\n", 3).replace('"lines": ', '"lines": 1', 1),
        lambda text: text + '{"seat": 0, "action": {"type": "pass"}}\n',
    ],
)
def test_an_altered_record_is_refused(
    change: object, record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    altered = tmp_path / "altered.jsonl"
    text = record.read_text()
    new = change(text)  # type: ignore[operator]
    assert new != text
    altered.write_text(new)
    code, out, err = run(["replay", str(altered)], capsys)
    assert code == 1 and out == ""
    one_error_line(err, "altered")


def test_a_sealed_record_survives_windows_line_ends(record: Path, tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(record.read_bytes().replace(b"\n", b"\r\n"))
    assert read_record(crlf).sealed


def test_a_format_1_record_replays_with_a_notice(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.loads(line) for line in record.read_text().splitlines()][:-1]
    del lines[0]["lines"]
    lines[0]["format"] = 1
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, err = run(["replay", str(old), "--quiet"], capsys)
    assert code == 0 and out.strip().endswith("Verified.")
    assert err.startswith("majiang: notice: ") and "format 1" in err and "checksum" in err


def test_save_record_then_read_gives_the_record(record: Path, tmp_path: Path) -> None:
    from majiang.engine.record import record_of, replay

    table = replay(read_record(record).lines)
    again = tmp_path / "again.jsonl"
    save_record(table, again)
    assert again.read_bytes() == record.read_bytes()
    assert read_record(again).lines == json.loads(json.dumps(record_of(table)))


# --------------------------------------------------------------------------- serve


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("foo", "is not a database URL"),
        ("sqlite:////nonexistent/dir/x.db", "unable to open database file"),
        ("postgresql+psycopg://someone:secret@127.0.0.1:1/x", "Connection refused"),
        ("mysql://someone@localhost/x", "driver 'MySQLdb' is not installed"),
        ("nosuch://x/y", "unknown kind of database"),
    ],
)
def test_serve_database_errors(db: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["serve", "--db", db, "--port", "0"], capsys)
    assert code == 1 and out == ""
    one_error_line(err, says)
    assert "secret" not in err


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_port_out_of_range_is_a_usage_error(
    port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", port])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("majiang serve: usage error: argument --port: port must be")


def test_serve_on_a_busy_port_prints_no_success_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = f"sqlite:///{tmp_path / 'x.db'}"
        code, out, err = run(["serve", "--port", str(port), "--db", db], capsys)
    assert code == 1 and out == ""
    one_error_line(err, f"cannot listen on 127.0.0.1:{port}")


def test_serve_says_where_it_listens_once_bound(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "majiang", "serve", "--port", "0", "--db",
         f"sqlite:///{tmp_path / 'x.db'}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("majiang server on http://127.0.0.1:")
        port = int(line.split(":")[2].split("/")[0])
        assert port != 0
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # the socket is listening as soon as the line is printed
    finally:
        server.terminate()
        server.wait(timeout=30)


# --------------------------------------------------------------------------- extras


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("import majiang.env", "majiang.env needs the env extra: pip install '.[env]'"),
        ("import majiang.server", "majiang.server needs the server extra: pip install"),
        ("import majiang.tui", "majiang.tui needs the play extra: pip install '.[play]'"),
    ],
)
def test_an_import_that_needs_an_extra_says_so(code: str, says: str) -> None:
    blocked = {"env": "numpy", "server": "fastapi", "tui": "textual"}[code.split(".")[-1]]
    script = f"import sys; sys.modules[{blocked!r}] = None\n{code}"
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
        timeout=60,
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("majiang.errors.MissingExtraError: ") and says in last


@pytest.mark.parametrize(
    ("args", "extra", "module"),
    [
        (["serve"], "server", "uvicorn"),
        (["sheet", "new", "A,B,C,D"], "server", "sqlalchemy"),
        (["play"], "play", "textual"),
    ],
)
def test_a_command_that_needs_an_extra_says_so(
    args: list[str],
    extra: str,
    module: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    code, _, err = run(args, capsys)
    assert code == 1
    one_error_line(err, f"majiang {args[0]} needs the {extra} extra: pip install '.[{extra}]'")
