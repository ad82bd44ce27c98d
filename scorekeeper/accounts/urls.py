from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before django.contrib.auth's URLs (scorekeeper/urls.py): this one answers.
    path("accounts/login/", views.login_page, name="login"),
]
