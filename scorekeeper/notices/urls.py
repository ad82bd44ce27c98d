from django.urls import path

from . import views

urlpatterns = [
    path("me/notices/", views.notices_settings, name="notices_settings"),
    path("notices/unsubscribe/<str:token>/", views.notices_unsubscribe, name="notices_unsubscribe"),
]
