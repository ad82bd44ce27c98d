from django.urls import path

from . import views

urlpatterns = [
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="club_leave"),
    path("clubs/<slug:slug>/delete/", views.club_delete, name="club_delete"),
    path("clubs/<slug:slug>/restore/", views.club_restore, name="club_restore"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", views.membership_role, name="membership_role"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/remove/",
        views.membership_remove,
        name="membership_remove",
    ),
    path("clubs/<slug:slug>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("invite/<str:token>/", views.invitation_accept, name="invitation_accept"),
]
