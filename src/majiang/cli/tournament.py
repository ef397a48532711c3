"""``majiang tournament``: a duplicate tournament: every deal in every seat rotation, per-bot
figures

Plays N deals (seeded walls), each once in every cyclic rotation of the four entrants over the
seats (all 24 orders with --permutations), so that every entrant plays every seat's tiles. Prints
each entrant's mean points per hand with a 95% interval over deals, win, self-draw and deal-in
rates, mean winning total ({units}) and an Elo-style rating. With --out DIR the
hands are written to DIR/hands.jsonl as they finish and the same command resumes an interrupted
run; DIR/results.json and DIR/ratings.png at the end. The same seed gives the same results for any
--jobs and --backend.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..bots import bot_names
from ..rules.registry import DEFAULT_RULES, RULE_SETS, rule_set
from .command import add_command, add_option_argument
from .simulate import (
    add_backend_arguments,
    add_progress_argument,
    backend_from_args,
    config_from_args,
    figure,
    percent,
    progress_bar,
)


def add_parser(commands: Any) -> None:
    """Register ``tournament`` on the sub-command parser."""
    p = add_command(commands, "tournament", run, __doc__,
                    values={"units": ", ".join(f"{d.points_unit} in {name}"
                                              for name, d in RULE_SETS.items())})
    p.add_argument(
        "--bots",
        default=None,
        metavar="A,B,C,D",
        help=f"four entrants (or one for all): bot names ({', '.join(bot_names())}) or "
        "Botzone programs (botzone[/json|/simple][/keep]:COMMAND); repeats allowed "
        f"(default: {', '.join(f'{i.default_bot} for {n}' for n, i in RULE_SETS.items())})",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="per decision of a Botzone program (1; Botzone gives Python programs 6)",
    )
    p.add_argument("--deals", type=int, default=100, metavar="N", help="deals to play (100)")
    p.add_argument("--rules", default=DEFAULT_RULES, choices=list(RULE_SETS),
                   help=f"rule set ({DEFAULT_RULES})")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the tournament's seed (0)")
    p.add_argument("--out", metavar="DIR", help="save and resume the tournament in DIR")
    add_backend_arguments(p)
    add_option_argument(p)
    p.add_argument(
        "--permutations",
        action="store_true",
        help="play every deal in all 24 seat orders instead of the 4 rotations",
    )
    p.add_argument(
        "--plot",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="draw DIR/ratings.png (default: on, when matplotlib is installed)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_progress_argument(p)


def run(args: argparse.Namespace) -> int:
    """Run ``majiang tournament``."""
    from ..tournament import TournamentConfig, parse_entrants, run_tournament

    config = config_from_args(TournamentConfig, args, parse_entrants)
    with backend_from_args(args) as backend, progress_bar(args, unit="deals") as bar:
        result = run_tournament(config, args.out, backend, progress=bar, plot=args.plot)
    if args.out and args.plot and result.plot is None:
        print("majiang: note: ratings.png not drawn: install the plot extra "
              "(pip install '.[plot]' in majiang's clone)", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(result.to_json()))
    return 0


def render(data: dict[str, Any]) -> str:
    """The readable report of ``majiang tournament`` (from its JSON document)."""
    run_info = data["run"]
    kind = "permutations" if data["permutations"] else "rotations"
    jobs = run_info["jobs"]
    lines = [
        f"{data['deals']} deals x {data['orders']} {kind} ({data['hands']} hands), "
        f"rules {data['rules']}, seed {data['seed']}, {jobs} job{'s' if jobs != 1 else ''}"
        f"{', ray' if run_info['backend'] == 'ray' else ''}",
        f"played {run_info['played']} deals, resumed {run_info['resumed']}, "
        f"{run_info['elapsed_s']:.1f} s, {run_info['deals_per_s']:.2f} deals/s; "
        f"draws {data['draws']} ({percent(data['draw_rate'])})",
        "",
    ]
    mean = f"mean {rule_set(data['rules']).points_unit}"
    width = max(8, *(len(e["label"]) for e in data["entrants"])) + 2
    lines.append(
        f"{'entrant':<{width}}{'per hand':>9}{'95% interval':>20}{'win rate':>10}"
        f"{'self-drawn':>11}{'deal-in':>9}{mean:>10}{'elo':>8}"
    )
    for e in data["entrants"]:
        interval = (f"{figure(e['ci95'][0], signed=True)} .. {figure(e['ci95'][1], signed=True)}"
                    if e["ci95"] is not None else "-")
        lines.append(
            f"{e['label']:<{width}}{figure(e['mean_points'], signed=True):>9}{interval:>20}"
            f"{percent(e['win_rate']):>10}{percent(e['self_draw_rate']):>11}"
            f"{percent(e['deal_in_rate']):>9}{figure(e['mean_fans']):>10}{e['elo']:>8.1f}"
        )
    if run_info["out"] is not None:
        saved = [f"{run_info['out']}/results.json", f"{run_info['out']}/hands.jsonl"]
        if run_info["plot"] is not None:
            saved.append(run_info["plot"])
        lines += ["", "saved " + ", ".join(saved)]
    return "\n".join(lines)


__all__ = ["add_parser", "render", "run"]
