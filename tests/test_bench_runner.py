"""benchmarks/against_commit.py's pure parts: the order of the contenders, the ratios, the figures
read from the scripts' output (no benchmark runs here)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "against_commit.py"
spec = importlib.util.spec_from_file_location("against_commit", PATH)
assert spec is not None and spec.loader is not None
runner = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = runner  # the dataclasses resolve their annotations through it
spec.loader.exec_module(runner)

FORWARD = [("base", "pure"), ("head", "pure"), ("base", "compiled"), ("head", "compiled")]


def test_rounds_alternate_forward_and_reversed() -> None:
    assert runner.round_order(0) == FORWARD
    assert runner.round_order(1) == FORWARD[::-1]
    assert runner.round_order(2) == FORWARD
    assert runner.round_order(3) == FORWARD[::-1]


def test_ratio_is_per_round_head_over_base_with_its_range() -> None:
    # Round ratios 1.1, 0.9, 1.0: the median pairs each round's head with the same round's base.
    assert runner.ratio_spread([110.0, 45.0, 300.0], [100.0, 50.0, 300.0]) == pytest.approx(
        (1.0, 0.9, 1.1))
    assert runner.ratio_spread([2.0, 4.0], [1.0, 1.0]) == pytest.approx((3.0, 2.0, 4.0))
    with pytest.raises(ValueError):
        runner.ratio_spread([1.0, 2.0], [1.0])


def test_figures_are_read_from_the_scripts_output() -> None:
    score = runner.BENCHMARKS["score"].figures
    out = ("majiang core (parsed hands)                    46,737        0.444x        0.600x\n"
           "majiang batch, 1 process (JSON lines)          57,680        0.547x        0.522x\n")
    assert score["core hands/s"](out, "") == 46737
    assert score["batch hands/s"](out, "") == 57680
    startup = "start-up: `majiang score HAND` 250 ms (median of 5)\n"
    assert score["start-ups/s (score HAND)"](startup, "") == 4.0
    shanten = runner.BENCHMARKS["shanten"].figures
    out = ("  majiang shanten, warm           212,000 hands/s  (1.70x the reference)\n"
           "  majiang shanten, warm            98,500 hands/s  (1.20x the reference)\n")
    assert shanten["concealed warm hands/s"](out, "") == 212000
    assert shanten["melded warm hands/s"](out, "") == 98500
    env = runner.BENCHMARKS["env"].figures
    out = ("  BatchEnv x64, gb          30000    150.0\n  BatchEnv x64, gb          40000    "
           "200.5\n")
    assert env["BatchEnv gb hands/s"](out, "") == 200.5
    server = runner.BENCHMARKS["server"].figures
    row = {"actions_per_s": 900.0, "server_cpu_ms_per_action": 0.5}
    err = f"log line\n  10 tables done: {json.dumps(row)}\n"
    assert server["actions/s"]("", err) == 900
    assert server["actions per server CPU ms"]("", err) == 2.0
