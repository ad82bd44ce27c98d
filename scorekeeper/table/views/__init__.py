"""The pages of the table, one module per subject: ``parties`` (parties and hands),
``evenings``, ``players``, ``sharing`` (share links and live boards), ``pdfs`` and
``repair``; ``common`` holds what they share. Thin views: fetch through an access
helper, clean a form, call a service, render. One template per page; an HTMX request
gets only the named partial of the same template, so the page and its swap never
drift apart.
"""
