"""The refusals of the tournament services and of the engine, in the reader's language.
The engine's English line is the fallback for a code not worded here."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorekeeper.vocabulary import round_title  # noqa: F401 (the pages import it here)

from .services import TournamentRefused


def refusal_text(refused: TournamentRefused) -> str:
    params = refused.params
    if refused.code == "depended_on":
        names = ", ".join(params.get("matches", []))
        return _(
            "This result cannot change while later matches depend on it: void %(matches)s first."
        ) % {"matches": names}
    if refused.code == "bad_field":
        return _("The tournament cannot start: %(problems)s") % {
            "problems": " ".join(
                _field_problem(code, p) or line
                for (code, p), line in zip(params.get("problems", []), refused.errors, strict=False)
            )
        }
    texts = {
        "started": _("The tournament has started: no more players can be entered or seeded."),
        "not_started": _("The tournament has not started yet."),
        "not_of_club": _("Only players of the club can be entered."),
        "bad_order": _("The seeds are no longer those of the players checked in: seed again."),
        "nothing_to_void": _("This match has no result to void."),
        "not_yet": _("This match cannot be played yet: its players are not known."),
        "bye": _("This match is a bye: its player goes on without a result."),
        "no_reset": _("There is no second final: the winners' bracket's winner won the first."),
        "not_in_match": _("The winner must be one of the match's players."),
        "no_time_limit": _("This tournament has no time limit for a round."),
    }
    return texts.get(refused.code) or " ".join(refused.errors) or _("This cannot be done.")


def _field_problem(code: str, params: dict) -> str | None:
    if code == "too_few":
        return _("check in at least two players.")
    if code == "bad_rounds":
        return _("with this many players, a Swiss plays from 1 to %(most)s rounds.") % params
    if code == "bad_top_cut":
        return _("the top cut must be at most the %(players)s players checked in.") % params
    if code == "too_many":
        return _("a tournament has at most %(most)s players.") % params
    return None


def band_title(bracket: str, system: str, part: int, parts: int) -> str:
    """A band's heading on the screen in the bar: its bracket, and its part of it."""
    titles = {
        "winners": _("Winners' bracket") if system == "double_elimination" else _("Bracket"),
        "losers": _("Losers' bracket and grand final"),
        "consolation": _("Consolation bracket"),
        "top_cut": _("Top cut"),
        "rounds": _("Rounds"),
        "swiss_table": _("Swiss table"),
    }
    if parts == 1:
        return titles[bracket]
    return _("%(title)s, part %(part)s of %(parts)s") % {
        "title": titles[bracket],
        "part": part,
        "parts": parts,
    }
