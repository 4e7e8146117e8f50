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
from itertools import compress
from operator import itemgetter
from dataclasses import dataclass

from linkgate.gate import layout
from linkgate.cargo import graph as cargo_graph
from linkgate.cargo.buildscript import LINK_KEYS
from linkgate.config import Config, Gate
from linkgate.rustlex import tokenize
from linkgate.surface.built import add_common
from linkgate.surface.compiles import TOO_DEEP
from linkgate.surface.model import Surface, relative
from linkgate.surface.scripts import add_link_script, read_script

_DIRECTIVE = re.compile(r"cargo::?(?P<key>[a-z][a-z0-9_-]*)=(?P<value>[^\n]*)")
# A format placeholder (`{}`, `{0}`, `{name:?}`); `{{` and `}}` are literal braces.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


@dataclass(frozen=True)
class Directives:
    """What a build script's string literals say to cargo, read from its tokens (escapes resolved)."""

    links: list[tuple[str, str]]
    rerun_paths: list[str]
    rerun_env: list[str]
    # (line, directive) of a rerun-if-changed whose path is filled in at run time
    # (`"cargo:rerun-if-changed={}"`): a file cargo watches that linkgate cannot name.
    unknown: list[tuple[int, str]]


def scan_directives(text: str) -> Directives:
    """Every ``cargo:``/``cargo::`` directive in a string literal of *text*."""
    out = Directives([], [], [], [])
    tokens = tokenize(text)
    # Only string literals, picked out in C (a script of 100,000 lines is 600,000 tokens).
    for tok in compress(tokens, map("str".__eq__, map(itemgetter(0), tokens))):
        if "cargo:" not in tok.text:
            continue
        for m in _DIRECTIVE.finditer(tok.text):
            key, raw = m.group("key"), m.group("value")
            placeholder = _PLACEHOLDER.search(raw.replace("{{", "").replace("}}", ""))
            # A value assembled at run time shows with its literal part only.
            value = (raw[: raw.find("{")] if placeholder else raw).replace("{{", "{").replace("}}", "}").strip()
            if key in LINK_KEYS:
                out.links.append((key, value))
            elif key == "rerun-if-changed" and placeholder:
                out.unknown.append((tok.line, f"{key}={raw.strip()}"))
            elif key == "rerun-if-changed" and value:
                out.rerun_paths.append(value)
            elif key == "rerun-if-env-changed" and value and not placeholder:
                out.rerun_env.append(value)
    return out


def scan_source(text: str) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(link directives, rerun-if-changed paths, rerun-if-env-changed vars) found literally."""
    found = scan_directives(text)
    return found.links, found.rerun_paths, found.rerun_env


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
        found = scan_directives(source.text)
        links, paths, env = found.links, found.rerun_paths, found.rerun_env
        script_rel = relative(config.root, source.path)[0]
        for line, directive in found.unknown:
            where = f"{script_rel}:{line}"
            surface.add_note(f"{where}: {directive} names a path computed at build time; linkgate cannot tell "
                             "which file cargo watches there: add it to the gate's filter by hand")
            surface.unknown.append(f"{where}: {directive}")
        described = [f"{k}={v}" for k, v in links] + source.scan.emitters
        described.sort(key=lambda d: not d.startswith("rustc-link-lib="))
        if not described:
            if any(text == TOO_DEEP for _, _, text in source.scan.notes):
                # Unread, not link-free: say so rather than leave the package out silently.
                surface.add_note(f"package {pkg.name}: {TOO_DEEP}; linkgate cannot tell what it links or compiles")
            continue
        more = len(described) - 1
        desc = described[0] + (f" (and {more} more link directives)" if more else "")
        # cc, pkg-config and cmake print rerun-if-env-changed themselves, which drops
        # cargo's rerun-on-any-change default just as the script's own lines would.
        any_change = not paths and not env and not found.unknown and not source.scan.emitters
        add_link_script(surface, config.root, pkg.name, pkg.manifest_dir, desc, "appears to emit",
                        paths, env, any_change, source)
    manifests = [graph.workspace_root / "Cargo.toml"]
    manifests += [graph.packages[m].manifest_dir / "Cargo.toml" for m in graph.members if m in graph.packages]
    add_common(surface, config, gate, graph.workspace_root, manifests)
    surface.notes.append("static scan of build-script source: approximate")
    surface.notes.extend(graph.notes)
    return surface
