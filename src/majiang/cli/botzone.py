"""``majiang botzone``: Botzone's Chinese Standard Mahjong bots and majiang's, both ways.

* ``bot``: a majiang bot as a Botzone program (requests on stdin, responses on stdout);
* ``wall``: the ``walltiles`` of a seeded majiang hand (Botzone's judge plays it as the
  four-part table of that seed does);
* ``play``: hands with Botzone programs in some seats and majiang bots in the others, on
  the judge's four-part wall (or the older judge's single wall);
* ``replay`` / ``export``: Botzone match logs through the engine, and hands as such logs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import OptionError
from ..rules.registry import botzone_rules, make_rules, rules_options
from ..tiles import tile_name
from .command import add_command, add_option_argument
from .inputs import read_text
from .options import option_values

_WINDS = "ESWN"
_LAYOUTS = ("four_part", "single_end", "two_ended")


def add_parser(commands: Any) -> None:
    """Register ``botzone`` and its actions."""
    p = commands.add_parser(
        "botzone",
        help="Botzone compatibility: majiang bots as Botzone programs, Botzone bots at tables",
        description="Botzone's Chinese Standard Mahjong protocol (docs/botzone.md).",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True

    bot = add_command(actions, "bot", run_bot, run_bot.__doc__)
    bot.add_argument("--bot", default="fan", help="the majiang bot (fan, efficient, random)")
    bot.add_argument("--io", choices=("json", "simple"), default="json", help="turn format")
    bot.add_argument("--keep-running", action="store_true", help="Botzone's long-running mode")
    bot.add_argument("--seed", type=int, default=0, help="the bot's seed (0)")

    wall = add_command(actions, "wall", run_wall, run_wall.__doc__)
    wall.add_argument("--seed", type=int, required=True, metavar="S", help="the hand's seed")
    wall.add_argument("--deal", action="store_true", help="also print the deal, in notation")
    wall.add_argument("--flowers", action="store_true", help="a wall of 144 tiles, flowers too")
    wall.add_argument(
        "--layout", choices=_LAYOUTS, default="four_part",
        help="four_part: the current judge (default); single_end: the older judge's single "
        "wall; two_ended: the older judge dealing the hands of majiang's two-ended table of "
        "SEED, the same until the first kong",
    )
    wall.add_argument("--two-ended", action="store_true", help="the same as --layout two_ended")

    replay = add_command(actions, "replay", run_replay, run_replay.__doc__)
    replay.add_argument("log", metavar="LOG", help="the match log (JSON)")
    replay.add_argument("--layout", choices=_LAYOUTS[:2], default="four_part",
                        help="the judge's wall: four_part (today's) or single_end (the older)")

    dataset = add_command(actions, "dataset", run_dataset, run_dataset.__doc__)
    dataset.add_argument("file", metavar="FILE", help="the games (plain text)")
    dataset.add_argument("--limit", type=int, metavar="N", help="the first N games only")

    export = add_command(actions, "export", run_export, run_export.__doc__)
    export.add_argument("record", metavar="RECORD", help="the hand's record (JSON lines)")

    play = add_command(actions, "play", run_play, run_play.__doc__)
    play.add_argument("--seat", action="append", default=[], metavar="SPEC", help="a seat")
    play.add_argument("--fill", default="fan", metavar="BOT", help="the other seats (fan)")
    play.add_argument("--hands", type=int, default=1, metavar="N", help="hands to play (1)")
    play.add_argument("--seed", type=int, default=0, metavar="S", help="the run's seed (0)")
    play.add_argument("--walltiles", metavar="TEXT", help="play this Botzone wall (one hand)")
    play.add_argument("--walltiles-file", metavar="PATH", help="read the walltiles from a file")
    play.add_argument("--quan", choices=list(_WINDS), default="E", help="prevalent wind (E)")
    play.add_argument("--layout", choices=_LAYOUTS[:2], default="four_part",
                      help="the wall: four_part (the current judge) or single_end (the older)")
    play.add_argument(
        "--time-limit", type=float, default=1.0, metavar="SECONDS",
        help="per Botzone turn; a game's first turn gets twice as long (1)",
    )
    play.add_argument("--io", choices=("json", "simple"), default="json",
                      help="turn format of botzone: seats without /json or /simple")
    play.add_argument("--keep-running", action="store_true",
                      help="long-running botzone: seats (as /keep)")
    add_option_argument(play, "rule option, repeatable")
    play.add_argument("--records", metavar="DIR", help="save every hand's record in DIR")
    play.add_argument("--json", action="store_true", help="print JSON")


def run_bot(args: argparse.Namespace) -> int:
    """``majiang botzone bot``: run a majiang bot as a Botzone program (stdin -> stdout)

    Reads one Botzone turn on stdin (JSON or simple I/O) and prints the response; with
    --keep-running it prints Botzone's keep-running line after each response and answers the
    following requests, one line each, until stdin ends.
    """
    from ..bots import check_bot, make_bot
    from ..botzone import BotzoneBot, run

    check_bot(args.bot, botzone_rules(), heavy=True)
    run(BotzoneBot(make_bot(args.bot, args.seed)), sys.stdin, sys.stdout, args.io,
        args.keep_running)
    return 0


def run_wall(args: argparse.Namespace) -> int:
    """``majiang botzone wall``: print the walltiles of a seeded majiang hand

    Prints Botzone's walltiles (136 tile names, 144 with --flowers): the wall of the hand of
    SEED, which Botzone's judge deals and draws exactly as majiang's four-part table of that
    seed (dealer 0) does, kongs included (docs/botzone.md).
    """
    from ..botzone import botzone_deal, seeded_wall, to_walltiles

    layout = "two_ended" if args.two_ended else args.layout
    walltiles = to_walltiles(seeded_wall(args.seed, flowers=args.flowers), layout=layout)
    print(walltiles)
    if args.deal:
        hands, flowers, first = botzone_deal(
            walltiles, "four_part" if layout == "four_part" else "single_end"
        )
        for player in range(4):
            tiles = "".join(tile_name(t) for t in sorted(hands[player]))
            extra = "".join(tile_name(t) for t in flowers[player])
            print(f"player {player} ({_WINDS[player]}): {tiles}{' + ' + extra if extra else ''}")
        print(f"player 0 draws: {' '.join(tile_name(t) for t in first)}")
    return 0


def run_play(args: argparse.Namespace) -> int:
    """``majiang botzone play``: play hands with Botzone programs and majiang bots

    Seats 0-3 from --seat (repeatable; the others play --fill). A seat is a majiang bot name or
    botzone[/json|/simple][/keep]:COMMAND. Hands are played on the judge's four-part wall of
    136 tiles (--option flowers=on for 144, --layout single_end for the older judge's wall);
    Botzone's scoring (botzone_scoring) is on unless --option botzone_scoring=off. Walltiles of
    136 tiles play without flowers, of 144 with them.
    """
    from ..botzone import (
        BotzoneAgent,
        agent_from_spec,
        from_walltiles,
        play_hand,
        to_walltiles,
        walltiles_flowers,
    )
    from ..engine.record import save_record
    from ..engine.table import Table
    from ..sim import derive_seed

    if not 1 <= len(args.seat) <= 4:
        raise OptionError("give one to four --seat specs (the other seats play --fill)")
    if args.hands < 1:
        raise OptionError(f"--hands must be at least 1, not {args.hands}")
    if args.time_limit <= 0:
        raise OptionError(f"--time-limit must be positive, not {args.time_limit:g}")
    walltiles = args.walltiles
    if args.walltiles_file:
        walltiles = read_text(args.walltiles_file)
    wall = from_walltiles(walltiles, layout=args.layout) if walltiles is not None else None
    if wall is not None and args.hands != 1:
        raise OptionError("a walltiles wall is one hand: --hands 1")
    options: dict[str, Any] = {"botzone_scoring": "on", "flowers": "off"}
    options.update(option_values(args.option))
    if walltiles is not None:
        flowers = walltiles_flowers(walltiles)
        given = options.get("flowers")
        if "flowers" in option_values(args.option) and make_rules(
            botzone_rules(), {"flowers": given}
        ).options.flowers != flowers:
            raise OptionError(
                f"--option flowers={given} contradicts the walltiles "
                f"({len(walltiles.split())} tiles)"
            )
        options["flowers"] = flowers
    rules = make_rules(botzone_rules(), options)
    specs = [*args.seat, *[args.fill] * (4 - len(args.seat))]
    agents = [
        agent_from_spec(spec, seat, args.time_limit, seed=derive_seed(args.seed, "seat", seat),
                        io=args.io, keep_running=args.keep_running)
        for seat, spec in enumerate(specs)
    ]
    if args.records:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    hands: list[dict[str, Any]] = []
    totals = [0, 0, 0, 0]
    try:
        for i in range(args.hands):
            seed = derive_seed(args.seed, "hand", i)
            dealer, prevalent = (0, _WINDS.index(args.quan)) if wall else (i % 4, (i // 4) % 4)
            table = Table(rules, seed, dealer=dealer, prevalent_wind=prevalent, wall=wall,
                          layout=args.layout)
            hand_walltiles = to_walltiles(table.wall.tiles, layout=args.layout)
            hand = play_hand(table, agents)
            totals = [t + d for t, d in zip(totals, hand.deltas, strict=True)]
            data = {"hand": i + 1, "seed": seed, "dealer": dealer, "prevalent_wind": prevalent,
                    "walltiles": hand_walltiles, **hand.to_json()}
            hands.append(data)
            if args.records:
                save_record(table, Path(args.records) / f"hand-{i + 1:04d}.jsonl")
            if not args.json:
                print(_describe(data))
    finally:
        for agent in agents:
            if isinstance(agent, BotzoneAgent):
                agent.close()
    players = [{"seat": s, "player": specs[s], "points": totals[s]} for s in range(4)]
    if args.json:
        print(json.dumps({"options": rules_options(rules), "hands": hands, "players": players},
                         ensure_ascii=False, indent=2))
    else:
        print()
        print(f"{'seat':<6}{'points':>8}  player")
        for p in players:
            print(f"{p['seat']:<6}{p['points']:>+8}  {p['player']}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``majiang botzone replay``: replay a Botzone match log through the engine

    Reads a Botzone match log of Chinese Standard Mahjong (the JSON of a match: initdata with
    walltiles, every turn's requests and answers, the judge's finish), deals its wall and plays
    the logged answers: every request must be the judge's, every answer is checked as the judge
    checks it, and the end, fans and scores must be the judge's. Exit status 1 at the first
    divergence (docs/botzone.md).
    """
    from ..botzone import BotzoneError
    from ..botzone.logs import read_log, replay_log

    try:
        data = json.loads(read_text(args.log))
    except OSError as error:
        raise BotzoneError(f"cannot read {args.log}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise BotzoneError(f"{args.log} is not JSON: {error}") from None
    log = read_log(data)
    replay = replay_log(log, args.layout)
    print(f"{args.log}: {replay.turns} turns; the judge: {replay.ending}")
    if replay.divergence is not None:
        print(f"diverges at {replay.divergence}")
        return 1
    for fault in replay.faults:
        print(f"  {fault}")
    print("majiang agrees: every request, every answer, the end"
          + ("" if log.end_fault else " and the scores"))
    return 0


def run_dataset(args: argparse.Namespace) -> int:
    """``majiang botzone dataset``: replay games of the contest dataset's plain-text format

    Replays each game of FILE (the contest dataset's format: Match, Wind, four Deal lines, one
    line per action with Ignore for overridden claims, Fan and Score or Huang) on the judge's
    four-part wall, and says per game whether every action was legal and the fans and scores
    match. Exit status 1 if one does not.
    """
    from itertools import islice

    from ..botzone.dataset import read_dataset, replay_game

    games = read_dataset(read_text(args.file))
    if args.limit is not None:
        games = islice(games, max(args.limit, 0))
    total = agree = 0
    for game in games:
        problem = replay_game(game)
        total += 1
        agree += problem is None
        print(f"Match {game.match}: {problem or 'every action legal, fans and scores match'}")
    print(f"{total} game{'' if total == 1 else 's'}: {agree} agree{'s' if agree == 1 else ''}")
    return 0 if agree == total else 1


def run_export(args: argparse.Namespace) -> int:
    """``majiang botzone export``: write a hand's record as a Botzone match log

    Replays RECORD (a hand of a four-part or single-ended table, as majiang botzone play
    --records writes them) and prints it as a Botzone match log: initdata with walltiles, every
    turn's requests and answers, the judge's finish.
    """
    from ..botzone.logs import export_log
    from ..engine.record import load_record, replay

    table = replay(load_record(args.record))
    print(json.dumps(export_log(table), ensure_ascii=False))
    return 0


def _describe(data: dict[str, Any]) -> str:
    result = data["result"]
    head = (f"hand {data['hand']} (dealer {data['dealer']}, prevalent "
            f"{_WINDS[data['prevalent_wind']]}): ")
    if result["winner"] is None:
        head += "exhaustive draw"
    else:
        how = "self-drawn" if result["self_drawn"] else f"on seat {result['discarder']}'s tile"
        head += f"seat {result['winner']} wins {how}, {result['points']} fans"
    lines = [head + "; deltas " + " ".join(f"{d:+d}" for d in data["deltas"])]
    for fault in data["faults"]:
        charged = ", -30" if fault["charged"] else ""
        lines.append(f"  seat {fault['seat']} {fault['verdict']} ({fault['kind']}) at "
                     f"{fault['request']!r}: {fault['detail']}{charged}")
    for item in data["adjusted"]:
        lines.append(f"  seat {item['seat']} {item['move']}")
    return "\n".join(lines)


__all__ = ["add_parser", "run_bot", "run_export", "run_play", "run_replay", "run_wall"]
