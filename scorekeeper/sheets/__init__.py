"""Printable score sheets: a partie's sheet, an evening's tally and blank score pads.

Two steps, as the pretix invoice renderer does it: ``data`` builds plain frozen
value objects from engine records (no database; strings translated), and
``render`` draws them as PDF with reportlab, byte for byte the same for the
same input.
"""
