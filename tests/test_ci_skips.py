"""tests/conftest.py: in CI a skip for lack of PostgreSQL or Chromium fails the run; any other
skip, and every skip outside CI, stays a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CASES = '''
import pytest

def test_needs_postgres() -> None:
    pytest.skip("MAJIANG_TEST_POSTGRES is not set")

def test_needs_something_else() -> None:
    pytest.skip("ray is not installed")
'''
MODULE_SKIP = '''
import pytest

pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

def test_never_run() -> None:
    pass
'''


def run_suite(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs",
         "--continue-on-collection-errors", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=120,
    )


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_cases.py").write_text(CASES)
    (tmp_path / "test_browser_like.py").write_text(MODULE_SKIP)
    return tmp_path


def test_outside_ci_the_skips_are_skips(suite: Path) -> None:
    done = run_suite(suite, None)
    assert done.returncode == 0, done.stdout
    assert "3 skipped" in done.stdout


def test_in_ci_postgres_and_browser_skips_fail(suite: Path) -> None:
    done = run_suite(suite, "true")
    assert done.returncode != 0
    assert "FAILED test_cases.py::test_needs_postgres" in done.stdout
    assert "ERROR test_browser_like.py" in done.stdout
    assert "skipped in CI (CI=true), where it must run" in done.stdout
    assert "1 skipped" in done.stdout  # the skip for another reason stays a skip
