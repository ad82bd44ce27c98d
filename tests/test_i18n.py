"""German and English: every string has a German translation, and pages speak it."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services

PO = Path(__file__).resolve().parent.parent / "locale" / "de" / "LC_MESSAGES" / "django.po"


def untranslated(po_text: str) -> list[str]:
    """The msgids of entries whose German text is empty (the header excluded)."""
    missing = []
    for entry in po_text.split("\n\n")[1:]:
        lines = [line for line in entry.splitlines() if not line.startswith("#")]
        for n, line in enumerate(lines):
            # `msgstr ""` (or `msgstr[1] ""`) is empty unless continued on the next lines
            empty_start = re.fullmatch(r'msgstr(\[\d+\])? ""', line)
            continued = n + 1 < len(lines) and lines[n + 1].startswith('"')
            if empty_start and not continued:
                missing.append("\n".join(lines))
                break
    return missing


def test_every_message_has_a_german_translation():
    text = PO.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    assert untranslated(text) == []


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


def test_a_wrapped_plural_counts_as_translated_and_an_empty_one_does_not():
    wrapped = 'header\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""\n"ein"\nmsgstr[1] ""\n"zwei"'
    empty = 'header\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "ein"\nmsgstr[1] ""'
    assert untranslated(wrapped) == []
    assert len(untranslated(empty)) == 1
