"""A member's notice settings, the link that verifies his mail address, the one-click
unsubscribe of every mail, and the language switch that remembers a logged-in member's
language for his mails."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from . import services
from .forms import DeviceForm, PreferencesForm
from .models import ADDRESS_LINKS_A_DAY, Preferences
from .selectors import address_state, devices, push_enabled

# Where the session keeps the endpoint of the device it allowed notifications on: a
# logout there deletes that subscription (the next person on the phone sees nothing).
SESSION_DEVICE = "notices.push_endpoint"


@login_required
@require_http_methods(["GET", "POST"])
def notices_settings(request: HttpRequest) -> HttpResponse:
    preferences = Preferences.objects.filter(user=request.user).first() or Preferences()
    form = PreferencesForm(request.POST or None, preferences=preferences, email=request.user.email)
    if request.method == "POST" and form.is_valid():
        before = request.user.email
        services.preferences_set(
            user=request.user,
            off=form.switched_off(preferences),
            language=form.cleaned_data["language"],
            email=form.cleaned_data["email"],
        )
        messages.success(request, _("Your choices are saved."))
        if request.user.email and request.user.email != before:
            _said_of_the_link(request)
        return redirect("notices_settings")
    context = {
        "form": form,
        "address": address_state(request.user),
        "push": push_enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "devices": devices(request.user),
    }
    return render(request, "notices/settings.html", context, status=400 if form.errors else 200)


def _said_of_the_link(request: HttpRequest) -> None:
    """Where the link that checks his new address is: on its way, or refused (the
    page's address block says why)."""
    state = address_state(request.user)
    if state.check is not None and state.check.sent_at is None:
        messages.info(
            request,
            _("A link to verify %(address)s is on its way: no mail goes there until you follow it.")
            % {"address": state.address},
        )
    else:
        messages.warning(
            request,
            _("You have asked for %(count)d links within a day: ask again tomorrow.")
            % {"count": ADDRESS_LINKS_A_DAY},
        )


@login_required
@require_POST
def address_link_send(request: HttpRequest) -> HttpResponse:
    """The settings page's "Send the link again": a new link to his address (the worker
    mails it)."""
    try:
        services.address_check_request(user=request.user)
    except services.AddressError as error:
        messages.error(request, str(error))
    else:
        _said_of_the_link(request)
    return redirect("notices_settings")


# How a link refused is answered: gone for good (out of date, an address changed), not
# this person's, or not a link at all.
REFUSED = {"expired": 410, "changed": 410, "another_account": 403, "broken": 404}


@login_required
@require_http_methods(["GET", "POST"])
def address_verify(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the mail that checks an address: a GET shows the address and a button,
    the POST (logged in as the account) marks it verified. A link out of date, mangled,
    another account's or for an address the account no longer has says so and changes
    nothing."""
    try:
        check = services.address_check_of(token, user=request.user)
        if request.method == "POST":
            check = services.address_verify(check=check, user=request.user)
            messages.success(
                request,
                _("%(address)s is verified: your notices are mailed there.")
                % {"address": check.address},
            )
            return redirect("notices_settings")
    except services.AddressError as error:
        context = {"refused": str(error)}
        return render(request, "notices/address.html", context, status=REFUSED[error.code])
    return render(request, "notices/address.html", {"check": check, "token": token})


# The mail client's one-click POST (RFC 8058) carries no CSRF token: it is let through by
# its body alone. The page's own button is a form like any other.
ONE_CLICK = "One-Click"


@csrf_exempt
@require_http_methods(["GET", "POST"])
def notices_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A GET shows what the link does and a button; a POST switches off every mail for
    the user the token names, without a login (the signed token is his)."""
    user = services.unsubscribe_user(token)
    if user is None:
        return render(request, "notices/unsubscribe.html", {"gone": True}, status=404)
    if request.method == "POST":
        if request.POST.get("List-Unsubscribe") == ONE_CLICK:
            return _unsubscribe(request, user)
        return csrf_protect(_unsubscribe)(request, user)
    return render(request, "notices/unsubscribe.html", {"token": token, "address": user.email})


def _unsubscribe(request: HttpRequest, user) -> HttpResponse:
    services.mail_unsubscribe(user=user)
    return render(request, "notices/unsubscribe.html", {"done": True, "address": user.email})


def language_set(request: HttpRequest) -> HttpResponse:
    """Django's language switch (a GET only goes back); a logged-in member's POST also
    keeps the language, so that his mails are written in it."""
    response = set_language(request)
    language = request.POST.get("language", "")
    known = language in dict(settings.LANGUAGES) and check_for_language(language)
    if request.method == "POST" and request.user.is_authenticated and known:
        services.preferences_language_set(user=request.user, language=language)
    return response


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """The settings page's script: this device allowed notifications (a JSON body, the
    browser's ``PushSubscription.toJSON()``; CSRF token in its header)."""
    if not push_enabled():
        return JsonResponse({"error": _("This site sends no push notifications.")}, status=404)
    form = DeviceForm(_device_fields(request))
    if not form.is_valid():
        return JsonResponse({"error": _("This device's subscription was refused.")}, status=400)
    device = services.Device(**form.cleaned_data, user_agent=request.headers.get("User-Agent", ""))
    services.push_subscribe(user=request.user, device=device)
    request.session[SESSION_DEVICE] = device.endpoint
    return JsonResponse({"subscribed": True, "devices": devices(request.user).count()})


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """This device (the endpoint in the JSON body), or one of the user's devices listed on
    the settings page (a form's ``endpoint``), shows his notifications no more."""
    endpoint = _device_fields(request).get("endpoint", "")
    removed = services.push_unsubscribe(user=request.user, endpoint=str(endpoint))
    if request.content_type == "application/json":
        return JsonResponse({"removed": removed})
    if removed:
        messages.success(request, _("That device shows your notifications no more."))
    return redirect("notices_settings")


def _device_fields(request: HttpRequest) -> dict:
    """The fields of a JSON body (the script's), flat; else the form's."""
    if request.content_type != "application/json":
        return request.POST
    try:
        data = json.loads(request.body)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    return {"endpoint": data.get("endpoint"), **{k: keys.get(k) for k in ("p256dh", "auth")}}


def log_out(request: HttpRequest) -> HttpResponse:
    """Django's logout, which first deletes the push subscription of the device this
    session allowed notifications on: the phone shows the next person nobody's notices.
    (The page's script also unsubscribes the browser itself: static/js/push.js.)"""
    endpoint = request.session.get(SESSION_DEVICE)
    if request.method == "POST" and endpoint and request.user.is_authenticated:
        services.push_unsubscribe(user=request.user, endpoint=endpoint)
    return auth_views.LogoutView.as_view()(request)
