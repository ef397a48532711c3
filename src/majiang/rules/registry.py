"""Rule sets by name, for records, the CLI and servers."""

from __future__ import annotations

from typing import Any

from ..errors import OptionError
from .base import RuleSet

RULE_SETS = ("gb", "huangyan")
"""The names of the rule sets majiang plays."""


def make_rules(name: str, options: dict[str, Any] | None = None) -> RuleSet:
    """The rule set called ``name`` with the given options."""
    if name in ("gb", "guobiao"):
        from .guobiao.ruleset import GuobiaoRules

        return GuobiaoRules(options)
    if name in ("huangyan", "hy"):
        from .huangyan.ruleset import HuangyanRules

        return HuangyanRules(options)
    raise OptionError(f"unknown rule set {name!r}; known: {', '.join(RULE_SETS)}")


def rules_options(rules: RuleSet) -> dict[str, Any]:
    """A rule set's options as plain JSON values."""
    options = rules.options
    names = getattr(type(options), "names", None)
    if names is None:
        return {}
    return {name: getattr(options, name) for name in names()}
