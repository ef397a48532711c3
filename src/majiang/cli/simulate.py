"""``majiang simulate``: let bots play many hands and report per-bot figures

Bots play GAMES single hands (or 16-hand matches with --matches) from a seed; the same seed gives
the same figures for any --jobs and --backend. Prints each bot's win rate, deal-in rate, mean
winning total (fans in gb, hu in huangyan) and points (and bullets and gunner hands in huangyan),
the draw rate and the speed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from ..bots import bot_names
from ..errors import OptionError
from ..rules.registry import DEFAULT_RULES, RULE_SETS, rule_set
from ..sim import BACKENDS, Backend, ProgressBar, SimConfig, SimResult, make_backend, simulate
from .command import add_command, add_option_argument, arguments_for
from .options import option_values


class _Checked(Protocol):
    def validate(self) -> object: ...


_Config = TypeVar("_Config", bound=_Checked)


def add_parser(commands: Any) -> None:
    """Register ``simulate`` on the sub-command parser."""
    p = add_command(commands, "simulate", run, __doc__)
    p.add_argument("--rules", default=DEFAULT_RULES, choices=list(RULE_SETS),
                   help=f"rule set ({DEFAULT_RULES})")
    p.add_argument("--games", type=int, default=100, metavar="N", help="hands, or matches (100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the run's seed (0)")
    p.add_argument(
        "--bots",
        default=None,
        metavar="A,B,C,D",
        help=f"four bots for players 0-3, or one for all ({', '.join(bot_names())}; "
        "default: efficient for gb, wild for huangyan)",
    )
    add_backend_arguments(p)
    p.add_argument(
        "--matches", action="store_true", help="play whole 16-hand matches instead of hands"
    )
    add_option_argument(p)
    p.add_argument("--records", metavar="DIR", help="save every hand's record in DIR")
    p.add_argument(
        "--out", metavar="FILE", help="write one JSON line per finished chunk of games to FILE"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_progress_argument(p)


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--address`` (shared with ``majiang tournament``)."""
    p.add_argument(
        "--jobs", type=int, default=1, metavar="K",
        help="local processes, or the CPUs of a local Ray instance (1)",
    )
    p.add_argument(
        "--backend", default="local", choices=list(BACKENDS),
        help="local processes (default) or a Ray cluster (needs the ray extra)",
    )
    p.add_argument(
        "--address", default=None, metavar="ADDR",
        help="with --backend ray: the cluster to join (e.g. auto); none: a local Ray instance",
    )


def add_progress_argument(p: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress`` (shared with ``majiang tournament``)."""
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


@contextlib.contextmanager
def progress_bar(args: argparse.Namespace, unit: str = "hands") -> Iterator[ProgressBar | None]:
    """The progress bar on stderr that ``--progress`` asks for (by default when stderr is a
    terminal), closed at the end; None without one."""
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = ProgressBar(sys.stderr, unit=unit) if show else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def backend_from_args(args: argparse.Namespace) -> Backend:
    """The backend the options ask for (checked; Ray is started or joined here)."""
    if args.jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {args.jobs}")
    return make_backend(args.backend, args.jobs, args.address)


def parse_bots(text: str) -> tuple[str, ...]:
    """``"efficient,fan,random,random"`` (or one name for all four) to four names."""
    from ..tournament.entrants import parse_entrants

    return parse_entrants(text)


def default_bot(rules: str) -> str:
    """The bot of every seat unless told: the rule set's
    :attr:`~majiang.rules.info.RuleSetDescription.default_bot`."""
    return rule_set(rules).default_bot


def config_from_args(
    make: Callable[..., _Config], args: argparse.Namespace, bots: Callable[[str], tuple[str, ...]]
) -> _Config:
    """The checked config of a run (``SimConfig``, ``TournamentConfig``): every field named like
    an option takes its value, the bots are ``bots(--bots)`` (the rule set's default bot for
    all four unless given) and the options those of ``--option``."""
    values = arguments_for(make, args)
    values["bots"] = bots(args.bots or default_bot(args.rules))
    config = make(**values, options=option_values(args.option))
    if args.jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {args.jobs}")
    config.validate()
    return config


def run(args: argparse.Namespace) -> int:
    """Run ``majiang simulate``."""
    config = config_from_args(SimConfig, args, parse_bots)
    with contextlib.ExitStack() as stack:
        backend = stack.enter_context(backend_from_args(args))
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None
        bar = stack.enter_context(progress_bar(args))
        result = simulate(config, args.jobs, progress=bar, backend=backend, out=out)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(result))
    return 0


def percent(value: float | None) -> str:
    """A rate as a percentage (``"12.5%"``), ``"-"`` for none (shared with the tournament)."""
    return "-" if value is None else f"{100 * value:.1f}%"


def figure(value: float | None, signed: bool = False) -> str:
    """A mean to two decimals (``"+1.25"`` when signed), ``"-"`` for none."""
    if value is None:
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def render(result: SimResult) -> str:
    """The readable report of ``majiang simulate``."""
    data = result.to_json()
    config = result.config
    what = (
        f"{data['games']} matches ({data['hands']} hands)"
        if config.matches
        else (f"{data['hands']} hands")
    )
    lines = [
        f"{what}, rules {config.rules}, seed {config.seed}, {result.jobs} job"
        f"{'s' if result.jobs != 1 else ''}{', ray' if result.backend == 'ray' else ''}",
        f"draws {data['draws']} ({percent(data['draw_rate'])}), "
        f"{data['elapsed_s']:.1f} s, {data['hands_per_s']:.1f} hands/s",
        "",
    ]
    info = rule_set(config.rules)
    ledger = info.shows.second_ledger
    mean = f"mean {info.points_unit}"
    # The columns the rule set or --matches add: title, width, cell.
    extra: list[tuple[str, int, Callable[[dict[str, Any]], str]]] = []
    if ledger:
        extra.append((ledger, 9, lambda figures: f"{figures['bullets']:+}"))
    if info.shows.gunner:
        extra.append(("gunner", 8, lambda figures: f"{figures['gunner']}"))
    if config.matches:
        extra.append(("1st", 7, lambda figures: percent(figures.get("first_place_rate"))))
    lines.append(
        f"{'player':<7}{'bot':<11}{'win rate':>9}{'self-drawn':>11}{'deal-in':>9}"
        f"{mean:>10}{'points':>9}{'per hand':>10}"
        + "".join(f"{title:>{width}}" for title, width, _ in extra)
    )

    def row(label: str, bot: str, figures: dict[str, Any], players: int = 1) -> str:
        hands = data["hands"] * players
        self_drawn = figures["self_drawn"] / hands if hands else None
        return (
            f"{label:<7}{bot:<11}{percent(figures['win_rate']):>9}{percent(self_drawn):>11}"
            f"{percent(figures['deal_in_rate']):>9}{figure(figures['mean_fans']):>10}"
            f"{figures['points']:>+9}{figure(figures['mean_points'], True):>10}"
            + "".join(f"{cell(figures):>{width}}" for _, width, cell in extra)
        )

    for figures in data["players"]:
        lines.append(row(str(figures["player"]), figures["bot"], figures))
    shared = {name: f for name, f in data["by_bot"].items() if f["players"] > 1}
    if shared:
        lines.append("")
        for name, figures in shared.items():
            players = figures["players"]
            lines.append(row(f"x{players}", name, figures, players))
    return "\n".join(lines)


__all__ = [
    "add_backend_arguments",
    "add_parser",
    "add_progress_argument",
    "backend_from_args",
    "parse_bots",
    "progress_bar",
    "render",
    "run",
]
