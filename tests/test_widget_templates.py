"""The widget templates of templates/django/forms/widgets/ draw exactly what Django's
own draw: they only write in what Django's include (attrs.html), for speed."""

from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates

from scorekeeper.renderers import FormRenderer

OVERRIDDEN = sorted(
    path.name for path in (Path(settings.BASE_DIR) / "templates/django/forms/widgets").iterdir()
)


class Everything(forms.Form):
    name = forms.CharField(max_length=80, required=False, help_text="help")
    quote = forms.CharField(initial='a "quoted" <b>', disabled=True)
    count = forms.IntegerField(min_value=0, max_value=500, widget=forms.NumberInput({"step": 5}))
    kind = forms.ChoiceField(choices=[("gin", "Gin & more"), ("knock", "<Knock>")])
    side = forms.ChoiceField(
        choices=[("a", "A"), ("b", "B")], widget=forms.RadioSelect({"autofocus": True})
    )
    empty = forms.ChoiceField(choices=[("x", "X")], widget=forms.RadioSelect, required=False)


FORMS = [
    Everything(),
    Everything({"name": "Anna", "count": "12", "side": "b", "kind": "gin"}),
    Everything({"name": "", "count": "-3", "side": "zz"}),  # errors: aria attributes
]


def test_the_widget_templates_overridden_are_the_ones_the_form_draws():
    assert OVERRIDDEN == ["input.html", "number.html", "radio_option.html", "text.html"]


@pytest.mark.parametrize("form", FORMS, ids=["unbound", "bound", "invalid"])
def test_every_widget_is_drawn_as_djangos_own_templates_draw_it(form):
    ours, djangos = FormRenderer(), DjangoTemplates()
    for field in form:
        assert field.field.widget.render(
            field.html_name, field.value(), field.build_widget_attrs({}), renderer=ours
        ) == field.field.widget.render(
            field.html_name, field.value(), field.build_widget_attrs({}), renderer=djangos
        ), field.name
    for field in form:  # each radio choice alone, as templates/forms/field.html draws it
        form.renderer = ours
        mine = [choice.tag() for choice in field.subwidgets]
        form.renderer = djangos
        assert mine == [choice.tag() for choice in field.subwidgets], field.name
