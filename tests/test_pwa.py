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
