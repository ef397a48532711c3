"""Entrants: what a ``--bots`` spec names, resolved in one place.

A spec is a majiang bot name (``random``, ``efficient``, ``fan``, ``wild``: ``make_bot``), or
``KIND[/OPTION...]:ARGUMENT`` for a player of another kind. The kinds are looked up lazily in
:data:`EXTERNAL_KINDS`: ``botzone[/json|/simple][/keep]:CMD`` (an external Botzone program) is
served by the module ``majiang.botzone``, which provides ``make_entrant(spec, seed, rules,
time_limit=...) -> Agent`` and ``check_entrant(spec, rules)``; they get the whole spec. An agent
with a ``close()`` method is closed after its hand.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import check_bot, make_bot
from ..engine.match import Agent
from ..errors import OptionError
from ..rules.registry import DEFAULT_RULES

EXTERNAL_KINDS: dict[str, str] = {"botzone": "majiang.botzone"}
"""``KIND`` of a ``KIND:ARGUMENT`` spec -> the module that makes such entrants."""


def parse_entrants(text: str) -> tuple[str, ...]:
    """``"fan,efficient,efficient,efficient"`` (or one spec for all four) to four specs."""
    specs = tuple(spec.strip() for spec in text.split(","))
    if len(specs) == 1:
        specs *= 4
    if any(not spec for spec in specs):
        raise OptionError(f"--bots: an empty bot name in {text!r}")
    if len(specs) != 4:
        raise OptionError(f"--bots needs 4 names (or one for all four), not {len(specs)}")
    return specs


def _external(kind: str, name: str) -> Callable[..., Any] | None:
    module_name = EXTERNAL_KINDS.get(kind)
    if module_name is None:
        known = ", ".join(f"{k}:..." for k in EXTERNAL_KINDS)
        raise OptionError(f"unknown entrant kind {kind!r} (bot names, or {known})")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        module = None
    factory = getattr(module, name, None)
    if factory is None and name == "make_entrant":
        raise OptionError(f"{kind} entrants are not available in this version of majiang")
    return factory


def is_external(spec: str) -> bool:
    """Whether ``spec`` names a player of another kind (``KIND:ARGUMENT``), not a bot."""
    return ":" in spec


def check_entrant(spec: str, rules: str) -> None:
    """Raise a :class:`~majiang.errors.MajiangError` unless ``spec`` can play ``rules``."""
    head, sep, argument = spec.partition(":")
    if not sep:
        check_bot(spec, rules, heavy=True)
        return
    kind = head.split("/")[0]
    _external(kind, "make_entrant")
    if not argument:
        raise OptionError(f"--bots: {spec!r} needs something after {head + ':'!r}")
    check = _external(kind, "check_entrant")
    if check is not None:
        check(spec, rules)


def entrant_from_spec(
    spec: str, seed: int, rules: str = DEFAULT_RULES, time_limit: float = 1.0
) -> Agent:
    """A fresh agent for one hand from a spec (the one place where specs are resolved);
    ``time_limit``: seconds per decision of an external program."""
    head, sep, _ = spec.partition(":")
    if not sep:
        return make_bot(spec, seed)
    factory = _external(head.split("/")[0], "make_entrant")
    assert factory is not None
    agent: Agent = factory(spec, seed, rules, time_limit=time_limit)
    return agent


def entrant_labels(specs: Sequence[str]) -> list[str]:
    """Short distinct labels: the spec (its command's program name for ``KIND:CMD``), with
    ``#1``, ``#2``... on specs that appear more than once."""

    def short(spec: str) -> str:
        kind, sep, argument = spec.partition(":")
        if not sep or not argument.split():
            return spec
        program = argument.split()[0].rstrip("/").rsplit("/", 1)[-1]
        return f"{kind}:{program}"

    names = [short(spec) for spec in specs]
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        if names.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}#{seen[name]}")
        else:
            labels.append(name)
    return labels


__all__ = [
    "EXTERNAL_KINDS",
    "check_entrant",
    "entrant_from_spec",
    "entrant_labels",
    "is_external",
    "parse_entrants",
]
