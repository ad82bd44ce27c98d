"""Rules the suite keeps about itself."""

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
