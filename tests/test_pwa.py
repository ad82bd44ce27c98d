"""On a phone's home screen and without a network: the manifest, the service worker and
its offline page, as the server gives them (the browser side: tests/browser/test_offline.py)."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image

from scorekeeper import engine
from scorekeeper.table import services
from tests.conftest import PASSWORD


def test_the_manifest_names_the_app_its_start_and_its_icons(client: Client):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "Scorekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b6e4f"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"] if "purpose" not in icon}
    assert set(sizes) == {"192x192", "512x512"}
    for size, icon in sizes.items():
        assert icon["type"] == "image/png"
        path = finders.find(icon["src"].removeprefix("/static/"))
        with Image.open(path) as image:
            assert f"{image.width}x{image.height}" == size
            assert image.format == "PNG"


def test_the_manifest_speaks_the_readers_language(client: Client):
    response = client.get("/manifest.webmanifest", headers={"accept-language": "de"})

    manifest = json.loads(response.content)
    assert manifest["lang"] == "de"
    assert manifest["description"] == "Der Schreibblock für Gin-Rommé mit echten Karten."


def test_the_service_worker_is_served_for_the_whole_site(client: Client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "max-age=0" in response["Cache-Control"]


def service_worker_config(client: Client) -> dict:
    script = client.get("/sw.js").content.decode()
    return json.loads(re.search(r"^const CONFIG = (.*);$", script, re.MULTILINE).group(1))


def test_the_service_worker_keeps_what_every_page_loads_and_the_offline_page(client: Client):
    config = service_worker_config(client)

    assert config["offline"] == "/offline/"
    page = client.get("/").content.decode()
    for asset in ("css/app.css", "css/offline.css", "js/offline.js", "js/entry.js"):
        assert f"/static/{asset}" in config["assets"]
        assert f'"/static/{asset}"' in page
    assert any(asset.startswith("/static/django_htmx/") for asset in config["assets"])
    assert "/static/icons/icon-192.png" in config["assets"]
    for asset in config["assets"]:
        assert client.get(asset).status_code == 200, asset


@pytest.mark.django_db
def test_the_service_worker_keeps_home_and_the_parties_pages_only(client: Client, owner):
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic"), first_dealer="Ben"
    )
    kept = re.compile(service_worker_config(client)["kept"])

    assert kept.match("/")
    assert kept.match(partie.get_absolute_url())
    for path in ("/evenings/", f"{partie.get_absolute_url()}sheet.pdf", "/parties/new/", "/sw.js"):
        assert not kept.match(path), path


def test_a_changed_service_worker_has_a_new_version(client: Client, settings):
    before = service_worker_config(client)["version"]
    settings.STATIC_URL = "/assets/"

    assert service_worker_config(client)["version"] != before


def test_every_page_links_the_manifest_and_the_script_that_registers_the_worker(
    client: Client,
):
    for path in ("/", "/accounts/login/", "/offline/"):
        page = client.get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert 'data-service-worker="/sw.js"' in page, path


def test_the_offline_page_says_what_is_kept(client: Client):
    response = client.get("/offline/")

    assert response.status_code == 200
    assert "No connection" in response.content.decode()


# A phone shared at a card table: each page names the account it was made for, so that the
# worker keeps each person's pages apart and the queue sends each hand in its person's
# session (scorekeeper/pwa/account.py; the browser side: tests/browser/test_shared_phone.py).

ACCOUNT = "Scorekeeper-Account"


def body_account(response) -> tuple[str, str]:
    found = re.search(
        r'<body[^>]* data-account="([^"]*)" data-account-name="([^"]*)"', response.content.decode()
    )
    assert found, "no account on the page's body"
    return found.group(1), found.group(2)


@pytest.mark.django_db
def test_every_page_names_its_account_by_an_opaque_token_in_a_header_and_on_its_body(
    client: Client, owner, outsider
):
    visitor = client.get("/accounts/login/")
    assert visitor[ACCOUNT] == "nobody"
    assert body_account(visitor) == ("nobody", "")

    client.force_login(owner)
    first, again = client.get("/"), client.get("/evenings/")
    token = first[ACCOUNT]
    assert again[ACCOUNT] == token and body_account(first) == (token, "owner")
    assert re.fullmatch(r"[0-9a-f]{32}", token)  # neither the id nor the name
    assert str(owner.pk) != token and "owner" not in token
    other = Client()
    other.force_login(outsider)
    assert other.get("/")[ACCOUNT] not in (token, "nobody")


@pytest.mark.django_db
def test_a_login_and_a_logout_answer_for_the_account_that_follows(client: Client, owner):
    logged_in = client.post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    assert logged_in.status_code == 302
    token = logged_in[ACCOUNT]
    assert token not in ("", "nobody") and client.get("/")[ACCOUNT] == token

    logged_out = client.post("/accounts/logout/")
    assert logged_out.status_code == 302 and logged_out[ACCOUNT] == "nobody"


@pytest.mark.django_db
def test_the_offline_page_names_no_account_and_shows_no_ones_menu(client: Client, owner):
    """Kept once for the phone, whoever holds it: it must neither change whose pages are
    kept nor show the menu and notices of whoever was logged in when it was kept."""
    client.force_login(owner)

    response = client.get("/offline/")

    assert ACCOUNT not in response
    assert body_account(response) == ("", "")
    page = response.content.decode()
    assert "Log out" not in page and "My games" not in page


def test_the_service_worker_knows_the_header_that_names_the_account(client: Client):
    assert service_worker_config(client)["account"] == {"header": ACCOUNT, "nobody": "nobody"}


def test_pages_other_than_html_name_no_account(client: Client):
    assert ACCOUNT not in client.get("/manifest.webmanifest")
    assert ACCOUNT not in client.get("/sw.js")
