"""Sign-up: a new account with its personal club; log-in with a bounded username."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from scorekeeper.clubs.services import personal_club

from . import throttle
from .forms import LoginForm, SignupForm

# Django's log-in page with a username no longer than an account's (forms.LoginForm).
login_page = LoginView.as_view(authentication_form=LoginForm)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account with its personal club; then on to ``next`` (an invitation link)."""
    form = SignupForm(request.POST or None)
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
            context = {"form": SignupForm(), "next": next_url}
            context["refusal"] = throttle.signup_message()
            return render(request, "registration/signup.html", context, status=429)
        throttle.signup_attempt_record(address)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():  # an account without its personal club is never left
            user = form.save()
            personal_club(user)
        # Named, since axes' backend stands before Django's in AUTHENTICATION_BACKENDS.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
