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
from .guobiao.info import DESCRIPTION as GUOBIAO
from .huangyan.info import DESCRIPTION as HUANGYAN
from .info import RuleSetDescription, load

DEFAULT_RULES = GUOBIAO.name
"""The rule set played when none is named."""


class Registry(Mapping[str, RuleSetDescription]):
    """The rule sets majiang plays, by name in the order registered; aliases are looked up by
    :meth:`resolve` and :func:`rule_set` but not listed."""

    def __init__(self, *descriptions: RuleSetDescription) -> None:
        self._descriptions: dict[str, RuleSetDescription] = {}
        self._aliases: dict[str, str] = {}
        for info in descriptions:
            self.register(info)

    def register(self, info: RuleSetDescription) -> None:
        """Add a rule set (a name or alias already taken raises OptionError)."""
        for name in (info.name, *info.aliases):
            if name in self._aliases:
                raise OptionError(f"rule set name {name!r} is taken")
        self._descriptions[info.name] = info
        self._aliases.update(dict.fromkeys((info.name, *info.aliases), info.name))

    def unregister(self, name: str) -> None:
        """Remove a rule set and its aliases."""
        info = self._descriptions.pop(name)
        for alias in (info.name, *info.aliases):
            self._aliases.pop(alias, None)

    def __getitem__(self, name: str) -> RuleSetDescription:
        return self._descriptions[name]

    def resolve(self, name: str) -> RuleSetDescription | None:
        """The rule set called ``name`` or with that alias, or None."""
        canonical = self._aliases.get(name) if isinstance(name, str) else None
        return None if canonical is None else self._descriptions[canonical]

    def __iter__(self) -> Iterator[str]:
        return iter(self._descriptions)

    def __len__(self) -> int:
        return len(self._descriptions)


RULE_SETS = Registry(GUOBIAO, HUANGYAN)
"""The rule sets majiang plays: name -> :class:`~majiang.rules.info.RuleSetDescription`."""


def rule_set(name: str) -> RuleSetDescription:
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


def description_of(rules: RuleSet) -> RuleSetDescription:
    """The description of an engine rule set (by its ``name``)."""
    return rule_set(rules.name)


def settlement_lines(result: dict[str, Any], rules: RuleSet, stake: int) -> dict[str, Any]:
    """A finished hand's settlement lines for a score sheet, by its rule set
    (:mod:`majiang.rules.sheet_lines`)."""
    lines: dict[str, Any] = load(description_of(rules).settlement)(result, rules, stake)
    return lines
