"""The audit's data flows one way: workflows -> audit.model -> classify -> rules -> run.

Read from the source (every `import`, also the lazy ones inside functions),
so a circle like the old findings <-> surfacecheck cannot come back unseen.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src" / "linkgate"
# Each audit module may import only the audit modules listed (and anything outside audit/).
ALLOWED = {
    "model": set(),
    "rank": {"model"},
    "suggest": set(),
    "workspace": set(),
    "classify": {"model"},
    "grouping": {"model"},
    "findings": {"model", "classify", "grouping"},
    "surfacecheck": {"model", "workspace", "suggest"},
    "readcoverage": set(),
    "run": {"model", "classify", "findings", "surfacecheck", "rank"},
}


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "linkgate.audit":
                out.update(f"linkgate.audit.{a.name}" for a in node.names)
            else:
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_workflows_never_import_the_audit() -> None:
    for path in (SRC / "workflows").rglob("*.py"):
        assert not [m for m in imported(path) if m.startswith("linkgate.audit")], path


def test_cargo_and_surface_never_import_the_audit() -> None:
    for package in ("cargo", "surface"):
        for path in (SRC / package).rglob("*.py"):
            assert not [m for m in imported(path) if m.startswith("linkgate.audit")], path


def test_audit_modules_import_only_downstream() -> None:
    modules = {p.stem for p in (SRC / "audit").glob("*.py") if p.stem != "__init__"}
    assert modules == set(ALLOWED), "a new audit module needs its place in ALLOWED"
    for name in modules:
        uses = {m.removeprefix("linkgate.audit.") for m in imported(SRC / "audit" / f"{name}.py")
                if m.startswith("linkgate.audit.")}
        assert uses <= ALLOWED[name], f"audit.{name} imports {sorted(uses - ALLOWED[name])}"
