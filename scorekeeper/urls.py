from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe

from scorekeeper.notices import views as notices
from scorekeeper.pwa import views as pwa


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    # At the root: a service worker's scope is, at most, the folder it is served from.
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("admin/", admin.site.urls),
    # Sign-up and the log-in page with a bounded username, before Django's own log-in.
    path("", include("scorekeeper.accounts.urls")),
    # Logging out also forgets the device's push subscription, before Django's own logout.
    path("accounts/logout/", notices.log_out, name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    # Django's language switch, which also keeps a member's language for his mails.
    path("i18n/setlang/", notices.language_set, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.table.urls")),
    path("", include("scorekeeper.clubs.urls")),
    path("", include("scorekeeper.league.urls")),
    path("", include("scorekeeper.tournaments.urls")),
    path("", include("scorekeeper.notices.urls")),
]
