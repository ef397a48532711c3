"""``majiang sheet``: keep the score sheet of a game at a real table

A score sheet for four people at a real table, on the game server's database: the rule set scores
the tiles written down (or checks the count said at the table) and settles every hand; corrections
recompute the totals and are kept.

The same sheets as the browser's (``/organiser``), on the same database: ``new`` starts one,
``play`` asks for each hand in turn (winner, discard or self-draw, the tiles, the fans or the
total, and what the rule set needs) and shows the payments before saving, ``show`` prints it,
``export`` writes CSV or JSON. Whoever can open the database may change its sheets, so the
terminal asks for no token.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ..errors import MajiangError
from ..extras import require_extra
from ..rules.registry import DEFAULT_RULES, RULE_SETS
from ..tiles import WIND_LETTERS
from .command import add_command, add_option_argument
from .database import opening

WINDS = ("East", "South", "West", "North")
PROMPT_HELP = (
    "w win · d draw · f false win · e N edit entry N · x N delete entry N · l list · "
    "s summaries · h changes · q quit"
)


def add_parser(commands: Any) -> None:
    """Register ``sheet`` on the sub-command parser."""
    p = add_command(commands, "sheet", run, __doc__)
    p.add_argument("--db", default="sqlite:///majiang.db", metavar="URL",
                   help="database URL (sqlite:///majiang.db), the server's")
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    new = actions.add_parser("new", help="start a sheet: four names, the rules, the length")
    new.add_argument("names", metavar="NAMES", help="the four players in turn order: A,B,C,D")
    new.add_argument("--rules", default=DEFAULT_RULES,
                     help=f"rule set ({', '.join(RULE_SETS)}; {DEFAULT_RULES})")
    new.add_argument("--hands", type=int, default=None, metavar="N", help="hands (gb: 16)")
    new.add_argument("--rounds", type=int, default=None, metavar="N",
                     help="rounds of the deal instead of hands")
    new.add_argument("--stake", type=int, default=1, metavar="N", help="stake (1)")
    new.add_argument("--first-dealer", type=int, default=0, metavar="SEAT",
                     help="the seat 0-3 that deals first (0)")
    add_option_argument(new)
    new.add_argument("--play", action="store_true", help="then enter the hands (as play)")
    new.add_argument("--db", default=argparse.SUPPRESS, metavar="URL", help="database URL")
    for name, text in (("play", "enter hands, corrections and deletions"),
                       ("show", "print the sheet"), ("export", "write it as CSV or JSON")):
        sub = actions.add_parser(name, help=text)
        sub.add_argument("code", metavar="CODE", help="the sheet's code")
        if name == "export":
            sub.add_argument("--format", choices=("csv", "json"), default="csv")
        sub.add_argument("--db", default=argparse.SUPPRESS, metavar="URL", help="database URL")


def run(args: argparse.Namespace) -> int:
    """Run ``majiang sheet``."""
    require_extra("server", "majiang sheet")
    from ..server import organiser_store as org
    from ..server.store import Store

    with opening(args.db):
        store = Store(args.db)
    try:
        if args.action == "new":
            from .options import option_values

            code, token = org.new_game(store, {
                "rules": args.rules, "names": [n.strip() for n in args.names.split(",")],
                "hands": args.hands, "rounds": args.rounds, "stake": args.stake,
                "first_dealer": args.first_dealer, "options": option_values(args.option),
            })
            print(f"sheet {code} ({args.names}); token {token} (shown once: the browser asks "
                  "for it to change the sheet)")
            if not args.play:
                return 0
            args.code = code
        elif args.action == "export":
            data = org.export_game(store, args.code, args.format)
            sys.stdout.write(data if isinstance(data, str) else json.dumps(data,
                                                                           ensure_ascii=False))
            return 0
        game = org.game_view(store, args.code)
        if args.action == "show":
            print_sheet(game, sys.stdout)
            return 0
        return Session(store, game["code"], sys.stdin, sys.stdout).loop()
    except org.NotFound as error:
        raise MajiangError(str(error)) from None
    finally:
        # the pooled connections go first: with one of them open, SQLite's last checkpoint in
        # Store.close waits out its busy timeout (5 s) after a write
        store.engine.dispose()
        store.close()


# ---------------------------------------------------------------------------- printing


def who(game: dict[str, Any], seat: int, winds: list[int] | None) -> str:
    """A seat's name with its wind in a hand."""
    name = game["settings"]["names"][seat]
    return f"{name} ({WIND_LETTERS[winds[seat]]})" if winds else name


def describe(game: dict[str, Any], line: dict[str, Any]) -> str:
    """One settled line in words."""
    winds = line["seat_winds"]
    if line["kind"] == "draw":
        text = "draw"
    elif line["kind"] == "false_win":
        text = f"false win by {who(game, line['winner'], winds)}"
    elif line["discarder"] is None:
        text = f"{who(game, line['winner'], winds)} wins, self-drawn, {line['points']}"
    else:
        text = (f"{who(game, line['winner'], winds)} wins on "
                f"{who(game, line['discarder'], winds)}'s discard, {line['points']}")
    fans = line["detail"].get("fans") or []
    if fans:
        text += " (" + ", ".join(
            f"{f['en']} {f['points']}" + (f" x{f['count']}" if f["count"] > 1 else "")
            for f in fans) + ")"
    if line["entry"].get("gunner"):
        text += ", gunner"
    if line["message"] and line["kind"] == "false_win" and line["entry"]["kind"] == "win":
        text += f" [{line['message']}]"
    return text


def payments(game: dict[str, Any], line: dict[str, Any]) -> str:
    """Each seat's payment and running total."""
    parts = []
    for seat in range(4):
        delta = line["deltas"][seat]
        parts.append(f"{game['settings']['names'][seat]} {delta:+d} ({line['totals'][seat]})")
    if any(line["bullets"]):
        parts.append("bullets " + " ".join(f"{b:+d}" for b in line["bullets"]))
    return "  ".join(parts)


def status(game: dict[str, Any]) -> str:
    """Where the game stands."""
    spec = game["next_hand"]
    if spec is None:
        head = f"sheet {game['code']}: game over after {game['hands_played']} hands"
        winds = None
    else:
        winds = spec["seat_winds"]
        head = (f"sheet {game['code']}: hand {spec['number']}, {WINDS[spec['prevalent_wind']]} "
                f"round, dealer {who(game, spec['dealer'], winds)}")
        if spec["dealer_count"] > 1:
            head += f" ({spec['dealer_count']} in a row)"
    totals = "  ".join(f"{who(game, s, winds)} {game['totals'][s]}" for s in range(4))
    if any(game["bullets"]):
        totals += "  bullets " + " ".join(str(b) for b in game["bullets"])
    return f"{head}\n  {totals}"


def print_sheet(game: dict[str, Any], out: TextIO) -> None:
    """The whole sheet: status, every entry, summaries."""
    out.write(status(game) + "\n")
    for number, line in enumerate(game["entries"], start=1):
        hand = line["hand"]
        out.write(f"{number:3d}. {WIND_LETTERS[hand['prevalent_wind']]}{hand['number']:<3d}"
                  f"{describe(game, line)}\n      {payments(game, line)}\n")
    out.write("player  wins  self-drawn  deal-ins  false wins  mean  total\n")
    for s in game["summaries"]:
        mean = "-" if s["mean_points"] is None else f"{s['mean_points']:g}"
        out.write(f"{s['name']:<8}{s['wins']:>4}{s['self_drawn']:>12}{s['deal_ins']:>10}"
                  f"{s['false_wins']:>12}{mean:>6}{s['total']:>7}\n")


# ---------------------------------------------------------------------------- the session


class Quit(Exception):
    """The person typed q, or the input ended."""


class Session:
    """Questions and answers, one entry at a time; a bad answer is said and asked again."""

    def __init__(self, store: Any, code: str, source: TextIO, out: TextIO) -> None:
        from ..server import organiser_store as org

        self.org = org
        self.store = store
        self.code = code
        self.source = source
        self.out = out
        self.game = org.game_view(store, code)

    def ask(self, question: str, default: str = "") -> str:
        self.out.write(f"{question}{f' [{default}]' if default else ''}: ")
        self.out.flush()
        line = self.source.readline()
        if not line:
            self.out.write("\n")
            raise Quit
        answer = line.strip()
        if answer.lower() in ("q", "quit"):
            raise Quit
        return answer or default

    def error(self, message: str) -> None:
        self.out.write(f"majiang: error: {message}\n")

    def number(self, question: str, default: str, what: str) -> int:
        """Ask until the answer is a whole number."""
        while True:
            try:
                return _number(self.ask(question, default), what)
            except MajiangError as error:
                self.error(str(error))

    def choice(self, question: str, default: str, letters: str) -> str:
        """Ask until the answer starts with one of ``letters``."""
        while True:
            answer = self.ask(question, default).lower()[:1]
            if answer and answer in letters:
                return answer
            self.error(f"answer one of {', '.join(letters)}")

    def seat(self, question: str, *, self_drawn: bool = False, exclude: int | None = None,
             default: str = "") -> int | None:
        """Ask for a seat by number or name (``s`` for self-drawn where offered)."""
        names = self.game["settings"]["names"]
        choices = ", ".join(f"{i} {n}" for i, n in enumerate(names) if i != exclude)
        while True:
            answer = self.ask(f"{question} ({choices}{', s self-drawn' if self_drawn else ''})",
                              default)
            if self_drawn and answer.lower() in ("s", "self", "self-drawn"):
                return None
            found = [i for i, n in enumerate(names) if answer == str(i)
                     or answer.casefold() == n.casefold()]
            if found and found[0] != exclude:
                return found[0]
            self.error(f"{answer!r} is none of the seats offered")

    def name(self, seat: Any) -> str:
        """A seat's name for a default answer ("" for none)."""
        names = self.game["settings"]["names"]
        return names[seat] if isinstance(seat, int) and 0 <= seat < 4 else ""

    def entry(self, kind: str, old: dict[str, Any] | None = None) -> dict[str, Any]:
        """The questions for one entry; ``old`` gives the defaults of a correction."""
        facts = self.game["facts"]
        old = old or {}
        entry: dict[str, Any] = {"kind": kind}
        if facts["throw_limit"]:
            thrown = self.number(f"bullets thrown by the dealer before this hand (0-"
                                 f"{facts['throw_limit']})", str(old.get("throw", 0)),
                                 "the bullets thrown")
            if thrown:
                entry["throw"] = thrown
                accepted = self.ask("seats that accepted them (e.g. 1,3)",
                                    ",".join(str(s) for s in old.get("accepted", [])))
                entry["accepted"] = [_number(x, "a seat") for x in accepted.split(",") if x]
        if kind == "false_win":
            entry["seat"] = self.seat("who declared the false win",
                                      default=self.name(old.get("seat")))
        if kind != "win":
            return self.note(entry, old)
        entry["winner"] = winner = self.seat("winner", default=self.name(old.get("winner")))
        discarder = old.get("discarder", -1)
        entry["discarder"] = self.seat(
            "won on whose discard", self_drawn=True, exclude=winner,
            default="s" if old and discarder is None else self.name(discarder))
        ways = "t tiles, " + ("f fans, " if facts["fans"] else "") + "p points"
        default = {"tiles": "t", "fans": "f"}.get(next((k for k in ("tiles", "fans")
                                                        if k in old), ""), "p" if old else "t")
        how = self.choice(f"count by ({ways})", default, "tfp" if facts["fans"] else "tp")
        if how == "t":
            entry["tiles"] = self.ask("tiles (the notation, the winning tile last)",
                                      str(old.get("tiles", "")))
            while True:
                flags = self.ask(f"situation ({', '.join(facts['win_flags'])}; blank for none)",
                                 ",".join(f for f in facts["win_flags"] if old.get(f)))
                given = [f.strip() for f in flags.split(",") if f.strip()]
                wrong = [f for f in given if f not in facts["win_flags"]]
                if not wrong:
                    break
                self.error(f"{wrong[0]!r} is no situation: answer "
                           f"{', '.join(facts['win_flags'])} or nothing")
            for flag in given:
                entry[flag] = True
        elif how == "f" and facts["fans"]:
            picked = self.ask("fans by number, with a count if more than one (e.g. 28, 62, 73x2)",
                              ", ".join(f"{k}x{v}" if v > 1 else k
                                        for k, v in old.get("fans", {}).items()))
            entry["fans"] = _fans(picked)
        else:
            label = "the total" if facts["losers_count"] else "fans without flowers"
            entry["points"] = self.number(label, str(old.get("points", "")), label)
        if facts["flowers"]:
            flowers = self.number("flowers (not written in the tiles)",
                                  str(old.get("flowers", 0)), "the flowers")
            if flowers:
                entry["flowers"] = flowers
        if facts["indicator_tiles"]:
            wild = self.ask("the 得 indicator (wild face; blank if the count is given)",
                            str(old.get("wild", "")))
            if wild:
                entry["wild"] = wild
        if facts["losers_count"]:
            losers: dict[str, Any] = {}
            for seat in range(4):
                if seat != winner:
                    value = self.ask(f"{self.game['settings']['names'][seat]}'s own count "
                                     "(a total, or the hand's tiles)",
                                     str(old.get("losers", {}).get(str(seat), "0")))
                    losers[str(seat)] = int(value) if value.isdigit() else value
            entry["losers"] = losers
        if facts["gunner"] and entry["discarder"] is not None:
            gunner = self.ask("is the discarder the gunner (点炮)? y/n",
                              "y" if old.get("gunner") else "n")
            if gunner.lower().startswith("y"):
                entry["gunner"] = True
        return self.note(entry, old)

    def note(self, entry: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
        note = self.ask("note (blank for none)", str(old.get("note", "")))
        if note:
            entry["note"] = note
        return entry

    def confirm(self, entry: dict[str, Any], *, replace: int | None = None) -> bool:
        preview = self.org.preview_entry(self.store, self.code, None, entry, replace=replace,
                                         trusted=True)
        line = preview["line"]
        self.out.write(f"-> {describe(self.game, line)}\n   {payments(self.game, line)}\n")
        if line["message"]:
            self.out.write(f"   {line['message']}\n")
        return not self.ask("save? y/n", "y").lower().startswith("n")

    def pick_entry(self, argument: str) -> dict[str, Any]:
        entries = self.game["entries"]
        number = _number(argument, "the entry's number")
        if not 1 <= number <= len(entries):
            raise MajiangError(f"there is no entry {number} (1-{len(entries)})")
        line: dict[str, Any] = entries[number - 1]
        return line

    def command(self, text: str) -> None:
        org = self.org
        word, _, argument = text.partition(" ")
        word = word.lower()
        if word in ("w", "win", "d", "draw", "f", "false"):
            if self.game["next_hand"] is None:
                raise MajiangError("the game is over: every hand is recorded")
            kind = {"w": "win", "d": "draw", "f": "false_win"}[word[0]]
            entry = self.entry(kind)
            if self.confirm(entry):
                self.game = org.add_entry(self.store, self.code, None, entry, trusted=True)
                self.out.write("saved.\n")
        elif word in ("e", "edit"):
            line = self.pick_entry(argument)
            old = line["entry"]
            kind = self.choice("result (w win, d draw, f false win)",
                               {"win": "w", "draw": "d", "false_win": "f"}[old["kind"]], "wdf")
            entry = self.entry({"w": "win", "d": "draw", "f": "false_win"}.get(kind, "win"), old)
            if self.confirm(entry, replace=line["id"]):
                self.game = org.correct_entry(self.store, self.code, None, line["id"], entry,
                                              trusted=True)
                self.out.write("corrected; every later hand recomputed.\n")
        elif word in ("x", "delete"):
            line = self.pick_entry(argument)
            if self.ask(f"delete entry {argument} ({describe(self.game, line)})? y/n",
                        "n").lower().startswith("y"):
                self.game = org.delete_entry(self.store, self.code, None, line["id"],
                                             trusted=True)
                self.out.write("deleted.\n")
        elif word in ("l", "list"):
            print_sheet(self.game, self.out)
        elif word in ("s", "summary"):
            print_sheet({**self.game, "entries": []}, self.out)
        elif word in ("h", "history"):
            for change in org.revisions(self.store, self.code):
                self.out.write(f"{change['at'][:19]} {change['action']}: "
                               f"{json.dumps(change['after'] or change['before'])}\n")
        else:
            raise MajiangError(f"unknown command {text!r}: {PROMPT_HELP}")

    def loop(self) -> int:
        self.out.write(status(self.game) + "\n" + PROMPT_HELP + "\n")
        while True:
            try:
                text = self.ask("command")
                if not text:
                    continue
                self.command(text)
                self.out.write(status(self.game) + "\n")
            except Quit:
                return 0
            except MajiangError as error:
                self.error(str(error))


def _number(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise MajiangError(f"{what} must be a whole number, not {text!r}") from None


def _fans(text: str) -> dict[str, int]:
    picked: dict[str, int] = {}
    for part in (p.strip() for p in text.replace(";", ",").split(",") if p.strip()):
        fan, _, count = part.lower().partition("x")
        picked[str(_number(fan, "a fan number"))] = _number(count, "a count") if count else 1
    return picked


__all__ = ["add_parser", "print_sheet", "run"]
