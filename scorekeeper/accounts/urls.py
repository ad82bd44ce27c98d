from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .forms import PasswordResetForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before django.contrib.auth's URLs (scorekeeper/urls.py): these answer.
    path("accounts/login/", views.login_page, name="login"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=PasswordResetForm),
        name="password_reset",
    ),
]
