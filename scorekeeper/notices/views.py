"""A member's notice settings, the one-click unsubscribe of every mail, and the language
switch that remembers a logged-in member's language for his mails."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language

from . import services
from .forms import CHANNELS, PreferencesForm
from .models import Preferences
from .selectors import has_address


@login_required
@require_http_methods(["GET", "POST"])
def notices_settings(request: HttpRequest) -> HttpResponse:
    preferences = Preferences.objects.filter(user=request.user).first() or Preferences()
    form = PreferencesForm(request.POST or None, preferences=preferences, email=request.user.email)
    if request.method == "POST" and form.is_valid():
        services.preferences_set(
            user=request.user,
            off=form.switched_off(),
            language=form.cleaned_data["language"],
            email=form.cleaned_data["email"],
        )
        messages.success(request, _("Your choices are saved."))
        return redirect("notices_settings")
    context = {"form": form, "channels": CHANNELS, "has_address": has_address(request.user)}
    return render(request, "notices/settings.html", context, status=400 if form.errors else 200)


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
