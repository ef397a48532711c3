"""The build backend (build_support/majiang_build.py): a plain build compiles where a C compiler
is present and asks for mypy only then; without one it builds pure Python and says so in one
line; ``majiang --version`` says which build runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from majiang.cli import build_kind, main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    """The backend, its hooks run on a minimal project (the setuptools of the test environment
    may predate the one the real build fetches, which majiang's pyproject.toml asks for)."""
    pytest.importorskip("setuptools")
    monkeypatch.delenv("MAJIANG_COMPILE", raising=False)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\nversion = "0"\n')
    (tmp_path / "setup.py").write_text("from setuptools import setup\n\nsetup()\n")
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location(
        "majiang_build", ROOT / "build_support" / "majiang_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mypy_wanted(backend: ModuleType) -> bool:
    return any(req.startswith("mypy") for req in backend.get_requires_for_build_wheel())


def test_without_a_compiler_no_mypy_and_a_one_line_notice(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert backend.missing_for_compiling() == "C compiler (/nonexistent/cc)"
    assert not mypy_wanted(backend)
    assert backend._compiles(say=True) is False
    err = capsys.readouterr().err
    assert err.startswith("majiang: no C compiler (/nonexistent/cc) found: building pure Python")
    assert err.count("\n") == 1


def test_with_a_compiler_the_build_compiles(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", sys.executable)  # any program that exists stands for the compiler
    monkeypatch.setattr(backend, "missing_for_compiling", lambda: None)
    assert mypy_wanted(backend)


@pytest.mark.parametrize(("value", "compiles"), [("1", True), ("0", False)])
def test_majiang_compile_decides(
    value: str, compiles: bool, backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setenv("MAJIANG_COMPILE", value)
    assert mypy_wanted(backend) is compiles


def test_editable_builds_never_ask_for_mypy(backend: ModuleType) -> None:
    assert not any(r.startswith("mypy") for r in backend.get_requires_for_build_editable())


def test_version_says_which_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    from majiang import notation

    compiled = not notation.__file__.endswith(".py")
    assert build_kind() == ("compiled by mypyc" if compiled else "pure Python")
    assert out.strip() == f"majiang 0.1.0 ({build_kind()})"
