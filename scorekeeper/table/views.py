"""Thin views: fetch through an access helper, clean a form, call a service, render.

One template per page; an HTMX request gets only the named partial of the same
template, so the page and its swap never drift apart.
"""

from __future__ import annotations

import contextlib
import uuid

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling, reswap, retarget, trigger_client_event
from django_htmx.middleware import HtmxDetails

from scorekeeper import engine
from scorekeeper.accounts import throttle
from scorekeeper.clubs.access import (
    Role,
    club_of,
    evening_for,
    object_in_club,
    partie_for,
    player_for,
)
from scorekeeper.clubs.forms import ClubChoiceForm
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine.record import RecordError, record_json
from scorekeeper.league.players import club_players, player_record
from scorekeeper.sheets.data import Debt, SettleLine, score_pad, score_sheet
from scorekeeper.sheets.data import evening_sheet as evening_pdf_sheet
from scorekeeper.sheets.render import render_evening, render_pad, render_score_sheet
from scorekeeper.vocabulary import rule_items

from . import live, selectors, services
from .forms import (
    EveningForm,
    EveningPartieForm,
    ImportForm,
    PadForm,
    PartieStartForm,
    PlayerAccountForm,
    PlayerMergeForm,
    PlayerRenameForm,
    RulesForm,
    entry_form,
    evening_label,
    kind_seats,
    rule_initial,
)
from .messages import explain, explain_record
from .models import Evening, HandChange, Partie, Unscorable, scoring

PRESET_NOTICE = gettext_lazy(
    "The rule values are now those of the preset you chose: check them and start."
)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether
    htmx sent it (and how), so a view answers with a partial or the whole page."""

    htmx: HtmxDetails


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


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account with its personal club; then on to ``next`` (an invitation link)."""
    form = UserCreationForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.method == "POST":
        # Counted per address in the database before anything else, so that no app
        # server lets one address create accounts without end.
        address = throttle.client_address(request)
        if throttle.signup_throttled(address):
            context = {"form": UserCreationForm(), "next": next_url}
            context["refusal"] = throttle.signup_message()
            return render(request, "registration/signup.html", context, status=429)
        throttle.signup_attempt_record(address)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        personal_club(user)
        # Named, since axes' backend stands before Django's in AUTHENTICATION_BACKENDS.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _with_preset_values(form_class: type[RulesForm], form: RulesForm, **initial) -> RulesForm:
    """Without JavaScript a new preset arrives with the old values: show its own."""
    preset = form.cleaned_data["preset"]
    values = {**form.data.dict(), **rule_initial(engine.preset(preset)), "shown_preset": preset}
    return form_class(initial=values | initial)


@login_required
@require_http_methods(["GET", "POST"])
def partie_new(request: HttpRequest) -> HttpResponse:
    """A new partie in a club where the user scores: the evening's, if it has one."""
    evening_id = request.POST.get("evening") or request.GET.get("evening") or ""
    if evening_id and not evening_id.isdigit():
        raise Http404(_("There is no such evening."))
    evening = evening_for(request, int(evening_id), Role.SCORER) if evening_id else None
    if evening is not None and evening.is_settled:
        return redirect(evening)  # a settled evening takes no new partie; its page says so
    form = PartieStartForm(request.POST or None)
    club_form = _club_form(request)
    notice = None
    if request.method == "POST":
        club_chosen = evening is not None or club_form.is_valid()  # an evening has its club
        if form.is_valid() and club_chosen:
            data = form.cleaned_data
            try:
                partie = services.partie_start(
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
            except services.EveningFullError as refusal:
                form.add_error(None, evening_full_message(refusal))
            else:
                return redirect(partie)
        if form.has_error(NON_FIELD_ERRORS, "preset_changed"):
            form, notice = _with_preset_values(PartieStartForm, form), PRESET_NOTICE
    context = {
        "form": form,
        "club_form": None if evening else club_form,
        "notice": notice,
        "evening": evening,
        "seatings": kind_seats(),
    }
    return render(request, "table/partie_new.html", context)


def _club_form(request: HttpRequest) -> ClubChoiceForm:
    """The club a new partie, import or evening goes to; a club page's link names it."""
    data = request.POST if request.method == "POST" else None  # bound, though empty
    initial = {"club": request.GET.get("club")}
    return ClubChoiceForm(data, user=request.user, initial=initial)


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
    form = RulesForm(request.POST or None, initial=current | {"preset": rules_now.preset})
    context = {"partie": partie, "form": form}
    if request.method == "POST" and form.is_valid():
        rules = form.cleaned_data["ruleset"]
        try:
            if request.POST.get("confirm"):
                services.partie_rules_change(partie=partie, rules=rules, user=request.user)
                return redirect(partie)
            before = _sheet_if_scorable(partie)
            after = selectors.sheet_of(partie, services.partie_replay(partie, rules))
            context |= {"before": before, "after": after}
            if before is None:  # nothing to compare with: the totals under the new rules
                context["totals"] = [(name, None, then) for name, then in after.column_totals]
            else:
                context["totals"] = selectors.compare_totals(before, after)
        except engine.HandError as error:
            form.add_error(None, explain(error))
    elif request.method == "POST" and form.has_error(NON_FIELD_ERRORS, "preset_changed"):
        context["form"] = _with_preset_values(RulesForm, form)
        context["notice"] = _(
            "The rule values are now those of the preset you chose: check them and show the effect."
        )
    status = 400 if form.errors and "notice" not in context else 200
    return render(request, "table/partie_rules.html", context, status=status)


def _sheet_if_scorable(partie: Partie) -> selectors.Sheet | None:
    """The partie's sheet, or None for one that cannot be scored any more (in repair)."""
    try:
        return selectors.partie_sheet(partie)
    except Unscorable:
        return None


@login_required
@require_safe
def partie_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The score sheet; with the hand form and the edit links for a scorer."""
    partie = partie_for(request, pk)
    read_only = not partie.club_role.includes(Role.SCORER)
    return _render_table(request, selectors.partie_sheet(partie), read_only=read_only)


@require_safe
def shared_partie(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The read-only view behind a share link: no form, no edit links. It follows the
    table by itself, and answers "unchanged" from the version alone (live.py)."""
    row = Partie.objects.filter(share_token=token).values("pk", "version", "state").first()
    if row is None:
        return _link_gone(request, "table")
    if not_modified := live.unchanged(request, live.partie_live(**row)):
        return not_modified
    queryset = selectors.partie_with_players(Partie.objects.all())
    partie = get_object_or_404(queryset, pk=row["pk"], share_token=token)
    shown = live.partie_live(partie.pk, partie.version, partie.state)
    sheet = selectors.partie_sheet(partie)
    response = _render_table(request, sheet, shared=True, live_headers=shown.headers)
    return live.answer(request, response, shown)


@login_required
@require_safe
def partie_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    """Every value of the rules the partie is scored by, with what it means."""
    return _render_ruleset(request, partie_for(request, pk))


@require_safe
def shared_partie_ruleset(request: HttpRequest, token: str) -> HttpResponse:
    """The rules behind a share link, as its players read them at the table."""
    partie = get_object_or_404(Partie.objects.select_related("club"), share_token=token)
    return _render_ruleset(request, partie, shared=True)


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


def _link_gone(request: HtmxHttpRequest, region: str) -> HttpResponse:
    """A share link that does not work (any more): 404; a page that polled it is told
    so in place of its region, and stops polling."""
    if not request.htmx:
        raise Http404(_("This link does not work: it was withdrawn or replaced."))
    content = render_to_string("table/_link_gone.html", {"region": region}, request)
    return HttpResponseStopPolling(content)


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
    """The sheet; ``read_only`` without the hand form and edit links (a member's view),
    ``shared`` as the share link shows it (nothing but the sheet and its PDF);
    ``live_headers``: the sheet polls for changes with them (live.py). A scorer finds
    the undo of the last deletion where the hand was (``undo``, ``undo_error``: one that
    was refused, and why);
    ``restored``: the number of the hand an undo put back, said in the status line."""
    read_only = read_only or shared
    if form is None and not read_only and not sheet.is_over:
        form = entry_form(sheet.partie, at_table=sheet.at_table)
    changes = list(selectors.partie_changes(sheet.partie)[:50])
    context = {
        "sheet": sheet,
        "partie": sheet.partie,
        "form": form,
        "read_only": read_only,
        "shared": shared,
        "changes": changes,
        "undo": None if read_only else undo or selectors.deletion_to_undo(changes),
        "undo_error": undo_error,
        "restored": restored,
        "live_headers": live_headers,
    }
    template = "table/partie_detail.html"
    if request.htmx:
        template += "#undone" if restored or undo_error else "#table"
    return render(request, template, context, status=status)


@login_required
@require_POST
def hand_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next hand. The form takes any seated player as knocker; the one
    replay, in the service, refuses one who sits the hand out."""
    partie = partie_for(request, pk, Role.SCORER)
    form = entry_form(partie, request.POST)
    if form.is_valid() and request.POST.get("evaluate"):
        # The cards were played out: show the melds and the result, save nothing yet;
        # but what recording would refuse (a knocker who sits out the hand) is said now.
        session = services.partie_replay(partie)
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
            written = services.hand_record(
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
                return redirect(partie)
            return _render_recorded(request, partie, written)
    return _render_form(request, partie, form, status=400)


def _entry_key(request: HttpRequest) -> uuid.UUID | None:
    """The hand form's idempotency key; a form without one (or a mangled one) records
    its hand all the same, only without the guard against a second tap."""
    try:
        return uuid.UUID(request.POST.get("entry_key", ""))
    except ValueError:
        return None


def _saved_text(written: services.Written) -> str:
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


def _played_at(partie: Partie, number: int) -> tuple[str, str] | None:
    """The two who played hand ``number``, where the roles say who plays."""
    sheet = _sheet_if_scorable(partie)
    if sheet is None:  # in repair: the form offers every seated player
        return None
    row = sheet.row(number)
    return row.table if row else None


def _render_recorded(
    request: HtmxHttpRequest, partie: Partie, written: services.Written
) -> HttpResponse:
    """The HTMX answer to a recorded hand: the new row and the regions it changed.

    A hand that lands in the table being played, as a row of one table of its own,
    appends one row; otherwise (the end, a new game, a column closing, the roles that
    head the rows) the whole table comes back.
    """
    sheet = selectors.sheet_of(partie, written.session)
    context = {
        "sheet": sheet,
        "partie": partie,
        "change": written.change,
        "saved": written.change.hand_number,
        "replayed": written.replayed,
    }
    # A replayed key (a retry whose first answer was lost) gets the whole table: the
    # page may or may not show the row yet.
    if not sheet.is_over and _appends_a_row(sheet) and not written.replayed:
        if request.POST.get("form_had_errors"):  # a clean form replaces the one with errors
            context["form"] = entry_form(partie, at_table=sheet.at_table)
        response = render(request, "table/partie_detail.html#recorded", context)
        return trigger_client_event(response, "hand-recorded")
    context["form"] = None if sheet.is_over else entry_form(partie, at_table=sheet.at_table)
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
    partie = partie_for(request, pk, Role.SCORER)
    hands = list(partie.hands.select_related("knocker").filter(number=number))
    if not hands:
        raise Http404(_("There is no such hand."))
    form = entry_form(partie, request.POST or None, hands, _played_at(partie, number))
    if request.method == "POST" and form.is_valid() and request.POST.get("evaluate"):
        # "Find the melds": what the cards give, filled in; nothing is saved yet.
        context = {"partie": partie, "number": number, "form": form.filled()}
        return render(request, "table/hand_edit.html", context)
    if request.method == "POST" and form.is_valid():
        try:
            services.hand_edit(
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
    partie = partie_for(request, pk, Role.SCORER)
    if not partie.hands.filter(number=number).exists():
        raise Http404(_("There is no such hand."))
    error = None
    if request.method == "POST":
        try:
            services.hand_delete(partie=partie, number=number, user=request.user)
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
            partie = services.partie_import(
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


# Evenings and players


@login_required
@require_http_methods(["GET", "POST"])
def evening_list(request: HttpRequest) -> HttpResponse:
    """The evenings of the user's clubs; a new one in a club where he scores."""
    form = EveningForm(request.POST or None)
    club_form = _club_form(request)
    if request.method == "POST" and form.is_valid() and club_form.is_valid():
        evening = services.evening_start(
            owner=request.user, club=club_form.cleaned_data["club"], **form.cleaned_data
        )
        return redirect(evening)
    context = {
        "form": form,
        "club_form": club_form,
        "evenings": selectors.evenings_of(request.user),
    }
    status = 400 if form.errors or club_form.errors else 200
    return render(request, "table/evening_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def evening_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening's parties and money; a scorer adds parties to it."""
    evening = evening_for(request, pk, Role.SCORER if request.method == "POST" else Role.MEMBER)
    form = EveningPartieForm(request.POST or None, evening=evening)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.partie_evening_set(partie=form.cleaned_data["partie"], evening=evening)
        except services.EveningSettledError as refusal:  # this one or the partie's own
            error = _("The evening %(evening)s is settled up: its parties cannot change.") % {
                "evening": evening_label(refusal.evening)
            }
        except services.EveningFullError as refusal:
            error = evening_full_message(refusal)
        else:
            return redirect(evening)
    context = {
        "evening": evening,
        "sheet": selectors.evening_sheet(evening),
        "form": form,
        "error": error,
        "read_only": not evening.club_role.includes(Role.SCORER),
        "can_reopen": evening.club_role.includes(Role.OWNER),
        "reopened": selectors.evening_reopened(evening),
    }
    return render(
        request, "table/evening_detail.html", context, status=400 if form.errors or error else 200
    )


@login_required
@require_POST
def evening_settle(request: HttpRequest, pk: int) -> HttpResponse:
    evening = evening_for(request, pk, Role.SCORER)
    # Settled already (a second tap): the page shows the payments all the same.
    with contextlib.suppress(services.EveningSettledError):
        try:
            services.evening_settle(evening=evening)
        except services.EveningAmountError as refusal:
            message = _(
                "%(amount)s is more than one payment can hold: mark the debts carried in "
                "from earlier evenings as paid, then settle up."
            )
            messages.error(request, message % {"amount": refusal.amount})
    return redirect(evening)


def evening_full_message(refusal: services.EveningFullError) -> str:
    return _(
        "The evening %(evening)s holds %(most)s parties, the most one evening may: "
        "start another evening."
    ) % {"evening": evening_label(refusal.evening), "most": refusal.most}


@login_required
@require_POST
def evening_payment_paid(request: HtmxHttpRequest, pk: int, payment: int) -> HttpResponse:
    evening = evening_for(request, pk, Role.SCORER)
    row = get_object_or_404(evening.payments.select_related("payer", "payee"), pk=payment)
    # A debt carried into a later evening is paid there; this one then stays as it is.
    with contextlib.suppress(services.EveningSettledError):
        services.evening_payment_paid(payment=row, paid=request.POST.get("paid") != "0")
    if request.htmx:
        return render(
            request, "table/evening_detail.html#payment", {"evening": evening, "payment": row}
        )
    return redirect(evening)


@login_required
@require_safe
def player_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's players, searched by name (any case); HTMX swaps only the list."""
    club, role = club_of(request, slug)
    query = request.GET.get("q", "").strip()
    context = {"club": club, "role": role, "query": query, "players": club_players(club.pk, query)}
    template = "table/player_list.html#players" if request.htmx else "table/player_list.html"
    return render(request, template, context)


@login_required
@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_for(request, pk)
    return _render_player(request, player)


@login_required
@require_POST
def player_account(request: HttpRequest, pk: int) -> HttpResponse:
    """Link the player to a member's account, or to nobody."""
    player = player_for(request, pk, Role.SCORER)
    form = PlayerAccountForm(request.POST, player=player)
    if form.is_valid():
        services.player_link(player=player, user=form.cleaned_data["user"])
        return redirect("player_detail", player.pk)
    return _render_player(request, player, account_form=form, status=400)


@login_required
@require_POST
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_for(request, pk, Role.SCORER)
    form = PlayerRenameForm(request.POST)
    if form.is_valid():
        try:
            services.player_rename(player=player, name=form.cleaned_data["name"], user=request.user)
        except services.PlayerError as error:
            form.add_error("name", str(error))
        else:
            return redirect("player_detail", player.pk)
    return _render_player(request, player, rename_form=form, status=400)


@login_required
@require_POST
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another player of the club into this one: what it will do first, then, once
    confirmed, the merge."""
    player = player_for(request, pk, Role.SCORER)
    form = PlayerMergeForm(request.POST, player=player)
    if form.is_valid():
        other = form.cleaned_data["other"]
        try:
            if request.POST.get("confirm"):
                services.player_merge(keep=player, gone=other, user=request.user)
                return redirect("player_detail", player.pk)
            services.player_merge_check(keep=player, gone=other)
        except services.PlayerError as error:
            form.add_error("other", str(error))
        else:
            context = {"player": player, "other": other, "ledger": selectors.player_ledger(other)}
            return render(request, "table/player_merge.html", context)
    return _render_player(request, player, merge_form=form, status=400)


def _render_player(
    request: HttpRequest,
    player,
    *,
    account_form: PlayerAccountForm | None = None,
    rename_form: PlayerRenameForm | None = None,
    merge_form: PlayerMergeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The player's page; a scorer gets the forms to link, rename and merge him."""
    if player.club_role.includes(Role.SCORER):
        account_form = account_form or PlayerAccountForm(
            player=player, initial={"user": player.user_id}
        )
        rename_form = rename_form or PlayerRenameForm(initial={"name": player.name})
        merge_form = merge_form or PlayerMergeForm(player=player)
    context = {
        "ledger": selectors.player_ledger(player),
        "record": player_record(player),
        "account_form": account_form,
        "rename_form": rename_form,
        "merge_form": merge_form,
    }
    return render(request, "table/player_detail.html", context, status=status)


@login_required
@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    """The parties the user played, as the player linked to his account in each club."""
    parties = Paginator(selectors.parties_played_by(request.user), 50)
    return render(
        request, "table/my_games.html", {"page": parties.get_page(request.GET.get("page"))}
    )


# Share links and the live boards of a club night (live.py)


@login_required
@require_POST
def partie_share(request: HttpRequest, pk: int) -> HttpResponse:
    """A new read-only link for the partie, which ends the old one; ``shared=0``: none."""
    partie = partie_for(request, pk, Role.SCORER)
    services.partie_share(partie=partie, shared=request.POST.get("shared") != "0")
    return redirect(partie)


@login_required
@require_POST
def evening_share(request: HttpRequest, pk: int) -> HttpResponse:
    """A read-only link to the evening's board (a new one ends the old); ``shared=0``: none."""
    evening = evening_for(request, pk, Role.SCORER)
    services.evening_share(evening=evening, shared=request.POST.get("shared") != "0")
    return redirect("evening_board", evening.pk)


@login_required
@require_safe
def evening_board(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every table of the evening, following the hands as they are recorded."""
    evening = evening_for(request, pk)
    role = Role(evening.club_role)
    return _render_board(request, live.evening_board(evening), scorer=role.includes(Role.SCORER))


@require_safe
def shared_evening_board(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The evening's board behind its read-only link: for anyone, logged in or not."""
    evening = Evening.objects.filter(share_token=token).first()
    if evening is None:
        return _link_gone(request, "board")
    return _render_board(request, live.evening_board(evening), shared=True)


@login_required
@require_safe
def club_board(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's running tables, whichever evening they belong to."""
    club, _role = club_of(request, slug)
    return _render_board(request, live.club_board(club))


def _render_board(
    request: HtmxHttpRequest, board: live.Board, shared: bool = False, scorer: bool = False
) -> HttpResponse:
    """The board, or its region for the page polling it; "unchanged" from the versions."""
    follow = board.live()
    if not_modified := live.unchanged(request, follow):
        return not_modified
    context = {
        "board": board,
        "tables": board.tables(),
        "shared": shared,
        "scorer": scorer,
        "live_headers": follow.headers,
    }
    template = "table/board.html#board" if request.htmx else "table/board.html"
    return live.answer(request, render(request, template, context), follow)


# PDF: score sheets, evening tallies and blank score pads


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _partie_pdf(partie: Partie) -> HttpResponse:
    names = " – ".join(partie.player_names)
    with scoring(partie):  # the PDF replays the partie's record on its own
        sheet = score_sheet(
            selectors.partie_record(partie), title=names, played_on=partie.started_at.date()
        )
    slug = slugify("-".join(partie.player_names)) or "partie"
    return _pdf(render_score_sheet(sheet), f"scoresheet-{partie.started_at:%Y-%m-%d}-{slug}.pdf")


@login_required
@require_safe
def partie_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _partie_pdf(partie_for(request, pk))


@require_safe
def shared_partie_pdf(request: HttpRequest, token: str) -> HttpResponse:
    queryset = selectors.partie_with_players(Partie.objects.all())
    return _partie_pdf(get_object_or_404(queryset, share_token=token))


@login_required
@require_safe
def evening_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    evening = evening_for(request, pk)
    sheet = selectors.evening_sheet(evening)
    parties = [
        (" – ".join(result.sheet.players), selectors.partie_record(result.partie))
        for result in sheet.results
    ]
    # Settled: the payments as frozen, each paid, open or carried on; before: the transfers.
    transfers = [
        SettleLine(
            p.payer.name,
            p.payee.name,
            p.amount,
            paid=p.paid_at is not None,
            carried_to=p.carried_to.name if p.carried_to else None,
        )
        for p in sheet.payments
    ] or sheet.transfers
    debts = [
        Debt(d.payer.name, d.payee.name, d.amount, d.evening.name, d.evening.played_on)
        for d in sheet.debts
    ]
    document = evening_pdf_sheet(
        parties, transfers, name=evening.name, played_on=evening.played_on, debts=debts
    )
    slug = slugify(evening.name) or "evening"
    return _pdf(render_evening(document), f"evening-{evening.played_on:%Y-%m-%d}-{slug}.pdf")


@login_required
@require_safe
def pad(request: HttpRequest) -> HttpResponse:
    """Blank score pads to print: the form, and the PDF once it is filled in."""
    form = PadForm(request.GET or None)
    if request.GET and form.is_valid():
        data = form.cleaned_data
        document = score_pad(data["kind"], data["ruleset"], paper=data["paper"])
        filename = f"scorepad-{data['kind']}-{data['ruleset'].preset}-{data['paper']}.pdf"
        return _pdf(render_pad(document), filename)
    if request.GET and form.has_error(NON_FIELD_ERRORS, "preset_changed"):
        form = _with_preset_values(PadForm, form)
    return render(request, "table/pad.html", {"form": form}, status=400 if form.errors else 200)


# Repair: a partie deleted (and restored) or archived, a deleted hand put back, a settled
# evening reopened (and settled as before). Every one is in the audit trail.


def _home_url(show: str) -> str:
    return f"{reverse('home')}?show={show}"


@login_required
@require_http_methods(["GET", "POST"])
def partie_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a partie once confirmed; the deleted parties' list can restore it."""
    partie = partie_for(request, pk, Role.SCORER)
    error = None
    if request.method == "POST":
        try:
            services.partie_delete(partie=partie, user=request.user)
        except services.RepairError as refusal:
            error = str(refusal)
        else:
            return redirect(_home_url("deleted"))
    context = {"partie": partie, "error": error}
    return render(request, "table/partie_delete.html", context, status=400 if error else 200)


@login_required
@require_POST
def partie_restore(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo a partie's deletion: back to its page."""
    deleted = Partie.all_objects.filter(deleted_at__isnull=False).select_related("club")
    partie = object_in_club(request, deleted, pk, Role.SCORER)
    try:
        services.partie_restore(partie=partie, user=request.user)
    except services.RepairError as refusal:
        return _render_home(request, "deleted", error=str(refusal), status=400)
    return redirect(partie)


@login_required
@require_POST
def partie_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Archive a partie (``archived=1``) or take it out of the archive (``archived=0``)."""
    partie = partie_for(request, pk, Role.SCORER)
    archived = request.POST.get("archived") != "0"
    services.partie_archive(partie=partie, user=request.user, archived=archived)
    return redirect(_home_url("archived") if not archived else partie.get_absolute_url())


@login_required
@require_POST
def change_undo(request: HtmxHttpRequest, pk: int, change: int) -> HttpResponse:
    """Undo a change of the partie's audit trail: a deleted hand goes back to its place.
    From the undo at hand with HTMX, the table comes back in place: the hand restored,
    or the reason it cannot be (HTMX swaps a 200 only)."""
    partie = partie_for(request, pk, Role.SCORER)
    entry = get_object_or_404(partie.changes, pk=change)
    try:
        written = services.hand_restore(partie=partie, change=entry, user=request.user)
    except services.RepairError as refusal:
        error = str(refusal)
    except engine.HandError as refusal:
        error = explain(refusal)
    else:
        if request.htmx:
            sheet = selectors.sheet_of(partie, written.session)
            return _render_table(request, sheet, restored=entry.hand_number)
        number = entry.hand_number
        messages.success(request, _("Hand %(number)s is back in its place.") % {"number": number})
        return redirect(partie)
    if request.htmx and (sheet := _sheet_if_scorable(partie)) is not None:
        return _render_table(request, sheet, undo=entry, undo_error=error)
    context = {"partie": partie, "change": entry, "error": error}
    return render(request, "table/change_undo.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def evening_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen a settled evening once its owner confirms: its payments are dropped, so that
    its parties can be corrected and the evening settled anew."""
    evening = evening_for(request, pk, Role.OWNER)
    error = None
    if request.method == "POST":
        try:
            services.evening_reopen(evening=evening, user=request.user)
        except services.RepairError as refusal:
            error = str(refusal)
        else:
            return redirect(evening)
    payments = evening.payments.select_related("payer", "payee", "carried_to")
    context = {"evening": evening, "payments": payments, "error": error}
    return render(request, "table/evening_reopen.html", context, status=400 if error else 200)


@login_required
@require_POST
def evening_reopen_undo(request: HttpRequest, pk: int, change: int) -> HttpResponse:
    """Settle a reopened evening as it was, its payments and paid marks restored."""
    evening = evening_for(request, pk, Role.OWNER)
    entry = get_object_or_404(evening.changes, pk=change)
    try:
        services.evening_reopen_undo(change=entry, user=request.user)
    except services.RepairError as refusal:
        context = {"evening": evening, "change": entry, "error": str(refusal)}
        return render(request, "table/change_undo.html", context, status=400)
    return redirect(evening)
