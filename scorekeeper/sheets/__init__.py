"""Printable score sheets: a partie's sheet, an evening's tally and blank score pads.

One module per document: ``score_sheet``, ``evening_tally``, ``score_pad`` and
``standings``; ``common`` holds what they share. Each works in two steps, as the pretix
invoice renderer does: a function builds plain frozen value objects (strings translated),
and a renderer draws them as PDF with reportlab, byte for byte the same for the same input.

The values are built from what the page of the same thing shows: its read model, the
selectors' (a partie's ``Sheet``, an evening's ``EveningView``, a season's ``SeasonTable``),
described here by small Protocols of what each document reads, so that nothing is counted
or replayed twice and this package imports nothing above the engine. Without a database
(``manage.py sheet``, the tests) a game record replayed by the engine stands in for it.
"""
