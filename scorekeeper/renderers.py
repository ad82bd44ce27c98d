"""How every form field of the site is drawn: ``{{ form.knocker.as_field_group }}``."""

from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """Django's form templates, found through TEMPLATES so that ``templates/forms/`` can
    replace them; each field comes in the wrapper the CSS and the card picker look for
    (``.field-<name>``, radio choices as big ``.choice`` buttons)."""

    field_template_name = "forms/field.html"
