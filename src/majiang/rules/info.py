"""How a rule set describes itself to the front ends: :class:`RuleSetDescription`.

Front ends (the CLI, the servers, the tables, the simulator) never ask which rule set they play:
they look its description up in the registry (:data:`majiang.rules.registry.RULE_SETS`) and read
it: its titles, options with their docs, the bots that play it, what a table shows, the unit of
its winning totals. The few pieces that belong to a front end's layer (the hints, the command
line's scorer, the terminal's score sheet, the search bot's policies) are named as
``"module:function"`` references, loaded when first used (:func:`load`), so that this layer
imports none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, TypeVar

from ..errors import OptionError

T = TypeVar("T")


def option(default: T, doc: str) -> T:
    """A field of a rule set's options dataclass with its documentation, as data:
    ``limit: int = option(300, "the cap of every total")``."""
    made: Any = field(default=default, metadata={"doc": " ".join(doc.split())})
    return made  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option of a rule set: ``kind`` is ``bool``, ``int`` or ``choice`` (one of
    ``choices``)."""

    name: str
    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The option as the server's ``GET /rules`` lists it."""
        out: dict[str, Any] = {"name": self.name, "default": self.default, "doc": self.doc,
                               "type": self.kind}
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        return out


def describe_options(cls: type) -> tuple[OptionInfo, ...]:
    """The options of an options dataclass whose fields are made by :func:`option` (a
    ``choices()`` class method, if any, gives the names a choice option takes)."""
    listed = getattr(cls, "choices", None)
    choices: dict[str, tuple[str, ...]] = listed() if callable(listed) else {}
    out = []
    for f in fields(cls):
        default = _default(f)
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        else:
            kind = "choice"
        out.append(OptionInfo(f.name, kind, default, str(f.metadata.get("doc", "")),
                              tuple(choices.get(f.name, (default,))) if kind == "choice" else ()))
    return tuple(out)


class RuleOptions:
    """The base of a rule set's options dataclass (fields made by :func:`option`)."""

    __slots__ = ()

    @classmethod
    def names(cls) -> list[str]:
        """Every option name."""
        return [f.name for f in fields(cls)]  # type: ignore[arg-type]


def options_from(
    cls: type[T], values: Mapping[str, Any] | None, default: T, title: str,
    coerce: Callable[[str, Any, type], Any],
) -> T:
    """An options dataclass from names and values, each value converted by ``coerce(name, raw,
    type of its default)``; ``default`` when none are given. ``title`` names the rule set in
    the error of an unknown name."""
    if values is not None and not isinstance(values, Mapping):
        raise OptionError(f"options must be a mapping of names to values, not {values!r}")
    if not values:
        return default
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for name, raw in values.items():
        if name not in known:
            raise OptionError(
                f"unknown {title} option {name!r}; known: {', '.join(sorted(known))}"
            )
        kwargs[name] = coerce(name, raw, type(_default(known[name])))
    return cls(**kwargs)


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise TypeError(f"option {f.name} has no default")


@dataclass(frozen=True, slots=True)
class TableShows:
    """What a table shows of a hand under these rules, beyond what every rule set has."""

    prevalent_wind: bool = True
    """The prevalent (round) wind."""
    dealer_count: bool = False
    """The dealer's count of hands kept (庄数)."""
    wild: bool = False
    """The indicator, the wild face, the late (raw-tile) phase and the thrown bullets."""
    second_ledger: str | None = None
    """The name of a second ledger every seat keeps beside its points (``bullets``), or None."""
    gunner: bool = False
    """Whether a discarder may be charged the whole hand (counted as "gunner" in statistics)."""


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """How the search bot (:mod:`majiang.bots.search`) plays a rule set: its rollout policies,
    each the ``module:Class`` of a bot made from a seed, and which discards it searches."""

    own: str
    """The searching seat's policy in rollouts, also the fast policy whose choice stands until
    the search beats it."""
    others: str
    """The other seats' policy in rollouts."""
    every_discard: bool = False
    """Whether every discard is searched, or only the decisions that shape the hand (claims,
    kongs, the discards that leave a hand ready): rollouts from uniformly sampled hands cannot
    see a plain discard's danger, and searching them all lost points in Huangyan
    (docs/bots.md)."""
    look_ahead: bool = False
    """Whether candidates are weighed by the seat's own look-ahead, the others passive
    (:mod:`majiang.bots.lookahead`) instead of whole-table rollouts."""
    readiness: str | None = None
    """The ``module:function`` of a :data:`~majiang.bots.sampler.Readiness` model that moves
    the sampled hands of the other seats toward how close to ready such hands are, or None
    for uniformly sampled hands."""


@dataclass(frozen=True, slots=True)
class RuleSetDescription:
    """A rule set as the front ends know it. ``make`` builds the engine's
    :class:`~majiang.rules.base.RuleSet` from option names and values."""

    name: str
    """The name records, the command line and the protocol use (``gb``)."""
    title_zh: str
    """The full title in Chinese (``国标麻将``)."""
    title_en: str
    """The full title in English (``Guobiao (MCR)``)."""
    short_zh: str
    """The short title in Chinese, for a room list or a status line (``国标``)."""
    short_en: str
    """The short title in English (``GB``)."""
    make: Callable[[Any], Any]
    """Options (names and values) -> the engine's rule set."""
    options_class: type
    """The options dataclass (fields made by :func:`option`)."""
    bots: tuple[str, ...]
    """The bots that play it and answer within milliseconds (a game server offers these)."""
    default_bot: str
    """The bot of every seat nobody chose where many hands are played: a game server's bot seats
    and the seats it takes over for absent players, ``simulate`` and ``tournament`` (the cheapest
    bot that plays the rule set well: a server runs many tables in one process)."""
    practice_bot: str
    """The terminal table's opponents unless told (``majiang play``: one table on the player's
    own machine, so the strongest bot that still answers at once)."""
    points_unit: str
    """What a winning total counts: ``fans`` (Guobiao) or ``hu``, as in "mean fans"."""
    shows: TableShows
    """What a table shows of a hand."""
    hints: str
    """``module:function`` of the seat's hints (``function(obs, rules) -> dict``)."""
    scorer: str
    """``module:function`` running ``majiang score`` (``function(args) -> exit code``)."""
    sheet: str
    """``module:function`` of the terminal table's score sheet body (``function(result, names,
    dealer, me) -> list of renderables``)."""
    aliases: tuple[str, ...] = ()
    """Other names :func:`~majiang.rules.registry.rule_set` accepts (``guobiao``)."""
    botzone: bool = False
    """Whether Botzone's programs play it (Botzone's game is Guobiao)."""
    heavy_bots: tuple[str, ...] = ()
    """Bots that play it but think a second or more a decision (the command line's tools only)."""
    settlement: str = "majiang.rules.sheet_lines:no_lines"
    """``module:function`` of the score sheet's settlement lines
    (:mod:`majiang.rules.sheet_lines`; ``function(result, rules, stake) -> dict``)."""
    fan_definitions: str = "majiang.rules.sheet_lines:no_definitions"
    """``module:function`` of the fans a finished hand counts with their definitions, for a
    score sheet (``function(result) -> list of`` :class:`~majiang.rules.sheet_lines.FanDefinition`;
    ``result`` is ``HandResult.to_json()``)."""
    fan_tiles: str = "majiang.rules.sheet_lines:no_fan_tiles"
    """``module:function`` of the tiles of the winner's hand that make each fan, for a score
    sheet that highlights them (``function(result, view) -> {key: tile names or None}``;
    ``view`` is the winner's observation as JSON)."""
    search: SearchPlan | None = None
    """How the search bot plays it (None: it does not)."""
    match_length: str = "hands"
    """How a match is usually agreed: ``hands`` (a number of hands) or ``rounds`` (rounds of
    the deal, where a dealer may keep the deal); the organiser's sheet form starts with it."""
    options_doc: str = ""
    """Where the options are explained, with their reasons (``docs/rules/guobiao.md §6``)."""

    @property
    def label(self) -> str:
        """The short title in both languages (``国标 GB``)."""
        return f"{self.short_zh} {self.short_en}"

    def options(self) -> tuple[OptionInfo, ...]:
        """Every option with its kind, default and doc."""
        return describe_options(self.options_class)

    def to_json(self) -> dict[str, Any]:
        """The description the server sends (``GET /rules``) and the browser reads."""
        return {
            "name": self.name,
            "zh": self.title_zh,
            "en": self.title_en,
            "label": self.label,
            "options": [o.to_json() for o in self.options()],
            "bots": list(self.bots),
            "default_bot": self.default_bot,
            "points_unit": self.points_unit,
            "match_length": self.match_length,
            "shows": {f.name: getattr(self.shows, f.name) for f in fields(self.shows)},
        }


@dataclass(frozen=True, slots=True)
class LazyClass:
    """The class a ``module:Class`` reference names, imported when first called (:func:`load`):
    a :attr:`RuleSetDescription.make` that reading a description does not import (and that
    pickles, as a description does)."""

    reference: str

    def __call__(self, *args: Any) -> Any:
        return load(self.reference)(*args)


_loaded: dict[str, Any] = {}


def load(reference: str) -> Any:
    """The object a ``module:attribute`` reference names (imported once)."""
    found = _loaded.get(reference)
    if found is None:
        module, _, attribute = reference.partition(":")
        found = _loaded[reference] = getattr(importlib.import_module(module), attribute)
    return found


__all__ = [
    "LazyClass", "OptionInfo", "RuleSetDescription", "SearchPlan", "TableShows",
    "describe_options", "load", "option", "options_from",
]
