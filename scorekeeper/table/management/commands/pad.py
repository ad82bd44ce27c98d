"""``python manage.py pad --kind hollywood --preset classic --paper a4 -o pad.pdf``.

A blank score pad to print and fill in by pen, with the rules at the top: for two
players, Hollywood or chouette, on A4 or US letter. ``--rule NAME=VALUE`` changes a
rule of the preset (repeatable; VALUE as in a record: ``25``, ``true``, ``points``).
No database. A kind, preset, rule or paper that does not exist prints an
``error: ...`` line on standard error and exits with status 2.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper import engine
from scorekeeper.sheets.score_pad import PAD_KINDS, PAPERS, PadError, render_pad, score_pad

from .sheet import fail, write_pdf


class Command(BaseCommand):
    help = "Render a blank score pad (two_player, hollywood, chouette) as PDF."

    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", default="two_player", help=f"one of {', '.join(PAD_KINDS)}")
        parser.add_argument(
            "--preset",
            help=f"one of {', '.join(engine.PRESETS)} (default: hollywood for a Hollywood "
            "pad, else classic)",
        )
        parser.add_argument("--paper", default="a4", help=f"one of {', '.join(PAPERS)}")
        parser.add_argument("--games-per-page", type=int, metavar="N")
        parser.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="change one rule of the preset, e.g. gin_bonus=25 (repeatable)",
        )
        parser.add_argument(
            "-o", "--output", required=True, metavar="PDF", help="the PDF to write, - for stdout"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["kind"]
        # A kind with presets of its own (Hollywood) prints them unless told otherwise.
        name = options["preset"] or engine.SESSION_KINDS.get(kind, engine.Game).preset
        try:
            rules = engine.preset(name, **self._overrides(options["rule"]))
            pad = score_pad(
                kind, rules, paper=options["paper"], games_per_page=options["games_per_page"]
            )
        except (engine.RulesError, PadError) as error:
            fail([str(error)], self)
        write_pdf(render_pad(pad), options["output"], self)

    def _overrides(self, rules: list[str]) -> dict[str, Any]:
        overrides = {}
        for rule in rules:
            name, sign, text = rule.partition("=")
            if not sign or not name.strip():
                fail([f"--rule {rule!r}: write NAME=VALUE, like gin_bonus=25"], self)
            try:
                value = json.loads(text)  # 25, true, null
            except json.JSONDecodeError:
                value = text  # a word: points, double_total, upcard
            overrides[name.strip()] = value
        return overrides
