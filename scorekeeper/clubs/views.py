"""The club pages: a user's clubs, a club's parties, evenings and members, and the
invitation links. Each view's first line is the access check (``access.club_of``);
every change goes through ``services``.

A change made by HTMX gets the changed region of the club page back (members, or
invitations); without JavaScript the page is loaded again.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.league.views.calendars import calendar_context
from scorekeeper.notices.selectors import failed_deliveries
from scorekeeper.table.forms.players import RosterJoinForm
from scorekeeper.table.models import Player
from scorekeeper.table.selectors import evenings_in, parties_in, roster_by_link
from scorekeeper.table.services.players import PlayerChangeError, roster_join

from . import selectors, services
from .access import club_of, deleted_club_of
from .forms import ClubDeleteForm, ClubForm, InvitationForm, RoleForm
from .models import RESTORE_DAYS, Club, Invitation, Membership, Role, account_name
from .services import ClubError


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The user's clubs with his role in each; a new club, which he then owns."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(name=form.cleaned_data["name"], owner=request.user)
        return redirect(club)
    services.personal_club(request.user)  # listed too, even for a user made without one
    context = {
        "form": form,
        "memberships": selectors.memberships_of(request.user),
        "deleted": selectors.deleted_clubs_of(request.user),
    }
    return render(request, "clubs/club_list.html", context, status=400 if form.errors else 200)


@login_required
@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = club_of(request, slug)
    return _render_club(request, club, role)


@login_required
@require_http_methods(["GET", "POST"])
def club_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete the club once its owner has typed its name; he can restore it from his
    clubs for a while (``services.club_restore``)."""
    club, _role = club_of(request, slug, need=Role.OWNER)
    form = ClubDeleteForm(request.POST or None, club=club)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.club_delete(club=club)
        except ClubError as refusal:
            error = str(refusal)
        else:
            messages.success(request, _("%(name)s was deleted.") % {"name": club.name})
            return redirect("club_list")
    if club.personal:
        error = str(ClubError("personal_delete"))
    context = {"club": club, "form": form, "error": error, "restore_days": RESTORE_DAYS}
    status = 400 if error or form.errors else 200
    return render(request, "clubs/club_delete.html", context, status=status)


@login_required
@require_POST
def club_restore(request: HttpRequest, slug: str) -> HttpResponse:
    """Bring a deleted club back, as it was."""
    club = deleted_club_of(request, slug)
    try:
        services.club_restore(club=club)
    except ClubError as refusal:
        messages.error(request, str(refusal))
        return redirect("club_list")
    messages.success(request, _("%(name)s is back.") % {"name": club.name})
    return redirect(club)


@login_required
@require_POST
def membership_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_of(request, slug, need=Role.OWNER)
    membership = get_object_or_404(Membership.objects.filter(club=club), pk=pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _render_club(request, club, role, region="members", error=form.errors["role"][0])
    return _change(
        request,
        club,
        role,
        "members",
        lambda: services.membership_set_role(membership=membership, role=form.cleaned_data["role"]),
    )


@login_required
@require_POST
def membership_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_of(request, slug, need=Role.OWNER)
    membership = get_object_or_404(Membership.objects.filter(club=club), pk=pk)
    return _change(
        request, club, role, "members", lambda: services.membership_remove(membership=membership)
    )


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    """A member leaves the club; its last owner cannot."""
    club, role = club_of(request, slug)
    membership = Membership.objects.get(club=club, user=request.user)
    return _change(
        request, club, role, "members", lambda: services.membership_remove(membership=membership)
    )


@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = club_of(request, slug, need=Role.OWNER)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return _render_club(request, club, role, region="invitations", invitation_form=form)
    return _change(
        request,
        club,
        role,
        "invitations",
        lambda: services.invitation_create(
            club=club, role=form.cleaned_data["role"], created_by=request.user
        ),
    )


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_of(request, slug, need=Role.OWNER)
    invitation = get_object_or_404(Invitation.objects.filter(club=club), pk=pk)
    return _change(
        request,
        club,
        role,
        "invitations",
        lambda: services.invitation_revoke(invitation=invitation),
    )


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The page behind an invitation link: the club, who invites and the role offered;
    to someone logged out, sign-up and log-in that come back here; then joining (POST),
    which puts him on the club's roster (``roster_join``), asking first when his name
    is near one of its players'.

    A link withdrawn, used or expired says so, names nothing and changes nothing (410
    Gone); for a member of the club already it only says that.
    """
    invitations = Invitation.objects.select_related("club", "created_by")
    invitation = get_object_or_404(invitations.filter(club__deleted_at=None), token=token)
    user = request.user if request.user.is_authenticated else None
    if user is None and request.method == "POST":
        return redirect_to_login(request.get_full_path())
    try:
        services.invitation_check(invitation=invitation, user=user)
    except ClubError as error:
        return _invitation_refused(request, invitation, error)
    if user is None:
        return render(request, "clubs/invitation.html", {"invitation": invitation})
    return _join(request, invitation, user)


def _join(request: HttpRequest, invitation: Invitation, user: AbstractBaseUser) -> HttpResponse:
    """The join step of a good link: the name he is on the roster under, asked about
    where unsure; joining (POST) once it is settled."""
    player = Player.objects.filter(club_id=invitation.club_id, user=user).first()  # back again
    free, taken = roster_by_link(invitation.club_id)
    data = request.POST if request.method == "POST" else None
    form = RosterJoinForm(data, account_name=account_name(user), free=free, taken=taken)
    if data is not None and (player is not None or form.is_valid()):
        name = player.name if player is not None else form.cleaned_data["name"]
        try:
            joined = roster_join(invitation=invitation, user=user, name=name)
        except ClubError as error:  # used, withdrawn or expired meanwhile
            return _invitation_refused(request, invitation, error)
        except PlayerChangeError as error:
            form.add_error("name", str(error))
        else:
            messages.success(
                request,
                _("You joined %(club)s. You play as %(name)s on its roster.")
                % {"club": invitation.club.name, "name": joined.name},
            )
            return redirect(invitation.club)
    context = {"invitation": invitation, "form": form, "player": player}
    return render(request, "clubs/invitation.html", context, status=400 if form.errors else 200)


def _invitation_refused(
    request: HttpRequest, invitation: Invitation, error: ClubError
) -> HttpResponse:
    """A link that lets him in no more (410), or a member told he is one."""
    context = {"invitation": invitation, "error": error}
    status = 200 if error.code == "member" else 410
    return render(request, "clubs/invitation.html", context, status=status)


def _change(
    request: HttpRequest, club: Club, role: Role, region: str, change: Callable[[], object]
) -> HttpResponse:
    """Make a change through a service; a refusal shows in the region it is about."""
    try:
        change()
    except ClubError as error:
        return _render_club(request, club, role, region=region, error=str(error))
    return _changed(request, club.slug, region)


def _changed(request: HttpRequest, slug: str, region: str) -> HttpResponse:
    """After a change: the page again, or by HTMX the region it changed, read afresh
    (the change may have been the user's own role, or his leaving)."""
    if not Membership.objects.filter(club__slug=slug, user=request.user).exists():
        if request.htmx:
            return HttpResponseClientRedirect(reverse("club_list"))
        return redirect("club_list")
    if not request.htmx:
        return redirect("club_detail", slug)
    club, role = club_of(request, slug)
    return _render_club(request, club, role, region=region, status=200)


def _render_club(
    request: HttpRequest,
    club: Club,
    role: Role,
    *,
    region: str | None = None,
    invitation_form: InvitationForm | None = None,
    error: str | None = None,
    status: int | None = None,
) -> HttpResponse:
    """The club page, or by HTMX one region of it; with an error, a 400 (by HTMX a 200:
    htmx swaps no error answer in, and the region shows the error)."""
    is_owner = role == Role.OWNER
    context = {
        "club": club,
        "role": role,
        "is_owner": is_owner,
        "parties": parties_in([club])[:50],
        "evenings": evenings_in([club])[:20],
        "members": selectors.club_members(club),
        "roles": Role.choices,
        "invitations": selectors.open_invitations(club) if is_owner else [],
        # Whom a notice did not reach, and why: only the owner sees it.
        "failed_notices": list(failed_deliveries(club)) if is_owner else [],
        "invitation_form": invitation_form or InvitationForm(),
        "region": region,
        "error": error,
        **calendar_context(request.user, club),
    }
    template = "clubs/club_detail.html"
    if region and request.htmx:
        template += f"#{region}"
        status = 200
    if status is None:
        status = 400 if error or (invitation_form and invitation_form.errors) else 200
    return render(request, template, context, status=status)
