"""The words of the game, in one place: kinds, presets, rules, outcomes, roles and the
lines of a score sheet. Forms, pages and PDFs all say things the same way, in the active
language (every label is lazy, so it is translated when it is shown).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine.tournaments import RoundName
from scorekeeper.formats import number_text

# Each kind: its short name (sheets, lists) and how the start form explains it.
KIND_NAMES = {
    "two_player": _("Two players"),
    "hollywood": _("Hollywood"),
    "match": _("Match"),
    "partnership": _("Partnership"),
    "chouette": _("Chouette"),
    "three_player": _("Three players"),
}
KIND_CHOICES = {
    "two_player": _("Two players"),
    "hollywood": _("Hollywood (three games at once)"),
    "match": _("Match (best of several games)"),
    "partnership": _("Partnership (four players, two tables)"),
    "chouette": _("Chouette (one in the box against a team)"),
    "three_player": _("Three players (box, captain, out)"),
}

PRESET_LABELS = {
    "classic": _("Classic (German rules: undercut 10, gin 20, box 20)"),
    "modern": _("Modern (undercut 25, gin 25, big gin 31, box 25)"),
    "oklahoma": _("Oklahoma (the upcard sets the knock limit, spades double)"),
    "straight": _("Straight gin (gin only, no knocking)"),
    "round_the_corner": _("Round the corner (K-A-2 runs, ace 15 in deadwood)"),
    "hollywood": _("Hollywood (classic values, three games at once)"),
    "partnership": _("Partnership (classic values, target 125)"),
}

PRESET_NAMES = {
    "classic": _("Classic"),
    "modern": _("Modern"),
    "oklahoma": _("Oklahoma"),
    "straight": _("Straight gin"),
    "round_the_corner": _("Round the corner"),
    "hollywood": _("Hollywood"),
    "partnership": _("Partnership"),
}

# Each rule with its label and a one-line explanation for the start form.
RULE_HELP: dict[str, tuple[Promise, Promise]] = {
    "knock_limit": (
        _("Knock limit"),
        _("Most deadwood a knock may have; 'upcard': the first upcard sets it."),
    ),
    "undercut_bonus": (
        _("Undercut bonus"),
        _("Extra points for the defender who undercuts the knocker."),
    ),
    "tie_is_undercut": (_("Tie is undercut"), _("Equal deadwood counts as an undercut.")),
    "gin_bonus": (_("Gin bonus"), _("Extra points for going gin.")),
    "big_gin_bonus": (
        _("Big gin bonus"),
        _("Extra points when all eleven cards meld; empty: not played."),
    ),
    "box_bonus": (_("Box bonus"), _("Paid at the end for every hand a player won.")),
    "game_bonus": (_("Game bonus"), _("For the player who reaches the target.")),
    "target": (_("Target"), _("Points that end the partie.")),
    "shutout": (_("Shutout"), _("When the loser scored nothing: a bonus, or doubling.")),
    "shutout_bonus": (
        _("Shutout bonus"),
        _("Extra points for a shutout, when the shutout rule is a bonus."),
    ),
    "dealer_rule": (
        _("Next dealer"),
        _("Who deals after a hand; after a no game the same dealer."),
    ),
    "spade_double": (_("Spade doubling"), _("Oklahoma: a spade upcard doubles the hand.")),
    "oklahoma_ace": (
        _("Ace upcard"),
        _("Oklahoma: an ace upcard allows gin only, or a knock with 1."),
    ),
    "extra_boxes_gin": (_("Extra boxes for gin"), _("Boxes on top of the one for winning a hand.")),
    "extra_boxes_undercut": (
        _("Extra boxes for undercut"),
        _("Boxes on top of the one for winning."),
    ),
    "round_the_corner": (
        _("Round the corner"),
        _("K-A-2 and Q-K-A runs; an ace in deadwood counts 15."),
    ),
    "hollywood_game3_double": (_("Hollywood: game 3 double"), _("Game 3 counts double for money.")),
    "best_of": (_("Best of"), _("Games in a match.")),
    "money_unit": (_("Money unit"), _("Money is rounded to this, half up.")),
}

CHOICE_WORDS = {
    "shutout": {
        "bonus": _("bonus"),
        "double_total": _("double the total"),
        "double_hands": _("double the hand points"),
        "none": _("none"),
    },
    "dealer_rule": {
        "loser": _("the loser"),
        "winner": _("the winner"),
        "alternate": _("alternate"),
    },
    "spade_double": {
        "off": _("off"),
        "points": _("points"),
        "points_and_boxes": _("points and boxes"),
    },
    "oklahoma_ace": {"gin_only": _("gin only"), "one": _("knock with 1")},
}
OUTCOMES = {
    engine.Outcome.KNOCK: _("Knock"),
    engine.Outcome.UNDERCUT: _("Undercut"),
    engine.Outcome.GIN: _("Gin"),
    engine.Outcome.BIG_GIN: _("Big gin"),
    engine.Outcome.NO_GAME: _("No game"),
    engine.Outcome.VOID: _("Void"),
}

# The lines under the hands of a score sheet (the box bonus names its amount).
FOOT_LABELS = {
    engine.Foot.POINTS: _("Points"),
    engine.Foot.BOXES: _("Boxes"),
    engine.Foot.GAME_BONUS: _("Game bonus"),
    engine.Foot.SHUTOUT: _("Shutout"),
    engine.Foot.TOTAL: _("Total"),
    engine.Foot.NET: _("Net"),
    engine.Foot.MONEY: _("Money"),
}

# What one entry of a partie is called: a hand, or a partnership's round.
ENTRY_WORDS = {engine.Hand: _("Hand"), engine.Round: _("Round")}

# What a hand line says about who played it (the sheet's columns before the knocker).
WHO_HEADINGS = {
    engine.Who.TABLE: _("Table"),
    engine.Who.BOX: _("Box"),
    engine.Who.CAPTAIN: _("Captain"),
    engine.Who.DEALER: _("Dealer"),
    engine.Who.OUT: _("Out"),
}


def kind_name(kind: str) -> str:
    return str(KIND_NAMES.get(kind, kind))


def preset_name(preset: str) -> str:
    return str(PRESET_NAMES.get(preset, preset))


def rule_label(name: str) -> str:
    return str(RULE_HELP[name][0])


def rule_words(name: str, value: object) -> str:
    """A rule's value in words: ``double the total``, ``yes``, ``off``, ``the upcard``."""
    if name in CHOICE_WORDS:
        return str(CHOICE_WORDS[name].get(value, value))  # type: ignore[call-overload]
    if value == engine.UPCARD:
        return gettext("the upcard")
    if value is None:
        return gettext("off")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return str(value)


def describe_rule(name: str, value: object) -> str:
    """'Gin bonus 30', 'Shutout double the total': one rule in the player's words."""
    if name == "knock_limit" and value == engine.UPCARD:
        return f"{rule_label(name)} {gettext('upcard')}"
    return f"{rule_label(name)} {rule_words(name, value)}"


@dataclass(frozen=True)
class RuleItem:
    """One value of a ruleset, as the rules page lists it."""

    name: str  # the parameter, as RULES.md §8 names it
    label: str
    value: str  # in words: '25', 'the upcard', 'double the total', '0.01'
    meaning: str
    changed: bool  # not the preset's value
    played: bool  # counts in the partie's kind


def rule_items(rules: engine.Ruleset, kind: str) -> list[RuleItem]:
    """Every value of ``rules`` in the order of RULES.md §8, in words, with what it means,
    whether it differs from the preset and whether the kind plays it at all."""
    changed, values = rules.changes_from_preset(), rules.to_dict()
    session = engine.session_class(kind)
    return [
        RuleItem(
            name,
            rule_label(name),
            number_text(getattr(rules, name))
            if isinstance(getattr(rules, name), Decimal)  # the money unit: 0,01 in German
            else rule_words(name, values[name]),
            str(RULE_HELP[name][1]),
            name in changed,
            session.plays_rule(name),
        )
        for name in engine.PARAMETERS
    ]


def rules_to_name(names: Iterable[str], rules: engine.Ruleset) -> list[str]:
    """The rules to name, in order, with a shutout bonus said once: "Shutout bonus 100"
    stands for the shutout rule and its bonus (not "Shutout bonus · Shutout bonus 100").

    >>> rules_to_name(["gin_bonus", "shutout", "target"], engine.preset("modern", shutout="bonus"))
    ['gin_bonus', 'shutout_bonus', 'target']
    """
    names = list(names)
    if rules.shutout == engine.Shutout.BONUS and "shutout" in names:
        at = names.index("shutout")
        names[at : at + 1] = [] if "shutout_bonus" in names else ["shutout_bonus"]
    return names


def outcome_name(outcome: engine.Outcome) -> str:
    return str(OUTCOMES[outcome])


def pending_text(name: str, pending: int) -> str:
    """A player's name with his pending games: "Ben (1 pending)"."""
    games = ngettext("%(games)s pending", "%(games)s pending", pending) % {"games": pending}
    return f"{name} ({games})"


def pending_note(confirmed_games_only: bool) -> str:
    """What the standings' pending marks mean, for a season that counts only confirmed
    games or one that counts every game (the page, and its PDF, under the table)."""
    if confirmed_games_only:
        return gettext(
            "Pending: games that a player linked to an account has not confirmed yet (or "
            "disputes). This season counts a game once its players have confirmed it."
        )
    return gettext(
        "Pending: games that a player linked to an account has not confirmed yet (or "
        "disputes). They count already; a correction would change them."
    )


def game_name(number: int) -> str:
    return gettext("Game %(number)s") % {"number": number}


def column_name(column: engine.Column) -> str:
    """A column's heading: the player's or team's name; a chouette's team is "Team"."""
    return gettext("Team") if column.side == engine.Side.TEAM else column.name


def foot_label(item: engine.Foot, rules: engine.Ruleset) -> str:
    if item == engine.Foot.BOX_BONUS:
        return gettext("Box bonus (%(bonus)s each)") % {"bonus": rules.box_bonus}
    return str(FOOT_LABELS[item])


def box_note(part: engine.Part) -> str | None:
    """A chouette game's line: who sat in the box and who made up the team."""
    if part.box_and_team is None:
        return None
    box, team = part.box_and_team
    return gettext("%(box)s in the box against %(team)s") % {"box": box, "team": ", ".join(team)}


def games_text(games: list[list[tuple[str, int]]], session: type[engine.Session]) -> str:
    """How a partie stands, from its summary's totals (Partie.game_totals), for a list of
    choices: Hollywood by its three games ('Game 1 18 : 18, Game 2 0 : 0, Game 3 0 : 0'),
    a kind of several games by the one being played, a chouette's with its box and team
    named ('Game 2 Anna 0 : Team 40').

    >>> pair = [("Anna", 18), ("Ben", 18)]
    >>> games_text([pair, [("Anna", 0), ("Ben", 0)]], engine.Hollywood)
    'Game 1 18 : 18, Game 2 0 : 0'
    >>> games_text([pair, [("Anna", 0), ("team", 40)]], engine.Chouette)
    'Game 2 Anna 0 : Team 40'
    >>> games_text([pair], engine.Game)
    '18 : 18'
    """

    def score(game: list[tuple[str, int]]) -> str:
        if all(name != engine.TEAM for name, _total in game):  # in the players' order
            return " : ".join(str(total) for _name, total in game)
        return " : ".join(
            f"{gettext('Team') if name == engine.TEAM else name} {total}" for name, total in game
        )

    if not games:
        return ""
    if session.side_by_side:
        return ", ".join(f"{game_name(n)} {score(game)}" for n, game in enumerate(games, 1))
    if session.numbered:
        return f"{game_name(len(games))} {score(games[-1])}"
    return score(games[-1])


def side_name(name: str | None) -> str:
    """A tally's winner in words: a chouette's team column is called "team" in records."""
    return gettext("the team") if name == engine.TEAM else name or ""


def side_heading(name: str) -> str:
    """A column's name over its total: a chouette's team column is "Team"."""
    return gettext("Team") if name == engine.TEAM else name


def won_text(winner: str) -> str:
    """'Anna won', 'the team won': a game's winner, from his column's name."""
    return gettext("%(winner)s won") % {"winner": side_name(winner)}


@dataclass(frozen=True)
class BoardGame:
    """One game of a table on the live board, in words."""

    label: str | None  # "Game 2", where the kind numbers its games
    totals: tuple[tuple[str, int], ...]  # each column's name ("Team") and total
    result: str | None  # "Anna won": a closed game shown beside others (Hollywood)
    named: bool = True  # False: games side by side say "120 : 40", in the players' order


def board_games(
    games: list[list[tuple[str, int]]], winners: list[str | None], session: type[engine.Session]
) -> list[BoardGame]:
    """What a board shows of a partie's games, from its summary (``winners``: each game's
    winning column, None while it runs): games played side by side all of them, by their
    totals in the players' order (as ``games_text``), each with its winner once it is
    over; games played one after another the last one, the one being played or just over
    (``game_over`` names its winner); one game by its totals.

    >>> pair = [("Anna", 120), ("Ben", 40)]
    >>> [(g.label, g.result) for g in board_games([pair, pair], ["Anna", None], engine.Hollywood)]
    [('Game 1', 'Anna won'), ('Game 2', None)]
    >>> board_games([pair, [("Olga", 0), ("team", 40)]], ["Anna", None], engine.Chouette)
    [BoardGame(label='Game 2', totals=(('Olga', 0), ('Team', 40)), result=None, named=True)]
    >>> board_games([pair], [None], engine.Game)
    [BoardGame(label=None, totals=(('Anna', 120), ('Ben', 40)), result=None, named=True)]
    """
    shown = list(enumerate(zip(games, winners, strict=True), start=1))
    if not session.side_by_side:
        shown = shown[-1:]
    return [
        BoardGame(
            game_name(number) if session.numbered else None,
            tuple((side_heading(name), total) for name, total in game),
            won_text(winner) if winner and session.side_by_side else None,
            not session.side_by_side,
        )
        for number, (game, winner) in shown
    ]


def game_over(winners: list[str | None], session: type[engine.Session]) -> str | None:
    """'Game 1 over: Olga won': a kind whose games follow one another, its last game over
    (between two games, or when the table stopped); None for any other.

    >>> game_over(["team", "Olga"], engine.Chouette), game_over(["Olga", None], engine.Chouette)
    ('Game 2 over: Olga won', None)
    >>> game_over(["Anna"], engine.Game), game_over(["Anna", "Ben", None], engine.Hollywood)
    (None, None)
    """
    if not (session.numbered and not session.side_by_side and winners and winners[-1]):
        return None
    return gettext("Game %(number)s over: %(winner)s won") % {
        "number": len(winners),
        "winner": side_name(winners[-1]),
    }


# The columns of a league's standings, in their order.
STANDINGS_COLUMNS = {
    "rank": _("Rank"),
    "player": _("Player"),
    "games": _("Games"),
    "won": _("Won"),
    "lost": _("Lost"),
    "shutout_wins": _("Shutout wins"),
    "league_points": _("League points"),
    "net_points": _("Net points"),
    "money": _("Money"),
    "rating": _("Rating"),
    "hands": _("Hands"),
    "gins": _("Gins"),
    "undercuts": _("Undercuts"),
    "points_per_hand_won": _("Points per hand won"),
    "trend": _("Last five"),
    "pending": _("Pending"),  # games a player has not confirmed yet (the CSV's last column)
    # The rating in full, as the CSV has it (the tables show its ordinal as "rating").
    "mu": _("Skill (μ)"),
    "sigma": _("Uncertainty (σ)"),
    "ordinal": _("Rating"),
}


# What decides the rank (RULES.md §11): the columns a 360 px phone shows of the standings
# without scrolling sideways, and the club's board of its season's table.
KEY_COLUMNS = ("rank", "player", "games", "won", "league_points", "net_points")
# Their heads as short as a phone needs them (the whole head is read out); the rank's is
# a plain "#" there (season_detail.html): the table comes in its order.
SHORT_HEADS = {
    "won": pgettext_lazy("short column head", "Won"),
    "league_points": pgettext_lazy("short column head", "Points"),
    "net_points": pgettext_lazy("short column head", "Net"),
}


def board_standings_columns() -> list[tuple[engine.league.StandingsColumn, str, str]]:
    """The board's season table: each key column, its short head ("#" for the rank) and
    its whole one, which the short one stands for."""
    short = {"rank": pgettext("short column head", "#"), **SHORT_HEADS}
    return [
        (
            engine.league.COLUMNS[key],
            str(short.get(key, STANDINGS_COLUMNS[key])),
            str(STANDINGS_COLUMNS[key]),
        )
        for key in KEY_COLUMNS
    ]


def points_formula(points: engine.LeaguePoints) -> str:
    """A season's league points in words, as its page, its next season's page and its
    printed standings give them; written as every number is (a lost point "−1")."""
    return gettext("win %(win)s, shutout win %(shutout)s, loss %(loss)s") % {
        "win": number_text(points.win),
        "shutout": number_text(points.shutout_win),
        "loss": number_text(points.loss),
    }


def season_subtitle(season) -> str:  # noqa: ANN001 (a league.Season; no model import here)
    """A season's dates and points formula in words, for its printed standings."""
    dates = f"{date_format(season.starts_on)} – {date_format(season.ends_on)}"
    return f"{dates} · {points_formula(season.points)}"


def round_title(name: RoundName) -> str:
    """A tournament's round as people call it (the engine's ``TournamentPlan.round_name``),
    in the reader's language: the heading of a round on the tournament's page, its
    screen in the bar and its PDFs. German has words of its own for the rounds of 16
    and 32 (Achtelfinale, Sechzehntelfinale), so each has a message of its own."""
    number = name.number
    if name.winners:  # a double elimination's winners' bracket
        knockout = {
            "final": gettext("Winners' final"),
            "semi_finals": gettext("Winners' semi-finals"),
            "quarter_finals": gettext("Winners' quarter-finals"),
            16: gettext("Winners' round of 16"),
            32: gettext("Winners' round of 32"),
            "round_of": gettext("Winners' round of %(players)s"),
        }
    else:
        knockout = {
            "final": gettext("Final"),
            "semi_finals": gettext("Semi-finals"),
            "quarter_finals": gettext("Quarter-finals"),
            16: gettext("Round of 16"),
            32: gettext("Round of 32"),
            "round_of": gettext("Round of %(players)s"),
        }
    if name.kind == "round_of":
        return knockout.get(number) or knockout["round_of"] % {"players": number}
    if name.kind in knockout:
        return knockout[name.kind]
    titles = {
        "round": gettext("Round %(number)s"),
        "losers_round": gettext("Losers' round %(number)s"),
        "losers_final": gettext("Losers' final"),
        "grand_final": gettext("Grand final"),
        "grand_final_reset": gettext("Grand final (reset)"),
        "third_place": gettext("Third place"),
        "consolation_round": gettext("Consolation round %(number)s"),
    }
    return titles[name.kind] % {"number": number}
