"""The house's layering, read from the source: domain modules import only downwards,
engine < sheets < clubs < table < league, with the shared helpers (formats, vocabulary,
tokens, renderers) just above the engine and accounts beside clubs. The web layer
(views, URLs, forms, admin, commands, template tags) sits on top of every app, and
migrations are history. The engine imports no Django at all.

Absolute imports, ``from scorekeeper import x`` and relative imports all count. The
shared layering tool (``../shared/tools/layers.py``) states the same order.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
LAYER = {
    "engine": 0,
    "formats": 1,
    "vocabulary": 1,
    "tokens": 1,
    "renderers": 1,
    "sheets": 2,
    "accounts": 3,
    "clubs": 3,
    "table": 4,
    "league": 5,
}
WEB = {"views", "urls", "forms", "admin", "management", "templatetags"}


def modules() -> Iterator[tuple[Path, tuple[str, ...]]]:
    """Each module of the package and its dotted name's parts (a package: its folder's)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield path, parts[:-1] if parts[-1] == "__init__" else parts


def imported(path: Path, name: tuple[str, ...]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Each module or name the file imports, as dotted parts, with its line."""
    package = name if path.name == "__init__.py" else name[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, tuple(alias.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = base + tuple(node.module.split(".") if node.module else ())
            for alias in node.names:  # `from scorekeeper import engine`: the name is the module
                yield node.lineno, module + (alias.name,)


def is_web(parts: tuple[str, ...]) -> bool:
    return bool(WEB & set(parts)) or parts[-1].endswith("_forms")


def test_no_domain_module_imports_a_higher_layer():
    against = []
    for path, name in modules():
        if len(name) < 2 or name[1] not in LAYER or "migrations" in name or is_web(name):
            continue
        for line, target in imported(path, name):
            there = target[1] if target[0] == "scorekeeper" and len(target) > 1 else None
            if there in LAYER and LAYER[there] > LAYER[name[1]]:
                against.append(f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)}")
    assert against == []


def test_the_engine_imports_no_django():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, name in modules()
        if name[:2] == ("scorekeeper", "engine")
        for line, target in imported(path, name)
        if target[0] == "django"
    ]
    assert found == []


@pytest.mark.parametrize(
    ("source", "module", "found"),
    [
        ("from scorekeeper.league import ratings", "scorekeeper.table.services.results",
         ("scorekeeper", "league", "ratings")),
        ("from ... import league", "scorekeeper.table.services.results",
         ("scorekeeper", "league")),
        ("from ..models import Partie", "scorekeeper.table.services.results",
         ("scorekeeper", "table", "models", "Partie")),
        ("import scorekeeper.league.models", "scorekeeper.clubs.models",
         ("scorekeeper", "league", "models")),
    ],
)  # fmt: skip
def test_every_kind_of_import_is_read(tmp_path, source, module, found):
    """The check itself: absolute, package-relative and sibling imports resolve to the
    module they name (the layering test would pass on imports it could not read)."""
    path = tmp_path / "module.py"
    path.write_text(source + "\n")
    targets = [target for _, target in imported(path, tuple(module.split(".")))]
    assert found in targets
