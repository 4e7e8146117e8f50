"""Static surface: read build scripts' source instead of cargo's records.

Used where nothing was built (audits, pre-commit). It sees only literal
``cargo:``/``cargo::`` strings in each local package's build script, so a
directive assembled at run time (``format!("cargo:rustc-link-lib={}", lib)``)
shows with its literal part only, and one printed by a helper crate not at
all: the result is labelled approximate.
"""

from __future__ import annotations

import re

from linkgate.gate import layout
from linkgate.cargo import graph as cargo_graph
from linkgate.cargo.buildscript import LINK_KEYS, build_script_source
from linkgate.config import Config, Gate
from linkgate.surface.built import Surface, add_common, link_script

_DIRECTIVE = re.compile(r"cargo::?(?P<key>[a-z][a-z0-9_-]*)=(?P<value>[^\"\\{}]*)")


def scan_source(text: str) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(link directives, rerun-if-changed paths, rerun-if-env-changed vars) found literally."""
    links, paths, env = [], [], []
    for m in _DIRECTIVE.finditer(text):
        key, value = m.group("key"), m.group("value").strip()
        if key in LINK_KEYS:
            links.append((key, value))
        elif key == "rerun-if-changed" and value:
            paths.append(value)
        elif key == "rerun-if-env-changed" and value:
            env.append(value)
    return links, paths, env


def static(config: Config, gate: Gate, graph: cargo_graph.Graph | None = None) -> Surface:
    surface = Surface(gate.name, "static", approximate=True)
    graph = graph or cargo_graph.load(layout.work_dir(config, gate), gate.cargo or ())
    for pkg in graph.reachable_packages():
        if not pkg.local:
            continue
        script = build_script_source(pkg.manifest_dir)
        if script is None:
            continue
        try:
            text = script.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        links, paths, env = scan_source(text)
        if not links:
            continue
        key, value = links[0]
        desc = f"{key}={value}" + (f" (and {len(links) - 1} more link directives)" if len(links) > 1 else "")
        link_script(surface, config.root, pkg.name, pkg.manifest_dir, desc, paths, env,
                    any_change=not paths and not env, origin="appears to emit")
    manifests = [graph.workspace_root / "Cargo.toml"]
    manifests += [graph.packages[m].manifest_dir / "Cargo.toml" for m in graph.members if m in graph.packages]
    add_common(surface, config, gate, graph.workspace_root, manifests)
    surface.notes.append("static scan of build-script source: approximate")
    return surface
