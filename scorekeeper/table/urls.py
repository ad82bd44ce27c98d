# Placeholder so the project URLconf resolves; replaced by the table app's real routes.
urlpatterns = []
