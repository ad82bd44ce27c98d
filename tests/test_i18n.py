"""German and English: every string has a German translation, and pages speak it.

The catalogue is checked as `makemessages` makes it from the code now, not as it was
committed: a string added to a template or to Python without its German fails here.
"""

import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"


def untranslated(po_text: str) -> list[str]:
    """The msgids of entries whose German text is empty or only guessed (fuzzy), the
    header and obsolete entries (#~) excluded."""
    missing = []
    for entry in po_text.split("\n\n")[1:]:
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in entry.splitlines())
        lines = [line for line in entry.splitlines() if not line.startswith("#")]
        if not lines:
            continue
        for n, line in enumerate(lines):
            # `msgstr ""` (or `msgstr[1] ""`) is empty unless continued on the next lines
            empty_start = re.fullmatch(r'msgstr(\[\d+\])? ""', line)
            continued = n + 1 < len(lines) and lines[n + 1].startswith('"')
            if fuzzy or (empty_start and not continued):
                ids = lines[: next(i for i, x in enumerate(lines) if x.startswith("msgstr"))]
                missing.append("\n".join(ids))
                break
    return missing


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The German catalogue as `makemessages` makes it from the code now, merged with the
    committed translations, in a copy of the project: the committed files stay as they are."""
    copy = tmp_path_factory.mktemp("i18n")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "fonts", "migrations")
    for folder in ("scorekeeper", "templates", "locale"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=skip)
    here = Path.cwd()
    try:
        os.chdir(copy)  # makemessages reads the files under the working directory
        with override_settings(LOCALE_PATHS=[copy / "locale"]):
            call_command("makemessages", locale=["de"], verbosity=0)
    finally:
        os.chdir(here)
    return (copy / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")


def test_every_message_a_player_sees_has_a_german_translation(fresh_catalogue: str):
    missing = untranslated(fresh_catalogue)
    assert not missing, f"{len(missing)} strings without German:\n\n" + "\n\n".join(missing)


def test_the_fresh_catalogue_holds_the_strings_of_templates_and_python(fresh_catalogue: str):
    assert 'msgid "Record the hand"' in fresh_catalogue  # a template
    assert 'msgid "Stake per point"' in fresh_catalogue  # a form in Python


def test_the_compiled_catalogue_is_there():
    assert PO.with_suffix(".mo").stat().st_size > 1000


@pytest.mark.django_db
def test_a_german_browser_gets_the_partie_form_in_german(client_owner):
    response = client_owner.get(reverse("partie_new"), HTTP_ACCEPT_LANGUAGE="de")

    content = response.content.decode()
    assert "Neue Partie" in content
    assert "Einsatz pro Punkt" in content


@pytest.mark.django_db
def test_an_engine_refusal_is_explained_in_german(client_owner, owner):
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic")
    )
    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]),
        {"kind": "knock", "knocker": "Anna", "knocker_deadwood": 12, "defender_deadwood": 30},
        HTTP_ACCEPT_LANGUAGE="de",
    )

    assert "über der Klopfgrenze von 10" in response.content.decode()


def test_a_wrapped_plural_counts_as_translated_and_an_empty_or_fuzzy_one_does_not():
    wrapped = 'header\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""\n"ein"\nmsgstr[1] ""\n"zwei"'
    empty = 'header\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "ein"\nmsgstr[1] ""'
    fuzzy = 'header\n\n#, fuzzy, python-format\nmsgid "a %(x)s"\nmsgstr "ein %(x)s"'
    obsolete = 'header\n\n#~ msgid "gone"\n#~ msgstr ""'
    assert untranslated(wrapped) == []
    assert untranslated(empty) == ['msgid "a"\nmsgid_plural "b"']
    assert untranslated(fuzzy) == ['msgid "a %(x)s"']
    assert untranslated(obsolete) == []
