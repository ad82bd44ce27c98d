"""The settings module refuses unsafe production values instead of starting."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAFE_KEY = "k3y-" + "abcdefghijklmnopqrstuvwxyz0123456789" * 2


def import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    }
    return subprocess.run(
        [sys.executable, "-c", "import scorekeeper.settings"],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
    )


def test_production_without_secret_key_refuses_to_start():
    result = import_settings(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_with_the_development_key_refuses_to_start():
    result = import_settings(DEBUG="false", SECRET_KEY="django-insecure-short")
    assert result.returncode != 0
    assert "SECRET_KEY is insecure" in result.stderr


def test_misspelt_debug_value_fails_loudly():
    result = import_settings(DEBUG="yes please")
    assert result.returncode != 0
    assert "DEBUG must be 0, 1, true or false" in result.stderr


def test_production_refuses_wildcard_allowed_hosts():
    result = import_settings(DEBUG="0", SECRET_KEY=SAFE_KEY, ALLOWED_HOSTS="*")
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_with_safe_values_starts():
    result = import_settings(DEBUG="0", SECRET_KEY=SAFE_KEY, ALLOWED_HOSTS="scores.example.org")
    assert result.returncode == 0, result.stderr


def test_the_test_database_is_the_one_named_by_the_environment():
    """make test names each run's test database after its checkout, so that two runs on
    one PostgreSQL server never create or drop each other's."""
    show = "import scorekeeper.settings as s; print(s.DATABASES['default'].get('TEST', {}))"
    env = {k: v for k, v in os.environ.items() if k != "TEST_DATABASE_NAME"}
    env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/test"

    def configured(**more: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", show], cwd=ROOT, env=env | more,
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip

    assert configured(TEST_DATABASE_NAME="test_sk_42") == "{'NAME': 'test_sk_42'}"
    assert configured() == "{}"  # Django's default: test_<name>


def test_the_laptop_default_passes_the_system_checks_without_a_warning(tmp_path):
    """On SQLite (the default) the commands that use the database (migrate, demo) run
    the checks of the database too: none may warn."""
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'laptop.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--database", "default"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def vapid_env(**changes: str) -> dict[str, str]:
    """A key pair that fits, and a mailto: subject, changed by ``changes``."""
    from scorekeeper.notices.vapid import new_key_pair

    public, private = new_key_pair()
    return {
        "VAPID_PUBLIC_KEY": public,
        "VAPID_PRIVATE_KEY": private,
        "VAPID_SUBJECT": "mailto:scores@example.org",
    } | changes


def test_web_push_starts_with_a_key_pair_and_a_mailto_subject():
    result = import_settings(**vapid_env())
    assert result.returncode == 0, result.stderr


def test_a_vapid_subject_that_is_no_mailto_address_refuses_to_start():
    for subject in ("https://scores.example.org", "scores@example.org", "mailto:nobody"):
        result = import_settings(**vapid_env(VAPID_SUBJECT=subject))
        assert result.returncode != 0
        assert "VAPID_SUBJECT must be a mailto: address" in result.stderr


def test_vapid_keys_that_do_not_belong_together_refuse_to_start():
    other_public = vapid_env()["VAPID_PUBLIC_KEY"]
    result = import_settings(**vapid_env(VAPID_PUBLIC_KEY=other_public))
    assert result.returncode != 0
    assert "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY" in result.stderr
    result = import_settings(**vapid_env(VAPID_PRIVATE_KEY="not-a-key"))
    assert result.returncode != 0
    assert "VAPID_PRIVATE_KEY" in result.stderr


def test_half_of_the_vapid_settings_refuse_to_start():
    result = import_settings(VAPID_SUBJECT="mailto:scores@example.org")
    assert result.returncode != 0
    assert "Set all three of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT" in (
        result.stderr
    )
