"""The organiser's data on the server's database: score-sheet games and tournaments.

Each write reads the rows, lets :mod:`majiang.organiser` check and recompute everything, and
writes in one transaction, or nothing: a refused entry, a correction that would break a later
hand, a swap at a table with a result leave the database as it was. The browser's routes and
``majiang sheet`` share these functions. Secrets are tokens shown once and stored hashed, as the
server's seat tokens are; a game of a tournament's table also opens with the tournament's token.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..errors import MajiangError
from ..organiser.entries import Entry, EntryError, parse_entry
from ..organiser.export import sheet_csv, sheet_json
from ..organiser.ranking import points_text
from ..organiser.seating import Seating
from ..organiser.sheet import (
    GameSettings,
    SheetState,
    compute,
    game_settings,
    hand_json,
    rule_facts,
)
from ..organiser.summary import history, summaries
from ..organiser.tournament import (
    Penalty,
    Player,
    Tournament,
    TournamentSettings,
    seating_json,
    tournament_settings,
)
from ..rules.registry import DEFAULT_RULES
from .models import utc_now
from .organiser_models import (
    SheetEntry,
    SheetGame,
    SheetRevision,
    TournamentPenalty,
    TournamentPlayer,
    TournamentResult,
    TournamentRound,
    TournamentRow,
)
from .store import Store, new_code, new_token, token_hash, token_matches
from .web import rule_sets

MAX_OPEN_GAMES = 5000
"""Score sheets not finished that a server keeps at once (anyone may open one)."""
MAX_TOURNAMENTS = 500
MAX_REVISIONS = 2000
"""Changes kept per game (a sheet of 400 entries corrected five times over)."""
MAX_PENALTIES = 2000
GAP = 1024
"""Positions of entries are spaced so that one can be inserted before another."""


class NotFound(MajiangError):
    """No game or tournament with that code (HTTP 404)."""


class Forbidden(MajiangError):
    """The token is missing or wrong (HTTP 403)."""


class Conflict(MajiangError):
    """Someone else changed the data meanwhile, or the server is full (HTTP 409)."""


_WRITES = threading.Lock()
"""One writer at a time in this process (the version check catches other processes)."""


def _unique_code(session: Session, model: type[SheetGame] | type[TournamentRow]) -> str:
    while True:
        code = new_code()
        if session.scalars(select(model.id).where(model.code == code)).first() is None:
            return code


@contextmanager
def _writing(store: Store) -> Iterator[Session]:
    with _WRITES, store.session() as session:
        yield session


# ============================================================================ score sheets


def _settings_of(game: SheetGame) -> GameSettings:
    names = game.names
    return GameSettings(game.rules, (names[0], names[1], names[2], names[3]), game.options,
                        game.stake, game.hands, game.rounds, game.first_dealer)


_Coded = TypeVar("_Coded", SheetGame, TournamentRow)


def _by_code(session: Session, model: type[_Coded], code: str, what: str,
             lock: bool) -> _Coded:
    """The row of ``model`` with this code (any case; ``lock``: locked for update), or
    :class:`NotFound` naming ``what``."""
    query = select(model).where(model.code == code.upper())
    if lock:
        query = query.with_for_update()
    row = session.scalars(query).one_or_none()
    if row is None:
        raise NotFound(f"no {what} {code!r}")
    return row


def _game(session: Session, code: str, *, lock: bool = False) -> SheetGame:
    return _by_code(session, SheetGame, code, "score sheet", lock)


def _rows(session: Session, game: SheetGame) -> list[SheetEntry]:
    return list(session.scalars(
        select(SheetEntry)
        .where(SheetEntry.game_id == game.id, SheetEntry.deleted.is_(False))
        .order_by(SheetEntry.position)
    ))


def _authorize_game(session: Session, game: SheetGame, token: str | None,
                    trusted: bool = False) -> None:
    if trusted or (token and token_matches(token, game.token_hash)):
        return
    if token and game.tournament_id is not None:
        owner = session.get(TournamentRow, game.tournament_id)
        if owner is not None and token_matches(token, owner.token_hash):
            return
    raise Forbidden("this score sheet needs its token (or its tournament's) to be changed")


def create_game(
    store: Store,
    settings: GameSettings,
    *,
    tournament: TournamentRow | None = None,
    round_number: int | None = None,
    table: int | None = None,
    session: Session | None = None,
) -> tuple[str, str]:
    """A new game; returns its code and its token (shown once, stored hashed)."""
    token = new_token()

    def add(s: Session) -> str:
        open_games = s.scalar(select(func.count()).select_from(SheetGame)
                              .where(SheetGame.finished.is_(False))) or 0
        if open_games >= MAX_OPEN_GAMES:
            raise Conflict("this server keeps as many open score sheets as it can: finish some")
        code = _unique_code(s, SheetGame)
        s.add(SheetGame(
            code=code, token_hash=token_hash(token), rules=settings.rules,
            options=dict(settings.options), names=list(settings.names), stake=settings.stake,
            hands=settings.hands, rounds=settings.rounds, first_dealer=settings.first_dealer,
            tournament_id=tournament.id if tournament is not None else None,
            round=round_number, table=table, totals=[0, 0, 0, 0],
        ))
        s.flush()
        return code

    if session is not None:
        return add(session), token
    with _writing(store) as s:
        return add(s), token


def new_game(store: Store, data: dict[str, Any]) -> tuple[str, str]:
    """A game from the creation form's JSON (rules, names, options, stake, hands or rounds,
    first_dealer)."""
    settings = game_settings(
        data.get("rules", DEFAULT_RULES), data.get("names") or [],
        options=data.get("options") or {},
        stake=data.get("stake", 1), hands=data.get("hands"), rounds=data.get("rounds"),
        first_dealer=data.get("first_dealer", 0),
    )
    return create_game(store, settings)


_STATES: OrderedDict[tuple[str, str, int], tuple[SheetState, list[Entry]]] = OrderedDict()
"""The last sheets computed, by (code, creation time, version): a sheet read again (the public
page, the standings) is not settled again until it changes."""
_STATES_KEPT = 64
_STATES_LOCK = threading.Lock()


def _state(game: SheetGame, rows: list[SheetEntry]) -> tuple[SheetState, list[Entry]]:
    key = (game.code, game.created_at.isoformat(), game.version)
    with _STATES_LOCK:
        found = _STATES.get(key)
        if found is not None and len(found[1]) == len(rows):
            _STATES.move_to_end(key)
            return found
    entries = [parse_entry(row.data) for row in rows]
    state = compute(_settings_of(game), entries)
    with _STATES_LOCK:
        _STATES[key] = (state, entries)
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)
    return state, entries


def _view(session: Session, game: SheetGame, rows: list[SheetEntry], state: SheetState,
          kind: str | None = None, seat: int | None = None) -> dict[str, Any]:
    rules = _settings_of(game).rule_set()
    kept = {line.index for line in history(state.lines, kind, seat)}
    tournament = None
    if game.tournament_id is not None:
        owner = session.get(TournamentRow, game.tournament_id)
        if owner is not None:
            tournament = {"code": owner.code, "name": owner.name, "round": game.round,
                          "table": None if game.table is None else game.table + 1}
    next_hand = None
    if state.next_hand is not None:
        next_hand = {**hand_json(state.next_hand),
                     "seat_winds": state.seat_winds(state.next_hand)}
    title = next((r for r in rule_sets() if r["name"] == game.rules), None)
    return {
        "code": game.code,
        "version": game.version,
        "title": {"zh": title["zh"], "en": title["en"]} if title else None,
        "settings": _settings_of(game).to_json(),
        "facts": rule_facts(rules),
        "entries": [{"id": rows[line.index].id, **line.to_json(),
                     "seat_winds": state.seat_winds(line.hand)}
                    for line in state.lines if line.index in kept],
        "filtered": kind is not None or seat is not None,
        "totals": list(state.totals),
        "bullets": list(state.bullets),
        "hands_played": state.hands_played,
        "finished": state.finished,
        "next_hand": next_hand,
        "summaries": [s.to_json() for s in summaries(state)],
        "tournament": tournament,
        "created_at": game.created_at.isoformat(),
    }


def game_view(store: Store, code: str, *, kind: str | None = None,
              seat: int | None = None) -> dict[str, Any]:
    """A game as everyone may read it (filtered history when asked)."""
    with store.session() as session:
        game = _game(session, code)
        rows = _rows(session, game)
        state, _ = _state(game, rows)
        return _view(session, game, rows, state, kind, seat)


def _place(rows: list[SheetEntry], entry_id: int | None) -> int:
    """The index of an entry on the sheet."""
    for index, row in enumerate(rows):
        if row.id == entry_id:
            return index
    raise NotFound(f"no entry {entry_id} on this sheet")


def preview_entry(store: Store, code: str, token: str | None, data: Any, *,
                  replace: int | None = None, before: int | None = None,
                  trusted: bool = False) -> dict[str, Any]:
    """What an entry would record (its line, the totals after, the hand after), saving
    nothing; the same checks as saving it, and the same token."""
    entry = parse_entry(data)
    with store.session() as session:
        game = _game(session, code)
        _authorize_game(session, game, token, trusted)
        rows = _rows(session, game)
        entries = [parse_entry(row.data) for row in rows]
        index = _edit(entries, rows, entry, replace=replace, before=before)
        state = _checked(game, entries, index)
        line = state.lines[index]
        return {
            "line": {**line.to_json(), "seat_winds": state.seat_winds(line.hand)},
            "totals": list(state.totals),
            "next_hand": hand_json(state.next_hand) if state.next_hand else None,
        }


def _editable(session: Session, code: str, token: str | None,
              trusted: bool) -> tuple[SheetGame, list[SheetEntry], list[Entry]]:
    """The game locked for a change its token allows, its live rows and their entries."""
    game = _game(session, code, lock=True)
    _authorize_game(session, game, token, trusted)
    rows = _rows(session, game)
    return game, rows, [parse_entry(row.data) for row in rows]


def _edit(entries: list[Entry], rows: list[SheetEntry], entry: Entry, *,
          replace: int | None, before: int | None) -> int:
    """Put ``entry`` in the list (at the end, before an entry, or in place of one)."""
    if replace is not None:
        index = _place(rows, replace)
        entries[index] = entry
        return index
    if before is not None:
        index = _place(rows, before)
        entries.insert(index, entry)
        return index
    entries.append(entry)
    return len(entries) - 1


def _checked(game: SheetGame, entries: list[Entry], index: int | None) -> SheetState:
    """Recompute the sheet; an error in another entry than the one changed says so."""
    try:
        return compute(_settings_of(game), entries)
    except EntryError as error:
        if index is not None and error.index is not None and error.index != index:
            raise EntryError(
                f"this change would make entry {error.index + 1} impossible: {error}", error.index
            ) from None
        raise


def _save(session: Session, game: SheetGame, state: SheetState, version: int | None) -> None:
    if version is not None and version != game.version:
        raise Conflict("the sheet changed meanwhile: reload it and enter the change again")
    game.version += 1
    game.totals = list(state.totals)
    game.finished = state.finished
    game.updated_at = utc_now()


def _revision(session: Session, game: SheetGame, entry: SheetEntry, action: str,
              before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
    count = session.scalar(select(func.count()).select_from(SheetRevision)
                           .where(SheetRevision.game_id == game.id)) or 0
    if count >= MAX_REVISIONS:
        raise Conflict(f"this sheet has had {MAX_REVISIONS} changes: start a new one")
    session.add(SheetRevision(game_id=game.id, entry_id=entry.id, action=action, before=before,
                              after=after))


def add_entry(store: Store, code: str, token: str | None, data: Any, *,
              before: int | None = None, version: int | None = None,
              trusted: bool = False) -> dict[str, Any]:
    """Record an entry at the end of the sheet (or before another one); ``trusted``: asked
    by someone with the database itself (``majiang sheet``), no token needed."""
    entry = parse_entry(data)
    with _writing(store) as session:
        game, rows, entries = _editable(session, code, token, trusted)
        index = _edit(entries, rows, entry, replace=None, before=before)
        state = _checked(game, entries, index)
        position = _position(session, game, rows, index if before is not None else None)
        row = SheetEntry(game_id=game.id, position=position, data=entry.to_json())
        session.add(row)
        session.flush()
        _revision(session, game, row, "inserted" if before is not None else "added", None,
                  entry.to_json())
        _save(session, game, state, version)
        rows = _rows(session, game)
        return _view(session, game, rows, state)


def _position(session: Session, game: SheetGame, rows: list[SheetEntry],
              index: int | None) -> int:
    """A free position at the end, or just before ``rows[index]`` (spacing them out again
    when there is no gap left)."""
    every = list(session.scalars(select(SheetEntry).where(SheetEntry.game_id == game.id)
                                 .order_by(SheetEntry.position)))
    if index is None:
        return (every[-1].position + GAP) if every else GAP
    target = rows[index]
    earlier = [r.position for r in every if r.position < target.position]
    low = earlier[-1] if earlier else 0
    if target.position - low > 1:
        return (low + target.position) // 2
    # no room: move every entry to fresh positions far above the old ones, then retry
    top = every[-1].position + GAP
    for n, r in enumerate(every, start=1):
        r.position = top + n * GAP
    session.flush()
    return target.position - GAP // 2


def correct_entry(store: Store, code: str, token: str | None, entry_id: int, data: Any, *,
                  version: int | None = None, trusted: bool = False) -> dict[str, Any]:
    """Replace an entry; every later hand is recomputed (and must still stand)."""
    entry = parse_entry(data)
    with _writing(store) as session:
        game, rows, entries = _editable(session, code, token, trusted)
        index = _edit(entries, rows, entry, replace=entry_id, before=None)
        state = _checked(game, entries, index)
        row = rows[index]
        old = dict(row.data)
        row.data = entry.to_json()
        row.updated_at = utc_now()
        _revision(session, game, row, "corrected", old, entry.to_json())
        _save(session, game, state, version)
        return _view(session, game, rows, state)


def delete_entry(store: Store, code: str, token: str | None, entry_id: int, *,
                 version: int | None = None, trusted: bool = False) -> dict[str, Any]:
    """Delete an entry (kept, marked, in the history); every later hand is recomputed."""
    with _writing(store) as session:
        game, rows, entries = _editable(session, code, token, trusted)
        index = _place(rows, entry_id)
        del entries[index]
        try:
            state = compute(_settings_of(game), entries)
        except EntryError as error:
            raise EntryError(f"deleting it would make a later entry impossible: {error}",
                             error.index) from None
        row = rows.pop(index)
        row.deleted = True
        row.updated_at = utc_now()
        _revision(session, game, row, "deleted", dict(row.data), None)
        _save(session, game, state, version)
        return _view(session, game, rows, state)


def revisions(store: Store, code: str) -> list[dict[str, Any]]:
    """Every change to the game's entries, oldest first."""
    with store.session() as session:
        game = _game(session, code)
        return [
            {"id": r.id, "entry": r.entry_id, "action": r.action, "before": r.before,
             "after": r.after, "at": r.created_at.isoformat()}
            for r in session.scalars(select(SheetRevision)
                                     .where(SheetRevision.game_id == game.id)
                                     .order_by(SheetRevision.id))
        ]


def export_game(store: Store, code: str, kind: str) -> str | dict[str, Any]:
    """The sheet as CSV text or as a JSON document."""
    with store.session() as session:
        game = _game(session, code)
        state, entries = _state(game, _rows(session, game))
        if kind == "csv":
            return sheet_csv(state)
        return sheet_json(state, entries, game.code)


def check_game_token(store: Store, code: str, token: str | None) -> None:
    """Raise Forbidden unless the token opens this game."""
    with store.session() as session:
        _authorize_game(session, _game(session, code), token)


# ============================================================================ tournaments


def _tournament(session: Session, code: str, *, lock: bool = False) -> TournamentRow:
    return _by_code(session, TournamentRow, code, "tournament", lock)


def _authorize(row: TournamentRow, token: str | None) -> None:
    if not token or not token_matches(token, row.token_hash):
        raise Forbidden("the organiser's pages need the tournament's token")


def _snapshot(session: Session, row: TournamentRow) -> Tournament:
    settings = TournamentSettings(row.name, row.rounds, row.seed, row.fill,
                                  row.penalties_before_table_points)
    t = Tournament(settings)
    for p in session.scalars(select(TournamentPlayer)
                             .where(TournamentPlayer.tournament_id == row.id)
                             .order_by(TournamentPlayer.number)):
        t.players.append(Player(p.number, p.name, p.substitute, p.withdrawn))
    for r in session.scalars(select(TournamentRound).where(TournamentRound.tournament_id == row.id)
                             .order_by(TournamentRound.number)):
        t.seatings.append(Seating(r.number, tuple((a, b, c, d) for a, b, c, d in r.tables),
                                  tuple(r.byes)))
    for res in session.scalars(select(TournamentResult)
                               .where(TournamentResult.tournament_id == row.id)):
        s = res.scores
        t.results[(res.round, res.table)] = (s[0], s[1], s[2], s[3])
    for pen in session.scalars(select(TournamentPenalty)
                               .where(TournamentPenalty.tournament_id == row.id)
                               .order_by(TournamentPenalty.id)):
        t.penalties.append(Penalty(pen.id, pen.round, pen.player, pen.points, pen.reason))
    return t


def _touch(row: TournamentRow) -> None:
    row.version += 1
    row.updated_at = utc_now()


def new_tournament(store: Store, data: dict[str, Any]) -> tuple[str, str]:
    """A tournament from the creation form's JSON; returns its code and organiser token."""
    seed = data.get("seed")
    settings = tournament_settings(
        data.get("name", ""), data.get("rounds", 0),
        secrets.randbits(40) if seed is None else seed,
        fill=data.get("fill", "substitutes"),
        penalties_before_table_points=data.get("penalties_before_table_points", False),
    )
    token = new_token()
    with _writing(store) as session:
        count = session.scalar(select(func.count()).select_from(TournamentRow)) or 0
        if count >= MAX_TOURNAMENTS:
            raise Conflict("this server keeps as many tournaments as it can")
        code = _unique_code(session, TournamentRow)
        session.add(TournamentRow(
            code=code, token_hash=token_hash(token), name=settings.name, rounds=settings.rounds,
            seed=settings.seed, fill=settings.fill,
            penalties_before_table_points=settings.penalties_before_table_points,
        ))
    return code, token


def _games_of(session: Session, row: TournamentRow) -> dict[tuple[int, int], str]:
    return {
        (g.round, g.table): g.code
        for g in session.scalars(select(SheetGame).where(SheetGame.tournament_id == row.id))
        if g.round is not None and g.table is not None
    }


def _tournament_view(session: Session, row: TournamentRow, t: Tournament, *,
                     organiser: bool, through: int | None) -> dict[str, Any]:
    names = t.names()
    games = _games_of(session, row)
    complete = [s.round for s in t.seatings if t.round_complete(s.round)]
    rounds = []
    for seating in t.seatings:
        view = seating_json(seating, names, t.results)
        for table in view["tables"]:
            table["sheet"] = games.get((seating.round, table["table"] - 1))
        view["complete"] = seating.round in complete
        rounds.append(view)
    out: dict[str, Any] = {
        "code": row.code,
        "name": row.name,
        "version": row.version,
        "settings": {k: v for k, v in t.settings.to_json().items()
                     if organiser or k != "seed"},
        "players": [{"id": p.id, "name": p.name, "substitute": p.substitute,
                     "withdrawn": p.withdrawn} for p in t.players],
        "rounds": rounds,
        "complete_rounds": complete,
        "after": through,
        "standings": [s.to_json() for s in t.standings(through)],
        "penalties": [{"id": p.id, "round": p.round, "player": p.player,
                       "name": names.get(p.player, "?"), "points": p.points, "reason": p.reason}
                      for p in t.penalties],
        "report": t.report(),
        "organiser": organiser,
    }
    return out


def tournament_view(store: Store, code: str, *, token: str | None = None,
                    through: int | None = None) -> dict[str, Any]:
    """The tournament as the public sees it (and the organiser, with his token)."""
    with store.session() as session:
        row = _tournament(session, code)
        organiser = bool(token) and token_matches(token or "", row.token_hash)
        if token and not organiser:
            raise Forbidden("that is not this tournament's token")
        return _tournament_view(session, row, _snapshot(session, row), organiser=organiser,
                                through=through)


def tournament_version(store: Store, code: str) -> int:
    """The change counter the live standings poll."""
    with store.session() as session:
        return _tournament(session, code).version


@contextmanager
def _organising(store: Store, code: str, token: str | None) -> Iterator[
    tuple[Session, TournamentRow, Tournament]
]:
    with _writing(store) as session:
        row = _tournament(session, code, lock=True)
        _authorize(row, token)
        _touch(row)
        yield session, row, _snapshot(session, row)


def _organiser_view(session: Session, row: TournamentRow) -> dict[str, Any]:
    session.flush()
    return _tournament_view(session, row, _snapshot(session, row), organiser=True, through=None)


def add_player(store: Store, code: str, token: str | None, name: Any,
               substitute: Any = False) -> dict[str, Any]:
    """Register a player (or a substitute)."""
    with _organising(store, code, token) as (session, row, t):
        clean = t.check_new_player(name, substitute)
        number = max((p.id for p in t.players), default=0) + 1
        session.add(TournamentPlayer(tournament_id=row.id, number=number, name=clean,
                                     substitute=substitute))
        return _organiser_view(session, row)


def set_withdrawn(store: Store, code: str, token: str | None, number: int,
                  withdrawn: bool) -> dict[str, Any]:
    """Withdraw a player from the rounds not seated yet (or bring him back)."""
    with _organising(store, code, token) as (session, row, t):
        t.player(number)
        player = session.scalars(select(TournamentPlayer).where(
            TournamentPlayer.tournament_id == row.id, TournamentPlayer.number == number)).one()
        player.withdrawn = bool(withdrawn)
        return _organiser_view(session, row)


def seat_round(store: Store, code: str, token: str | None) -> dict[str, Any]:
    """Seat the next round."""
    with _organising(store, code, token) as (session, row, t):
        seating = t.next_seating()
        session.add(TournamentRound(tournament_id=row.id, number=seating.round,
                                    tables=[list(x) for x in seating.tables],
                                    byes=list(seating.byes)))
        return _organiser_view(session, row)


def _round_row(session: Session, row: TournamentRow, number: int) -> TournamentRound:
    found = session.scalars(select(TournamentRound).where(
        TournamentRound.tournament_id == row.id, TournamentRound.number == number)).one_or_none()
    if found is None:
        raise NotFound(f"round {number} is not seated")
    return found


def unseat_round(store: Store, code: str, token: str | None, number: int) -> dict[str, Any]:
    """Take back the last round (no result in yet), to seat it again."""
    with _organising(store, code, token) as (session, row, t):
        t.check_unseat(number)
        for game in session.scalars(select(SheetGame).where(
                SheetGame.tournament_id == row.id, SheetGame.round == number)):
            if game.version:
                raise MajiangError(f"round {number} has score sheets with entries")
            game.tournament_id, game.round, game.table = None, None, None
            game.finished = True
        session.delete(_round_row(session, row, number))
        return _organiser_view(session, row)


def swap_players(store: Store, code: str, token: str | None, number: int, a: int,
                 b: int) -> dict[str, Any]:
    """Exchange two players' places in a round (or put one who has none in another's)."""
    with _organising(store, code, token) as (session, row, t):
        seating = t.check_swap(number, a, b)
        games = _games_of(session, row)
        for table, (old, new) in enumerate(zip(t.seating(number).tables, seating.tables,
                                                strict=True)):
            if old != new and (number, table) in games:
                raise MajiangError(
                    f"table {table + 1} of round {number} has a score sheet: its players are set"
                )
        found = _round_row(session, row, number)
        found.tables = [list(x) for x in seating.tables]
        found.byes = list(seating.byes)
        return _organiser_view(session, row)


def set_result(store: Store, code: str, token: str | None, number: int, table: int,
               scores: Any = None, from_sheet: bool = False) -> dict[str, Any]:
    """A table's four final scores, given or taken from the table's score sheet."""
    with _organising(store, code, token) as (session, row, t):
        seating = t.seating(number)
        if not isinstance(table, int) or not 0 <= table < len(seating.tables):
            raise MajiangError(f"round {number} has tables 1-{len(seating.tables)}")
        game_id = None
        if from_sheet:
            code_of = _games_of(session, row).get((number, table))
            if code_of is None:
                raise MajiangError(f"table {table + 1} of round {number} has no score sheet")
            game = _game(session, code_of)
            state, _ = _state(game, _rows(session, game))
            if not state.lines:
                raise MajiangError("the table's score sheet has no entry yet")
            scores, game_id = list(state.totals), game.id
        checked = t.check_result(number, table, scores)
        found = session.scalars(select(TournamentResult).where(
            TournamentResult.tournament_id == row.id, TournamentResult.round == number,
            TournamentResult.table == table)).one_or_none()
        if found is None:
            session.add(TournamentResult(tournament_id=row.id, round=number, table=table,
                                         scores=list(checked), game_id=game_id))
        else:
            found.scores, found.game_id = list(checked), game_id
        return _organiser_view(session, row)


def delete_result(store: Store, code: str, token: str | None, number: int,
                  table: int) -> dict[str, Any]:
    """Take a table's result back."""
    with _organising(store, code, token) as (session, row, _t):
        found = session.scalars(select(TournamentResult).where(
            TournamentResult.tournament_id == row.id, TournamentResult.round == number,
            TournamentResult.table == table)).one_or_none()
        if found is None:
            raise NotFound(f"table {table + 1} of round {number} has no result")
        session.delete(found)
        return _organiser_view(session, row)


def table_sheet(store: Store, code: str, token: str | None, number: int,
                table: int) -> dict[str, Any]:
    """The score sheet of a table (created on first use, the players by wind, East dealing
    first); it opens with the tournament's token."""
    with _organising(store, code, token) as (session, row, t):
        seating = t.seating(number)
        if not isinstance(table, int) or not 0 <= table < len(seating.tables):
            raise MajiangError(f"round {number} has tables 1-{len(seating.tables)}")
        existing = _games_of(session, row).get((number, table))
        if existing is not None:
            return {"code": existing}
        names = t.names()
        settings = game_settings(DEFAULT_RULES, [names[p] for p in seating.tables[table]])
        game_code, _ = create_game(store, settings, tournament=row, round_number=number,
                                   table=table, session=session)
        return {"code": game_code}


def add_penalty(store: Store, code: str, token: str | None, number: int, player: int,
                points: Any, reason: Any) -> dict[str, Any]:
    """Deduct points from a player in a round."""
    with _organising(store, code, token) as (session, row, t):
        clean = t.check_penalty(number, player, points, reason)
        if len(t.penalties) >= MAX_PENALTIES:
            raise Conflict(f"a tournament keeps at most {MAX_PENALTIES} penalties")
        session.add(TournamentPenalty(tournament_id=row.id, round=number, player=player,
                                      points=points, reason=clean))
        return _organiser_view(session, row)


def delete_penalty(store: Store, code: str, token: str | None, penalty_id: int) -> dict[str, Any]:
    """Take a penalty back."""
    with _organising(store, code, token) as (session, row, _t):
        found = session.get(TournamentPenalty, penalty_id)
        if found is None or found.tournament_id != row.id:
            raise NotFound(f"no penalty {penalty_id} in this tournament")
        session.delete(found)
        return _organiser_view(session, row)


def standings_csv(store: Store, code: str, through: int | None = None) -> str:
    """The standings as CSV: rank, name, table points, score, penalties, then each round's
    table points and score."""
    import csv
    import io

    with store.session() as session:
        row = _tournament(session, code)
        t = _snapshot(session, row)
    rounds = [s.round for s in t.seatings if through is None or s.round <= through]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "name", "table points", "score", "penalties"]
                    + [f"round {r} {what}" for r in rounds for what in ("table points", "score")])
    for s in t.standings(through):
        by_round = {line.round: line for line in s.rounds}
        cells: list[Any] = [s.rank if s.rank is not None else "substitute", s.name,
                            points_text(s.table_points), s.score, s.penalties]
        for r in rounds:
            line = by_round.get(r)
            cells += ["", ""] if line is None else [points_text(line.table_points),
                                                     "bye" if line.table is None else line.score]
        writer.writerow(cells)
    return out.getvalue()


__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "add_entry",
    "add_penalty",
    "add_player",
    "check_game_token",
    "correct_entry",
    "create_game",
    "delete_entry",
    "delete_penalty",
    "delete_result",
    "export_game",
    "game_view",
    "new_game",
    "new_tournament",
    "preview_entry",
    "revisions",
    "seat_round",
    "set_result",
    "set_withdrawn",
    "standings_csv",
    "swap_players",
    "table_sheet",
    "tournament_version",
    "tournament_view",
    "unseat_round",
]
