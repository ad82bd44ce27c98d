"""Helpers of the table tests that drive the real views: the forms as a browser posts them.

Plain functions, imported as ``from tests.table.helpers import ...``; the fixtures built
on them (``start_data``, ``rules_data``) are in conftest.py.
"""

from typing import Any

from django.test import Client
from django.urls import resolve, reverse

from scorekeeper import engine
from scorekeeper.table.forms import rule_initial
from scorekeeper.table.models import Hand, HandChange, Partie

# A hand as the hand form posts it, or (knocker, points) for ``wins(knocker, points)``.
HandData = dict[str, str] | tuple[str, int]

# The fields of the start form that are not rules: the rules page posts the rest.
PARTIE_FIELDS = ("kind", "player_1", "player_2", "first_dealer", "stake")


def start_form_data(
    preset: str = "classic", shown_preset: str | None = None, **overrides: Any
) -> dict[str, Any]:
    """The start form as a browser posts it: names, preset and every rule field filled."""
    values = rule_initial(engine.preset(shown_preset or preset)) | overrides
    data: dict[str, Any] = {
        "kind": "two_player",
        "player_1": "Anna",
        "player_2": "Ben",
        "first_dealer": "2",
        "stake": "0.05",
        "preset": preset,
        "shown_preset": shown_preset or preset,
    }
    for name in engine.PARAMETERS:
        value = values[name]
        if value is True:
            data[name] = "on"
        elif value is False:  # an unchecked box is not posted at all
            continue
        else:
            data[name] = "" if value is None else str(value)
    return data


def rules_form_data(
    preset: str = "classic", shown_preset: str | None = None, **overrides: Any
) -> dict[str, Any]:
    """The rules form as a browser posts it: the preset and every rule field filled."""
    data = start_form_data(preset, shown_preset, **overrides)
    return {name: value for name, value in data.items() if name not in PARTIE_FIELDS}


def start_fields(
    kind: str,
    players: tuple[str, ...] | list[str] = ("Anna", "Ben"),
    preset: str = "classic",
    **fields: Any,
) -> dict[str, Any]:
    """The start form of a partie of ``kind``, the players in cut order, the first dealing.

    A rule parameter among ``fields`` (``best_of=3``) changes the preset's rule field; any
    other (``stake="0"``, ``stake_3="0.20"``) is posted as given. The stake is the start
    form's 0.05 unless given.
    """
    rules = {name: value for name, value in fields.items() if name in engine.PARAMETERS}
    others = {name: value for name, value in fields.items() if name not in engine.PARAMETERS}
    data = start_form_data(preset=preset, **rules) | {"kind": kind, "first_dealer": "1"}
    data.update({f"player_{n}": name for n, name in enumerate(players, start=1)})
    return data | others


def start(client: Client, data: dict[str, Any]) -> Partie:
    """Start a partie through the start form; the redirect names it."""
    response = client.post(reverse("partie_new"), data)
    assert response.status_code == 302, response.context["form"].errors
    return Partie.objects.get(pk=resolve(response.url).kwargs["pk"])


def wins(knocker: str, points: int) -> dict[str, str]:
    """A knock with 1 deadwood that scores ``points`` for the knocker."""
    return {
        "kind": "knock",
        "knocker": knocker,
        "knocker_deadwood": "1",
        "defender_deadwood": str(points + 1),
    }


def at(table: int, fields: dict[str, str]) -> dict[str, str]:
    """A hand's fields as the round form names them at one table (prefix t1- or t2-)."""
    return {f"t{table}-{name}": value for name, value in fields.items()}


def post_hand(client: Client, partie: Partie, data: dict[str, Any], **extra: Any):
    return client.post(reverse("hand_create", args=[partie.pk]), data, **extra)


def record(client: Client, partie: Partie, *hands: HandData) -> Partie:
    """Record hands by plain POST, each redirected to the sheet.

    A hand is the hand (or round) form's fields, or (knocker, points) for a hand the
    knocker wins by ``points``.
    """
    for hand in hands:
        data = wins(*hand) if isinstance(hand, tuple) else hand
        response = post_hand(client, partie, data)
        assert response.status_code == 302, response.context["form"].errors
    partie.refresh_from_db()
    return partie


def page(client: Client, partie: Partie) -> str:
    """The partie's page as ``client`` sees it."""
    return client.get(reverse("partie_detail", args=[partie.pk])).content.decode()


def rows_of(partie: Partie) -> list[tuple]:
    """The partie's hands as stored: number, table, kind, knocker, both deadwoods."""
    return list(
        Hand.objects.filter(partie=partie)
        .order_by("number", "table")
        .values_list(
            "number", "table", "kind", "knocker__name", "knocker_deadwood", "defender_deadwood"
        )
    )


def state_of(partie: Partie) -> tuple:
    """What a refused request, or one that changes nothing, must leave as it was: the
    partie, its hands and its audit trail."""
    partie = Partie.objects.get(pk=partie.pk)
    changes = list(HandChange.objects.filter(partie=partie).order_by("pk").values_list("action"))
    return (
        partie.owner_id,
        partie.state,
        partie.closed_at,
        partie.summary,
        partie.rules,
        rows_of(partie),
        changes,
    )
