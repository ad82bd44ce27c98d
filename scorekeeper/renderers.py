"""How every form field of the site is drawn: ``{{ form.knocker.as_field_group }}``."""

from django import forms
from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """Django's form templates, found through TEMPLATES so that ``templates/forms/`` can
    replace them; each field comes in the wrapper the CSS and the card picker look for
    (``.field-<name>``, radio choices as big ``.choice`` buttons)."""

    field_template_name = "forms/field.html"


class DateInput(forms.DateInput):
    """A date picker: ``<input type="date">`` takes and gives only ISO dates (2026-11-23),
    whatever the page's language, so its value is written ISO and not as the locale
    would (23.11.2026, which the browser drops). Django reads ISO in every language."""

    input_type = "date"

    def __init__(self, attrs: dict | None = None):
        super().__init__(attrs, format="%Y-%m-%d")
