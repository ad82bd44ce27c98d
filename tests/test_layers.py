"""The house's layering: domain modules import only downwards, engine < sheets < clubs <
table < league (views, forms, admin and commands sit on top of every app).

The check is the shared layering tool, kept beside the project's clone
(``../shared/tools/layers.py``; in CI, ``shared/`` is checked out next to it). It reads
``scorekeeper/`` from the project's root and prints how many imports run against the
order, then one line per import.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = Path("shared", "tools", "layers.py")


def layers_tool() -> Path | None:
    """The tool beside the project, or beside a folder it sits in (a work tree)."""
    return next((folder / TOOL for folder in ROOT.parents if (folder / TOOL).is_file()), None)


def test_no_domain_module_imports_a_higher_layer():
    tool = layers_tool()
    if tool is None:
        pytest.skip(f"the layering tool is not beside the project: no ../{TOOL.as_posix()}")

    run = subprocess.run(
        [sys.executable, str(tool)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert run.returncode == 0, run.stderr
    found = re.search(r":\s*(\d+)\.\s*$", run.stdout.splitlines()[0])
    assert found, f"the tool's output is not understood:\n{run.stdout}"
    assert int(found.group(1)) == 0, run.stdout
