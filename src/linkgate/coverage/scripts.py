"""Which build scripts the configured gates build, scanned for recipes.

The packages come from ``cargo metadata`` for each cargo gate (local
packages only: a registry crate's build script is not the project's to
name). A script reached by several gates is scanned once; its recorded
outputs are looked up in every such gate's target directories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.config import Config
from linkgate.coverage import suggest as sg


@dataclass
class Proposal:
    suggestions: list[sg.Suggestion] = field(default_factory=list)
    scripts: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": sg.SCHEMA,
            "scripts": self.scripts,
            "suggestions": [s.to_dict() for s in self.suggestions],
        }

    def toml(self) -> str:
        return "\n".join(s.stanza() for s in self.suggestions)


def propose(config: Config) -> Proposal:
    from linkgate.cargo import graph as cargo_graph
    from linkgate.cargo.buildscript import build_script_source
    from linkgate.coverage.branches import scan
    from linkgate.gate import layout
    from linkgate.surface.built import relative

    scripts: dict[Path, tuple[str, list[tuple[str, str, Path]]]] = {}
    for gate in config.gates:
        if not gate.is_cargo:
            continue
        graph = cargo_graph.load(layout.work_dir(config, gate), gate.cargo or ())
        for pkg in graph.reachable_packages():
            script = build_script_source(pkg.manifest_dir) if pkg.local else None
            if script is None:
                continue
            _, dirs = scripts.setdefault(script.resolve(), (pkg.name, []))
            dirs += [(gate.name, linker, layout.target_dir(config, gate, linker)) for linker in gate.linkers]
    result = Proposal()
    taken = {r.name for r in config.recipes}
    for path, (package, dirs) in sorted(scripts.items()):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found = scan(text)
        file = relative(config.root, path)[0]
        items = sg.suggestions(found, file, package, taken)
        common = sg.common_directives(found)
        items = sg.confirm(items, common, sg.read_recorded(dirs, package, config.root))
        result.suggestions += sg.mark_configured(items, config.recipes)
        result.scripts.append({
            "file": file, "package": package, "recipes": len(items),
            "unconditional": sorted(set(common)), "notes": found.notes,
        })
    return result
