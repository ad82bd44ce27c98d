"""A notice's words, written at send time in the active language (the worker switches
to the recipient's) from the names and numbers its row keeps."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from .models import Kind, Notice


@dataclass(frozen=True)
class Words:
    subject: str
    lines: tuple[str, ...]  # what happened and what to do, a paragraph each
    action: str  # the label of the link to the page where he acts
    more: tuple[tuple[str, str], ...] = ()  # (label, path) of further links


def names_text(names: list[str]) -> str:
    """Names as a sentence lists them: "Ben", "Ben and Carl", "Ben, Carl and Dora"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def words(notice: Notice) -> Words:
    return WRITERS[notice.kind](notice.params)


def _tables_out(p: dict) -> Words:
    values = {**p, "opponents": names_text(p["opponents"])}
    return Words(
        subject=_("Table %(table)s: you against %(opponents)s") % values,
        lines=(
            _(
                "Round %(round)s of %(season)s has started: you play at table %(table)s "
                "against %(opponents)s."
            )
            % values,
        ),
        action=_("Open your table"),
    )


def _confirm_wanted(p: dict) -> Words:
    values = {**p, "players": names_text(p["players"])}
    return Words(
        subject=_("A result waits for your confirmation"),
        lines=(
            _("Game %(game)s of %(players)s is over.") % values,
            _("Look at its result and confirm it, or dispute it if it is wrong."),
        ),
        action=_("Confirm the result"),
    )


def _result_corrected(p: dict) -> Words:
    values = {**p, "players": names_text(p["players"])}
    return Words(
        subject=_("Your result was corrected"),
        lines=(
            _("Game %(game)s of %(players)s was corrected.") % values,
            _("Look at its result again and confirm it, or dispute it if it is wrong."),
        ),
        action=_("Confirm the result"),
    )


def _result_unlocked(p: dict) -> Words:
    values = {**p, "players": names_text(p["players"])}
    return Words(
        subject=_("The organiser unlocked your result"),
        lines=(
            _(
                "The club's owner unlocked game %(game)s of %(players)s, so that it can be "
                "corrected: you are asked to confirm it again."
            )
            % values,
        ),
        action=_("Open the game"),
    )


def _disputed_lines(p: dict) -> tuple[str, ...]:
    values = {**p, "players": names_text(p["players"])}
    lines = [_("%(by)s disputed game %(game)s of %(players)s.") % values]
    if p.get("note"):
        lines.append(_("The note: “%(note)s”") % values)
    return tuple(lines)


def _result_disputed(p: dict) -> Words:
    return Words(
        subject=_("Your result was disputed"),
        lines=_disputed_lines(p),
        action=_("Open the game"),
    )


def _dispute_opened(p: dict) -> Words:
    return Words(
        subject=_("%(by)s disputed a result") % p,
        lines=(
            *_disputed_lines(p),
            _("A scorer can correct the game; the club's owner can decide the dispute."),
        ),
        action=_("Open the game"),
    )


def _season_closed(p: dict) -> Words:
    return Words(
        subject=_("%(season)s is over: you finished in place %(place)s of %(of)s") % p,
        lines=(_("%(season)s has closed. Your final place: %(place)s of %(of)s.") % p,),
        action=_("Open the final standings"),
        more=((_("The standings as PDF"), p["pdf"]),),
    )


WRITERS = {
    Kind.TABLES_OUT: _tables_out,
    Kind.CONFIRM_WANTED: _confirm_wanted,
    Kind.RESULT_CORRECTED: _result_corrected,
    Kind.RESULT_UNLOCKED: _result_unlocked,
    Kind.RESULT_DISPUTED: _result_disputed,
    Kind.DISPUTE_OPENED: _dispute_opened,
    Kind.SEASON_CLOSED: _season_closed,
}
