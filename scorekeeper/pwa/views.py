"""The manifest, the service worker and its offline page.

The service worker is a short script of our own (templates/pwa/sw.js), rendered here so
that it knows the site's addresses: the files to keep (read from the offline page, which
loads what every page loads), the pages to keep (home and each partie's page), the
logout address (after which the pages kept are dropped) and the header that names the
account a page was made for (``account``: each account's pages are kept apart). Its
version is a digest of the script and of those addresses, so that a deploy that changes
either installs it anew.
"""

import hashlib
import json
import re

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from . import account

# The app's colours (static/css/app.css: --accent and --paper).
THEME_COLOUR = "#0b6e4f"
BACKGROUND_COLOUR = "#fbfaf6"
# Any number would do: it stands for every partie in the pattern of the pages kept.
_ANY = 987654321


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone needs to put Scorekeeper on its home screen."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    # The 512 px icon keeps its spade in the middle 80 %: a launcher may cut it round.
    icons.append(icons[-1] | {"purpose": "maskable"})
    data = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _("The score pad for gin rummy played with real cards."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, for the whole site: served from the root, and allowed the root
    as its scope in so many words. Never taken from a cache without asking the server."""
    template = get_template("pwa/sw.js")
    config = {
        "offline": reverse("offline"),
        "assets": _assets_of_the_offline_page(request),
        "static": settings.STATIC_URL,
        "kept": _kept_pages(),
        "logout": reverse("logout"),
        "account": {"header": account.HEADER, "nobody": account.NOBODY},
        "icon": static("icons/icon-192.png"),  # beside a notification pushed
    }
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode())
    digest.update(template.template.source.encode())
    config["version"] = digest.hexdigest()[:12]
    body = template.render({"config": mark_safe(json.dumps(config))}, request)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows, without a network, for a page it has not kept.

    Kept once for the phone, whoever holds it: it names no account (no header, no
    ``data-account``) and is drawn as for a visitor, with no one's menu or notices."""
    account.name_no_account(request)
    return render(request, "pwa/offline.html")


def _assets_of_the_offline_page(request: HttpRequest) -> list[str]:
    """The static files the offline page loads (the styles, the scripts, the icon): those
    of every page, which the service worker keeps from its installation on."""
    page = render_to_string("pwa/offline.html", request=request)
    pattern = rf'(?:src|href)="({re.escape(settings.STATIC_URL)}[^"]+)"'
    return sorted(set(re.findall(pattern, page)))


def _kept_pages() -> str:
    """A regular expression of the paths whose pages are kept on the phone as visited:
    the list of one's parties (the home screen's start) and each partie's page."""
    partie = re.escape(reverse("partie_detail", args=[_ANY])).replace(str(_ANY), r"\d+")
    return rf"^(?:{re.escape(reverse('home'))}|{partie})$"
