"""Static surface: read build scripts' source instead of cargo's records.

Used where nothing was built (audits, pre-commit). A local package's build
script counts when its source holds a literal ``cargo:``/``cargo::`` link
directive or calls a crate that prints one (``cc::Build::compile``,
``pkg_config``, ``cmake``, ``cxx_build``). A directive assembled at run time
(``format!("cargo:rustc-link-lib={}", lib)``) shows with its literal part
only, and one printed by an unknown helper crate not at all: the result is
labelled approximate. What each script compiles is read the same way as in
built mode (``linkgate.surface.compiles``).
"""

from __future__ import annotations

import re

from linkgate.gate import layout
from linkgate.cargo import graph as cargo_graph
from linkgate.cargo.buildscript import LINK_KEYS
from linkgate.config import Config, Gate
from linkgate.surface.built import add_common
from linkgate.surface.model import Surface, relative
from linkgate.surface.scripts import add_link_script, read_script

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
        # A registry package outside the repository is pinned by Cargo.lock; one vendored
        # inside it can change in a pull request like any local package.
        if not pkg.local and relative(config.root, pkg.manifest_dir)[1]:
            continue
        source = read_script(pkg.manifest_dir)
        if source.path is None:
            continue  # no build script: nothing of this package reaches the link line through one
        if source.error is not None:
            rel, outside = relative(config.root, source.path)
            surface.add_path(rel, f"build script of package {pkg.name} (unreadable)", outside, pkg.name)
            surface.add_note(f"package {pkg.name}: {source.error}: linkgate cannot tell what it links or compiles")
            continue
        links, paths, env = scan_source(source.text)
        described = [f"{k}={v}" for k, v in links] + source.scan.emitters
        described.sort(key=lambda d: not d.startswith("rustc-link-lib="))
        if not described:
            continue
        more = len(described) - 1
        desc = described[0] + (f" (and {more} more link directives)" if more else "")
        # cc, pkg-config and cmake print rerun-if-env-changed themselves, which drops
        # cargo's rerun-on-any-change default just as the script's own lines would.
        any_change = not paths and not env and not source.scan.emitters
        add_link_script(surface, config.root, pkg.name, pkg.manifest_dir, desc, "appears to emit",
                        paths, env, any_change, source)
    manifests = [graph.workspace_root / "Cargo.toml"]
    manifests += [graph.packages[m].manifest_dir / "Cargo.toml" for m in graph.members if m in graph.packages]
    add_common(surface, config, gate, graph.workspace_root, manifests)
    surface.notes.append("static scan of build-script source: approximate")
    surface.notes.extend(graph.notes)
    return surface
