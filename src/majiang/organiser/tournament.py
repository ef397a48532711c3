"""An MCR tournament: players, rounds of tables of four, results, penalties, standings.

A :class:`Tournament` is a snapshot (the server builds it from the database); its methods check
what an organiser asks and return what to store, raising :class:`~majiang.errors.MajiangError`
with the reason otherwise. Who plays a round: every registered player who has not withdrawn.
When they are not a multiple of four, registered substitutes fill the missing seats (those who
have played fewest rounds first); with ``fill="byes"`` as many players sit out instead (those with
the fewest byes first), each bye worth the mean table points, 1.75, and a score of 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MajiangError
from .ranking import PlayedTable, Player, Standing, standings
from .seating import Seating, choose_byes, history_of, report, seat_tables, swap

FILLS = ("substitutes", "byes")
MAX_PLAYERS = 400
MAX_ROUNDS = 20
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """The tournament's fixed facts."""

    name: str
    rounds: int
    seed: int
    fill: str = "substitutes"
    penalties_before_table_points: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form (the seed is public: seatings are published anyway)."""
        return {"name": self.name, "rounds": self.rounds, "seed": self.seed, "fill": self.fill,
                "penalties_before_table_points": self.penalties_before_table_points}


def tournament_settings(
    name: str, rounds: int, seed: int, *, fill: str = "substitutes",
    penalties_before_table_points: bool = False,
) -> TournamentSettings:
    """Checked settings."""
    clean = player_name(name, "the tournament's name", 80)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise MajiangError(f"a tournament has 1 to {MAX_ROUNDS} rounds, not {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise MajiangError(f"the seed must be a whole number from 0 to 2^62, not {seed!r}")
    if fill not in FILLS:
        raise MajiangError(f"fill must be one of {', '.join(FILLS)}, not {fill!r}")
    if not isinstance(penalties_before_table_points, bool):
        raise MajiangError("penalties_before_table_points must be true or false")
    return TournamentSettings(clean, rounds, seed, fill, penalties_before_table_points)


def player_name(name: Any, what: str = "a player's name", limit: int = MAX_NAME) -> str:
    """A trimmed name of 1 to ``limit`` characters."""
    if not isinstance(name, str) or not name.strip():
        raise MajiangError(f"{what} is empty")
    if len(name.strip()) > limit:
        raise MajiangError(f"{what} is too long (at most {limit} characters)")
    return name.strip()


@dataclass(frozen=True, slots=True)
class Penalty:
    """Points deducted from a player's score in a round, and why."""

    id: int
    round: int
    player: int
    points: int
    reason: str


@dataclass(slots=True)
class Tournament:
    """Everything recorded so far."""

    settings: TournamentSettings
    players: list[Player] = field(default_factory=list)
    seatings: list[Seating] = field(default_factory=list)
    results: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)
    """Final scores by (round, table index), in the table's wind order."""
    penalties: list[Penalty] = field(default_factory=list)

    # ------------------------------------------------------------------ players

    def names(self) -> dict[int, str]:
        """Player names by id."""
        return {p.id: p.name for p in self.players}

    def player(self, player_id: int) -> Player:
        """A player by id."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise MajiangError(f"no player {player_id} in this tournament")

    def check_new_player(self, name: str, substitute: bool) -> str:
        """The name of a player who may register."""
        clean = player_name(name)
        if len(self.players) >= MAX_PLAYERS:
            raise MajiangError(f"a tournament has at most {MAX_PLAYERS} players")
        if any(p.name.casefold() == clean.casefold() for p in self.players):
            raise MajiangError(f"{clean} is registered already: give each player his own name")
        if not isinstance(substitute, bool):
            raise MajiangError("substitute must be true or false")
        return clean

    # ------------------------------------------------------------------ rounds

    def seating(self, round_number: int) -> Seating:
        """A seated round."""
        for s in self.seatings:
            if s.round == round_number:
                return s
        raise MajiangError(f"round {round_number} is not seated")

    def round_complete(self, round_number: int) -> bool:
        """Every table of the round has its result."""
        s = self.seating(round_number)
        return all((round_number, t) in self.results for t in range(len(s.tables)))

    def next_seating(self) -> Seating:
        """The seating of the next round, from the seed and every earlier round."""
        number = len(self.seatings) + 1
        if number > self.settings.rounds:
            raise MajiangError(f"all {self.settings.rounds} rounds are seated")
        regular = [p.id for p in self.players if not p.withdrawn and not p.substitute]
        missing = -len(regular) % 4
        history = history_of(self.seatings)
        byes: tuple[int, ...] = ()
        playing = list(regular)
        if missing and self.settings.fill == "substitutes":
            subs = sorted((p for p in self.players if p.substitute and not p.withdrawn),
                          key=lambda p: (history.played.get(p.id, 0), p.id))
            if len(subs) < missing:
                raise MajiangError(
                    f"{len(regular)} players need {missing} substitute"
                    f"{'s' if missing > 1 else ''} to make tables of four; "
                    f"{len(subs)} registered (or seat with byes)"
                )
            playing += [p.id for p in subs[:missing]]
        elif missing:
            byes = choose_byes(regular, 4 - missing, history, self.settings.seed, number)
            playing = [p for p in regular if p not in byes]
        if len(playing) < 4:
            raise MajiangError("a round needs at least four players")
        tables = seat_tables(playing, history, self.settings.seed, number)
        return Seating(number, tables, byes)

    def check_unseat(self, round_number: int) -> None:
        """Only the last round, with no result yet, may be taken back (and seated anew)."""
        if not self.seatings or self.seatings[-1].round != round_number:
            raise MajiangError("only the last seated round can be taken back")
        if any(r == round_number for r, _ in self.results):
            raise MajiangError(f"round {round_number} has results: delete them first")

    def check_swap(self, round_number: int, a: int, b: int) -> Seating:
        """The round with two players' places exchanged, or a player of the round replaced by
        one who has no place in it (a substitute for a withdrawn player); refused at a table
        whose result is in."""
        seating = self.seating(round_number)
        if a == b:
            raise MajiangError("choose two different players")
        in_round = {}
        for player in (a, b):
            self.player(player)
            place = seating.seat_of(player)
            if place is not None and (round_number, place[0]) in self.results:
                raise MajiangError(
                    f"table {place[0] + 1} of round {round_number} has its result: delete it "
                    "before moving its players"
                )
            in_round[player] = place is not None or player in seating.byes
        if in_round[a] and in_round[b]:
            return swap(seating, a, b)
        if not in_round[a] and not in_round[b]:
            raise MajiangError(f"neither player has a place in round {round_number}")
        seated, outsider = (a, b) if in_round[a] else (b, a)
        if self.player(outsider).withdrawn:
            raise MajiangError(f"{self.player(outsider).name} has withdrawn")
        return _replace(seating, seated, outsider)

    # ------------------------------------------------------------------ results

    def check_result(
        self, round_number: int, table: int, scores: Sequence[Any]
    ) -> tuple[int, int, int, int]:
        """Four final scores for a seated table, in its wind order; they sum to zero (every
        payment of a game passes between its players; penalties are kept apart)."""
        seating = self.seating(round_number)
        if isinstance(table, bool) or not isinstance(table, int) or not 0 <= table < len(
            seating.tables
        ):
            raise MajiangError(f"round {round_number} has tables 1-{len(seating.tables)}")
        if not isinstance(scores, Sequence) or len(scores) != 4:
            raise MajiangError("give four final scores, East South West North")
        out = []
        for wind, score in zip("ESWN", scores, strict=True):
            if isinstance(score, bool) or not isinstance(score, int) or abs(score) > 1_000_000:
                raise MajiangError(f"{wind}'s score must be a whole number, not {score!r}")
            out.append(score)
        if sum(out) != 0:
            raise MajiangError(f"the four scores sum to {sum(out)}, not 0: check them")
        return (out[0], out[1], out[2], out[3])

    def check_penalty(self, round_number: int, player: int, points: int, reason: str) -> str:
        """A penalty for a player of a seated round: points deducted (1-10000) and a reason."""
        self.seating(round_number)
        self.player(player)
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= 10_000:
            raise MajiangError(f"a penalty deducts 1 to 10000 points, not {points!r}")
        return player_name(reason, "the penalty's reason", 120)

    # ------------------------------------------------------------------ standings

    def standings(self, through: int | None = None) -> list[Standing]:
        """The standings after round ``through`` (None: everything recorded)."""
        last = through if through is not None else self.settings.rounds
        played = []
        for (round_number, table), scores in self.results.items():
            if round_number <= last:
                seats = self.seating(round_number).tables[table]
                played.append(PlayedTable(round_number, table, seats, (scores[0], scores[1],
                                                                       scores[2], scores[3])))
        byes = [(s.round, p) for s in self.seatings if s.round <= last and self.round_complete(
            s.round) for p in s.byes]
        deducted: dict[tuple[int, int], int] = {}
        for penalty in self.penalties:
            if penalty.round <= last:
                key = (penalty.round, penalty.player)
                deducted[key] = deducted.get(key, 0) + penalty.points
        return standings(self.players, played, deducted, byes,
                         penalties_before_table_points=self.settings.penalties_before_table_points)

    def report(self) -> dict[str, Any]:
        """The seating report of every seated round."""
        return report(self.seatings, self.names())


def _replace(seating: Seating, old: int, new: int) -> Seating:
    """The seating with ``old`` replaced by a player who has no place in it."""
    tables = tuple(
        (t[0] if t[0] != old else new, t[1] if t[1] != old else new,
         t[2] if t[2] != old else new, t[3] if t[3] != old else new)
        for t in seating.tables
    )
    byes = tuple(sorted(new if p == old else p for p in seating.byes))
    return Seating(seating.round, tables, byes)


def seating_json(seating: Seating, names: Mapping[int, str],
                 results: Mapping[tuple[int, int], Sequence[int]]) -> dict[str, Any]:
    """A round for clients: tables with players by wind and their result when in."""
    return {
        "round": seating.round,
        "tables": [
            {
                "table": t + 1,
                "players": [{"id": p, "name": names[p]} for p in table],
                "scores": list(results[(seating.round, t)]) if (seating.round, t) in results
                else None,
            }
            for t, table in enumerate(seating.tables)
        ],
        "byes": [{"id": p, "name": names[p]} for p in seating.byes],
    }


__all__ = [
    "FILLS",
    "MAX_PLAYERS",
    "Penalty",
    "Player",
    "Tournament",
    "TournamentSettings",
    "player_name",
    "seating_json",
    "tournament_settings",
]
