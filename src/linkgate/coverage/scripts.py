"""Which build scripts the configured gates build, scanned for recipes.

The packages come from ``cargo metadata`` for each cargo gate (local
packages only: a registry crate's build script is not the project's to
name). A script reached by several gates is scanned once; its recorded
outputs are looked up in every such gate's target directories.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.config import Config
from linkgate.coverage import suggest as sg


# Crates whose calls print link directives from inside a build script
# (cc::Build::compile prints rustc-link-lib=static=NAME and rustc-link-search,
# pkg_config::probe and vcpkg::find_package the library's -l and -L lines,
# cmake::build nothing itself but its caller's next println): the scan reads
# only literal printlns, so a recipe these select is invisible to it.
_HELPERS = {
    "cc": re.compile(r"\bcc::(Build|new)\b"),
    "cmake": re.compile(r"\bcmake::(Config|build)\b"),
    "pkg-config": re.compile(r"\bpkg_config::"),
    "vcpkg": re.compile(r"\bvcpkg::"),
    "system-deps": re.compile(r"\bsystem_deps::"),
}


def helper_crates(text: str) -> list[str]:
    """The directive-printing helper crates a build script calls."""
    return [name for name, pattern in _HELPERS.items() if pattern.search(text)]


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

    def none_found(self) -> list[str]:
        """Why nothing is proposed, in what it read and what it cannot read; [] when something is."""
        if self.suggestions:
            return []
        if not self.scripts:
            return ["no recipe proposed: the gates build no build script of a local package"]
        files = ", ".join(s["file"] for s in self.scripts)
        helpers = sorted({h for s in self.scripts for h in s["helpers"]})
        calls = (f"; {files} calls {', '.join(helpers)}" if helpers else "")
        return [
            f"no recipe proposed: found no literal `cargo:rustc-link-*` println under an env, target or feature "
            f"condition in the build scripts the gates build ({files})",
            "link directives printed by helper crates (cc, cmake, pkg-config, vcpkg) are not read" + calls
            + ": write those recipes by hand as [[recipe]] stanzas (when-env, when-target, when-features, file, "
            "line), as in docs/commands/coverage.md",
        ]


def _feature_table(manifest: Path) -> list[str] | None:
    """Every feature of the package as Cargo.toml spells it, optional dependencies' implicit
    ones included (``dep:`` respected); None when the manifest cannot be read."""
    from linkgate.cargo import manifests

    try:
        return list(manifests.read(manifest).all_features)
    except manifests.ManifestError:
        return None


def propose(config: Config) -> Proposal:
    from linkgate.cargo import graph as cargo_graph
    from linkgate.cargo.buildscript import build_script_source
    from linkgate.coverage.branches import scan
    from linkgate.gate import layout
    from linkgate.surface.built import relative

    scripts: dict[Path, tuple[str, list[tuple[str, str, Path]]]] = {}
    tables: dict[Path, list[str] | None] = {}
    for gate in config.gates:
        if not gate.is_cargo:
            continue
        graph = cargo_graph.load(layout.work_dir(config, gate), gate.cargo or ())
        for pkg in graph.reachable_packages():
            script = build_script_source(pkg.manifest_dir) if pkg.local else None
            if script is None:
                continue
            _, dirs = scripts.setdefault(script.resolve(), (pkg.name, []))
            tables[script.resolve()] = _feature_table(pkg.manifest_dir / "Cargo.toml")
            dirs += [(gate.name, linker, layout.target_dir(config, gate, linker)) for linker in gate.linkers]
    result = Proposal()
    taken = {r.name for r in config.recipes}
    for path, (package, dirs) in sorted(scripts.items()):
        try:
            # A local package may live beside the repository (a path dependency): cargo builds
            # it, so its script is read too, a regular file within the limit.
            text = repofs.read_text(path, inside=None, errors="replace")
        except OSError:
            continue
        found = scan(text)
        file = relative(config.root, path)[0]
        items = sg.suggestions(found, file, package, taken, tables.get(path))
        common = sg.common_directives(found)
        items = sg.confirm(items, common, sg.read_recorded(dirs, package, config.root))
        result.suggestions += sg.mark_configured(items, config.recipes)
        result.scripts.append({
            "file": file, "package": package, "recipes": len(items),
            "unconditional": sorted(set(common)), "notes": found.notes, "helpers": helper_crates(text),
        })
    return result
