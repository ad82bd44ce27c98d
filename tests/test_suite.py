"""Rules the suite keeps about itself."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings


def test_no_property_test_has_a_deadline_per_example(request: pytest.FixtureRequest):
    """A deadline fails a run on a busy machine for the load, not for what is checked
    (tests/conftest.py's profile); a test's own settings must not bring one back."""
    assert settings.default.deadline is None
    timed = [
        item.nodeid
        for item in request.session.items
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        and item.obj._hypothesis_internal_use_settings.deadline is not None
    ]
    assert timed == []


def test_the_run_on_postgresql_leaves_out_only_the_tests_that_touch_no_database():
    """make test's run on PostgreSQL takes --database-tests-only; the pure tests it leaves
    out run on SQLite beside it."""
    collected = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "--database-tests-only",
            "tests/test_error_pages.py",
        ],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # A test marked django_db stays, one without the marker and without a database fixture
    # goes; the summary names what went.
    assert "test_a_refused_request_is_one_log_line_without_a_traceback" in collected
    assert "test_a_server_error_still_logs_its_traceback" not in collected
    assert "deselected" in collected
