"""Forms of a club's players: added to the roster (once the near-name question is
answered), linked to a member's account, renamed, merged; and that question itself,
which every form where a player is named asks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import get_text_list
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.names import cleaned, is_same_name, looks_same, near_names
from scorekeeper.inputs import NameField

from ..models import Player
from ..services.players import PlayerChangeError

ROSTER_LIST = "roster-names"  # the id of the page's <datalist> of the club's names


def roster_input(**attrs: str) -> forms.TextInput:
    """A name field that offers the club's roster as it is typed (the page's datalist)."""
    return forms.TextInput(attrs={"list": ROSTER_LIST, "autocomplete": "off", **attrs})


@dataclass(frozen=True)
class NameQuestion:
    """A typed name the roster does not hold, but names near it: the form asks whether
    it is one of those or a new player ("New player 'ben' — or did you mean Ben?")."""

    typed: str
    suggestions: tuple[str, ...]

    @property
    def new_allowed(self) -> bool:
        """A name the roster holds in another case, or in letters of another script that
        look the same (a Cyrillic "А"), is that player: no new one of it."""
        return not any(looks_same(self.typed, name) for name in self.suggestions)

    @property
    def message(self) -> str:
        names = get_text_list(list(self.suggestions), gettext("or"))
        if self.new_allowed:
            return gettext("New player “%(typed)s” — or did you mean %(names)s?") % {
                "typed": self.typed,
                "names": names,
            }
        if any(is_same_name(self.typed, name) for name in self.suggestions):
            return gettext("“%(typed)s” is on the roster as %(names)s: choose the name.") % {
                "typed": self.typed,
                "names": names,
            }
        # Two names that look the same on the screen: say why they are not.
        return gettext(
            "“%(typed)s” looks like %(names)s of the roster but is written with a letter "
            "of another alphabet (Cyrillic or Greek, say): choose the name."
        ) % {"typed": self.typed, "names": names}


def roster_answer(typed: str, roster: Sequence[str], answer: str | None) -> str | NameQuestion:
    """The name to seat for ``typed``: itself where the roster holds it or nothing near
    it; else the answer to the question (a suggested name, or ``typed`` again for a new
    player), or the question while it is not answered."""
    suggestions = near_names(typed, roster)
    if not suggestions:
        return typed
    question = NameQuestion(typed, suggestions)
    if answer in suggestions:
        return answer
    if answer == typed and question.new_allowed:
        return typed
    return question


def answer_of(data: Mapping[str, Any], field: str) -> str | None:
    """The answer to the question about the name of ``field``, as the form sent it."""
    return data.get(f"{field}_is")


class PlayerAddForm(forms.Form):
    """A new player for the club's roster: a name near one of the roster's is added only
    once the question is answered (the answer names it again)."""

    name = NameField(
        label=_("New player's name"),
        max_length=Player._meta.get_field("name").max_length,
        widget=roster_input(),
    )

    def __init__(self, *args: Any, roster: Sequence[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.roster = list(roster)
        self.question: NameQuestion | None = None

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        answered = roster_answer(name, self.roster, answer_of(self.data, "name"))
        if isinstance(answered, NameQuestion):
            self.question = answered
            raise forms.ValidationError(answered.message)
        if answered != name:  # one of the roster: nothing to add
            raise forms.ValidationError(
                gettext("%(name)s is on the roster already.") % {"name": answered}
            )
        return name


class RosterJoinForm(forms.Form):
    """The name under which someone joining a club through an invitation is on its roster
    (his account's name unless he types another): the roster's player of that name if
    nobody plays as him yet, else a new one. Where the name is near a free player's
    ("anna.weber" and "Anna Weber", "anna" and "Anna"), he is asked whether he is that
    player or a new one, as the roster asks (``roster_answer``). A name that is, or looks
    the same as, the name of a player linked to another account is refused: that player
    is somebody else."""

    name = NameField(
        label=_("Your name in the club"),
        max_length=Player._meta.get_field("name").max_length,
        required=False,
        help_text=_(
            "The name the club's roster lists you under: if it has you already, your "
            "games there become yours."
        ),
    )

    def __init__(
        self,
        *args: Any,
        account_name: str,
        free: Sequence[str] = (),
        taken: Sequence[str] = (),
        **kwargs: Any,
    ):
        super().__init__(*args, initial={"name": account_name}, **kwargs)
        self.account_name = cleaned(account_name)  # as a name typed would be
        self.free, self.taken = list(free), list(taken)
        self.question: NameQuestion | None = None

    def clean_name(self) -> str:
        name = self.cleaned_data["name"] or self.account_name
        plays = [other for other in self.taken if looks_same(name, other)]
        if plays:
            raise forms.ValidationError(str(PlayerChangeError("join_taken", name=plays[0])))
        answered = roster_answer(name, self.free, answer_of(self.data, "name"))
        if isinstance(answered, NameQuestion):
            self.question = answered
            raise forms.ValidationError(_join_question(answered))
        return answered


def _join_question(question: NameQuestion) -> str:
    """The question to someone joining whose name is near the roster's ``suggestions``."""
    if question.new_allowed:  # the choices below say the names
        return gettext("The roster has a name near yours: choose below whether it is you.")
    names = get_text_list(list(question.suggestions), gettext("or"))
    return gettext(
        "“%(typed)s” is %(names)s of the roster, or looks the same: choose the player, or "
        "enter another name to join as a new player."
    ) % {"typed": question.typed, "names": names}


class PlayerAccountForm(forms.Form):
    """The member of the player's club who plays as this player, or nobody."""

    user = forms.ModelChoiceField(
        label=_("Plays as the member"),
        queryset=get_user_model().objects.none(),
        required=False,
        empty_label=_("nobody"),
        help_text=_("Link the player to a member's account: his games are then his."),
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = (
            get_user_model()
            .objects.filter(memberships__club_id=player.club_id)
            .order_by("username")
        )


class PlayerRenameForm(forms.Form):
    """The player's new name: spaces around it dropped, unique in the club (the service
    checks that, under the lock)."""

    name = NameField(
        label=_("Name"),
        max_length=Player._meta.get_field("name").max_length,
        help_text=_("Every partie he sat in shows the new name."),
    )


class PlayerMergeForm(forms.Form):
    """Another player of the club who is the same person: merged into this one."""

    # A name typed (the page offers the club's names as suggestions), not a select: a
    # club may have thousands of players.
    other = forms.ModelChoiceField(
        label=_("The same person as"),
        queryset=Player.objects.none(),
        to_field_name="name",
        widget=roster_input(),
        help_text=_(
            "His parties, results and debts become this player's, and his entry is deleted."
        ),
        error_messages={"invalid_choice": _("The club has no other player of that name.")},
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = (
            Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk).order_by("name")
        )

    @property
    def names(self) -> list[str]:
        """The other players' names, for the suggestions."""
        return list(self.fields["other"].queryset.values_list("name", flat=True))


class PlayerMergeConfirmForm(forms.Form):
    """Which of the two names stays: either way round; by default the player with more
    games (the page's player on a tie)."""

    keep = forms.TypedChoiceField(
        label=_("Which name stays?"), coerce=int, widget=forms.RadioSelect, required=False
    )

    def __init__(self, *args: Any, player: Player, other: Player, games: Mapping[int, int],
                 **kwargs: Any):  # fmt: skip
        super().__init__(*args, **kwargs)
        self.player, self.other = player, other
        field = self.fields["keep"]
        field.choices = [(p.pk, p.name) for p in (player, other)]
        field.initial = other.pk if games.get(other.pk, 0) > games.get(player.pk, 0) else player.pk

    def pair(self) -> tuple[Player, Player]:
        """(keep, gone) as chosen; the default where nothing is chosen."""
        keep = self.cleaned_data.get("keep") or self.fields["keep"].initial
        return (self.other, self.player) if keep == self.other.pk else (self.player, self.other)
