"""Forms of the club pages, and the club a new partie or evening goes to."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.inputs import NameField

from .models import Club, Role
from .selectors import clubs_of
from .services import personal_club


class ClubForm(forms.Form):
    name = NameField(label=_("Name of the club"), max_length=80)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        return name


class ClubDeleteForm(forms.Form):
    """The club's name typed again: deleting it is not done by a stray tap."""

    name = forms.CharField(label=_("The club's name"), max_length=80)

    def __init__(self, *args: Any, club: Club, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["name"].help_text = _("Type %(name)s to confirm.") % {"name": club.name}

    def clean_name(self) -> str:
        # Any case: a phone's keyboard capitalises the first letter on its own.
        name = self.cleaned_data["name"].strip()
        if name.casefold() != self.club.name.casefold():
            raise forms.ValidationError(
                _("That is not the club's name: type %(name)s to delete the club."),
                params={"name": self.club.name},
            )
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)

    def clean_role(self) -> Role:
        return Role(self.cleaned_data["role"])


class InvitationForm(RoleForm):
    """The role a new link lets its guest join in."""

    role = forms.ChoiceField(
        label=_("Joins as"),
        choices=Role.choices,
        initial=Role.MEMBER,
        help_text=format_lazy(
            "{} {} {}", Role.MEMBER.rights, Role.SCORER.rights, Role.OWNER.rights
        ),
    )


class ClubChoiceForm(forms.Form):
    """The club a new partie, import or evening goes to: one where the user scores.

    Left out (the page shows no choice to a user with only his personal club), it is
    his personal club; so it is at first, unless the view names another (the club whose
    page has the link, or the user's usual club).
    """

    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.none(), required=False, empty_label=None
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.user = user
        if not self.is_bound:  # the personal club is among the choices: made on first need
            personal = personal_club(user)
            self.initial["club"] = self.initial.get("club") or personal.pk
        field = self.fields["club"]
        field.queryset = clubs_of(user, need=Role.SCORER).order_by("-personal", "name", "id")
        field.label_from_instance = club_label

    @property
    def has_choice(self) -> bool:
        """More than one club to choose from (the personal club is always one)."""
        return self.fields["club"].queryset.count() > 1

    def clean_club(self) -> Club:
        return self.cleaned_data["club"] or personal_club(self.user)


def club_label(club: Club) -> str:
    return str(_("Personal club")) if club.personal else club.name
