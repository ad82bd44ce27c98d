"""The pages that only read say so: a POST (or PUT, DELETE) to them is 405 and changes nothing."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def read_only_urls(partie, evening):
    player = partie.seats.first().player
    return [
        reverse("home"),
        reverse("partie_rules"),
        reverse("partie_detail", args=[partie.pk]),
        reverse("shared_partie", args=[partie.share_token]),
        reverse("partie_export", args=[partie.pk]),
        reverse("partie_pdf", args=[partie.pk]),
        reverse("shared_partie_pdf", args=[partie.share_token]),
        reverse("evening_pdf", args=[evening.pk]),
        reverse("evening_board", args=[evening.pk]),
        reverse("club_board", args=[partie.club.slug]),
        reverse("pad"),
        reverse("player_detail", args=[player.pk]),
        reverse("my_games"),
    ]


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_a_page_that_only_reads_refuses_other_methods_than_get_and_head(
    client_owner, closed_partie, evening, method
):
    summary = closed_partie.summary

    for url in read_only_urls(closed_partie, evening):
        response = getattr(client_owner, method)(url)
        assert response.status_code == 405, url
        assert response["Allow"] == "GET, HEAD"

    closed_partie.refresh_from_db()
    assert closed_partie.summary == summary


def test_a_page_that_only_reads_answers_head(client_owner, closed_partie, evening):
    for url in read_only_urls(closed_partie, evening):
        assert client_owner.head(url).status_code == 200, url


@pytest.mark.parametrize("name", ["player_rename", "player_merge"])
def test_a_player_is_renamed_or_merged_only_by_a_post(client_owner, closed_partie, name):
    player = closed_partie.seats.first().player

    response = client_owner.get(reverse(name, args=[player.pk]))

    assert response.status_code == 405 and response["Allow"] == "POST"
