"""Game records (FORMAT.md): read one, replay it, and tally it as JSON data.

Every kind of session reads, replays and tallies the same way; a partnership's
hands are rounds of two tables. Chouette and three-player tallies add the roles
of the next hand and the fewest transfers that settle the balances.

>>> record = parse_record({"kind": "two_player", "players": ["Anna", "Ben"], "stake": "0.05",
...     "hands": [{"knocker": "Anna", "gin": True, "defender_deadwood": 70},
...               {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 20}]})
>>> data = tally(record)
>>> data["games"][0]["shutout"], data["settlement"]
(True, [{'from': 'Ben', 'to': 'Anna', 'points': 347, 'amount': '17.35'}])
>>> record = parse_record({"kind": "partnership", "players": ["A", "B", "C", "D"],
...     "rules": {"preset": "partnership"}, "hands": [{"tables": [
...         {"knocker": "A", "knocker_deadwood": 4, "defender_deadwood": 20},
...         {"knocker": "C", "knocker_deadwood": 2, "defender_deadwood": 14}]}]})
>>> data = tally(record)
>>> data["teams"], data["games"][0]["players"]["A & C"]["points"], data["next_dealer"]
([['A', 'C'], ['B', 'D']], 28, ['B', 'D'])
>>> record = parse_record({"kind": "three_player", "players": ["P", "Q", "R"], "hands": [
...     {"knocker": "P", "knocker_deadwood": 1, "defender_deadwood": 21}]})
>>> tally(record)["roles"]
{'box': 'P', 'captain': 'R', 'out': 'Q'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .bounds import (
    MAX_HANDS,
    MAX_NAME_LENGTH,
    MAX_RECORD_BYTES,
    BoundsError,
    check_money,
    name_problem,
    name_trouble,
    shorten,
)
from .cards import Card, CardError, parse_cards
from .hand import Hand, HandError, HandKind
from .jsontext import JSONTextError, load_json
from .knock import knock_outcome
from .partnership import Round
from .rules import RulesError, Ruleset
from .session import Session, count_words
from .sessions import KINDS, session_class
from .settlement import balances
from .tally import Payment, Tally

FORMAT = "scorekeeper/1"


# One problem of a record, for a user interface to word: a code and its parameters.
Problem = tuple[str, dict[str, Any]]


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``errors`` holds one line per problem.

    Beside each line, ``problems`` holds its code and parameters (``("", {})`` where a
    line has none), for a user interface to word it in its own language (see
    ``table.messages.explain_record``); a refused hand's problem (``hand``) carries the
    engine's HandError or CardError, a refused rule's (``rules``) its RulesError.

    A text that is no JSON to read at all (too large, too deep, broken) also gives the
    ``code`` and ``params`` of its JSONTextError, for a user interface to word it."""

    def __init__(
        self,
        errors: list[str],
        code: str | None = None,
        *,
        problems: list[Problem] | None = None,
        **params: Any,
    ):
        super().__init__("\n".join(errors))
        self.errors, self.code, self.params = errors, code, params
        self.problems = problems if problems is not None else [("", {}) for _ in errors]

    @classmethod
    def of_text(cls, error: JSONTextError) -> RecordError:
        return cls([str(error)], error.code, **error.params)


class Problems:
    """The error lines of a record, each with its code and parameters beside it."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.problems: list[Problem] = []

    def add(self, line: str, code: str, **params: Any) -> None:
        self.errors.append(line)
        self.problems.append((code, params))

    def __bool__(self) -> bool:
        return bool(self.errors)

    def error(self) -> RecordError:
        return RecordError(self.errors, problems=self.problems)


@dataclass(frozen=True)
class Record:
    kind: str
    rules: Ruleset
    players: tuple[str, ...]
    first_dealer: str | None
    stake: Decimal
    hands: tuple[Hand | Round, ...] = field(default=())  # rounds for a partnership
    # Chouette: a stake per player, counting while he sits in the team; a player
    # missing here plays at ``stake``.
    stakes: dict[str, Decimal] = field(default_factory=dict)


def loads(text: str | bytes) -> Record:
    """Parse the JSON text of a record (at most MAX_RECORD_BYTES), safely: any text
    gives a Record or a RecordError."""
    try:
        data = load_json(text, limit=MAX_RECORD_BYTES, what="record")
    except JSONTextError as error:
        raise RecordError.of_text(error) from None
    return parse_record(data)


def parse_record(data: Any) -> Record:
    """Check the record's structure and each hand's fields (not yet the scoring)."""
    if not isinstance(data, dict):
        raise RecordError(
            ["a record is a JSON object with kind, rules, players and hands"],
            problems=[("not_object", {})],
        )
    errors = Problems()
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        errors.add(
            f"unknown format {shorten(fmt)}: expected {FORMAT!r}",
            "unknown_format",
            value=shorten(fmt),
            expected=FORMAT,
        )
    kind = data.get("kind", "two_player")
    count = None  # how many players the kind seats; unknown for an unknown kind
    if not isinstance(kind, str) or kind not in KINDS:
        errors.add(
            f"unknown kind {shorten(kind)}: choose one of {', '.join(KINDS)}",
            "unknown_kind",
            value=shorten(kind),
            kinds=KINDS,
        )
        kind = "two_player"  # read the rest as far as it goes
    else:
        count = session_class(kind).seats
    raw_rules = data.get("rules", {})
    rules_stake = "0"
    if isinstance(raw_rules, dict):  # a stake among the rules counts when the record has none
        rules_stake = raw_rules.get("stake", rules_stake)
        raw_rules = {k: v for k, v in raw_rules.items() if k != "stake"}
    try:
        rules = Ruleset.from_dict(raw_rules)
    except RulesError as error:
        errors.add(f"rules: {error}", "rules", error=error)
        rules = Ruleset()
    players = data.get("players")
    names = isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players)
    if names:  # each name one the table can seat and show: short, no control characters
        for name in players:
            trouble = name_trouble(name)
            if trouble:
                quoted = repr(name) if len(name) <= 2 * MAX_NAME_LENGTH else shorten(name)
                line = f"players: {quoted} {name_problem(name)}"
                errors.add(line, trouble, name=quoted, longest=MAX_NAME_LENGTH)  # read on
    wrong_count = names and count is not None and len(players) not in count
    if not names or len(set(players)) != len(players) or wrong_count:
        if count is None:
            errors.add("players: give the players as a list of different names", "players")
        else:
            label = kind.replace("_", "-")
            errors.add(
                f"players: a {label} record names "
                f"{count_words(count[0], count[-1])} different players",
                "players_count",
                kind=kind,
                fewest=count[0],
                most=count[-1],
            )
        players = ["?" * n for n in range(1, (count[0] if count else 2) + 1)]
    first_dealer = data.get("first_dealer")
    if first_dealer is not None and first_dealer not in players:
        errors.add(
            f"first_dealer: {shorten(first_dealer)} is not one of the players",
            "first_dealer",
            value=shorten(first_dealer),
        )
    stake = _stake(data.get("stake", rules_stake), errors)
    stakes = _stakes(data.get("stakes"), kind, players, errors)
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        errors.add("hands: a list of hands is expected", "hands_not_list")
        raw_hands = []
    elif len(raw_hands) > MAX_HANDS:
        errors.add(
            f"hands: a partie holds at most {MAX_HANDS} hands, not {len(raw_hands)}",
            "too_many_hands",
            most=MAX_HANDS,
            count=len(raw_hands),
        )
        raw_hands = []
    hands: list[Hand | Round] = []
    for number, raw in enumerate(raw_hands, start=1):
        try:
            hands.append(parse_entry(kind, raw, rules))
        except (HandError, CardError) as error:
            errors.add(problem(number, error), "hand", **hand_params(number, error))
    if errors:
        raise errors.error()
    return Record(kind, rules, tuple(players), first_dealer, stake, tuple(hands), stakes)


def problem(number: int, error: Exception) -> str:
    """The error line of a refused hand: ``hand N: ...``, or ``hand N, table T: ...``."""
    table = getattr(error, "table", None)
    where = f"hand {number}" if table is None else f"hand {number}, table {table}"
    return f"{where}: {error}"


def hand_params(number: int, error: HandError | CardError) -> dict[str, Any]:
    """The parameters of a refused hand's problem: its number, table and refusal."""
    return {"number": number, "table": getattr(error, "table", None), "error": error}


def parse_entry(kind: str, raw: Any, rules: Ruleset | None = None) -> Hand | Round:
    """One entry of a record of ``kind``: a hand, or a partnership's round."""
    return (parse_round if session_class(kind).entry is Round else parse_hand)(raw, rules)


def parse_round(raw: Any, rules: Ruleset | None = None) -> Round:
    """One round of a partnership record: ``{"tables": [HAND, HAND]}``."""
    tables = raw.get("tables") if isinstance(raw, dict) else None
    if not isinstance(tables, list) or len(tables) != 2:
        raise HandError(
            "round_malformed",
            'a partnership hand is a round of two tables: {"tables": [HAND, HAND]}',
        )
    hands = []
    for number, table in enumerate(tables, start=1):
        try:
            hands.append(parse_hand(table, rules))
        except (HandError, CardError) as error:
            refusal = (
                error
                if isinstance(error, HandError)
                else HandError("bad_card", str(error), cause=error)
            )
            refusal.table = number
            raise refusal from None
    return Round((hands[0], hands[1]))


def parse_hand(raw: Any, rules: Ruleset | None = None) -> Hand:
    """One hand object of a record: a knock, gin, big gin or no game.

    A hand may give the cards (``knocker_cards``, ``defender_cards``) instead of the
    deadwoods: the evaluator then plays the knock out under ``rules`` (classic when
    None), lay-offs included.
    """
    if not isinstance(raw, dict):
        raise HandError("hand_not_object", "a hand is a JSON object")
    for flag in ("no_game", "gin", "big_gin"):  # strictly true or false (RULES.md §10.13)
        if flag in raw and not isinstance(raw[flag], bool):
            raise HandError(
                "flag_not_boolean",
                f"{flag} must be true or false, not {shorten(raw[flag])}",
                field="kind",
                flag=flag,
            )
    if raw.get("no_game"):
        return Hand.no_game()
    if "knocker" not in raw:
        raise HandError(
            "knocker_missing", "say who knocked (knocker), or mark a no_game", field="knocker"
        )
    if not isinstance(raw["knocker"], str):
        raise HandError(
            "knocker_not_name",
            f"knocker: give the knocker's name, not {shorten(raw['knocker'])}",
            field="knocker",
        )
    upcard = raw.get("upcard")
    if upcard is not None and not isinstance(upcard, str):
        raise CardError(
            f'upcard: give a card code like "7S", not {shorten(upcard)}', token=shorten(upcard)
        )
    if "knocker_cards" in raw or "defender_cards" in raw:
        return _hand_from_cards(raw, rules if rules is not None else Ruleset())
    kind = (
        HandKind.BIG_GIN
        if raw.get("big_gin")
        else HandKind.GIN
        if raw.get("gin")
        else HandKind.KNOCK
    )
    upcard = raw.get("upcard")
    return Hand(
        kind,
        raw["knocker"],
        raw.get("knocker_deadwood"),
        raw.get("defender_deadwood"),
        None if upcard is None else Card.parse(upcard),
    )


def _hand_from_cards(raw: dict[str, Any], rules: Ruleset) -> Hand:
    """A hand given as both players' cards, played out by knock_outcome.

    ``gin``/``big_gin`` and any deadwood the hand also gives must agree with the cards.
    ``knocker_melds`` (lists of codes), when given, are the melds he laid down.
    """
    cards = {}
    for name in ("knocker_cards", "defender_cards"):
        value = raw.get(name)
        if not isinstance(value, list | str):
            raise HandError(
                "cards_missing",
                'give both players\' cards as lists of codes, like "knocker_cards": '
                '["7H", "8H", ...]',
                field=name,
            )
        try:
            cards[name] = parse_cards(value, (10, 11) if name == "knocker_cards" else (10,))
        except CardError as error:
            raise CardError(
                f"{name}: {error}", code=error.code, token=error.token, **error.params
            ) from None
    melds = raw.get("knocker_melds")
    if melds is not None and (
        not isinstance(melds, list) or not all(isinstance(m, list | str) for m in melds)
    ):
        raise HandError(
            "melds_malformed",
            "knocker_melds: give each meld as a list of codes",
            field="knocker_melds",
        )
    if raw.get("big_gin") and rules.big_gin_bonus is None:
        raise HandError("big_gin_off", "big gin is not played under these rules", field="kind")
    upcard = raw.get("upcard")
    outcome = knock_outcome(
        cards["knocker_cards"],
        cards["defender_cards"],
        rules,
        None if upcard is None else Card.parse(upcard),
        melds,
        knocker=raw["knocker"],
    )
    if raw.get("big_gin") and not outcome.big_gin:
        raise HandError(
            "not_big_gin",
            "the hand says big gin, but the knocker's cards do not all meld",
            field="kind",
        )
    if raw.get("gin") and not outcome.gin:
        raise HandError(
            "gin_with_deadwood",
            f"the hand says gin, but the knocker's cards leave {outcome.knocker_deadwood} deadwood",
            field="knocker_deadwood",
            deadwood=outcome.knocker_deadwood,
        )
    for name, derived in (
        ("knocker_deadwood", outcome.knocker_deadwood),
        ("defender_deadwood", outcome.defender_deadwood),
    ):
        given = raw.get(name)
        if given is not None and given != derived:
            raise HandError(
                "cards_disagree",
                f"{name} is {given!r}, but the cards give {derived}",
                field=name,
                given=given,
                derived=derived,
            )
    return outcome.hand


def _stake(value: Any, errors: Problems, player: str | None = None) -> Decimal:
    """A stake per point within the bounds: a plain decimal from 0 to MAX_STAKE."""
    where = "stake" if player is None else f"stakes: {player}"
    try:
        return check_money(where, value)
    except BoundsError as error:
        errors.add(
            f"{where}: {shorten(value)} is not a money amount per point like "
            f'"0.05": {error.reason}',
            "stake",
            player=player,
            value=shorten(value),
            bound=error,
        )
        return Decimal(0)


def _stakes(value: Any, kind: str, players: list[str], errors: Problems) -> dict[str, Decimal]:
    """A chouette's stakes per player: ``{"Y": "0.10", ...}``; absent means none."""
    if value is None:
        return {}
    if not session_class(kind).own_stakes:
        errors.add("stakes: a stake per player is for a chouette; give one stake", "stakes_kind")
        return {}
    if not isinstance(value, dict):
        errors.add(
            """stakes: give each player's stake per point, like {"Y": "0.10"}""",
            "stakes_not_object",
        )
        return {}
    stakes = {}
    for name, amount in value.items():
        if name not in players:
            errors.add(
                f"stakes: {shorten(name)} is not one of the players",
                "stakes_player",
                value=shorten(name),
            )
        else:
            stakes[name] = _stake(amount, errors, name)
    return stakes


def replay(record: Record) -> Session:
    """Play the record's hands in order; every refused hand is one error line.

    The session is the kind's: a Game, Hollywood, Match, Partnership, Chouette
    or ThreePlayer.
    """
    try:
        session = session_class(record.kind)(record.players, record.rules, record.first_dealer)
    except ValueError as error:  # an unsupported kind, the wrong players, a stranger dealing
        raise RecordError([str(error)], problems=[("setup", {"error": error})]) from None
    errors = Problems()
    for number, entry in enumerate(record.hands, start=1):
        try:
            session.record(entry)
        except HandError as error:
            errors.add(problem(number, error), "hand", **hand_params(number, error))
    if errors:
        raise errors.error()
    return session


def tally(record: Record) -> dict[str, Any]:
    """The tally of FORMAT.md for a record of any kind."""
    session = replay(record)
    payments = session.settle(record.stake, record.stakes)
    dealer = session.dealer
    games = [
        game_json(number, game) | session.game_extras(number)
        for number, game in enumerate(session.games(), start=1)
    ]
    return {
        "games": games,
        "settlement": [payment_json(p) for p in payments],
        "balances": balances_json(record.players, payments, record.rules.money_unit),
        "next_dealer": list(dealer) if isinstance(dealer, tuple) else dealer,
        **session.tally_extras(payments),
    }


def game_json(number: int, result: Tally) -> dict[str, Any]:
    return {
        "number": number,
        "closed": result.closed,
        "winner": result.winner,
        "shutout": result.shutout,
        "players": {
            name: {
                "points": f.points,
                "boxes": f.boxes,
                "box_bonus": f.box_bonus,
                "game_bonus": f.game_bonus,
                "shutout_bonus": f.shutout_bonus,
                "total": f.total,
            }
            for name, f in result.players.items()
        },
        "net": result.net,
    }


def payment_json(payment: Payment) -> dict[str, Any]:
    return {
        "from": payment.payer,
        "to": payment.payee,
        "points": payment.points,
        "amount": str(payment.amount),
    }


def balances_json(
    players: tuple[str, ...], payments: list[Payment], unit: Decimal = Decimal("0.01")
) -> dict[str, Any]:
    return {
        name: {"points": points, "amount": str(amount)}
        for name, (points, amount) in balances(players, payments, unit).items()
    }


def hand_json(hand: Hand) -> dict[str, Any]:
    """A hand as a record writes it (the inverse of parse_hand)."""
    if hand.kind == HandKind.NO_GAME:
        return {"no_game": True}
    data: dict[str, Any] = {"knocker": hand.knocker}
    if hand.kind == HandKind.KNOCK:
        data["knocker_deadwood"] = hand.knocker_deadwood
    else:
        data[hand.kind.value] = True
    data["defender_deadwood"] = hand.defender_deadwood
    if hand.upcard is not None:
        data["upcard"] = hand.upcard.code
    return data


def round_json(round_: Round) -> dict[str, Any]:
    """A partnership round as a record writes it (the inverse of parse_round)."""
    return {"tables": [hand_json(hand) for hand in round_.tables]}


def entry_json(entry: Hand | Round) -> dict[str, Any]:
    return round_json(entry) if isinstance(entry, Round) else hand_json(entry)


def record_json(record: Record) -> dict[str, Any]:
    changes = record.rules.changes_from_preset()
    data = {
        "format": FORMAT,
        "kind": record.kind,
        "rules": {"preset": record.rules.preset, **changes},
        "players": list(record.players),
        "first_dealer": record.first_dealer,
        "stake": str(record.stake),
    }
    if record.stakes:
        data["stakes"] = {name: str(stake) for name, stake in record.stakes.items()}
    data["hands"] = [entry_json(h) for h in record.hands]
    return data
