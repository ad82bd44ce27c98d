"""Scorekeeper's PDF bench: how long a printed score sheet takes, beside a bare table.

    .venv/bin/python bench/pdf.py [--rounds N] [--samples N]

It prints figures and never fails on them: each target is reported as met or NOT MET,
and the exit status is 0 unless the bench itself broke.

Two score sheets are timed from the game record to the PDF bytes (replay, data object,
rendering): a Hollywood sheet of 300 hands (one-point wins between no games, so that
it flows over many pages; target at most 150 ms) and a two-player sheet of 40 hands
(target at most 40 ms). Beside each, in the same rounds, reportlab alone builds a PDF
of a bare Table with the same rows and columns, plain strings and a grid, on the same
page size: the floor that shows what the sheet's styling, fonts and paging cost on top.
The variants are interleaved in rounds; each figure is the median of all samples.

No database: the sheets need Django's settings only for their translated words.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS_MS = {"hollywood, 300 hands": 150.0, "two players, 40 hands": 40.0}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument(
        "--samples", type=int, default=5, help="renderings per variant and round (default 5)"
    )
    return parser.parse_args()


def start_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()


def knock(knocker: str, points: int) -> dict:
    return {"knocker": knocker, "knocker_deadwood": 1, "defender_deadwood": 1 + points}


NO_GAME = {"no_game": True}


def hollywood_300():
    """300 hands: one-point wins between no games; the last few close the three games."""
    from scorekeeper.engine.record import parse_record

    hands = [NO_GAME, knock("You", 1), knock("Opp", 1)] * 98
    hands += [knock("You", 2), NO_GAME, knock("You", 1), knock("Opp", 1), NO_GAME, knock("You", 1)]
    return parse_record(
        {
            "kind": "hollywood",
            "rules": {"preset": "hollywood"},
            "players": ["You", "Opp"],
            "stake": "0.01",
            "hands": hands,
        }
    )


def two_player_40():
    """40 hands: two-point wins between no games, then a gin that ends the game."""
    from scorekeeper.engine.record import parse_record

    hands = [knock("Anna", 2), knock("Ben", 2), NO_GAME] * 13
    hands.append({"knocker": "Anna", "gin": True, "defender_deadwood": 98})
    return parse_record(
        {
            "kind": "two_player",
            "rules": {"preset": "classic"},
            "players": ["Anna", "Ben"],
            "first_dealer": "Ben",
            "stake": "0.05",
            "hands": hands,
        }
    )


def sheet_pdf(record) -> Callable[[], bytes]:
    from scorekeeper.sheets.score_sheet import render_score_sheet, score_sheet

    return lambda: render_score_sheet(score_sheet(record))


def bare_pdf(record) -> tuple[Callable[[], bytes], tuple[int, int]]:
    """A bare reportlab Table of the sheet's rows and columns: strings and a grid."""
    from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

    from scorekeeper.sheets.score_sheet import HandTable, ScoreSheetRenderer, score_sheet

    sheet = score_sheet(record)
    renderer = ScoreSheetRenderer(sheet)
    (part,) = sheet.parts
    columns = len(HandTable(renderer, part).widths)
    rows = HandTable.HEAD + sum(len(row.plays) for row in part.rows) + len(part.ending)
    data = [[str((r * 7 + c * 13) % 150) for c in range(columns)] for r in range(rows)]
    width = (renderer.pagesize[0] - 2 * renderer.margin - 12) / columns

    def build() -> bytes:
        buffer = io.BytesIO()
        document = SimpleDocTemplate(buffer, pagesize=renderer.pagesize)
        table = Table(data, colWidths=[width] * columns, repeatRows=HandTable.HEAD)
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, "black")]))
        document.build([table])
        return buffer.getvalue()

    return build, (rows, columns)


def measure(variants: dict[str, Callable[[], bytes]], rounds: int, samples: int):
    """Seconds per rendering of each variant, all samples; variants interleaved."""
    for call in variants.values():  # warm up: fonts, imports, caches
        for _ in range(2):
            call()
    times: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            gc.collect()
            for _ in range(samples):
                start = time.perf_counter()
                variants[name]()
                times[name].append(time.perf_counter() - start)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def main() -> int:
    args = parse_args()
    start_django()
    import reportlab
    from pypdf import PdfReader

    print(
        f"Scorekeeper PDF bench: reportlab {reportlab.Version}, Python "
        f"{platform.python_version()}, {args.rounds} interleaved rounds x {args.samples} "
        "renderings per variant"
    )
    variants: dict[str, Callable[[], bytes]] = {}
    shapes = {}
    for label, record in (
        ("hollywood, 300 hands", hollywood_300()),
        ("two players, 40 hands", two_player_40()),
    ):
        variants[label] = sheet_pdf(record)
        variants[f"{label}: bare table"], shapes[label] = bare_pdf(record)
    pages = {name: len(PdfReader(io.BytesIO(call())).pages) for name, call in variants.items()}
    times = measure(variants, args.rounds, args.samples)
    medians = {name: statistics.median(values) for name, values in times.items()}

    print(f"\n  {'variant':<36}{'pages':>6}{'median ms':>11}{'min-max ms':>16}")
    for name, values in times.items():
        spread = f"{ms(min(values))}-{ms(max(values))}"
        print(f"  {name:<36}{pages[name]:>6}{ms(medians[name]):>11}{spread:>16}")

    print("\nSummary")
    for label, target in TARGETS_MS.items():
        sheet, bare = medians[label], medians[f"{label}: bare table"]
        rows, columns = shapes[label]
        print(
            f"  {label}: {ms(sheet)} ms (target <= {target:g} ms): "
            f"{verdict(sheet * 1000 <= target)}; "
            f"{sheet / bare:.2f}x a bare table of {rows} rows x {columns} columns ({ms(bare)} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
