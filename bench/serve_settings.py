"""The production settings, served by gunicorn for the load and scale-out benches.

Only the static files differ: `collectstatic` writes them (and the manifest that
production's storage reads) to a temporary directory of the bench, not to the work tree.
"""

import os

from scorekeeper.settings import *  # noqa: F403

STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
