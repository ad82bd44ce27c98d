"""Thin views: fetch through an access helper, clean a form, call a service, render.

One template per page; an HTMX request gets only the named partial of the same
template, so the page and its swap never drift apart.
"""

from __future__ import annotations

import contextlib

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget, trigger_client_event
from django_htmx.middleware import HtmxDetails

from scorekeeper import engine
from scorekeeper.clubs.access import Role, club_of, evening_for, partie_for, player_for
from scorekeeper.clubs.forms import ClubChoiceForm
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine.record import RecordError, record_json
from scorekeeper.league.players import club_players, player_record
from scorekeeper.sheets.data import evening_sheet as evening_pdf_sheet
from scorekeeper.sheets.data import score_pad, score_sheet
from scorekeeper.sheets.render import render_evening, render_pad, render_score_sheet

from . import selectors, services
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
    kind_seats,
    rule_initial,
)
from .messages import explain
from .models import Partie

PRESET_NOTICE = gettext_lazy(
    "The rule values are now those of the preset you chose: check them and start."
)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether
    htmx sent it (and how), so a view answers with a partial or the whole page."""

    htmx: HtmxDetails


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    parties = selectors.parties_of(request.user) if request.user.is_authenticated else []
    return render(request, "table/home.html", {"parties": parties})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account with its personal club; then on to ``next`` (an invitation link)."""
    form = UserCreationForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.method == "POST" and form.is_valid():
        user = form.save()
        personal_club(user)
        login(request, user)
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
    """Change a running partie's rules: a preview of the totals first, then the change."""
    partie = partie_for(request, pk, Role.SCORER)
    if not partie.is_running:  # a finished partie keeps the rules it was played under
        context = {"partie": partie, "finished": True}
        return render(request, "table/partie_rules.html", context, status=400)
    current = {**rule_initial(partie.ruleset), "shown_preset": partie.ruleset.preset}
    form = RulesForm(request.POST or None, initial=current | {"preset": partie.ruleset.preset})
    context = {"partie": partie, "form": form}
    if request.method == "POST" and form.is_valid():
        rules = form.cleaned_data["ruleset"]
        try:
            if request.POST.get("confirm"):
                services.partie_rules_change(partie=partie, rules=rules, user=request.user)
                return redirect(partie)
            before = selectors.partie_sheet(partie)
            after = selectors.sheet_of(partie, services.partie_replay(partie, rules))
            context |= {"before": before, "after": after}
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


@login_required
@require_safe
def partie_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The score sheet; with the hand form and the edit links for a scorer."""
    partie = partie_for(request, pk)
    read_only = not partie.club_role.includes(Role.SCORER)
    return _render_table(request, selectors.partie_sheet(partie), read_only=read_only)


@require_safe
def shared_partie(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The read-only view behind a share link: no form, no edit links."""
    queryset = selectors.partie_with_players(Partie.objects.all())
    partie = get_object_or_404(queryset, share_token=token)
    return _render_table(request, selectors.partie_sheet(partie), shared=True)


def _render_table(
    request: HtmxHttpRequest,
    sheet: selectors.Sheet,
    form=None,
    read_only: bool = False,
    shared: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The sheet; ``read_only`` without the hand form and edit links (a member's view),
    ``shared`` as the share link shows it (nothing but the sheet and its PDF)."""
    read_only = read_only or shared
    if form is None and not read_only and not sheet.is_over:
        form = entry_form(sheet.partie, at_table=sheet.at_table)
    context = {
        "sheet": sheet,
        "partie": sheet.partie,
        "form": form,
        "read_only": read_only,
        "shared": shared,
        "changes": selectors.partie_changes(sheet.partie)[:50],
    }
    template = "table/partie_detail.html"
    if request.htmx:
        template += "#table"
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
                partie=partie, hand=form.cleaned_data["hand"], user=request.user
            )
        except engine.HandError as error:
            form.add_engine_error(error, explain(error))
        else:
            if not request.htmx:
                return redirect(partie)
            return _render_recorded(request, partie, written)
    return _render_form(request, partie, form, status=400)


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
    row = selectors.partie_sheet(partie).row(number)
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
    context = {"sheet": sheet, "partie": partie, "change": written.change}
    if not sheet.is_over and _appends_a_row(sheet):
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
        else:
            return redirect(partie)
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
            form.add_error(None, error.errors)
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
        except services.EveningSettledError:
            error = _("This evening is settled up: its parties cannot change.")
        else:
            return redirect(evening)
    context = {
        "evening": evening,
        "sheet": selectors.evening_sheet(evening),
        "form": form,
        "error": error,
        "read_only": not evening.club_role.includes(Role.SCORER),
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
        services.evening_settle(evening=evening)
    return redirect(evening)


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


# PDF: score sheets, evening tallies and blank score pads


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _partie_pdf(partie: Partie) -> HttpResponse:
    names = " – ".join(partie.player_names)
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
    transfers = [
        engine.Transfer(str(p.payer), str(p.payee), p.amount) for p in sheet.payments
    ] or sheet.transfers
    document = evening_pdf_sheet(parties, transfers, name=evening.name, played_on=evening.played_on)
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
