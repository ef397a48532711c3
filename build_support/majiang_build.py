"""The build backend of majiang: setuptools, compiling the hot modules with mypyc where it can.

``MAJIANG_COMPILE`` chooses: ``1`` compiles (and fails without a C compiler), ``0`` builds pure
Python, unset (the default) compiles where a C compiler and Python's headers are present and
otherwise builds pure Python with a one-line notice. mypy (which holds mypyc) is fetched for the
build only when it compiles. Editable installs (for development) are always pure Python.
``majiang --version`` says which build is running.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every other hook is setuptools' own)

MYPY = "mypy>=1.10"
VARIABLE = "MAJIANG_COMPILE"


def missing_for_compiling() -> str | None:
    """What a compiled build lacks here (a C compiler, Python's headers), or None."""
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python C headers (Python.h)"
    if sys.platform == "win32":
        try:
            from setuptools._distutils.ccompiler import new_compiler

            compiler: Any = new_compiler()
            compiler.initialize()
        except Exception:  # any failure: no usable compiler
            return "C compiler (Microsoft C++ Build Tools)"
        return None
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not command or shutil.which(command[0]) is None:
        return f"C compiler ({command[0] if command else 'cc'})"
    return None


def _compiles(say: bool = False) -> bool:
    """Whether this build compiles (see the module's docstring); with ``say``, the notice of a
    pure-Python build for want of a compiler."""
    wanted = os.environ.get(VARIABLE, "")
    if wanted in ("0", "1"):
        return wanted == "1"
    missing = missing_for_compiling()
    if missing is not None and say:
        print(
            f"majiang: no {missing} found: building pure Python (slower scorer and engine; "
            f"install one for the compiled build, or set {VARIABLE}=0 to say so)",
            file=sys.stderr,
        )
    return missing is None


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    extra = [MYPY] if _compiles() else []
    # setuptools runs setup.py to answer, before mypy is there: it must not compile yet
    wanted = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = "0"
    try:
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]
    finally:
        if wanted is None:
            del os.environ[VARIABLE]
        else:
            os.environ[VARIABLE] = wanted


def build_wheel(
    wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None
) -> str:
    os.environ[VARIABLE] = "1" if _compiles(say=True) else "0"
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return list(_setuptools.get_requires_for_build_editable(config_settings))


def build_editable(
    wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None
) -> str:
    os.environ[VARIABLE] = "0"  # the sources themselves are imported: nothing to compile
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
