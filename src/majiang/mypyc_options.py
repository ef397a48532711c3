"""``mypyc_attr``, mypyc's options for a class it compiles (``allow_interpreted_subclasses``):
mypy_extensions' where it is installed, else a decorator that does nothing. mypyc reads the
decorator when it compiles and never calls it; interpreted, it changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # a pure-Python install without mypy

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:  # type: ignore[misc]
        """No options: the class as it is."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
