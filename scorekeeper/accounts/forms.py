"""The forms of the front door: sign-up and log-in, each with a bounded username; the
password reset, mailed to a verified address only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club
from scorekeeper.engine.names import skeleton
from scorekeeper.notices.services import address_verified

# A new account's personal club is named after it: its username is no longer than a
# club's name may be (80), where Django's would allow 150 and the club could not be made.
SIGNUP_USERNAME_LENGTH = Club._meta.get_field("name").max_length


def _bound(field: forms.Field, longest: int) -> None:
    """Limit a field whose max_length was set after its construction (Django's forms do
    so for the username): the attribute alone is shown, not enforced."""
    field.max_length = longest
    field.widget.attrs["maxlength"] = str(longest)
    field.validators = [v for v in field.validators if not isinstance(v, MaxLengthValidator)]
    field.validators.append(MaxLengthValidator(longest))


class SignupForm(UserCreationForm):
    """A new account: a username of at most SIGNUP_USERNAME_LENGTH characters that does
    not look like an existing one (a Cyrillic "А" for a Latin "A"), and a password."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        _bound(self.fields["username"], SIGNUP_USERNAME_LENGTH)
        # Django's help text names its own limit (150): this one's is shorter.
        self.fields["username"].help_text = _(
            "Required. %(limit)d characters or fewer: letters, digits and @/./+/-/_ only."
        ) % {"limit": SIGNUP_USERNAME_LENGTH}

    def clean_username(self) -> str:
        username = super().clean_username()  # Django's: taken in another case
        if username and _looks_taken(username):
            raise forms.ValidationError(
                _("That name looks like an existing one: choose another."), code="lookalike"
            )
        return username


def _looks_taken(username: str) -> bool:
    """Whether an account's username looks the same as ``username``. Every username is
    read: a sign-up is rare and throttled, and a skeleton is not stored to be queried."""
    wanted = skeleton(username)
    usernames = get_user_model().objects.values_list("username", flat=True)
    return any(skeleton(other) == wanted for other in usernames.iterator(chunk_size=2000))


class LoginForm(AuthenticationForm):
    """Django's log-in form with its username's length enforced: a longer one is refused
    here, before the throttle (django-axes) records it in a column of 255 characters."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        _bound(self.fields["username"], self.username_field.max_length or 150)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's password reset, mailed only to an account whose address is verified (its
    owner followed the link mailed to it, ``notices.AddressCheck``): a stranger whose
    address a member mistyped cannot ask for the member's account."""

    def get_users(self, email: str):
        return (user for user in super().get_users(email) if address_verified(user))
