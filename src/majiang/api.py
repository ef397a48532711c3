"""The Python API: score a hand from its notation in one call.

>>> from majiang import score
>>> result = score("[WWWW,1][444s]45m678pFF6m")
>>> result.total, result.meets_minimum
(8, True)
"""

from __future__ import annotations

from typing import Any

from .errors import NotationError, OptionError, SituationError
from .hand import Hand, WinContext
from .notation import parse_hand
from .rules.guobiao.options import GuobiaoOptions
from .rules.guobiao.scoring import Score, score_hand
from .tiles import WIND_LETTERS


def _wind(value: str | int, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    if isinstance(value, str) and len(value) == 1 and value in WIND_LETTERS:
        return WIND_LETTERS.index(value)
    raise SituationError(f"{what} must be one of E, S, W, N, not {value!r}")


def make_context(
    *,
    self_drawn: bool = False,
    seat_wind: str | int = "E",
    prevalent_wind: str | int = "E",
    flowers: int = 0,
    last_tile: bool = False,
    kong: bool = False,
    fourth_tile: bool = False,
) -> WinContext:
    """A :class:`WinContext` from friendly values (winds as letters, flowers as a count)."""
    for name, value in (
        ("self_drawn", self_drawn),
        ("last_tile", last_tile),
        ("kong", kong),
        ("fourth_tile", fourth_tile),
    ):
        if not isinstance(value, bool):
            raise SituationError(f"{name} must be true or false, not {value!r}")
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise SituationError(f"flowers must be a whole number from 0 to 8, not {flowers!r}")
    return WinContext(
        self_drawn=self_drawn,
        seat_wind=_wind(seat_wind, "seat wind"),
        prevalent_wind=_wind(prevalent_wind, "prevalent wind"),
        last_tile=last_tile,
        kong=kong,
        fourth_tile=fourth_tile,
        extra_flowers=flowers,
    )


def score(
    hand: str | Hand,
    *,
    self_drawn: bool = False,
    seat_wind: str | int = "E",
    prevalent_wind: str | int = "E",
    flowers: int = 0,
    last_tile: bool = False,
    kong: bool = False,
    fourth_tile: bool = False,
    options: GuobiaoOptions | dict[str, Any] | None = None,
    explain: bool = False,
) -> Score:
    """Score a Guobiao winning hand.

    ``hand`` is the notation of ``rules/guobiao.md`` §1.2 (or a parsed :class:`Hand`); the last
    concealed tile is the winning tile. ``flowers`` adds flowers not written in the hand.
    ``options`` are the §6 rule options by name. Raises :class:`~majiang.errors.MajiangError`
    (a ``ValueError``) for bad input: :class:`~majiang.errors.NotationError`,
    :class:`~majiang.errors.NotWinningError`, :class:`~majiang.errors.SituationError`,
    :class:`~majiang.errors.OptionError`.
    """
    if isinstance(hand, Hand):
        parsed = hand
    elif isinstance(hand, str):
        parsed = parse_hand(hand, allowed_counts=(14,))
    else:
        raise NotationError(f"a hand must be a string or a Hand, not {type(hand).__name__}")
    context = make_context(
        self_drawn=self_drawn,
        seat_wind=seat_wind,
        prevalent_wind=prevalent_wind,
        flowers=flowers,
        last_tile=last_tile,
        kong=kong,
        fourth_tile=fourth_tile,
    )
    if not isinstance(options, GuobiaoOptions):
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"options must be a dict of names to values, not {options!r}")
        options = GuobiaoOptions.from_mapping(options)
    return score_hand(parsed, context, options, explain=explain)
