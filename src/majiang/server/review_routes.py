"""HTTP routes of a finished hand's review: ``POST /hands/{id}/review?seat=N`` starts it (or
finds it done), ``GET`` says where it stands and, once done, gives it.

Who may ask: once the match is over, anyone, for any seat; while the match is still played,
only the seat's own player, with the seat's token in the ``X-Seat-Token`` header (a review
shows the seat's tiles at each decision). The work runs in :class:`~.reviews.ReviewQueue`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Header, HTTPException, Path, Query, Request, Response

from .models import HandRow, MatchRow, Room
from .records import hand_record
from .reviews import (
    QueueFull,
    ReviewQueue,
    ReviewSettings,
    TooManyReviews,
    cached,
    done_status,
    status,
)
from .store import Store, token_matches

TOKEN_HEADER = "X-Seat-Token"


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The server's review queue, for as long as it runs (``app.state.review_settings``, when
    set before the start, say how much work a review gets)."""
    settings = getattr(app.state, "review_settings", None) or ReviewSettings()
    queue = app.state.reviews = ReviewQueue(app.state.store, settings)
    try:
        yield
    finally:
        queue.close()


router = APIRouter(tags=["review"], lifespan=_lifespan)


def _hand_id() -> Any:
    return Path(ge=1, lt=2**63)


def _seat(text: str | None) -> int:
    if text is None:
        raise HTTPException(422, "say which seat to review: ?seat=0-3")
    try:
        seat = int(text)
    except ValueError:
        raise HTTPException(422, f"{text!r} is not a seat number (0-3)") from None
    if seat not in range(4):
        raise HTTPException(422, f"seat {seat} is out of range: seats are 0-3")
    return seat


def _allowed(store: Store, hand_id: int, seat: int, token: str | None) -> None:
    """Refuse (404, 409, 403) unless the hand is finished and the asker may see the seat's
    review."""
    with store.session() as session:
        hand = session.get(HandRow, hand_id)
        if hand is None:
            raise HTTPException(404, f"no hand {hand_id}")
        if hand.result is None:
            raise HTTPException(409, f"hand {hand_id} is not finished: a review needs its end")
        match_row = session.get(MatchRow, hand.match_id)
        room = session.get(Room, match_row.room_id) if match_row is not None else None
        if room is None:
            raise HTTPException(404, f"no hand {hand_id}")
        if room.status == "finished":
            return
        row = room.seats[seat] if seat < len(room.seats) else None
        if token and row is not None and token_matches(token, row.token_hash):
            return
        raise HTTPException(
            403, f"the match of hand {hand_id} is still being played: only seat {seat}'s own "
                 f"player may see its review (with the seat's token in {TOKEN_HEADER})")


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


@router.post("/hands/{hand_id}/review", status_code=202)
def start_review(
    request: Request,
    response: Response,
    hand_id: int = _hand_id(),
    seat: str | None = Query(None, description="the seat to review, 0-3"),
    token: str | None = Header(None, alias=TOKEN_HEADER),
) -> dict[str, Any]:
    """Start the review of ``seat``'s decisions in a finished hand (202), or give it if it is
    done (200). Refused with 429 when the address already has reviews waiting, 503 when the
    server's queue is full (both with ``Retry-After``)."""
    store: Store = request.app.state.store
    number = _seat(seat)
    _allowed(store, hand_id, number, token)
    queue: ReviewQueue = request.app.state.reviews
    found = queue.find(hand_id, number)  # before the database: see review_status
    if found is not None and found["status"] != "failed":
        return found
    result = cached(store, hand_id, number)
    if result is not None:
        response.status_code = 200
        return done_status(hand_id, number, result)
    records = hand_record(store, hand_id)
    assert records is not None  # the hand is finished
    try:
        return queue.submit(hand_id, number, [records], _address(request))
    except TooManyReviews as error:
        raise HTTPException(429, f"your address has {error.args[0]} reviews waiting or running, "
                                 "the most it may have: wait for one to finish",
                            headers={"Retry-After": "30"}) from None
    except QueueFull as error:
        raise HTTPException(503, f"the server has {error.args[0]} reviews waiting, the most it "
                                 "takes: try again later", headers={"Retry-After": "60"}) from None


@router.get("/hands/{hand_id}/review")
def review_status(
    request: Request,
    hand_id: int = _hand_id(),
    seat: str | None = Query(None, description="the seat reviewed, 0-3"),
    token: str | None = Header(None, alias=TOKEN_HEADER),
) -> dict[str, Any]:
    """Where the review of ``seat`` in the hand stands: ``none`` (never asked), ``queued``
    (``ahead``: reviews before it), ``running`` (``progress``: the share of decisions
    reviewed), ``done`` (with ``result``, as ``majiang review --json`` prints it) or
    ``failed`` (with ``error``)."""
    store: Store = request.app.state.store
    number = _seat(seat)
    _allowed(store, hand_id, number, token)
    # The queue first: a review leaves it only once its result is stored, so a review that
    # ends between the two looks is found in the database (asked the other way round, it could
    # be in neither and be told "none").
    queue: ReviewQueue = request.app.state.reviews
    found = queue.find(hand_id, number)
    if found is not None and found["status"] != "failed":
        return found
    result = cached(store, hand_id, number)
    if result is not None:
        return done_status(hand_id, number, result)
    return found if found is not None else status(hand_id, number, "none")


__all__ = ["TOKEN_HEADER", "router"]
