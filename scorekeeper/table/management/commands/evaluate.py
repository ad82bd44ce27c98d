"""``python manage.py evaluate``: melds, deadwood and knocks from cards, without the database.

    manage.py evaluate "AS 2S 3S 7H 7D 7C KD QH 5C 9D"
    manage.py evaluate --knocker "TH JH QH ..." --defender "9H 8H ..." [--rules PRESET]
                       [--upcard 7S] [--knocker-melds "TH JH QH; 4S 4D 4C"]
    manage.py evaluate --jsonl < hands.jsonl

Ten cards print ``{"deadwood", "melds", "deadwood_cards"}``; eleven add ``"discard"``
(null for a big gin) and ``"big_gin"``. A knock prints the knocker's and the
defender's melds and deadwood, the lay-offs and the hand's result and points.
Cards are codes (``7H``, ``TD``); a meld is a list of codes.

``--jsonl`` reads one JSON object per line from standard input, ``{"cards": [...]}``
or ``{"knocker": [...], "defender": [...]}`` with optional ``"rules"`` (a preset
name, or an object as in a record), ``"upcard"``, ``"knocker_melds"`` and ``"id"``
(echoed in the result), and writes one compact JSON result per line. A line that
cannot be evaluated writes no result: its error goes to standard error with the
line number, the other lines go on, and the exit status is 2 at the end. Blank
lines are skipped.

Bad input prints ``error: ...`` on standard error and exits with status 2.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.bounds import MAX_CARDS_TEXT, MAX_LINE_BYTES
from scorekeeper.engine.cards import Card, parse_cards
from scorekeeper.engine.evaluator import Evaluation, Meld, best_discard, evaluate
from scorekeeper.engine.jsontext import JSONTextError, load_json
from scorekeeper.engine.knock import KnockOutcome, knock_outcome
from scorekeeper.engine.rules import PRESETS, RulesError, Ruleset, preset

EXIT_BAD_INPUT = 2
_MELD_SEPARATORS = re.compile(r"[;|]")


class Command(BaseCommand):
    help = (
        "Melds and deadwood of 10 or 11 cards, or a knock played out from both hands, "
        "as JSON. --jsonl reads one JSON object per line from standard input."
    )

    # The engine alone does the work: no system checks, no migrations, no database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # Tests may pass a text stream to call_command() in place of standard input.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "cards", nargs="?", help='10 or 11 card codes, like "AS 2S 3S 7H ..." (or commas)'
        )
        parser.add_argument("--knocker", help="the knocker's 10 cards (11: before his discard)")
        parser.add_argument("--defender", help="the defender's 10 cards")
        parser.add_argument(
            "--knocker-melds",
            help='the melds the knocker laid down, separated by ";", like "TH JH QH; 4S 4D 4C"',
        )
        parser.add_argument(
            "--rules",
            default="classic",
            help=f"a preset: {', '.join(PRESETS)} (default classic)",
        )
        parser.add_argument("--upcard", help="the first upcard (Oklahoma), like 7S")
        parser.add_argument(
            "--jsonl", action="store_true", help="read one JSON object per line from stdin"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["jsonl"]:
            given = [name for name in ("cards", "knocker", "defender") if options[name]]
            if given:
                self._fail([f"--jsonl reads its hands from standard input, not {given[0]}"])
            if self._jsonl(options.get("stdin", sys.stdin)):
                raise SystemExit(EXIT_BAD_INPUT)
            return
        try:
            rules = preset(options["rules"])
            result = self._one(
                cards=options["cards"],
                knocker=options["knocker"],
                defender=options["defender"],
                melds=options["knocker_melds"],
                upcard=options["upcard"],
                rules=rules,
            )
        except ValueError as error:  # CardError, HandError, RulesError
            self._fail([str(error)])
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))

    def _one(
        self,
        *,
        cards: Any,
        knocker: Any,
        defender: Any,
        melds: Any,
        upcard: Any,
        rules: Ruleset,
    ) -> dict[str, Any]:
        for name, value in (("cards", cards), ("knocker", knocker), ("defender", defender)):
            if value is not None and not _codes(value):
                raise ValueError(f"{name}: give card codes as a string or a list of strings")
        for name, value in (
            ("cards", cards),
            ("knocker", knocker),
            ("defender", defender),
            ("knocker_melds", melds),
            ("upcard", upcard),
        ):
            if value is not None and len(str(value)) > MAX_CARDS_TEXT:
                raise ValueError(f"{name}: at most {MAX_CARDS_TEXT} characters of card codes")
        if upcard is not None and not isinstance(upcard, str):
            raise ValueError('upcard: give a card code, like "7S"')
        if melds is not None and not (
            isinstance(melds, str) or isinstance(melds, list) and all(map(_codes, melds))
        ):
            raise ValueError("knocker_melds: give each meld as a list of card codes")
        if cards is not None:
            if knocker is not None or defender is not None:
                raise ValueError("give either one hand's cards or --knocker and --defender")
            if upcard is not None or melds is not None:
                raise ValueError("--upcard and --knocker-melds are for a knock")
            return evaluation_json(cards, rules)
        if knocker is None or defender is None:
            raise ValueError(
                "give 10 or 11 cards to evaluate, or both --knocker and --defender for a knock"
            )
        if isinstance(melds, str):
            melds = [meld for meld in _MELD_SEPARATORS.split(melds) if meld.strip()]
        card = None if upcard is None else Card.parse(upcard)
        return outcome_json(knock_outcome(knocker, defender, rules, card, melds))

    def _jsonl(self, stdin: Any) -> int:
        """Evaluate each line; the exit status: 0, or 2 if any line was refused."""
        status = 0
        for number, line in enumerate(_lines(stdin), start=1):
            if line is not None and not line.strip():
                continue
            try:
                if line is None:
                    raise ValueError("the line is not UTF-8 text")
                if line is _TOO_LONG:
                    raise ValueError(f"the line is longer than {MAX_LINE_BYTES:,} bytes")
                data = load_json(line, limit=MAX_LINE_BYTES, what="line")
                if not isinstance(data, dict):
                    raise ValueError(
                        'each line is a JSON object: {"cards": [...]} '
                        'or {"knocker": [...], "defender": [...]}'
                    )
                result = self._one(
                    cards=data.get("cards"),
                    knocker=data.get("knocker"),
                    defender=data.get("defender"),
                    melds=data.get("knocker_melds"),
                    upcard=data.get("upcard"),
                    rules=_rules(data.get("rules", "classic")),
                )
            except JSONTextError as error:
                message = str(error)
                if error.code == "broken":  # one line: its column is enough
                    column, reason = error.params["column"], error.params["reason"]
                    message = f"broken JSON at column {column}: {reason}"
                status = self._error(number, message)
                continue
            except ValueError as error:  # CardError, HandError, RulesError
                status = self._error(number, str(error))
                continue
            if "id" in data:
                result = {"id": data["id"], **result}
            self.stdout.write(json.dumps(result, ensure_ascii=False))
        return status

    def _error(self, number: int, message: str) -> int:
        self.stderr.write(f"error: line {number}: {message}")
        return EXIT_BAD_INPUT

    def _fail(self, lines: list[str]) -> NoReturn:
        for line in lines:
            self.stderr.write(f"error: {line}")
        # SystemExit rather than CommandError: Django would prefix "CommandError: ".
        raise SystemExit(EXIT_BAD_INPUT)


_TOO_LONG = "\x00too long"  # the mark of a line over MAX_LINE_BYTES (JSON text has no NUL)


def _lines(stdin: Any) -> Iterator[str | None]:
    """The lines of standard input; None for a line that is not UTF-8, _TOO_LONG for
    one longer than MAX_LINE_BYTES (read on to its end, never held whole)."""
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text stream (tests)
        for text in iter(lambda: stdin.readline(MAX_LINE_BYTES + 1), ""):
            if len(text) > MAX_LINE_BYTES and not text.endswith("\n"):
                _skip_line(stdin, "")
                yield _TOO_LONG
            else:
                yield text
        return
    # Bytes, so the encoding never depends on the locale; utf-8-sig drops a BOM.
    for raw in iter(lambda: buffer.readline(MAX_LINE_BYTES + 1), b""):
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            _skip_line(buffer, b"")
            yield _TOO_LONG
            continue
        try:
            yield raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            yield None


def _skip_line(stream: Any, empty: str | bytes) -> None:
    """Read on to the end of the current line, a bounded piece at a time."""
    while True:
        piece = stream.readline(MAX_LINE_BYTES)
        if piece == empty or piece.endswith("\n" if isinstance(empty, str) else b"\n"):
            return


def _codes(value: Any) -> bool:
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(code, str) for code in value)
    )


def _rules(value: Any) -> Ruleset:
    if isinstance(value, str):
        return preset(value)
    if isinstance(value, dict):
        return Ruleset.from_dict(value)
    raise RulesError('rules: give a preset name like "classic", or an object with a preset')


def codes(cards: tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def melds_json(melds: tuple[Meld, ...]) -> list[list[str]]:
    return [codes(meld.cards) for meld in melds]


def evaluation_json(cards: Any, rules: Ruleset) -> dict[str, Any]:
    """One hand of 10 or 11 cards: its least-deadwood melding (and best discard)."""
    hand = parse_cards(cards, (10, 11))
    if len(hand) == 10:
        return _evaluation(evaluate(hand, rules))
    choice = best_discard(hand, rules)
    return {
        **_evaluation(choice.evaluation),
        "discard": None if choice.discard is None else choice.discard.code,
        "big_gin": choice.big_gin,
    }


def _evaluation(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "deadwood": evaluation.deadwood,
        "melds": melds_json(evaluation.melds),
        "deadwood_cards": codes(evaluation.deadwood_cards),
    }


def outcome_json(outcome: KnockOutcome) -> dict[str, Any]:
    return {
        "knocker_deadwood": outcome.knocker_deadwood,
        "knocker_melds": melds_json(outcome.knocker_melds),
        "knocker_deadwood_cards": codes(outcome.knocker_deadwood_cards),
        "discard": None if outcome.discard is None else outcome.discard.code,
        "gin": outcome.gin,
        "big_gin": outcome.big_gin,
        "defender_deadwood_before": outcome.defender_deadwood_before,
        "defender_deadwood": outcome.defender_deadwood,
        "defender_melds": melds_json(outcome.defender_melds),
        "defender_deadwood_cards": codes(outcome.defender_deadwood_cards),
        "layoffs": [{"card": layoff.card.code, "meld": layoff.meld} for layoff in outcome.layoffs],
        "result": outcome.result.value,
        "points": outcome.points,
        "winner": outcome.winner,
    }
