"""Scorekeeper on a phone's home screen and at a table without a network: the web app
manifest, the service worker at /sw.js and the page it shows for a page it has not kept
(views.py), and the icons (icons.py). The queue of hands entered offline lives in the
browser: static/js/offline.js."""
