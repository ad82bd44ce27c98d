"""Printable score sheets: a partie's sheet, an evening's tally and blank score pads.

One module per document: ``score_sheet``, ``evening_tally``, ``score_pad`` and
``standings``; ``common`` holds what they share. Each works in two steps, as the pretix
invoice renderer does: a function builds plain frozen value objects from engine records
(no database; strings translated), and a renderer draws them as PDF with reportlab,
byte for byte the same for the same input.
"""
