from django.contrib import admin

from .models import AddressCheck, Delivery, Notice, Preferences, PushSubscription


class DeliveryInline(admin.TabularInline):
    model = Delivery
    extra = 0
    readonly_fields = ["channel", "next_try_at", "attempts", "sent_at", "failed_at", "error"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["kind", "recipient", "club", "created_at"]
    list_filter = ["kind"]
    search_fields = ["recipient__username", "club__name", "key"]
    raw_id_fields = ["recipient", "club"]
    inlines = [DeliveryInline]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["notice", "channel", "attempts", "next_try_at", "sent_at", "failed_at"]
    list_filter = ["channel", ("failed_at", admin.EmptyFieldListFilter)]
    search_fields = ["notice__recipient__username", "error"]
    raw_id_fields = ["notice"]


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "user_agent", "created_at", "last_success_at"]
    search_fields = ["user__username", "endpoint", "user_agent"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_at", "last_success_at"]


@admin.register(AddressCheck)
class AddressCheckAdmin(admin.ModelAdmin):
    list_display = ["user", "address", "created_at", "sent_at", "failed_at", "verified_at"]
    list_filter = [("verified_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "address"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_at", "attempts", "sent_at", "failed_at", "error", "verified_at"]
