"""RL environment speed on one core: steps/s and full hands/s with random players (uniform over
the action mask), single (PettingZoo AEC) and batched (``BatchEnv``), the observation encoding's
cost per step, memory per environment, and RLCard's mahjong environment in the same run.

    .venv/bin/python benchmarks/env_bench.py [--seconds 5] [--batch 64] [--no-rlcard]

Every figure is the best of ``--repeat`` timed runs (the machine may be shared). RLCard is
optional (``pip install rlcard``); without it the line says so.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import majiang.engine.table as table_module
from majiang.engine import Table
from majiang.env import BatchEnv, env
from majiang.rules.registry import make_rules

Run = Callable[[float], tuple[int, int, float]]
"""A timed run: given seconds, returns (steps, hands, elapsed)."""


def engine_run(rules: str, fast: bool) -> Run:
    """The bare engine (no environment), for reference."""
    rule_set = make_rules(rules)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = random.Random(0)
        steps = hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            table = Table(rule_set, hands, every_seat_answers=not fast)
            while not table.is_over:
                seat = table.to_act()[0]
                legal = table.legal_actions(seat)
                table.apply(seat, legal[rng.randrange(len(legal))])
                steps += 1
            hands += 1
        return steps, hands, time.perf_counter() - start

    return run


def aec_run(rules: str, fast: bool) -> Run:
    """The PettingZoo AEC loop: ``last()`` (observation and mask) and ``step`` per decision."""
    aec = env(rules, every_seat_answers=not fast)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = random.Random(0)
        steps = hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            aec.reset(seed=hands)
            for _agent in aec.agent_iter():
                obs, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    aec.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                aec.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            hands += 1
        return steps, hands, time.perf_counter() - start

    return run


def batch_run(rules: str, fast: bool, size: int, stats: dict[str, float]) -> Run:
    """``BatchEnv.step`` with a vectorised random choice over the masks, timed after a warm-up
    in which every table has finished a hand on average (so that hands end at a steady rate)."""
    batch = BatchEnv(size, rules, every_seat_answers=not fast)
    _, mask, _ = batch.reset()
    rng = np.random.default_rng(0)
    while batch.hands_finished < size:
        batch.step((rng.random(mask.shape) * mask).argmax(axis=1))

    def run(seconds: float) -> tuple[int, int, float]:
        steps, hands = batch.steps, batch.hands_finished
        batch.encode_seconds = batch.query_seconds = 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            batch.step((rng.random(mask.shape) * mask).argmax(axis=1))
        elapsed = time.perf_counter() - start
        steps = batch.steps - steps
        encode = batch.encode_seconds / steps * 1e6
        if encode < stats.get("encode_us", 1e9):
            stats["encode_us"] = encode
            stats["query_us"] = batch.query_seconds / steps * 1e6
        return steps, batch.hands_finished - hands, elapsed

    return run


def rlcard_run() -> Run | None:
    """RLCard's mahjong with four random agents (``env.run``), or None if not installed."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    rl_env = rlcard.make("mahjong", config={"seed": 0})
    rl_env.set_agents([RandomAgent(num_actions=rl_env.num_actions) for _ in range(4)])

    def run(seconds: float) -> tuple[int, int, float]:
        steps = hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            trajectories, _ = rl_env.run(is_training=False)
            steps += sum(len(t) // 2 for t in trajectories)  # (state, action) pairs per player
            hands += 1
        return steps, hands, time.perf_counter() - start

    return run


def best(run: Run, seconds: float, repeat: int) -> tuple[float, float]:
    """Best steps/s and hands/s of ``repeat`` runs."""
    steps_rate = hands_rate = 0.0
    for _ in range(repeat):
        steps, hands, elapsed = run(seconds)
        steps_rate = max(steps_rate, steps / elapsed)
        hands_rate = max(hands_rate, hands / elapsed)
    return steps_rate, hands_rate


def memory_per_env(make: Callable[[], Any], count: int = 50) -> float:
    """KiB allocated per environment, measured with tracemalloc over ``count`` of them (each
    reset and stepped 40 times, mid-hand)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    keep = [make() for _ in range(count)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del keep
    return (after - before) / count / 1024


def _aec_mid_hand() -> Any:
    aec = env("gb")
    aec.reset(seed=1)
    rng = random.Random(0)
    for _ in range(40):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        aec.step(int(legal[rng.randrange(len(legal))]))
    return aec


def _batch_mid_hand(size: int) -> Any:
    batch = BatchEnv(size, "gb")
    _, mask, _ = batch.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        batch.step((rng.random(mask.shape) * mask).argmax(axis=1))
    return batch


def _rlcard_mid_hand() -> Any:
    import rlcard

    rl_env = rlcard.make("mahjong", config={"seed": 0})
    state, _ = rl_env.reset()
    rng = random.Random(0)
    for _ in range(40):
        legal = list(state["legal_actions"])
        state, _ = rl_env.step(legal[rng.randrange(len(legal))])
    return rl_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per timed run")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs per figure (best kept)")
    parser.add_argument("--batch", type=int, default=64, help="tables per BatchEnv")
    parser.add_argument("--no-rlcard", action="store_true")
    args = parser.parse_args(argv)
    build = "compiled (mypyc)" if table_module.__file__.endswith(".so") else "pure Python"
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, one process, one core, "
          f"{build}")
    print(f"random players over the mask; best of {args.repeat} x {args.seconds:g} s\n")
    header = f"{'environment':58} {'steps/s':>9} {'hands/s':>8}"
    print(header)
    print("-" * len(header))
    rows: dict[str, float] = {}
    for rules in ("gb", "huangyan"):
        for fast in (False, True):
            mode = "claim windows open to only the seats that may claim" if fast else (
                "every seat answers every claim window"
            )
            stats: dict[str, float] = {}
            runs = [
                (f"engine only (Table), {rules}", engine_run(rules, fast)),
                (f"PettingZoo AEC, {rules}", aec_run(rules, fast)),
                (f"BatchEnv x{args.batch}, {rules}", batch_run(rules, fast, args.batch, stats)),
            ]
            print(f"[{rules}: {mode}]")
            for name, run in runs:
                steps_rate, hands_rate = best(run, args.seconds, args.repeat)
                rows[f"{name} {fast}"] = hands_rate
                print(f"  {name:56} {steps_rate:9.0f} {hands_rate:8.1f}")
            print(f"    BatchEnv encoding (observations + masks): {stats['encode_us']:.1f} "
                  f"µs/step; the tables' to_act + legal_actions: {stats['query_us']:.1f} µs/step")
    rl = None if args.no_rlcard else rlcard_run()
    if rl is None:
        print("\nRLCard: not measured (" + (
            "--no-rlcard" if args.no_rlcard else "rlcard is not installed: pip install rlcard"
        ) + ")")
    else:
        steps_rate, hands_rate = best(rl, args.seconds, args.repeat)
        print(f"\n{'RLCard mahjong (rlcard.make, 4 RandomAgent, env.run)':58} "
              f"{steps_rate:9.0f} {hands_rate:8.1f}")
        for key in ("PettingZoo AEC, gb True", f"BatchEnv x{args.batch}, gb True",
                    "PettingZoo AEC, gb False"):
            print(f"  {key.rsplit(' ', 1)[0]} ({'fast' if key.endswith('True') else 'default'} "
                  f"windows): {rows[key] / hands_rate:.1f}x RLCard's hands/s")
    print("\nmemory per environment (tracemalloc, mid-hand):")
    print(f"  PettingZoo AEC (gb)              {memory_per_env(_aec_mid_hand):8.1f} KiB")
    size = 50
    batch_kib = memory_per_env(lambda: _batch_mid_hand(size), count=2) / size
    print(f"  BatchEnv, per table (gb, x{size})    {batch_kib:8.1f} KiB")
    if rl is not None:
        print(f"  RLCard mahjong                   {memory_per_env(_rlcard_mid_hand):8.1f} KiB")


if __name__ == "__main__":
    main()
