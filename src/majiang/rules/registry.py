"""Rule sets by name, for records, the CLI and servers: a mapping name -> description.

>>> from majiang.rules.registry import RULE_SETS, rule_set
>>> list(RULE_SETS)
['gb', 'huangyan']
>>> rule_set("hy").title_en
'Huangyan'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import OptionError
from .base import RuleSet
from .guobiao.info import INFO as GUOBIAO
from .huangyan.info import INFO as HUANGYAN
from .info import RuleSetInfo, load

DEFAULT_RULES = GUOBIAO.name
"""The rule set played when none is named."""


class Registry(Mapping[str, RuleSetInfo]):
    """The rule sets majiang plays, by name in the order registered; aliases are looked up by
    :meth:`resolve` and :func:`rule_set` but not listed."""

    def __init__(self, *infos: RuleSetInfo) -> None:
        self._infos: dict[str, RuleSetInfo] = {}
        self._aliases: dict[str, str] = {}
        for info in infos:
            self.register(info)

    def register(self, info: RuleSetInfo) -> None:
        """Add a rule set (a name or alias already taken raises OptionError)."""
        for name in (info.name, *info.aliases):
            if name in self._aliases:
                raise OptionError(f"rule set name {name!r} is taken")
        self._infos[info.name] = info
        self._aliases.update(dict.fromkeys((info.name, *info.aliases), info.name))

    def unregister(self, name: str) -> None:
        """Remove a rule set and its aliases."""
        info = self._infos.pop(name)
        for alias in (info.name, *info.aliases):
            self._aliases.pop(alias, None)

    def __getitem__(self, name: str) -> RuleSetInfo:
        return self._infos[name]

    def resolve(self, name: str) -> RuleSetInfo | None:
        """The rule set called ``name`` or with that alias, or None."""
        canonical = self._aliases.get(name) if isinstance(name, str) else None
        return None if canonical is None else self._infos[canonical]

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


RULE_SETS = Registry(GUOBIAO, HUANGYAN)
"""The rule sets majiang plays: name -> :class:`~majiang.rules.info.RuleSetInfo`."""


def rule_set(name: str) -> RuleSetInfo:
    """The description of the rule set called ``name`` (or one of its aliases)."""
    info = RULE_SETS.resolve(name)
    if info is None:
        raise OptionError(f"unknown rule set {name!r}; known: {', '.join(RULE_SETS)}")
    return info


def botzone_rules() -> str:
    """The name of the rule set Botzone's programs play (Botzone's game is Guobiao)."""
    return next(name for name, info in RULE_SETS.items() if info.botzone)


def make_rules(name: str, options: dict[str, Any] | None = None) -> RuleSet:
    """The rule set called ``name`` with the given options."""
    rules: RuleSet = rule_set(name).make(options)
    return rules


def rules_options(rules: RuleSet) -> dict[str, Any]:
    """A rule set's options as plain JSON values."""
    options = rules.options
    names = getattr(type(options), "names", None)
    if names is None:
        return {}
    return {name: getattr(options, name) for name in names()}


def info_of(rules: RuleSet) -> RuleSetInfo:
    """The description of an engine rule set (by its ``name``)."""
    return rule_set(rules.name)


def settlement_lines(result: dict[str, Any], rules: RuleSet, stake: int) -> dict[str, Any]:
    """A finished hand's settlement lines for a score sheet, by its rule set
    (:mod:`majiang.rules.sheet_lines`)."""
    lines: dict[str, Any] = load(info_of(rules).settlement)(result, rules, stake)
    return lines
