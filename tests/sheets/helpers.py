"""Helpers of the sheet tests: the records of tests/records, and the text of PDF bytes
read back with pypdf. Plain functions, imported as ``from tests.sheets.helpers import ...``.
"""

import io
from pathlib import Path

from pypdf import PdfReader

from scorekeeper.engine.record import Record, loads

RECORDS = Path(__file__).resolve().parent.parent / "records"


def record_of(name: str) -> Record:
    """The record ``tests/records/<name>.json``."""
    return loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def pages(pdf: bytes) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    """The text with every run of white space as one space: wrapped lines join again."""
    return " ".join(text.split())


def text_of(pdf: bytes) -> str:
    """The text of every page, flat."""
    return flat(" ".join(pages(pdf)))
