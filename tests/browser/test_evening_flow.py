"""Starting an evening in German and in English, in Chromium: the date field holds an
ISO date the browser accepts (23.11.2026 would be dropped, leaving the required field
empty and the form unsendable), and the page shows the date in the reader's language."""

from datetime import date

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scorekeeper.table.models import Evening

SHOWN = {"de": "23. November 2026", "en": "Nov. 23, 2026"}


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_evening_is_started_with_the_date_field_in_either_language(
    logged_in_page: Page, live_server, language
):
    page = logged_in_page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(reverse("evening_list"))
    expect(page.locator("html")).to_have_attribute("lang", language)
    field = page.locator('input[name="played_on"]')
    expect(field).to_have_attribute("type", "date")

    # the default date reaches the browser: it keeps only values it can read
    expect(field).to_have_value(f"{date.today():%Y-%m-%d}")
    assert field.evaluate("input => input.validity.valid")

    page.locator('input[name="name"]').fill("Kartenabend bei Rosa")
    field.fill("2026-11-23")
    page.locator("form.stack button[type=submit]").click()

    expect(page.get_by_role("heading", name="Kartenabend bei Rosa")).to_be_visible()
    evening = Evening.objects.get()
    assert evening.played_on == date(2026, 11, 23)
    assert page.url.endswith(evening.get_absolute_url())
    expect(page.locator(".rules-line")).to_contain_text(SHOWN[language])
