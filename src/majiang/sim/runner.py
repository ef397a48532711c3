"""Play many hands or matches between bots, in one process, several, or on Ray, reproducibly.

Every game (a hand, or a match of 16 hands) takes its seeds from the run's seed and its own
index alone (:func:`derive_seed`), and the tallies are integers merged in game order, so the
same seed gives the same figures whatever the number of processes or the backend
(:mod:`majiang.sim.backends`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..bots import check_bot, make_bot
from ..engine.match import Agent, Match, play_hand
from ..engine.table import Table
from ..errors import OptionError
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES, RULE_SETS, make_rules, rules_options
from .backends import Backend, LocalBackend, run_ordered
from .stats import PlayerTally, Tally, player_summary

Progress = Callable[[int, int], None]
"""Called with (hands done, hands in all) as the work advances."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the run's seed and a path of names and indices (stable everywhere)."""
    digest = hashlib.blake2b(repr((seed, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def check_rules_and_seats(rules: str, bots: tuple[str, ...]) -> None:
    """A run's first checks: a known rule set, and four bots (or entrants) for the seats.
    Raises :class:`~majiang.errors.OptionError`."""
    if rules not in RULE_SETS:
        raise OptionError(f"unknown rule set {rules!r}; known: {', '.join(RULE_SETS)}")
    if len(bots) != 4:
        raise OptionError(f"--bots needs 4 names (or one for all four), not {len(bots)}")


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: four bots (by registry name, player 0-3), ``games`` single hands or
    ``games`` matches, under a rule set with its options."""

    bots: tuple[str, ...]
    games: int = 100
    seed: int = 0
    matches: bool = False
    hands_per_match: int = 16
    rules: str = DEFAULT_RULES
    options: dict[str, Any] = field(default_factory=dict)
    records: str | None = None
    """A directory to save every hand's record in (JSON lines)."""

    @property
    def total_hands(self) -> int:
        """Hands the run plays."""
        return self.games * (self.hands_per_match if self.matches else 1)

    def validate(self) -> RuleSet:
        """Check the values; return the rule set. Raises :class:`~majiang.errors.OptionError`."""
        check_rules_and_seats(self.rules, self.bots)
        for name in self.bots:
            check_bot(name, self.rules, heavy=True)  # an unknown bot, or one for the other rule set
        if self.games < 1:
            raise OptionError(f"--games must be at least 1, not {self.games}")
        if self.hands_per_match < 1:
            raise OptionError("a match has at least one hand")
        if self.seed < 0:
            raise OptionError(f"--seed must be 0 or more, not {self.seed}")
        return make_rules(self.rules, self.options)


def _agents(config: SimConfig, game: int) -> list[Agent]:
    return [make_bot(name, derive_seed(config.seed, "bot", game, p))
            for p, name in enumerate(config.bots)]


def _false_wins(table: Table) -> list[int]:
    return [e["seat"] for e in table.events if e["type"] == "false_win"]


_SEATS = [0, 1, 2, 3]


def _save(config: SimConfig, table: Table, name: str) -> None:
    if config.records is not None:
        from ..engine.record import save_record

        save_record(table, Path(config.records) / name)


def play_games(config: SimConfig, rules: RuleSet, start: int, stop: int) -> Tally:
    """Play games ``start``..``stop - 1`` of a run and tally them (player p sits at seat p)."""
    tally = Tally()
    seed = config.seed
    for game in range(start, stop):
        agents = _agents(config, game)
        if config.matches:
            match = Match(rules, derive_seed(seed, "match", game), hands=config.hands_per_match,
                          every_seat_answers=False)
            for spec in match.specs():
                table = match.table(spec)
                result = play_hand(table, agents)
                match.record(result)
                tally.add_hand(result, _false_wins(table), _SEATS)
                _save(config, table, f"match-{game:06d}-hand-{spec.number:02d}.jsonl")
            tally.add_match(match.totals)
        else:
            table = Table(
                rules,
                derive_seed(seed, "hand", game),
                dealer=game % 4,
                prevalent_wind=game // 4 % 4,
                every_seat_answers=False,  # bots are asked only when they may claim
            )
            result = play_hand(table, agents)
            tally.add_hand(result, _false_wins(table), _SEATS)
            _save(config, table, f"hand-{game:06d}.jsonl")
    return tally


_worker_rules: dict[tuple[str, str], RuleSet] = {}


def worker_rules(name: str, options: dict[str, Any]) -> RuleSet:
    """The rule set of a worker process, built once per (name, options) and kept."""
    cache_key = (name, repr(sorted(options.items())))
    rules = _worker_rules.get(cache_key)
    if rules is None:
        rules = _worker_rules[cache_key] = make_rules(name, options)
    return rules


def play_chunk(job: tuple[SimConfig, int, int]) -> Tally:
    """Play games ``start``..``stop - 1`` of a run (a backend's unit of work)."""
    config, start, stop = job
    return play_games(config, worker_rules(config.rules, config.options), start, stop)


def _chunks(games: int, jobs: int, matches: bool) -> Iterator[tuple[int, int]]:
    size = 1 if matches else max(1, min(100, games // (jobs * 16)))
    for start in range(0, games, size):
        yield start, min(games, start + size)


def chunk_line(start: int, stop: int, tally: Tally) -> str:
    """The JSON line of one finished chunk (``majiang simulate --out``)."""
    return json.dumps({
        "start": start,
        "stop": stop,
        "hands": tally.hands,
        "draws": tally.draws,
        "matches": tally.matches,
        "players": [asdict(player) for player in tally.players],
    })


@dataclass(frozen=True)
class SimResult:
    """The tallies of a run and how long it took."""

    config: SimConfig
    jobs: int
    tally: Tally
    elapsed: float
    options: dict[str, Any] = field(default_factory=dict)
    backend: str = "local"

    @property
    def hands_per_second(self) -> float:
        """Hands played per second of wall-clock time."""
        return self.tally.hands / self.elapsed if self.elapsed > 0 else 0.0

    def by_bot(self) -> dict[str, tuple[int, PlayerTally]]:
        """Each bot name with its number of players and their tallies summed."""
        out: dict[str, tuple[int, PlayerTally]] = {}
        for name, tally in zip(self.config.bots, self.tally.players, strict=True):
            count, total = out.get(name, (0, PlayerTally()))
            total.merge(tally)
            out[name] = (count + 1, total)
        return out

    def to_json(self) -> dict[str, Any]:
        """The document of ``majiang simulate --json`` (fields in ``docs/bots.md``)."""
        tally = self.tally
        config = self.config
        hands = tally.hands
        return {
            "rules": config.rules,
            "options": self.options,
            "mode": "matches" if config.matches else "hands",
            "games": config.games,
            "hands": hands,
            "matches": tally.matches,
            "seed": config.seed,
            "jobs": self.jobs,
            "bots": list(config.bots),
            "draws": tally.draws,
            "draw_rate": round(tally.draws / hands, 6) if hands else None,
            "elapsed_s": round(self.elapsed, 3),
            "hands_per_s": round(self.hands_per_second, 1),
            "players": [
                {"player": p, "bot": name, **player_summary(t, hands, tally.matches)}
                for p, (name, t) in enumerate(zip(config.bots, tally.players, strict=True))
            ],
            "by_bot": {
                name: {"players": n, **player_summary(t, hands * n, tally.matches * n)}
                for name, (n, t) in self.by_bot().items()
            },
        }


def simulate(
    config: SimConfig,
    jobs: int = 1,
    progress: Progress | None = None,
    backend: Backend | None = None,
    out: TextIO | None = None,
) -> SimResult:
    """Run a simulation and tally it: on ``backend`` if given (the caller closes it), else in
    ``jobs`` local processes (1: in this one). ``out`` receives one JSON line per chunk of
    games, in game order, as soon as the chunks before it are done."""
    rules = config.validate()
    if jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs}")
    if config.records is not None:
        Path(config.records).mkdir(parents=True, exist_ok=True)
    runner = backend if backend is not None else LocalBackend(jobs)
    chunks = list(_chunks(config.games, runner.jobs, config.matches))
    jobs = min(runner.jobs, len(chunks))
    per_game = config.hands_per_match if config.matches else 1
    total = config.total_hands
    tally = Tally()
    done = 0
    begin = time.perf_counter()
    if progress is not None:
        progress(0, total)

    def advance(index: int, part: Tally) -> None:
        nonlocal done
        done += part.hands
        if progress is not None:
            progress(done, total)

    work = [(config, start, stop) for start, stop in chunks]
    for (start, stop), part in zip(chunks, run_ordered(runner, play_chunk, work, advance),
                                   strict=True):
        tally.merge(part)
        if out is not None:
            out.write(chunk_line(start, stop, part) + "\n")
            out.flush()
    elapsed = time.perf_counter() - begin
    assert tally.hands == config.games * per_game
    return SimResult(config, jobs, tally, elapsed, rules_options(rules), runner.name)


__all__ = [
    "Progress",
    "SimConfig",
    "SimResult",
    "check_rules_and_seats",
    "chunk_line",
    "derive_seed",
    "play_chunk",
    "play_games",
    "simulate",
    "worker_rules",
]
