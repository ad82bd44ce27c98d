"""The forms of the table, by subject: ``parties`` (a partie started or imported),
``hands`` and ``cards`` (one entry), ``rules`` (the rules and the shared fields),
``evenings``, ``players`` and ``pdfs`` (a blank score pad). Forms clean into engine
values; the engine decides what a hand scores.

Re-exported for the tests that import them from here; code in the apps imports from
the module that holds the form.
"""

from .evenings import EveningPartieForm
from .parties import PartieStartForm
from .rules import rule_initial

__all__ = ["EveningPartieForm", "PartieStartForm", "rule_initial"]
