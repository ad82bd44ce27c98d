"""The partie pages for the fixed cast: anonymous, outsider, owner and the share link."""

import json
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table.models import Hand, HandChange, Partie, Player
from tests.table.helpers import state_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def knock(knocker="Anna", dk=5, dd=27):
    return {
        "kind": "knock",
        "knocker": knocker,
        "knocker_deadwood": str(dk),
        "defender_deadwood": str(dd),
    }


def owner_urls(partie):
    """Every page that only the owner may open, with the method it takes."""
    return [
        ("get", reverse("partie_detail", args=[partie.pk])),
        ("get", reverse("partie_new")),
        ("post", reverse("hand_create", args=[partie.pk])),
        ("get", reverse("hand_edit", args=[partie.pk, 1])),
        ("post", reverse("hand_edit", args=[partie.pk, 1])),
        ("get", reverse("hand_delete", args=[partie.pk, 1])),
        ("post", reverse("hand_delete", args=[partie.pk, 1])),
        ("get", reverse("partie_export", args=[partie.pk])),
        ("get", reverse("partie_import")),
        ("post", reverse("partie_import")),
    ]


# Anonymous


def test_anonymous_user_is_sent_to_log_in_by_every_owner_page(client, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])
    before = state_of(partie)

    for method, url in owner_urls(partie):
        data = knock(dk=1, dd=2) if method == "post" else None
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, (method, url)
        assert response.url == f"{reverse('login')}?next={url}", (method, url)

    assert state_of(partie) == before
    assert Partie.objects.count() == 1


# Outsider


@pytest.mark.parametrize(
    ("method", "name", "with_number"),
    [
        ("get", "partie_detail", False),
        ("post", "hand_create", False),
        ("get", "hand_edit", True),
        ("post", "hand_edit", True),
        ("get", "hand_delete", True),
        ("post", "hand_delete", True),
        ("get", "partie_export", False),
    ],
)
def test_outsider_gets_404_on_someone_elses_partie_and_it_stays_unchanged(
    client_outsider, partie, play, method, name, with_number
):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])
    before = state_of(partie)
    url = reverse(name, args=[partie.pk, 1] if with_number else [partie.pk])

    response = getattr(client_outsider, method)(
        url, knock(dk=1, dd=40) if method == "post" else None
    )

    assert response.status_code == 404
    assert state_of(partie) == before


def test_outsider_does_not_see_the_owners_parties_on_the_home_page(client_outsider, partie):
    response = client_outsider.get(reverse("home"))

    assert response.status_code == 200
    assert reverse("partie_detail", args=[partie.pk]) not in response.content.decode()


# Owner


def test_owner_sees_the_score_sheet_with_running_totals_and_the_hand_form(
    client_owner, partie, play
):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(16, knocker="Ben")])

    response = client_owner.get(reverse("partie_detail", args=[partie.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Anna – Ben</h1>" in html
    assert [[(c.gain, c.total) for c in row.cells] for row in response.context["sheet"].rows] == [
        [(22, 22), (None, 0)],
        [(None, 22), (36, 36)],
    ]
    assert '<span class="gain">+22</span><span class="total">22</span>' in html
    assert '<span class="gain">+36</span><span class="total">36</span>' in html
    assert f'action="{reverse("hand_create", args=[partie.pk])}"' in html
    assert reverse("hand_edit", args=[partie.pk, 2]) in html
    assert "Hand 3: Anna deals." in html


def test_owner_sees_the_final_totals_and_who_pays_on_a_closed_partie(client_owner, closed_partie):
    response = client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))

    html = response.content.decode()
    assert "The partie is over: Anna won." in html
    assert '<tr class="foot-total grand"><th scope="row" colspan="2">Total</th>' in html
    assert '<td class="num">261</td><td class="num">86</td>' in html
    # the net and the money, as on the printed sheet, under the totals
    assert '<td class="num">+175</td><td class="num">−175</td>' in html
    assert '<td class="num">+8.75</td><td class="num">−8.75</td>' in html
    assert "Ben pays Anna 175 points</strong> = 8.75" in html
    assert response.context["form"] is None
    assert "hand-form" not in html


# The share link


def test_share_link_shows_the_sheet_read_only_to_an_anonymous_user(client, closed_partie):
    response = client.get(reverse("shared_partie", args=[closed_partie.share_token]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Anna – Ben</h1>" in html
    assert '<td class="num">261</td><td class="num">86</td>' in html
    assert response.context["read_only"] is True
    assert response.context["form"] is None
    assert "hand-form" not in html
    assert reverse("hand_create", args=[closed_partie.pk]) not in html
    assert "/edit/" not in html
    assert "/delete/" not in html
    assert reverse("partie_export", args=[closed_partie.pk]) not in html


def test_share_link_of_a_running_partie_has_no_hand_form(client, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])

    response = client.get(reverse("shared_partie", args=[partie.share_token]))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<span class="total">22</span>' in html
    assert "hand-form" not in html
    assert 'name="knocker_deadwood"' not in html
    assert reverse("hand_edit", args=[partie.pk, 1]) not in html
    assert reverse("hand_delete", args=[partie.pk, 1]) not in html


def test_a_wrong_share_token_is_404(client, partie):
    assert client.get(reverse("shared_partie", args=["not-the-token"])).status_code == 404
    assert client.get(reverse("shared_partie", args=[partie.share_token + "x"])).status_code == 404


# Starting a partie


def test_starting_a_partie_through_the_form_stores_the_preset_and_the_override(
    client_owner, owner, start_data
):
    response = client_owner.post(reverse("partie_new"), start_data(preset="modern", gin_bonus=30))

    partie = Partie.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk])
    assert partie.owner == owner
    assert partie.rules == engine.preset("modern", gin_bonus=30).to_dict()
    assert partie.rules["gin_bonus"] == 30
    assert partie.rules["box_bonus"] == 25
    assert [s.player.name for s in partie.seats.all()] == ["Anna", "Ben"]
    assert partie.first_dealer.name == "Ben"
    assert partie.stake == Decimal("0.05")
    sheet = client_owner.get(response.url).content.decode()
    rules_line = sheet[sheet.index('<p class="rules-line">') :]
    assert "(Gin bonus 30)" in rules_line[: rules_line.index("</p>")]


def test_the_start_form_refuses_two_equal_names_beside_the_second_player(client_owner, start_data):
    response = client_owner.post(reverse("partie_new"), start_data() | {"player_2": " anna "})

    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["player_2"] == ["Each player needs a name of their own."]
    assert "player_1" not in form.errors
    html = response.content.decode()
    field_html = html[html.index('<div class="field field-player_2') :]
    field_html = field_html[: field_html.index("</div>")]
    assert "Each player needs a name of their own." in field_html
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_changing_the_preset_without_javascript_shows_its_values_and_starts_nothing(
    client_owner, start_data
):
    response = client_owner.post(
        reverse("partie_new"), start_data(preset="modern", shown_preset="classic")
    )

    assert response.status_code == 200
    assert Partie.objects.count() == 0
    form = response.context["form"]
    assert not form.is_bound
    assert form["preset"].value() == "modern"
    assert form["shown_preset"].value() == "modern"
    for name, value in engine.preset("modern").to_dict().items():
        if name != "preset" and name != "knock_limit":
            assert form[name].value() == value, name
    assert form["player_1"].value() == "Anna"
    html = response.content.decode()
    assert "The rule values are now those of the preset you chose" in html
    assert 'name="gin_bonus" value="25"' in html
    assert 'name="big_gin_bonus" value="31"' in html

    # posting the form as it now stands starts a modern partie
    response = client_owner.post(reverse("partie_new"), start_data(preset="modern"))
    assert response.status_code == 302
    assert Partie.objects.get().rules == engine.preset("modern").to_dict()


# Recording a hand


def test_recording_a_hand_by_plain_post_redirects_to_the_sheet(client_owner, owner, partie):
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), knock())

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk])
    hand = Hand.objects.get(partie=partie)
    assert (hand.number, hand.kind, hand.knocker.name, hand.knocker_deadwood) == (
        1,
        "knock",
        "Anna",
        5,
    )
    assert hand.defender_deadwood == 27
    partie.refresh_from_db()
    assert partie.summary["totals"] == {"Anna": 22, "Ben": 0}
    assert HandChange.objects.get(partie=partie).user == owner


def test_recording_a_hand_by_htmx_returns_the_new_row_and_the_regions_it_changed(
    client_owner, partie, play
):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])

    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]), knock("Ben", 3, 20), **HTMX
    )

    assert response.status_code == 200
    assert "HX-Retarget" not in response  # the row goes to the form's target, #sheet-body
    html = response.content.decode()
    assert "<html" not in html
    assert "<h1>" not in html
    # the new row only, last, with Ben's gain and running total and Anna's unchanged 22
    row = html[html.rindex('<tr class="hand') :]
    assert '<span class="gain">+17</span><span class="total">17</span>' in row
    assert '<span class="total">22</span>' in row
    assert html.count('<tr class="hand') == 1
    # out of band: the status, the footer and the change trail's new entry
    assert '<p id="status" class="status" data-next="3" hx-swap-oob="true">' in html
    assert "Hand 3: Anna deals." in html  # Ben won, Anna lost: she deals
    assert '<tfoot id="sheet-foot" hx-swap-oob="true">' in html
    assert 'hx-swap-oob="afterbegin:#trail-list"' in html and "hand 2 recorded" in html
    # the form empties itself on the event; the server sends no new one
    assert '<form id="hand-form"' not in html
    assert json.loads(response["HX-Trigger"]) == {"hand-recorded": {}}
    assert Hand.objects.filter(partie=partie).count() == 2


def test_a_hand_recorded_after_an_error_brings_a_clean_form(client_owner, partie):
    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]), knock(dk=11, dd=30), **HTMX
    )
    assert 'name="form_had_errors"' in response.content.decode()

    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]),
        knock(dk=5, dd=30) | {"form_had_errors": "1"},
        **HTMX,
    )

    html = response.content.decode()
    form = html[html.index('<form id="hand-form"') : html.index("</form>")]
    assert 'hx-swap-oob="true"' in form
    assert 'class="error"' not in form and 'value="5"' not in form
    assert Hand.objects.filter(partie=partie).count() == 1


def test_the_hand_that_ends_the_partie_by_htmx_returns_the_whole_table_with_the_settlement(
    client_owner, partie, play, worked_example
):
    play(partie, worked_example[:-1])

    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]), knock("Anna", 2, 30), **HTMX
    )

    assert response["HX-Retarget"] == "#table"
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "The partie is over: Anna won." in html
    assert "Ben pays Anna 175 points" in html and "8.75" in html
    assert '<form id="hand-form"' not in html
    assert "hand 6 recorded" in html


def test_recording_no_game_needs_no_knocker_or_deadwood(client_owner, partie):
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), {"kind": "no_game"})

    assert response.status_code == 302
    assert Hand.objects.get(partie=partie).kind == "no_game"


def test_a_knock_over_the_limit_is_shown_beside_the_knockers_deadwood_and_not_saved(
    client_owner, partie
):
    before = state_of(partie)

    response = client_owner.post(reverse("hand_create", args=[partie.pk]), knock(dk=11, dd=30))

    assert response.status_code == 400
    form = response.context["form"]
    # the translatable sentence of messages.py, not the engine's English
    assert form.errors["knocker_deadwood"] == [
        "A knock with 11 deadwood is over the knock limit of 10."
    ]
    html = response.content.decode()
    field_html = html[html.index('<div class="field field-knocker_deadwood') :]
    field_html = field_html[: field_html.index("</div>")]
    assert "A knock with 11 deadwood is over the knock limit of 10." in field_html
    assert state_of(partie) == before


def test_a_knock_over_the_limit_by_htmx_returns_the_form_with_the_error(client_owner, partie):
    response = client_owner.post(
        reverse("hand_create", args=[partie.pk]), knock(dk=11, dd=30), **HTMX
    )

    assert response.status_code == 200  # HTMX swaps 2xx only
    assert response["HX-Retarget"] == "#hand-form"
    html = response.content.decode()
    assert "<html" not in html
    assert html.lstrip().startswith('<form id="hand-form"')
    assert 'value="11"' in html  # what was typed stays
    assert "A knock with 11 deadwood is over the knock limit of 10." in html
    assert Hand.objects.filter(partie=partie).count() == 0


def test_a_hand_after_the_partie_is_over_is_refused(client_owner, closed_partie):
    before = state_of(closed_partie)

    response = client_owner.post(
        reverse("hand_create", args=[closed_partie.pk]), knock("Ben", 1, 30)
    )

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The partie is over: it takes no more hands."
    ]
    assert "The partie is over: it takes no more hands." in response.content.decode()
    assert state_of(closed_partie) == before


# Correcting and deleting


def test_the_hand_edit_page_is_filled_with_the_hand(client_owner, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(16, knocker="Ben")])

    response = client_owner.get(reverse("hand_edit", args=[partie.pk, 2]))

    assert response.status_code == 200
    form = response.context["form"]
    assert form["kind"].value() == "gin"
    assert form["knocker"].value() == "Ben"
    assert form["defender_deadwood"].value() == 16
    html = response.content.decode()
    assert "Correct hand 2" in html
    assert f'href="{reverse("hand_delete", args=[partie.pk, 2])}"' in html
    assert 'name="defender_deadwood" value="16"' in html
    assert '<input type="radio" name="knocker" value="Ben" id="id_knocker_1" checked>' in html
    assert '<input type="radio" name="kind" value="gin" id="id_kind_1" required checked>' in html


def test_editing_a_hand_by_post_saves_it_and_redirects(client_owner, owner, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(16, knocker="Ben")])

    response = client_owner.post(reverse("hand_edit", args=[partie.pk, 1]), knock(dk=5, dd=7))

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk])
    hand = Hand.objects.get(partie=partie, number=1)
    assert (hand.knocker_deadwood, hand.defender_deadwood) == (5, 7)
    partie.refresh_from_db()
    assert partie.summary["totals"] == {"Anna": 2, "Ben": 36}
    change = HandChange.objects.filter(partie=partie).first()
    assert (change.action, change.user, change.hand_number) == ("edited", owner, 1)


def test_an_edit_refused_for_a_later_hand_names_it_and_saves_nothing(
    client_owner, partie, play, worked_example
):
    play(partie, worked_example[:5])
    before = state_of(partie)

    response = client_owner.post(
        reverse("hand_edit", args=[partie.pk, 1]),
        {"kind": "gin", "knocker": "Anna", "defender_deadwood": "60"},
    )

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Hand 5 would then be refused: The partie is over: it takes no more hands."
    ]
    assert state_of(partie) == before


def test_editing_a_hand_that_does_not_exist_is_404(client_owner, partie):
    assert client_owner.get(reverse("hand_edit", args=[partie.pk, 1])).status_code == 404


def test_deleting_a_hand_asks_first_and_deletes_on_post(client_owner, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(16, knocker="Ben")])
    url = reverse("hand_delete", args=[partie.pk, 1])

    response = client_owner.get(url)

    assert response.status_code == 200
    assert "Delete hand 1?" in response.content.decode()
    assert Hand.objects.filter(partie=partie).count() == 2

    response = client_owner.post(url)

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk]) + "#undo-notice"
    hand = Hand.objects.get(partie=partie)
    assert (hand.number, hand.kind, hand.knocker.name) == (1, "gin", "Ben")
    partie.refresh_from_db()
    assert partie.summary["totals"] == {"Anna": 0, "Ben": 36}


def test_the_audit_trail_on_the_partie_page_names_each_change_and_its_user(client_owner, partie):
    client_owner.post(reverse("hand_create", args=[partie.pk]), knock())
    client_owner.post(reverse("hand_create", args=[partie.pk]), knock("Ben", 3, 20))
    client_owner.post(reverse("hand_edit", args=[partie.pk, 1]), knock(dk=4))
    client_owner.post(reverse("hand_delete", args=[partie.pk, 2]))

    response = client_owner.get(reverse("partie_detail", args=[partie.pk]))

    html = response.content.decode()
    trail = html[html.index('<details class="trail">') :]
    entries = [
        "owner: hand 2 deleted",
        "owner: hand 1 edited",
        "owner: hand 2 recorded",
        "owner: hand 1 recorded",
    ]
    positions = [trail.index(entry) for entry in entries]
    assert positions == sorted(positions)  # newest first
    assert "<del>Anna knocks 5 – 27</del>" in trail
    assert "<ins>Anna knocks 4 – 27</ins>" in trail
    assert "<del>Ben knocks 3 – 20</del>" in trail


# Export and import


def test_export_returns_the_record_of_format_md(client_owner, closed_partie, format_record):
    response = client_owner.get(reverse("partie_export", args=[closed_partie.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="partie-{closed_partie.pk}-anna-ben.json"'
    )
    assert json.loads(response.content) == format_record


def test_export_keeps_the_rule_overrides(client_owner, start_partie):
    partie = start_partie(rules=engine.preset("modern", gin_bonus=30, target=150))

    data = client_owner.get(reverse("partie_export", args=[partie.pk])).json()

    assert data["rules"] == {"preset": "modern", "gin_bonus": 30, "target": 150}
    assert data["hands"] == []


def test_an_exported_partie_imports_again_with_the_same_summary(client_owner, closed_partie):
    exported = client_owner.get(reverse("partie_export", args=[closed_partie.pk])).content

    response = client_owner.post(reverse("partie_import"), {"text": exported.decode()})

    copy = Partie.objects.exclude(pk=closed_partie.pk).get()
    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[copy.pk])
    assert copy.summary == closed_partie.summary
    assert copy.summary["totals"] == {"Anna": 261, "Ben": 86}
    assert copy.state == Partie.State.CLOSED
    assert copy.rules == closed_partie.rules
    assert copy.stake == closed_partie.stake
    assert client_owner.get(reverse("partie_export", args=[copy.pk])).content == exported


def test_importing_broken_json_shows_the_error_and_creates_nothing(client_owner):
    response = client_owner.post(reverse("partie_import"), {"text": '{"players": ["Anna",'})

    assert response.status_code == 400
    errors = response.context["form"].non_field_errors()
    assert len(errors) == 1
    assert errors[0].startswith("broken JSON at line 1 column ")
    assert errors[0] in response.content.decode()
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_importing_a_record_with_a_hand_over_the_limit_names_the_hand_and_creates_nothing(
    client_owner, format_record
):
    format_record["hands"][2]["knocker_deadwood"] = 11

    response = client_owner.post(reverse("partie_import"), {"text": json.dumps(format_record)})

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Hand 3: A knock with 11 deadwood is over the knock limit of 10."
    ]
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_importing_a_record_whose_player_name_ends_in_a_space_says_so_and_creates_nothing(
    client_owner, format_record
):
    format_record["players"] = ["Anna ", "Ben"]
    format_record["hands"] = []

    response = client_owner.post(reverse("partie_import"), {"text": json.dumps(format_record)})

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Players: the name 'Anna ' begins or ends with a space: remove it."
    ]
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_importing_by_file_upload_creates_the_partie(client_owner, owner, format_record):
    upload = SimpleUploadedFile(
        "anna-ben.json", json.dumps(format_record).encode(), content_type="application/json"
    )

    response = client_owner.post(reverse("partie_import"), {"file": upload})

    partie = Partie.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk])
    assert partie.owner == owner
    assert partie.summary["totals"] == {"Anna": 261, "Ben": 86}
    assert Hand.objects.filter(partie=partie).count() == 6


def test_importing_nothing_asks_for_a_record(client_owner):
    response = client_owner.post(reverse("partie_import"), {"text": "  "})

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == ["Paste a game record or choose a file."]
    assert Partie.objects.count() == 0


def test_a_hand_line_says_v_in_english_and_gegen_in_german(client_owner, partie, play):
    """The issue's defect: "Anna 5 v 27" stayed English on a German page."""
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(90, knocker="Ben")])
    url = reverse("partie_detail", args=[partie.pk])

    english = client_owner.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client_owner.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert "Anna 5 v 27" in english and "Ben v 90" in english
    assert "Anna 5 gegen 27" in german and "Ben gegen 90" in german
    assert " v " not in re.sub(r"<[^>]+>", " ", german)
