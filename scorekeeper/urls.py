from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.table.urls")),
    path("", include("scorekeeper.clubs.urls")),
    path("", include("scorekeeper.league.urls")),
]
