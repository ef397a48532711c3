"""``majiang.tournament`` and ``majiang tournament``: the schedule, playing deals, determinism,
resume after an interruption or a truncated file, the entrant specs, the command line."""

from __future__ import annotations

import json
import os
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from majiang.bots import make_bot
from majiang.cli import main
from majiang.engine.match import Agent
from majiang.errors import MajiangError
from majiang.tournament import (
    StoreError,
    TournamentConfig,
    entrant_from_spec,
    entrant_labels,
    orders,
    parse_entrants,
    rotations,
    run_tournament,
    schedule,
    seats_of,
)
from majiang.tournament.entrants import EXTERNAL_KINDS

FAST = ("efficient", "efficient", "random", "random")
CONFIG = TournamentConfig(bots=FAST, deals=6, seed=4)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uninterrupted run of CONFIG (the others must end with the same files)."""
    out = tmp_path_factory.mktemp("reference")
    run_tournament(CONFIG, out, plot=False)
    return out


# --------------------------------------------------------------------------- the schedule


def test_rotations_seat_every_entrant_at_every_seat_once() -> None:
    table = rotations()
    assert table[0] == (0, 1, 2, 3)
    for entrant in range(4):
        assert sorted(seats_of(order)[entrant] for order in table) == [0, 1, 2, 3]
    for seat in range(4):
        assert sorted(order[seat] for order in table) == [0, 1, 2, 3]
    assert table[1] == (3, 0, 1, 2)  # rotation 1 moves every entrant one seat on


def test_permutations_are_all_24_orders() -> None:
    table = orders(permutations=True)
    assert len(set(table)) == 24 and table[0] == (0, 1, 2, 3)
    for entrant in range(4):
        assert Counter(seats_of(order)[entrant] for order in table) == dict.fromkeys(range(4), 6)


def test_schedule_plays_every_deal_in_every_order() -> None:
    games = schedule(range(3))
    assert [(g.deal, g.order_index) for g in games] == [(d, k) for d in range(3) for k in range(4)]
    assert all(g.order == rotations()[g.order_index] for g in games)
    assert len(schedule([5], permutations=True)) == 24


def test_played_records_follow_the_schedule(reference: Path) -> None:
    header, *records = _lines(reference / "hands.jsonl")
    assert header["format"] == 1 and header["tournament"]["bots"] == list(FAST)
    assert [(r["deal"], r["order"]) for r in records] == [(d, k) for d in range(6)
                                                          for k in range(4)]
    for deal in range(6):
        hands = [r for r in records if r["deal"] == deal]
        for entrant in range(4):  # each entrant sits each seat once per deal
            assert sorted(r["seats"].index(entrant) for r in hands) == [0, 1, 2, 3]
    for r in records:
        assert sum(r["points"]) == 0
        assert r["seats"] == list(rotations()[r["order"]])
        if r["winner"] is None:
            assert r["points"] == [0, 0, 0, 0] and r["fans"] == 0


def test_a_deal_is_the_same_wall_in_every_order() -> None:
    """Rotating the entrants changes who plays the tiles, not the tiles: with four copies of
    the same deterministic bot every order of a deal gives the same hand, seen from the seats."""
    config = TournamentConfig(bots=("efficient",) * 4, deals=2, seed=11)
    records = run_tournament(config, plot=False).results
    assert records["hands"] == 8
    from majiang.rules.registry import make_rules
    from majiang.tournament import play_deal

    hands = play_deal(config, make_rules("gb"), 1)
    by_seat = [[h["points"][entrant] for entrant in h["seats"]] for h in hands]
    assert by_seat[0] == by_seat[1] == by_seat[2] == by_seat[3]


# --------------------------------------------------------------------------- determinism


def test_jobs_do_not_change_the_results(reference: Path, tmp_path: Path) -> None:
    result = run_tournament(CONFIG, tmp_path, jobs=2, plot=False)
    assert result.jobs == 2
    assert (tmp_path / "results.json").read_bytes() == (reference / "results.json").read_bytes()
    assert (tmp_path / "hands.jsonl").read_bytes() == (reference / "hands.jsonl").read_bytes()


def test_without_out_nothing_is_saved_and_results_agree(reference: Path) -> None:
    result = run_tournament(CONFIG, plot=False)
    saved = json.loads((reference / "results.json").read_text())
    assert result.results == saved and result.out is None
    assert sum(e["points"] for e in saved["entrants"]) == 0
    assert [e["label"] for e in saved["entrants"]] == [
        "efficient#1", "efficient#2", "random#1", "random#2"]


# --------------------------------------------------------------------------- resume


def _same_as_reference(out: Path, reference: Path) -> None:
    assert (out / "results.json").read_bytes() == (reference / "results.json").read_bytes()
    assert (out / "hands.jsonl").read_bytes() == (reference / "hands.jsonl").read_bytes()


def test_resume_after_half_the_deals(reference: Path, tmp_path: Path) -> None:
    first = run_tournament(TournamentConfig(bots=FAST, deals=3, seed=4), tmp_path, plot=False)
    assert (first.played, first.resumed) == (3, 0)
    second = run_tournament(CONFIG, tmp_path, plot=False)
    assert (second.played, second.resumed) == (3, 3)
    _same_as_reference(tmp_path, reference)
    again = run_tournament(CONFIG, tmp_path, plot=False)
    assert (again.played, again.resumed) == (0, 6)
    _same_as_reference(tmp_path, reference)


def test_resume_after_an_interruption(reference: Path, tmp_path: Path) -> None:
    class Stop(Exception):
        pass

    def interrupt(done: int, total: int) -> None:
        if done >= 2:
            raise Stop

    with pytest.raises(Stop):
        run_tournament(CONFIG, tmp_path, progress=interrupt, plot=False)
    assert not (tmp_path / "results.json").exists()
    assert len(_lines(tmp_path / "hands.jsonl")) == 1 + 2 * 4
    result = run_tournament(CONFIG, tmp_path, plot=False)
    assert (result.played, result.resumed) == (4, 2)
    _same_as_reference(tmp_path, reference)


@pytest.mark.parametrize("cut", ["mid-line", "mid-deal", "header"])
def test_resume_after_a_truncated_file(reference: Path, tmp_path: Path, cut: str) -> None:
    text = (reference / "hands.jsonl").read_text()
    lines = text.splitlines(keepends=True)
    if cut == "mid-line":  # a crash inside the last line's write
        kept = "".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2]
    elif cut == "mid-deal":  # the last deal's hands half written, the next line cut
        kept = "".join(lines[:-2]) + lines[-2][:10]
    else:  # nothing but part of the header
        kept = lines[0][:20]
    (tmp_path / "hands.jsonl").write_text(kept)
    result = run_tournament(CONFIG, tmp_path, plot=False)
    assert result.played == (1 if cut != "header" else 6)
    _same_as_reference(tmp_path, reference)


def test_resume_refuses_other_settings_and_corrupt_lines(reference: Path,
                                                         tmp_path: Path) -> None:
    (tmp_path / "hands.jsonl").write_bytes((reference / "hands.jsonl").read_bytes())
    with pytest.raises(StoreError, match=r"other settings \(bots, seed\)"):
        run_tournament(TournamentConfig(bots=("random",) * 4, deals=6, seed=5), tmp_path)
    lines = (reference / "hands.jsonl").read_text().splitlines(keepends=True)
    lines[3] = "{not json\n"
    (tmp_path / "hands.jsonl").write_text("".join(lines))
    with pytest.raises(StoreError, match=r"hands.jsonl:4: not a hand record"):
        run_tournament(CONFIG, tmp_path)
    (tmp_path / "hands.jsonl").write_text("[1, 2]\n")
    with pytest.raises(StoreError, match="not a tournament's hands file"):
        run_tournament(CONFIG, tmp_path)


def test_plot_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = run_tournament(TournamentConfig(bots=FAST, deals=2, seed=1), tmp_path)
    assert result.plot == tmp_path / "ratings.png"
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- entrants


def test_entrant_specs_and_labels() -> None:
    assert parse_entrants("fan") == ("fan",) * 4
    assert entrant_labels(["fan", "efficient", "efficient", "efficient"]) == [
        "fan", "efficient#1", "efficient#2", "efficient#3"]
    assert entrant_labels(["botzone:/opt/bots/a.py --x", "botzone:python b.py", "random",
                           "random"]) == ["botzone:a.py", "botzone:python", "random#1",
                                          "random#2"]
    with pytest.raises(MajiangError, match="4 names"):
        parse_entrants("fan,efficient")
    with pytest.raises(MajiangError, match="empty bot name"):
        parse_entrants("fan,,efficient,random")


def test_external_entrants_plug_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``KIND:ARGUMENT`` spec is resolved by the kind's module (as ``botzone:CMD`` will be);
    agents are built fresh for every hand and closed after it."""
    closed: list[int] = []

    class Closing:
        def __init__(self, name: str, seed: int) -> None:
            self.agent: Agent = make_bot(name, seed)

        def __call__(self, obs: Any) -> Any:
            return self.agent(obs)

        def close(self) -> None:
            closed.append(1)

    module = types.ModuleType("fake_entrants")
    module.make_entrant = (  # type: ignore[attr-defined]
        lambda spec, seed, rules, time_limit: Closing(spec.partition(":")[2], seed)
    )
    module.check_entrant = (  # type: ignore[attr-defined]
        lambda spec, rules: make_bot(spec.partition(":")[2])
    )
    monkeypatch.setitem(sys.modules, "fake_entrants", module)
    monkeypatch.setitem(EXTERNAL_KINDS, "fake", "fake_entrants")
    assert isinstance(entrant_from_spec("fake:random", 3), Closing)
    config = TournamentConfig(bots=("fake:random", "random", "fake:efficient", "efficient"),
                              deals=1, seed=2)
    data = run_tournament(config, plot=False).results
    assert len(closed) == 2 * 4  # two external entrants, four hands
    assert [e["label"] for e in data["entrants"]] == [
        "fake:random", "random", "fake:efficient", "efficient"]
    with pytest.raises(MajiangError, match="unknown bot 'nope'"):
        run_tournament(TournamentConfig(bots=("fake:nope",) * 4, deals=1))


def test_botzone_spec_is_routed_to_its_module() -> None:
    with pytest.raises(MajiangError, match="botzone"):
        TournamentConfig(bots=("botzone:",) * 4, deals=1).validate()


# --------------------------------------------------------------------------- the command


def test_cli_table_and_files(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                             reference: Path) -> None:
    args = ["tournament", "--bots", ",".join(FAST), "--deals", "6", "--seed", "4",
            "--out", str(tmp_path), "--no-plot"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert out.err == ""
    lines = out.out.splitlines()
    assert lines[0] == "6 deals x 4 rotations (24 hands), rules gb, seed 4, 1 job"
    assert lines[1].startswith("played 6 deals, resumed 0, ") and "deals/s; draws " in lines[1]
    assert lines[3].split() == ["entrant", "per", "hand", "95%", "interval", "win", "rate",
                                "self-drawn", "deal-in", "mean", "fans", "elo"]
    assert [line.split()[0] for line in lines[4:8]] == [
        "efficient#1", "efficient#2", "random#1", "random#2"]
    assert lines[-1] == f"saved {tmp_path}/results.json, {tmp_path}/hands.jsonl"
    _same_as_reference(tmp_path, reference)
    assert main(args) == 0  # resumed: nothing left to play
    assert "played 0 deals, resumed 6" in capsys.readouterr().out


def test_cli_json(capsys: pytest.CaptureFixture[str], reference: Path) -> None:
    args = ["tournament", "--bots", ",".join(FAST), "--deals", "6", "--seed", "4", "--json",
            "--jobs", "2"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    run = data.pop("run")
    assert data == json.loads((reference / "results.json").read_text())
    assert set(run) == {"backend", "jobs", "played", "resumed", "elapsed_s", "deals_per_s",
                        "out", "plot"}
    assert (run["backend"], run["jobs"], run["played"], run["out"]) == ("local", 2, 6, None)
    assert set(data) == {"format", "rules", "options", "seed", "bots", "permutations",
                         "orders", "deals", "hands", "draws", "draw_rate", "entrants",
                         "pairwise"}
    assert set(data["entrants"][0]) == {
        "entrant", "label", "bot", "hands", "mean_points", "ci95", "sd_per_deal", "points",
        "wins", "win_rate", "self_drawn", "self_draw_rate", "deal_ins", "deal_in_rate",
        "mean_fans", "false_wins", "bullets", "gunner", "elo"}


def test_cli_huangyan_permutations_progress(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--rules", "huangyan", "--bots", "wild,random,random,random",
            "--deals", "1", "--permutations", "--progress"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "1/1 deals" in out.err
    lines = out.out.splitlines()
    assert lines[0].startswith("1 deals x 24 permutations (24 hands), rules huangyan")
    assert "mean hu" in lines[3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deals", "0"], "--deals must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--seed", "-1"], "--seed must be 0 or more"),
        (["--bots", "efficient,fan"], "--bots needs 4 names"),
        (["--bots", "efficient,fan,random,alphago"], "unknown bot 'alphago'"),
        (["--bots", "wild,fan,random,random"], "bot 'wild' does not play gb"),
        (["--bots", "botzone:./bot,fan,random,random"], "cannot run Botzone program './bot'"),
        (["--option", "no_such_option=1"], "no_such_option"),
        (["--address", "auto"], "--address needs --backend ray"),
    ],
)
def test_cli_invalid_values(args: list[str], message: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--deals", "1", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("majiang: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_cli_refuses_botzone_programs_for_a_rule_set_they_do_not_play() -> None:
    """``--rules huangyan --bots botzone:CMD,...``: the rule set's description says Botzone's
    programs do not play it; a usage error in one line (exit 2) before anything is started."""
    import subprocess

    player = Path(__file__).parent / "botzone_bots" / "simple_player.py"
    spec = f"botzone/keep:{sys.executable} -I -S {player} --keep-running"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "majiang", "tournament", "--rules", "huangyan", "--bots",
         f"{spec},wild,wild,wild", "--deals", "1", "--no-progress"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line == (f"majiang tournament: usage error: --bots {spec!r}: Botzone programs play "
                    "Guobiao (MCR) (gb), not huangyan")


def test_cli_out_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("x")
    assert main(["tournament", "--deals", "1", "--out", str(afile)]) == 1
    assert "is not a directory" in capsys.readouterr().err
    assert main(["tournament", "--deals", "1", "--bots", "random", "--out", str(tmp_path),
                 "--no-plot"]) == 0
    capsys.readouterr()
    assert main(["tournament", "--deals", "1", "--bots", "random", "--seed", "9",
                 "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "other settings (seed); use another --out" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [["--deals", "many"], ["--backend", "spark"], ["--rules", "riichi"], ["--frobnicate"]],
)
def test_cli_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "usage error" in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- the document

DOC = Path(__file__).resolve().parent.parent / "docs" / "tournament.md"


def test_doc_python_examples() -> None:
    import doctest

    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_doc_permutations_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The document's --permutations example prints what it shows (but the time line)."""
    text = DOC.read_text(encoding="utf-8")
    command = "majiang tournament --bots efficient,random,random,random --deals 3 --seed 2 " \
              "--permutations --no-progress"
    block = text.split(f"$ {command}\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert main(command.split()[1:]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == block[0] and lines[2:] == block[2:]
    assert lines[1].split(",")[:2] == block[1].split(",")[:2]  # played, resumed


def test_a_botzone_program_enters_a_tournament(tmp_path: Path) -> None:
    """``botzone/keep:CMD`` seats an external Botzone program in every rotation; its hands are
    played with every seat answering, deterministic for the seed, and resumable like any other."""
    player = Path(__file__).parent / "botzone_bots" / "simple_player.py"
    spec = f"botzone/keep:{sys.executable} -I -S {player} --keep-running"
    config = TournamentConfig(bots=(spec, "efficient", "random", "random"), deals=1, seed=3,
                              time_limit=10.0)
    first = run_tournament(config, tmp_path / "a")
    again = run_tournament(config, tmp_path / "b")
    text = (tmp_path / "a" / "hands.jsonl").read_text()
    assert text == (tmp_path / "b" / "hands.jsonl").read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["tournament"]["time_limit"] == 10.0
    hands = lines[1:]
    assert sorted(h["seats"][0] for h in hands) == [0, 1, 2, 3]  # the program sat every seat
    assert all("faults" not in h for h in hands)  # a well-behaved program is never charged
    assert first.to_json()["entrants"][0]["label"].startswith("botzone/keep:")
    assert first.to_json()["entrants"] == again.to_json()["entrants"]
    with pytest.raises(MajiangError, match="Guobiao"):
        TournamentConfig(bots=(spec, "wild", "wild", "wild"), rules="huangyan").validate()


def test_a_faulty_botzone_program_is_charged_with_the_judges_verdict(tmp_path: Path) -> None:
    """A program that crashes is charged as the judge charges it, and the hand's line names the
    verdict (RE), counted for the entrant that made it, whatever seat it sat."""
    faulty = Path(__file__).parent / "botzone_bots" / "faulty.py"
    spec = f"botzone/simple:{sys.executable} -I -S {faulty} crash 3"
    config = TournamentConfig(bots=(spec, "efficient", "efficient", "efficient"), deals=1,
                              seed=3, time_limit=10.0, options={"botzone_scoring": "on"})
    run_tournament(config, tmp_path)
    hands = [json.loads(line) for line in (tmp_path / "hands.jsonl").read_text().splitlines()[1:]]
    assert len(hands) == 4
    for hand in hands:
        assert hand["faults"] == [1, 0, 0, 0]
        assert hand["verdicts"] == [["RE"], [], [], []]
        assert sum(hand["points"]) == 0
