from django.urls import path

from . import views

urlpatterns = [
    path("me/notices/", views.notices_settings, name="notices_settings"),
    path("me/notices/address/", views.address_link_send, name="address_link_send"),
    path("me/address/<str:token>/", views.address_verify, name="address_verify"),
    path("me/notices/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("me/notices/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("notices/unsubscribe/<str:token>/", views.notices_unsubscribe, name="notices_unsubscribe"),
]
