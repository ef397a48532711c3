"""Copying and pickling frozen dataclasses that mypyc compiles.

``copy`` and ``pickle`` rebuild a frozen dataclass by setting its fields after creating it; a
compiled frozen dataclass refuses that (``FrozenInstanceError``). Its ``__reduce__`` returns
:func:`rebuild`'s recipe instead: the class called with the field values, as in the source.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuild(instance: Any) -> tuple[Any, ...]:
    """The ``__reduce__`` value of a dataclass instance: its class and its field values."""
    return (type(instance), tuple(getattr(instance, f.name) for f in fields(instance)))
