"""Guobiao registered under another name with its search plan changed, for the search's tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from majiang.rules.base import RuleSet
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.registry import RULE_SETS


@contextmanager
def guobiao_with_plan(name: str, **changes: Any) -> Iterator[RuleSet]:
    """Guobiao's rules registered as ``name`` with ``changes`` to its
    :class:`~majiang.rules.info.SearchPlan`, unregistered afterwards."""
    plan = RULE_SETS["gb"].search
    assert plan is not None
    for field, value in changes.items():
        assert getattr(plan, field) != value, f"Guobiao's plan already has {field}={value!r}"
    rules_class = type(name.title(), (GuobiaoRules,), {"name": name})
    RULE_SETS.register(replace(RULE_SETS["gb"], name=name, aliases=(),
                               search=replace(plan, **changes)))
    try:
        yield rules_class()
    finally:
        RULE_SETS.unregister(name)
