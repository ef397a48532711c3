"""In CI (``CI=true``) a test skipped for lack of PostgreSQL or a browser fails the run instead of
passing silently: those are the tests that check the server's PostgreSQL persistence and the
browser tables, and CI provides both (``.ci/run``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

MUST_RUN_IN_CI = ("MAJIANG_TEST_POSTGRES", "Chromium", "Playwright")
"""Words of the skip reasons of the tests that need PostgreSQL, Chromium or Playwright."""


def in_ci() -> bool:
    """Whether the suite runs in CI (``CI`` set to true, as CI services do)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def must_not_skip(report: Any) -> bool:
    """Whether a skipped report is one of the skips CI does not allow."""
    if not (report.skipped and in_ci()):
        return False
    reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
    return any(word in reason for word in MUST_RUN_IN_CI)


def fail_instead(report: Any) -> None:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
    report.outcome = "failed"
    report.longrepr = f"skipped in CI (CI=true), where it must run: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if must_not_skip(report):
        fail_instead(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if must_not_skip(report):
        fail_instead(report)
