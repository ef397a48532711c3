"""Run-time rule options of Guobiao (``rules/guobiao.md`` §6), defaults as the spec says."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import OptionError
from ..info import RuleOptions, option, options_from


@dataclass(frozen=True, slots=True)
class GuobiaoOptions(RuleOptions):
    """Switches away from the default interpretation; each names the §6 item it changes."""

    mixed_kong_pair_5: bool = option(
        False,
        "D1: one exposed + one concealed kong scores 明暗杠 5 instead of 明杠 1 + 暗杠 2."
    )
    special_shapes_add_concealed_hand: bool = option(
        False,
        "D2: 七对, 连七对, 十三幺, 全不靠, 七星不靠 also score 门前清 on a discard (literal seed)."
    )
    all_terminals_excludes_triple_pung: bool = option(
        False,
        "D4: 清幺九 also excludes 三同刻 (the 'strict 1998' reading of 不计同刻)."
    )
    nine_gates_no_terminal_pung: bool = option(
        False,
        "D7: 九莲宝灯 excludes every 幺九刻, not just one."
    )
    strict_1998_seven_pairs: bool = option(
        False,
        "D9: 七对 cannot add the nine fans defined by pungs and pairs (绿一色 … 小于五)."
    )
    no_tile_hog_in_green_terminal_pairs: bool = option(
        False,
        "D10: no 四归一 in 绿一色 or 清幺九 seven pairs."
    )
    knitted_straight_no_edge_closed: bool = option(
        False,
        "D11: no 边张 / 坎张 with 组合龙."
    )
    false_win: bool = option(
        False,
        "D18: declaring a win under 8 fans is a false win (错和) instead of illegal."
    )
    false_win_penalty: int = option(
        10,
        "D18: what a false win costs, per other player, before the stake."
    )
    botzone_scoring: bool = option(
        False,
        "Botzone's one-hand scoring (docs/botzone.md): wins pay the §4.1 formula, which is "
        "Botzone's; a false win, and a Botzone program's fault, cost -30 / +10 to each other "
        "player (× stake) whatever ``false_win_penalty`` says."
    )

    flowers: bool = option(
        True,
        "§2.1: the wall holds the 8 flowers (one fan each, 花牌); off: the 136 tiles without "
        "them, as Botzone's ladder and contests and many clubs play."
    )

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> GuobiaoOptions:
        """Options from names and values (strings such as ``"on"``/``"1"`` are accepted)."""
        return options_from(cls, values, DEFAULT_OPTIONS, "Guobiao", _coerce)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce(name: str, raw: Any, kind: type) -> Any:
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
            return raw.lower() in _TRUE
        raise OptionError(f"option {name} takes on/off, not {raw!r}")
    if isinstance(raw, bool):
        raise OptionError(f"option {name} takes a whole number, not {raw!r}")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise OptionError(f"option {name} takes a whole number, not {raw!r}") from None
    if value < 0:
        raise OptionError(f"option {name} must not be negative")
    return value


DEFAULT_OPTIONS = GuobiaoOptions()
