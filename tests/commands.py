"""The management commands run from a test: in-process through ``call_command`` (``run``),
as nearly every test does, or as the real ``manage.py`` process a user starts
(``manage``), which each command's tests do once, for its entry point.

Plain functions, imported as ``from tests.commands import ...``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records"


class Run(NamedTuple):
    """What a command did: its exit status, and what it wrote to stdout and stderr."""

    status: int
    out: str
    err: str


def run(command: str, *args: str, stdin: bytes | str | None = None) -> Run:
    """Run the command in-process, as ``manage.py`` would from the command line.

    Bytes on ``stdin`` reach the command as a terminal's standard input does: a text
    stream whose ``buffer`` holds the bytes. A str comes as a plain text stream. The
    exit status is that of the ``SystemExit`` or ``CommandError`` the command raised,
    and a ``CommandError`` writes its line to stderr as ``manage.py`` does; anything
    else it raises (a traceback on the terminal) fails the test.
    """
    out, err = io.StringIO(), io.StringIO()
    options: dict = {"stdout": out, "stderr": err}
    if isinstance(stdin, bytes):
        options["stdin"] = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    elif stdin is not None:
        options["stdin"] = io.StringIO(stdin)
    try:
        call_command(command, *args, **options)
    except SystemExit as exit_:
        code = exit_.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
    except CommandError as error:
        err.write(f"CommandError: {error}\n")
        status = error.returncode
    else:
        status = 0
    return Run(status, out.getvalue(), err.getvalue())


def manage(
    *args: str, stdin: bytes | None = None, env: dict[str, str | None] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python manage.py ARGS`` as a process, its output as bytes.

    A fixed I/O encoding keeps the result independent of the machine's locale; ``env``
    adds variables to the environment, or takes one out with None.
    """
    environment = os.environ | {"PYTHONIOENCODING": "utf-8"}
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        input=stdin,
        capture_output=True,
    )
