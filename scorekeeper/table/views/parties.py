"""Pages of parties and hands: the home page, a partie started, its rules, its score sheet
with the hand form, a hand recorded, corrected or deleted, a game record exported or
imported; the parties the user played."""

from __future__ import annotations

import copy
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget, trigger_client_event

from scorekeeper import engine
from scorekeeper.clubs.access import Role
from scorekeeper.engine.record import RecordError, record_json
from scorekeeper.inputs import number_param
from scorekeeper.league.views.calendars import calendar_context
from scorekeeper.pwa.account import for_its_account
from scorekeeper.vocabulary import rule_items

from .. import selectors
from ..access import evening_for, partie_for, partie_to_score
from ..forms.hands import entry_form
from ..forms.parties import ImportForm, PartieStartForm, kind_seats
from ..forms.rules import PartieRulesForm, RulesForm, rule_initial
from ..messages import explain, explain_record
from ..models import Evening, HandChange, Partie, Unscorable
from ..services import evenings as evening_services
from ..services import parties as partie_services
from ..services.results import locked_games
from .common import HtmxHttpRequest, _club_form
from .confirmations import games_to_confirm
from .evenings import evening_full_message

PRESET_NOTICE = gettext_lazy(
    "The rule values are now those of the preset you chose: check them and start."
)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The user's parties; ``?show=archived`` the archived ones, ``?show=deleted`` the
    deleted ones, to restore."""
    return _render_home(request, request.GET.get("show", ""))


def _render_home(
    request: HttpRequest, show: str, error: str | None = None, status: int = 200
) -> HttpResponse:
    if not request.user.is_authenticated:
        parties = []
    elif show == "deleted":
        parties = selectors.deleted_parties_of(request.user)
    else:
        parties = selectors.parties_of(request.user, archived=show == "archived")
    context = {"parties": parties, "show": show, "error": error}
    return render(request, "table/home.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def partie_new(request: HttpRequest) -> HttpResponse:
    """A new partie in a club where the user scores: the evening's, if it has one."""
    evening_id = number_param(request.POST, "evening", refuse=True) or number_param(
        request.GET, "evening", refuse=True
    )
    evening = evening_for(request, evening_id, Role.SCORER) if evening_id else None
    if evening is not None and evening.is_settled:
        return redirect(evening)  # a settled evening takes no new partie; its page says so
    club_form = _club_form(request)
    club_chosen = evening is not None or club_form.is_valid()  # an evening has its club
    roster = selectors.roster_names(_roster_club(club_form, evening))
    form = PartieStartForm(request.POST or None, roster=roster)
    notice = None
    if request.method == "POST":
        if form.is_valid() and club_chosen:
            data = form.cleaned_data
            try:
                partie = partie_services.partie_start(
                    evening=evening,
                    club=None if evening else club_form.cleaned_data["club"],
                    owner=request.user,
                    names=data["names"],
                    rules=data["ruleset"],
                    kind=data["kind"],
                    stake=data["stake"],
                    first_dealer=form.first_dealer_name,
                    stakes=data["stakes"],
                )
            except evening_services.EveningFullError as refusal:
                form.add_error(None, evening_full_message(refusal))
            else:
                return redirect(partie)
        if form.has_error(NON_FIELD_ERRORS, "preset_changed"):
            form, notice = PartieStartForm(initial=form.preset_values()), PRESET_NOTICE
    context = {
        "form": form,
        "club_form": None if evening else club_form,
        "notice": notice,
        "evening": evening,
        "seatings": kind_seats(),
        "roster": roster,
    }
    return render(request, "table/partie_new.html", context)


def _roster_club(club_form, evening: Evening | None) -> int | None:
    """The club whose roster the name fields offer: the evening's, the one chosen, or the
    one the form starts with."""
    if evening is not None:
        return evening.club_id
    if club_form.is_bound:
        return club_form.cleaned_data["club"].pk if club_form.is_valid() else None
    initial = str(club_form.initial.get("club") or "")
    if not initial.isdigit():
        return None
    choices = club_form.fields["club"].queryset  # where he scores: a stranger's is none
    return choices.filter(pk=initial).values_list("pk", flat=True).first()


@login_required
@require_safe
def partie_rules(request: HttpRequest) -> HttpResponse:
    """The rule fields filled with a preset's values (the preset menu swaps them in).

    Choosing a kind with presets of its own (Hollywood, partnership) selects them, and
    leaving such a kind goes back to classic rules.
    """
    preset = request.GET.get("preset", "classic")
    if preset not in engine.PRESETS:
        preset = "classic"
    if request.GET.get("kind") in engine.SESSION_KINDS:
        own = {cls.preset for cls in engine.SESSION_KINDS.values()} - {"classic"}
        chosen = engine.session_class(request.GET["kind"]).preset
        preset = chosen if chosen != "classic" else ("classic" if preset in own else preset)
    form = RulesForm(
        initial={**rule_initial(engine.preset(preset)), "shown_preset": preset, "preset": preset}
    )
    return render(request, "table/_rules_fields.html#rules", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def partie_rules_change(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a running partie's rules: a preview of the totals first, then the change.

    A partie that cannot be scored any more is repaired here too, over or not: the form
    starts from its rules as far as the engine still accepts them, and the preview has
    no totals "now"."""
    partie = partie_for(request, pk, Role.SCORER)
    # A finished partie keeps the rules it was played under, unless they must be repaired.
    if not partie.is_running and _sheet_if_scorable(partie) is not None:
        context = {"partie": partie, "finished": True}
        return render(request, "table/partie_rules.html", context, status=400)
    rules_now = selectors.rules_to_repair(partie)
    current = {**rule_initial(rules_now), "shown_preset": rules_now.preset}
    current["stake"] = selectors.per_point(partie.stake)
    form = PartieRulesForm(request.POST or None, initial=current | {"preset": rules_now.preset})
    context = {"partie": partie, "form": form}
    if request.method == "POST" and form.is_valid():
        rules, stake = form.cleaned_data["ruleset"], form.cleaned_data["stake"]
        try:
            if request.POST.get("confirm"):
                partie_services.partie_rules_change(
                    partie=partie, rules=rules, stake=stake, user=request.user
                )
                return redirect(partie)
            before = _sheet_if_scorable(partie)
            replayed = partie_services.partie_replay(partie, rules)
            after = selectors.sheet_of(_at_stake(partie, stake), replayed)
            context |= {"before": before, "after": after}
            if before is None:  # nothing to compare with: the totals under the new rules
                context["totals"] = [(name, None, then) for name, then in after.column_totals]
            else:
                context["totals"] = selectors.compare_totals(before, after)
        except engine.HandError as error:
            form.add_error(None, explain(error))
    elif request.method == "POST" and form.has_error(NON_FIELD_ERRORS, "preset_changed"):
        context["form"] = PartieRulesForm(initial=form.preset_values())
        context["notice"] = _(
            "The rule values are now those of the preset you chose: check them and show the effect."
        )
    status = 400 if form.errors and "notice" not in context else 200
    return render(request, "table/partie_rules.html", context, status=status)


def _at_stake(partie: Partie, stake) -> Partie:
    """The partie as it would be at another stake per point, for a preview (not saved)."""
    preview = copy.copy(partie)
    preview.stake = partie.stake if stake is None else stake
    return preview


@login_required
@require_POST
def partie_first_dealer(request: HttpRequest, pk: int) -> HttpResponse:
    """The players name another first dealer than the cut's, before the first hand."""
    partie = partie_to_score(request, pk)  # the players at the table decide
    try:
        partie_services.partie_first_dealer_change(
            partie=partie, name=request.POST.get("first_dealer", ""), user=request.user
        )
    except partie_services.DealerError:
        message = _("The first dealer changes only before the first hand, to one of the players.")
        messages.error(request, message)
    except engine.HandError as error:  # its evening is settled
        messages.error(request, explain(error))
    return redirect(partie)


def _sheet_if_scorable(partie: Partie) -> selectors.Sheet | None:
    """The partie's sheet, or None for one that cannot be scored any more (in repair)."""
    try:
        return selectors.partie_sheet(partie)
    except Unscorable:
        return None


@login_required
@require_safe
def partie_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The score sheet; with the hand form and the edit links for whoever may score it (a
    scorer, or a member seated at it), and the partie's own settings for a scorer."""
    partie = partie_for(request, pk)
    return _render_table(request, selectors.partie_sheet(partie), read_only=not partie.may_score)


@login_required
@require_safe
def partie_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    """Every value of the rules the partie is scored by, with what it means."""
    return _render_ruleset(request, partie_for(request, pk))


def _render_ruleset(request: HttpRequest, partie: Partie, shared: bool = False) -> HttpResponse:
    rules = partie.ruleset  # one the engine refuses now: the repair page (middleware)
    items = rule_items(rules, partie.kind)
    context = {
        "partie": partie,
        "rules": rules,
        "played": [item for item in items if item.played],
        "unused": [item for item in items if not item.played],
        "shared": shared,
        "scorer": not shared and partie.club_role.includes(Role.SCORER),
    }
    return render(request, "table/partie_ruleset.html", context)


def _render_table(
    request: HtmxHttpRequest,
    sheet: selectors.Sheet,
    form=None,
    read_only: bool = False,
    shared: bool = False,
    status: int = 200,
    live_headers: str | None = None,
    restored: int | None = None,
    undo: HandChange | None = None,
    undo_error: str | None = None,
) -> HttpResponse:
    """The sheet; ``read_only`` without the hand form and edit links (the view of a
    member who does not play in it), ``shared`` as the share link shows it (nothing but
    the sheet and its PDF); the partie's own settings (rules, season, share link,
    archive, delete) for its club's scorers only. ``live_headers``: the sheet polls for
    changes with them (live.py). Whoever scores it finds the undo of the last deletion
    where the hand was (``undo``, ``undo_error``: one that was refused, and why);
    ``restored``: the number of the hand an undo put back, said in the status line."""
    read_only = read_only or shared
    if form is None and not read_only and not sheet.is_over:
        form = entry_form(sheet.partie, at_table=sheet.at_table)
    changes = selectors.partie_changes(sheet.partie)
    # Its games' confirmations, on the page (not in a region HTMX swaps, nor on the share
    # link): none before a game closed, and then no query for them.
    confirmations = None
    if sheet.has_closed_game and not (shared or request.htmx):
        confirmations = selectors.partie_confirmations(sheet.partie)
    context = {
        "sheet": sheet,
        "partie": sheet.partie,
        "form": form,
        "read_only": read_only,
        "manages": not read_only and sheet.partie.club_role.includes(Role.SCORER),
        "shared": shared,
        # Before the first hand the players may name another first dealer (the cut's, or
        # the first named), where the kind lets them choose one.
        "dealer_choice": form is not None
        and not sheet.rows
        and sheet.partie.session_class.dealer_seats() > 0,
        "changes": changes,
        "undo": None if read_only else undo or selectors.deletion_to_undo(changes),
        "undo_error": undo_error,
        "restored": restored,
        "live_headers": live_headers,
        "confirmations": confirmations,
        "locked_hands": {} if read_only else _locked_hands(sheet, confirmations),
    }
    template = "table/partie_detail.html"
    if request.htmx:
        template += "#undone" if restored or undo_error else "#table"
    return render(request, template, context, status=status)


def _locked_hands(
    sheet: selectors.Sheet, confirmations: list[selectors.GameConfirmations] | None = None
) -> dict[int, int]:
    """The hands played in a locked game, each with (the first of) its locked games: the
    page offers no correction of them, but the way to the game, whose owner unlocks it.
    No query before a game closed; none either where the page has its games'
    ``confirmations``."""
    if not sheet.has_closed_game:
        return {}
    if confirmations is None:
        locked = set(locked_games(sheet.partie))
    else:
        locked = {item.game.number for item in confirmations if item.is_locked}
    return sheet.hands_in_games(locked)


@login_required
@require_POST
@for_its_account
def hand_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next hand: a scorer, or a player seated at the partie (he scores his
    own table). The form takes any seated player as knocker; the one
    replay, in the service, refuses one who sits the hand out. A hand queued on a phone
    is sent in the session of the account that entered it only (``for_its_account``),
    and leaves the phone when the answer names it stored (``_stored``)."""
    partie = partie_to_score(request, pk)
    form = entry_form(partie, request.POST)
    if form.is_valid() and request.POST.get("evaluate"):
        # The cards were played out: show the melds and the result, save nothing yet;
        # but what recording would refuse (a knocker who sits out the hand) is said now.
        session = partie_services.partie_replay(partie)
        form = entry_form(partie, request.POST, at_table=session.turn().table)
        form.is_valid()
        try:
            session.record(form.cleaned_data["hand"])
        except engine.HandError as error:
            form.add_engine_error(error, explain(error))
        else:
            return _render_form(request, partie, form.filled())
    elif form.is_valid():
        try:
            written = partie_services.hand_record(
                partie=partie,
                hand=form.cleaned_data["hand"],
                user=request.user,
                key=_entry_key(request),
            )
        except engine.HandError as error:
            form.add_engine_error(error, explain(error))
        else:
            if not request.htmx:
                messages.success(request, _saved_text(written))
                return _stored(redirect(partie), request, written)
            return _stored(_render_recorded(request, partie, written), request, written)
    return _render_form(request, partie, form, status=400)


def _stored(
    response: HttpResponse, request: HttpRequest, written: partie_services.Written
) -> HttpResponse:
    """The server's word that the hand is stored, by its key and its number: the phone
    (static/js/offline.js) forgets a queued hand on this alone, never on a bare 200.
    Also for a key used before (a retry), which names the hand first recorded under it."""
    key = _entry_key(request)
    if key is not None:
        response["Scorekeeper-Hand-Stored"] = str(key)
    response["Scorekeeper-Hand-Number"] = str(written.change.hand_number)
    return response


def _entry_key(request: HttpRequest) -> uuid.UUID | None:
    """The hand form's idempotency key; a form without one (or a mangled one) records
    its hand all the same, only without the guard against a second tap."""
    try:
        return uuid.UUID(request.POST.get("entry_key", ""))
    except ValueError:
        return None


def _saved_text(written: partie_services.Written) -> str:
    number = written.change.hand_number
    if written.replayed:
        return _("Hand %(number)s was saved already: it is recorded once.") % {"number": number}
    return _("Hand %(number)s saved.") % {"number": number}


def _render_form(request: HtmxHttpRequest, partie: Partie, form, status: int = 200) -> HttpResponse:
    """The hand form again: its errors beside the fields, or what the cards gave; the
    knockers offered are the two at the table."""
    sheet = selectors.partie_sheet(partie)
    form.offer(sheet.at_table)
    if request.htmx:  # only the form comes back
        response = render(
            request, "table/partie_detail.html#hand-form", {"partie": partie, "form": form}
        )
        return reswap(retarget(response, "#hand-form"), "outerHTML")
    return _render_table(request, sheet, form=form, status=status)


def _played_at(sheet: selectors.Sheet | None, number: int) -> tuple[str, str] | None:
    """The two who played hand ``number``, where the roles say who plays."""
    if sheet is None:  # in repair: the form offers every seated player
        return None
    row = sheet.row(number)
    return row.table if row else None


def _render_locked(
    request: HttpRequest, partie: Partie, sheet: selectors.Sheet | None, number: int
) -> HttpResponse | None:
    """The page that says hand ``number`` belongs to a locked game, and who can unlock
    it, instead of a form whose saving would be refused (409); None: it does not. A
    partie in repair is left to the service, which refuses what would alter a locked
    game all the same."""
    if sheet is None or not sheet.has_closed_game:
        return None
    locked = locked_games(partie, sheet.games_of(number))
    if not locked:
        return None
    context = {
        "partie": partie,
        "number": number,
        "game": locked[0],
        "numbered": partie.session_class.numbered,
        "owner": partie.club_role == Role.OWNER,
    }
    return render(request, "table/hand_locked.html", context, status=409)


def _render_recorded(
    request: HtmxHttpRequest, partie: Partie, written: partie_services.Written
) -> HttpResponse:
    """The HTMX answer to a recorded hand: the new row and the regions it changed.

    A hand that lands in the table being played, as a row of one table of its own,
    appends one row; otherwise (the end, a new game, a column closing, the roles that
    head the rows) the whole table comes back.
    """
    if partie.last_hand is not None:  # time called: the hand may have ended it
        partie.refresh_from_db(fields=["state", "closed_at", "ended_early", "version"])
    sheet = selectors.sheet_of(partie, written.session)
    context = {
        "sheet": sheet,
        "partie": partie,
        "change": written.change,
        "saved": written.change.hand_number,
        "replayed": written.replayed,
        # The first hand takes away the first dealer's form, where the page had one.
        "first_dealer_gone": len(sheet.rows) == 1 and partie.session_class.dealer_seats() > 0,
        "locked_hands": {},  # a hand of a game still running
    }
    # A replayed key (a retry whose first answer was lost) gets the whole table: the
    # page may or may not show the row yet.
    if not sheet.is_over and _appends_a_row(sheet) and not written.replayed:
        if request.POST.get("form_had_errors"):  # a clean form replaces the one with errors
            context["form"] = entry_form(partie, at_table=sheet.at_table)
        response = render(request, "table/partie_detail.html#recorded", context)
        return trigger_client_event(response, "hand-recorded")
    context["form"] = None if sheet.is_over else entry_form(partie, at_table=sheet.at_table)
    context["locked_hands"] = _locked_hands(sheet)
    response = render(request, "table/partie_detail.html#table-and-change", context)
    return reswap(retarget(response, "#table"), "outerHTML")


def _appends_a_row(sheet: selectors.Sheet) -> bool:
    """Whether the new hand only adds a row to the table being played: it started no new
    table (a new game), closed no game, and the same two stay at the table (the form
    offers them as knockers)."""
    table = sheet.tables[-1].part
    starts_a_table = len(sheet.tables) > 1 and len(table.rows) == 1
    same_two = sheet.turn.table == table.rows[-1].table
    return same_two and not (starts_a_table or table.closed)


@login_required
@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct a hand: a scorer, or a player seated at the partie. A hand of a locked
    game says so instead (``_render_locked``)."""
    partie = partie_to_score(request, pk)
    hands = list(partie.hands.select_related("knocker").filter(number=number))
    if not hands:
        raise Http404(_("There is no such hand."))
    sheet = _sheet_if_scorable(partie)
    if (locked := _render_locked(request, partie, sheet, number)) is not None:
        return locked
    form = entry_form(partie, request.POST or None, hands, _played_at(sheet, number))
    if request.method == "POST" and form.is_valid() and request.POST.get("evaluate"):
        # "Find the melds": what the cards give, filled in; nothing is saved yet.
        context = {"partie": partie, "number": number, "form": form.filled()}
        return render(request, "table/hand_edit.html", context)
    if request.method == "POST" and form.is_valid():
        try:
            partie_services.hand_edit(
                partie=partie, number=number, hand=form.cleaned_data["hand"], user=request.user
            )
        except engine.HandError as error:
            form.add_engine_error(error, explain(error))
        else:
            return redirect(partie)
    context = {"partie": partie, "number": number, "form": form}
    return render(request, "table/hand_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def hand_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Delete a hand: a scorer, or a player seated at the partie. A hand of a locked game
    says so instead (``_render_locked``)."""
    partie = partie_to_score(request, pk)
    if not partie.hands.filter(number=number).exists():
        raise Http404(_("There is no such hand."))
    locked = _render_locked(request, partie, _sheet_if_scorable(partie), number)
    if locked is not None:
        return locked
    error = None
    if request.method == "POST":
        try:
            partie_services.hand_delete(partie=partie, number=number, user=request.user)
        except engine.HandError as refusal:
            error = explain(refusal)
        else:  # the partie's page, at the place of the hand, with its undo
            return redirect(partie.get_absolute_url() + "#undo-notice")
    context = {"partie": partie, "number": number, "error": error}
    return render(request, "table/hand_delete.html", context, status=400 if error else 200)


@login_required
@require_safe
def partie_export(request: HttpRequest, pk: int) -> HttpResponse:
    partie = partie_for(request, pk)
    response = JsonResponse(
        record_json(selectors.partie_record(partie)),
        json_dumps_params={"indent": 2, "ensure_ascii": False},
    )
    name = slugify("-".join(partie.player_names)) or "partie"
    response["Content-Disposition"] = f'attachment; filename="partie-{partie.pk}-{name}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def partie_import(request: HttpRequest) -> HttpResponse:
    """A game record as a new partie, in a club where the user scores."""
    form = ImportForm(request.POST or None, request.FILES or None)
    club_form = _club_form(request)
    if request.method == "POST" and form.is_valid() and club_form.is_valid():
        try:
            partie = partie_services.partie_import(
                owner=request.user,
                club=club_form.cleaned_data["club"],
                record=form.cleaned_data["record"],
            )
        except RecordError as error:
            form.add_error(None, explain_record(error))
        else:
            return redirect(partie)
    context = {"form": form, "club_form": club_form}
    status = 400 if form.errors or club_form.errors else 200
    return render(request, "table/partie_import.html", context, status=status)


@login_required
@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    """The parties the user played, as the player linked to his account in each club, and
    the debts still open between him and others (a club he has left included); the games
    he is asked to confirm, and the disputed games of the clubs where he scores."""
    parties = Paginator(selectors.parties_played_by(request.user), 50)
    context = {
        "page": parties.get_page(number_param(request.GET, "page")),
        "debts": selectors.open_debts_of(request.user),
        "to_confirm": games_to_confirm(request),
        "disputed": selectors.disputed_games_for(request.user),
        **calendar_context(request.user, None),
    }
    return render(request, "table/my_games.html", context)
