"""The backends of ``majiang.sim``: local processes and Ray give the same results as one
process, in the same order; a missing Ray is one clear line. The Ray tests share one local
Ray instance with 2 CPUs (started once, shut down at the end)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from majiang.cli import main
from majiang.errors import MajiangError, MissingExtraError
from majiang.sim import (
    Backend,
    LocalBackend,
    SimConfig,
    make_backend,
    run_ordered,
    simulate,
)
from majiang.tournament import TournamentConfig, run_tournament

T = TypeVar("T")
R = TypeVar("R")

FAST = ("efficient", "efficient", "random", "random")


def square(x: int) -> int:
    return x * x


def _stable(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k not in ("elapsed_s", "hands_per_s", "jobs")}


class Backwards(Backend):
    """Completes the items last to first (a worst case for the ordered reduce)."""

    name = "backwards"
    jobs = 3

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        for index in reversed(range(len(items))):
            yield index, fn(items[index])


def test_run_ordered_restores_the_input_order() -> None:
    seen: list[int] = []
    results = list(run_ordered(Backwards(), square, [1, 2, 3, 4],
                               lambda i, r: seen.append(i)))
    assert results == [1, 4, 9, 16] and seen == [3, 2, 1, 0]


def test_local_backend_in_process_and_in_a_pool() -> None:
    with LocalBackend(1) as one, LocalBackend(2) as two:
        assert list(one.map_unordered(square, [3, 4])) == [(0, 9), (1, 16)]
        assert sorted(two.map_unordered(square, list(range(10)))) == [(i, i * i)
                                                                      for i in range(10)]
        assert list(run_ordered(two, square, list(range(10)))) == [i * i for i in range(10)]


def test_simulate_on_an_odd_backend_is_unchanged() -> None:
    config = SimConfig(bots=FAST, games=12, seed=6)
    assert (_stable(simulate(config, backend=Backwards()).to_json())
            == _stable(simulate(config).to_json()))


def test_make_backend_errors() -> None:
    with pytest.raises(MajiangError, match="--address needs --backend ray"):
        make_backend("local", 1, "auto")
    with pytest.raises(MajiangError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(MajiangError, match="--jobs must be at least 1"):
        make_backend("local", 0)


def test_missing_ray_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(MissingExtraError, match=r"pip install '\.\[ray\]'"):
        make_backend("ray", 2)
    for command in (["simulate", "--games", "2"], ["tournament", "--deals", "1"]):
        assert main([*command, "--backend", "ray"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("majiang: error: the ray backend needs the ray extra: pip install")
        assert len(err.strip().splitlines()) == 1


def test_unreachable_cluster_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    assert main(["simulate", "--games", "2", "--backend", "ray", "--address",
                 "127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "majiang: error: cannot reach a Ray cluster at '127.0.0.1:1'"


# --------------------------------------------------------------------------- Ray


@pytest.fixture(scope="session")
def ray_instance() -> Iterator[Any]:
    """One local Ray instance with 2 CPUs for every Ray test."""
    ray = pytest.importorskip("ray")
    import logging

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


def test_ray_backend_maps(ray_instance: Any) -> None:
    backend = make_backend("ray", 2)
    assert (backend.name, backend.jobs) == ("ray", 2)
    # the workers import the function by name: one from the standard library, not this module
    assert list(run_ordered(backend, abs, list(range(0, -20, -1)))) == list(range(20))
    backend.close()
    assert ray_instance.is_initialized()  # an instance it did not start is left running


def test_ray_simulate_is_identical(ray_instance: Any, capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    local = ["simulate", "--games", "12", "--seed", "8", "--bots", ",".join(FAST), "--json"]
    assert main(local) == 0
    expected = _stable(json.loads(capsys.readouterr().out))
    assert main([*local, "--backend", "ray", "--jobs", "2", "--out",
                 str(tmp_path / "chunks.jsonl")]) == 0
    assert _stable(json.loads(capsys.readouterr().out)) == expected
    chunks = [json.loads(line) for line in (tmp_path / "chunks.jsonl").read_text().splitlines()]
    assert [c["start"] for c in chunks] == list(range(12))
    assert sum(c["hands"] for c in chunks) == 12


def test_ray_tournament_is_identical(ray_instance: Any, tmp_path: Path) -> None:
    config = TournamentConfig(bots=FAST, deals=4, seed=3)
    run_tournament(config, tmp_path / "local", plot=False)
    with make_backend("ray", 2) as backend:
        result = run_tournament(config, tmp_path / "ray", backend, plot=False)
    assert result.backend == "ray"
    for name in ("results.json", "hands.jsonl"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
