"""HTTP routes of the organiser's tools: score sheets for tables of people and MCR tournaments.

``/organiser`` is the page (static files ``organiser*.js``, ``tournament.js``); the JSON API is
under ``/organiser/api``. Reading is open to everyone (a sheet or a tournament is public by its
code); a change needs the secret token given once when the sheet or the tournament was made,
sent as the ``X-Organiser-Token`` header. Bodies are JSON objects of at most 64 KB. The work runs
in a worker thread, so that seating a large round never holds up the tables being played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse
from starlette.concurrency import run_in_threadpool

from ..errors import MajiangError
from ..organiser.sheet import rule_facts
from ..rules.registry import make_rules
from . import organiser_store as org
from .store import Store
from .web import STATIC_DIR, rule_sets

MAX_BODY = 64 * 1024
TOKEN_HEADER = "X-Organiser-Token"

router = APIRouter(prefix="/organiser", tags=["organiser"])


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _token(request: Request) -> str | None:
    return request.headers.get(TOKEN_HEADER) or None


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of the request, refused past ``MAX_BODY`` bytes without reading more."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"the body is larger than {MAX_BODY // 1024} KB")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(422, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(422, "the body must be a JSON object")
    return data


async def _run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a store function in a worker thread; its errors become HTTP answers."""
    try:
        return await run_in_threadpool(fn, *args, **kwargs)
    except org.NotFound as error:
        raise HTTPException(404, str(error)) from None
    except org.Forbidden as error:
        raise HTTPException(403, str(error)) from None
    except org.Conflict as error:
        raise HTTPException(409, str(error)) from None
    except MajiangError as error:
        raise HTTPException(422, str(error)) from None


async def _change(request: Request, fn: Callable[..., Any], code: str, *args: Any,
                  **kwargs: Any) -> dict[str, Any]:
    """Run a store function changing ``code`` with the request's token; the view it returns."""
    result: dict[str, Any] = await _run(fn, _store(request), code, _token(request), *args,
                                        **kwargs)
    return result


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HTTPException(422, f"{name} must be a whole number, not {value!r}")
    return value


def _maybe_int(data: dict[str, Any], name: str) -> int | None:
    return None if data.get(name) is None else _int(data, name)


# ---------------------------------------------------------------------------- the page


@router.get("", include_in_schema=False)
def page() -> FileResponse:
    """The organiser's page (score sheets, tournaments, public standings, print views)."""
    return FileResponse(STATIC_DIR / "organiser.html", headers={"Cache-Control": "no-cache"})


@router.get("/api/rules")
def sheet_rules() -> list[dict[str, Any]]:
    """Each rule set with its options and what a score sheet offers for it."""
    return [{**info, "sheet": rule_facts(make_rules(info["name"]))} for info in rule_sets()]


# ---------------------------------------------------------------------------- score sheets


@router.post("/api/games", status_code=201)
async def create_game(request: Request) -> dict[str, Any]:
    """A new score sheet: ``rules``, ``names`` (four, seats in turn order), ``options``,
    ``stake``, ``hands`` or ``rounds``, ``first_dealer``. The token is shown only here."""
    store = _store(request)
    code, token = await _run(org.new_game, store, await _body(request))
    return {"code": code, "token": token, "game": await _run(org.game_view, store, code)}


@router.get("/api/games/{code}")
async def get_game(
    request: Request,
    code: str,
    kind: str | None = Query(None, pattern="^(win|self_drawn|deal_in|draw|false_win)$"),
    seat: int | None = Query(None, ge=0, le=3),
) -> dict[str, Any]:
    """A sheet: settings, every entry as settled, totals, the next hand, summaries; ``kind``
    and ``seat`` filter the entries."""
    result: dict[str, Any] = await _run(org.game_view, _store(request), code, kind=kind,
                                        seat=seat)
    return result


@router.get("/api/games/{code}/access", status_code=204)
async def game_access(request: Request, code: str) -> Response:
    """204 when the token opens the sheet for changes, 403 otherwise."""
    await _run(org.check_game_token, _store(request), code, _token(request))
    return Response(status_code=204)


@router.post("/api/games/{code}/preview")
async def preview(request: Request, code: str) -> dict[str, Any]:
    """What ``entry`` would record (``replace``: in place of an entry id; ``before``: inserted
    before one), with the same checks and token as saving, and nothing saved."""
    data = await _body(request)
    return await _change(
        request, org.preview_entry, code,
        data.get("entry"), replace=_maybe_int(data, "replace"), before=_maybe_int(data, "before"),
    )


@router.post("/api/games/{code}/entries", status_code=201)
async def add_entry(request: Request, code: str) -> dict[str, Any]:
    """Record ``entry`` at the end (or ``before`` an entry id); ``version`` guards against a
    change made meanwhile."""
    data = await _body(request)
    return await _change(
        request, org.add_entry, code,
        data.get("entry"), before=_maybe_int(data, "before"), version=_maybe_int(data, "version"),
    )


@router.put("/api/games/{code}/entries/{entry_id}")
async def correct_entry(request: Request, code: str, entry_id: int) -> dict[str, Any]:
    """Correct an entry; every later hand is recomputed."""
    data = await _body(request)
    return await _change(
        request, org.correct_entry, code,
        entry_id, data.get("entry"), version=_maybe_int(data, "version"),
    )


@router.delete("/api/games/{code}/entries/{entry_id}")
async def delete_entry(request: Request, code: str, entry_id: int) -> dict[str, Any]:
    """Delete an entry (kept in the history); every later hand is recomputed."""
    return await _change(request, org.delete_entry, code, entry_id)


@router.get("/api/games/{code}/history")
async def game_history(request: Request, code: str) -> list[dict[str, Any]]:
    """Every change made to the sheet's entries, oldest first."""
    result: list[dict[str, Any]] = await _run(org.revisions, _store(request), code)
    return result


@router.get("/api/games/{code}/export.csv")
async def export_csv(request: Request, code: str) -> Response:
    """The sheet as CSV, one row per entry."""
    text = await _run(org.export_game, _store(request), code, "csv")
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="sheet-{code.upper()}.csv"'})


@router.get("/api/games/{code}/export.json")
async def export_json(request: Request, code: str) -> Response:
    """The whole sheet as JSON (entries as entered, every line settled)."""
    data = await _run(org.export_game, _store(request), code, "json")
    return Response(json.dumps(data, ensure_ascii=False, indent=1),
                    media_type="application/json", headers={
                        "Content-Disposition": f'attachment; filename="sheet-{code.upper()}.json"'})


# ---------------------------------------------------------------------------- tournaments


@router.post("/api/tournaments", status_code=201)
async def create_tournament(request: Request) -> dict[str, Any]:
    """A new tournament: ``name``, ``rounds``, ``seed`` (optional), ``fill`` (substitutes or
    byes), ``penalties_before_table_points``. The organiser's token is shown only here."""
    store = _store(request)
    code, token = await _run(org.new_tournament, store, await _body(request))
    view = await _run(org.tournament_view, store, code, token=token)
    return {"code": code, "token": token, "tournament": view}


@router.get("/api/tournaments/{code}")
async def get_tournament(request: Request, code: str,
                         after: int | None = Query(None, ge=1)) -> dict[str, Any]:
    """The tournament: players, seated rounds with results, the standings (after round
    ``after``), penalties and the seating report; with the token, the organiser's view."""
    result: dict[str, Any] = await _run(org.tournament_view, _store(request), code,
                                        token=_token(request), through=after)
    return result


@router.get("/api/tournaments/{code}/version")
async def tournament_version(request: Request, code: str) -> dict[str, int]:
    """The change counter that the live standings page polls."""
    return {"version": await _run(org.tournament_version, _store(request), code)}


@router.get("/api/tournaments/{code}/standings.csv")
async def standings_csv(request: Request, code: str,
                        after: int | None = Query(None, ge=1)) -> Response:
    """The standings as CSV (after round ``after``)."""
    text = await _run(org.standings_csv, _store(request), code, after)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="standings-{code.upper()}.csv"'})


@router.post("/api/tournaments/{code}/players", status_code=201)
async def add_player(request: Request, code: str) -> dict[str, Any]:
    """Register a player: ``name``, ``substitute``."""
    data = await _body(request)
    return await _change(
        request, org.add_player, code, data.get("name"), data.get("substitute", False),
    )


@router.post("/api/tournaments/{code}/players/{number}/withdraw")
async def withdraw(request: Request, code: str, number: int) -> dict[str, Any]:
    """Withdraw a player from the rounds not seated yet (``withdrawn: false`` brings him
    back)."""
    data = await _body(request)
    return await _change(
        request, org.set_withdrawn, code, number, data.get("withdrawn", True) is not False,
    )


@router.post("/api/tournaments/{code}/rounds", status_code=201)
async def seat_round(request: Request, code: str) -> dict[str, Any]:
    """Seat the next round (deterministic for the tournament's seed)."""
    return await _change(request, org.seat_round, code)


@router.delete("/api/tournaments/{code}/rounds/{number}")
async def unseat_round(request: Request, code: str, number: int) -> dict[str, Any]:
    """Take the last round back (before any result)."""
    return await _change(request, org.unseat_round, code, number)


@router.post("/api/tournaments/{code}/rounds/{number}/swap")
async def swap(request: Request, code: str, number: int) -> dict[str, Any]:
    """Exchange the places of players ``a`` and ``b`` in a round."""
    data = await _body(request)
    return await _change(request, org.swap_players, code, number, _int(data, "a"), _int(data, "b"))


@router.put("/api/tournaments/{code}/rounds/{number}/tables/{table}/result")
async def set_result(request: Request, code: str, number: int, table: int) -> dict[str, Any]:
    """A table's final ``scores`` (four, by wind), or ``from_sheet: true`` to take its score
    sheet's totals."""
    data = await _body(request)
    return await _change(
        request, org.set_result, code,
        number, table - 1, data.get("scores"), data.get("from_sheet") is True,
    )


@router.delete("/api/tournaments/{code}/rounds/{number}/tables/{table}/result")
async def delete_result(request: Request, code: str, number: int, table: int) -> dict[str, Any]:
    """Take a table's result back."""
    return await _change(request, org.delete_result, code, number, table - 1)


@router.post("/api/tournaments/{code}/rounds/{number}/tables/{table}/sheet")
async def table_sheet(request: Request, code: str, number: int, table: int) -> dict[str, Any]:
    """The score sheet of a table (made on first use; the tournament's token opens it)."""
    return await _change(request, org.table_sheet, code, number, table - 1)


@router.post("/api/tournaments/{code}/penalties", status_code=201)
async def add_penalty(request: Request, code: str) -> dict[str, Any]:
    """Deduct ``points`` from ``player`` in ``round``, for ``reason``."""
    data = await _body(request)
    return await _change(
        request, org.add_penalty, code,
        _int(data, "round"), _int(data, "player"), data.get("points"), data.get("reason"),
    )


@router.delete("/api/tournaments/{code}/penalties/{penalty_id}")
async def delete_penalty(request: Request, code: str, penalty_id: int) -> dict[str, Any]:
    """Take a penalty back."""
    return await _change(request, org.delete_penalty, code, penalty_id)


__all__ = ["TOKEN_HEADER", "router"]
