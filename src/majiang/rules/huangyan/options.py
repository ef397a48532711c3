"""Run-time rule options of Huangyan (rules/huangyan.md §0.4), defaults as the spec recommends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...errors import OptionError
from ..info import RuleOptions, option, options_from
from .phase import TILES_AFTER_DEAL

DEALER_COUNT_SCOPES = ("every", "dealer", "dealer_wins")
"""A15 (a) every bullet payment, (b) payments between the dealer and another player, (c) only
when the dealer wins."""
GUNNER_TESTS = ("P1", "P2", "P3")
"""A17: P1 raw discard unless all raw and not ready; P2 only a discarder who is not ready; P3 any
won-on discard in the phase unless all raw and not ready."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer_count_scope": DEALER_COUNT_SCOPES,
    "gunner_test": GUNNER_TESTS,
}


@dataclass(frozen=True, slots=True)
class HuangyanOptions(RuleOptions):
    """Switches away from the spec's recommended readings; each names its section or A-item."""

    base_reward: int = option(
        20,
        "底和 (§4.4, A23): added to the winner's hu before doubling; 10 in other Taizhou sets."
    )
    limit: int = option(
        300,
        "辣子 (§4.4, A12): the cap of every total: 300 (the seed); 60, 80 or 100 in neighbouring "
        "clubs; 0 = no limit."
    )
    bullets: int = option(
        2,
        "B, bullets per hand agreed for the match (§4.6); 0 = no bullets. The examples use 2."
    )
    dealer_count_scope: str = option(
        "every",
        "A15: which bullet payments the dealer count multiplies: every / dealer / dealer_wins."
    )
    edge_wait_bonus: int = option(
        0,
        "A4: hu for 边 (3 completing 1-2-3, 7 completing 7-8-9); the alternative is 2."
    )
    single_wait_bonus: int = option(
        0,
        "A4: hu for 单吊 (the winning tile completes the pair); the alternative is 2."
    )
    all_pungs_bonus: int = option(
        0,
        "A5: hu for 对对和 (no chow at all); the client's value is 4."
    )
    kong_bloom_bonus: int = option(
        0,
        "A6: hu for 杠上花 (self-drawn on a kong replacement): 0 (the seed); 4 (the public "
        "client's default)."
    )
    restored_fan_per_hand: bool = option(
        False,
        'A8: one fan for restored 得 per hand (the seed\'s table: "una vez") instead of one per '
        "restored tile (the seed's definition, the default)."
    )
    wild_self_draw_only: bool = option(
        False,
        "A 得 standing for another tile wins only by self-draw: on a discard or a robbed kong "
        "only readings with every 得 restored count. Off: the seed (a 得 replaces any tile of a "
        "winning hand however it is won)."
    )
    full_flush_fan: int = option(
        3,
        "A10: fan of 清一色; the client's display table has 2."
    )
    no_wild_fan: int = option(
        1,
        "A10: fan of 无得; the client's display table has 2."
    )
    discard_pung_concealed: bool = option(
        False,
        "A7: a pung completed by the winning discard scores as concealed instead of exposed."
    )
    live_dragon_face: bool = option(
        False,
        "A3: a dragon wild face keeps its honour credit (no dead face)."
    )
    rob_kong: bool = option(
        True,
        "§2.5, A24: robbing an added kong is allowed (engine; the scorer refuses a robbed win)."
    )
    skipped_win_restriction: bool = option(
        False,
        "§2.4: 能和不和, a player who passes a win may not win again until he draws (engine)."
    )
    gunner_test: str = option(
        "P1",
        "A17: who pays for a raw tile won on in the raw-tile phase (点炮): P1 a raw discard, "
        "unless the hand was all raw and could not be ready (the default); P2 a raw discard by "
        "a discarder who is not ready; P3 any discard, unless all raw and not ready (the seed's "
        "first sentence read literally)."
    )
    draw_reserve: int = option(
        14,
        "§1.8, §2.7: tiles left when the wall is exhausted, T(0), plus the loose single after "
        "an odd number of replacement draws: 14 = 7 stacks (the seed); 16 = 8 stacks (Taizhou "
        "rule texts). An even number."
    )
    raw_phase_tiles: int = option(
        30,
        "§2.7: tiles left when the raw-tile phase starts, G(0), plus the loose single: 30 = 15 "
        "stacks (the seed); 0 = no raw-tile phase (and so never a gunner). An even number above "
        "``draw_reserve``, or 0."
    )
    throw_limit: int = option(
        5,
        '§3.4: the most bullets a dealer may throw before one hand (the seed says "at will"; '
        "the engine offers 0 to this many); 0 = no throwing phase (engine)."
    )

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name), type(f.default))
        reserve, raw = self.draw_reserve, self.raw_phase_tiles
        if reserve % 2 or reserve > TILES_AFTER_DEAL - 2:
            raise OptionError(
                f"option draw_reserve takes an even number of tiles from 0 to "
                f"{TILES_AFTER_DEAL - 2} (7 stacks = 14), not {reserve}"
            )
        if raw and (raw % 2 or raw <= reserve or raw > TILES_AFTER_DEAL):
            raise OptionError(
                f"option raw_phase_tiles takes 0 (no raw-tile phase) or an even number of tiles "
                f"above draw_reserve ({reserve}) and at most {TILES_AFTER_DEAL}, not {raw}"
            )

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> HuangyanOptions:
        """Options from names and values (strings such as ``"on"``, ``"2"``, ``"p2"`` accepted)."""
        return options_from(cls, values, DEFAULT_OPTIONS, "Huangyan", _coerce)

    @classmethod
    def choices(cls) -> dict[str, tuple[str, ...]]:
        """The values each option that takes one of a few names accepts."""
        return dict(_CHOICES)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values by name."""
        return {name: getattr(self, name) for name in self.names()}


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _check(name: str, value: Any, kind: type) -> None:
    """Raise OptionError unless ``value`` is a valid value of option ``name``."""
    if kind is bool:
        if not isinstance(value, bool):
            raise OptionError(f"option {name} takes on/off, not {value!r}")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {name} takes a whole number, not {value!r}")
        if value < 0:
            raise OptionError(f"option {name} must not be negative")
    elif value not in _CHOICES[name]:
        raise OptionError(
            f"option {name} takes one of {', '.join(_CHOICES[name])}, not {value!r}"
        )


def _coerce(name: str, raw: Any, kind: type) -> Any:
    """A value of option ``name`` from a native value or a string."""
    if kind is bool:
        if isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
            return raw.lower() in _TRUE
        return raw
    if kind is int:
        if isinstance(raw, str):
            try:
                return int(raw)
            except ValueError:
                raise OptionError(f"option {name} takes a whole number, not {raw!r}") from None
        return raw
    if isinstance(raw, str):
        for choice in _CHOICES[name]:
            if raw.strip().lower() == choice.lower():
                return choice
    return raw


DEFAULT_OPTIONS = HuangyanOptions()
