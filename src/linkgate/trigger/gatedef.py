"""Did a change alter the definition of a gate itself?

A gate's ``cargo`` arguments, ``env``, ``linkers`` and provisioning decide what it
links as much as any build script: libz-sys's gate with ``LIBZ_SYS_STATIC``
turned from "1" to "0" links the system zlib instead of the vendored one. No
paths filter is expected to name the configuration file, so ``should-run``
compares those keys of the gate's table at both ends of the comparison; a
change to its filter or controls, to another gate, to ``[audit]``, or to the
rest of a Cargo.toml that holds the configuration does not count here (the
filter decides those).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from linkgate import proc
from linkgate.config import Config, Gate, linkgate_table
from linkgate.trigger.event import Comparison


def config_path(config: Config) -> str | None:
    """The configuration file relative to the repository root, None when outside it."""
    rel = os.path.relpath(config.path, config.root.resolve())
    return None if rel.startswith("..") else rel.replace(os.sep, "/")


# The keys that decide what the gate links, and where: not its filter (`paths`,
# `paths-from`), its negative controls, its target directory or its `why`.
LINK_KEYS = ("cargo", "command", "env", "working-directory", "linkers", "provision", "provision-env", "runner")


def _definition(text: str, manifest: bool, gate: str) -> dict[str, Any] | None:
    """What decides what *gate* links, in one version of the file; None when it has no such gate."""
    data: Mapping[str, Any] | None = tomllib.loads(text)
    if manifest and data is not None:
        data = linkgate_table(data)
    gates = data.get("gate", []) if data is not None else []
    for table in gates if isinstance(gates, list) else []:
        if isinstance(table, Mapping) and table.get("name") == gate:
            return {key: table[key] for key in LINK_KEYS if key in table}
    return None


def _show(commit: str, rel: str, cwd: Path) -> str | None:
    done = proc.run(["git", "show", "--end-of-options", f"{commit}:{rel}"], cwd=cwd, check=False)
    return done.stdout if done.returncode == 0 else None


def _base_commit(comparison: Comparison, cwd: Path) -> str | None:
    assert comparison.base is not None
    if not comparison.merge_base:
        return comparison.base
    done = proc.run(["git", "merge-base", "--end-of-options", comparison.base, comparison.head], cwd=cwd, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def definition_change(config: Config, gate: Gate, comparison: Comparison, changed: Iterable[str]) -> str | None:
    """Why the change alters *gate*'s definition, or None when it does not."""
    rel = config_path(config)
    if rel is None or rel not in set(changed):
        return None
    what = f"{rel} defines gate {gate.name}"
    if comparison.all_added:
        return f"{what} and counts as added"
    base = _base_commit(comparison, config.root)
    old = _show(base, rel, config.root) if base else None
    new = _show(comparison.head, rel, config.root)
    if old is None or new is None:
        return f"{what} and is new or gone in this change"
    manifest = Path(rel).name == "Cargo.toml"
    try:
        before, after = _definition(old, manifest, gate.name), _definition(new, manifest, gate.name)
    except (tomllib.TOMLDecodeError, RecursionError):
        return f"{what}; one version of it is not valid TOML, so linkgate cannot tell what changed"
    if before == after:
        return None
    if before is None:
        return f"{what}, which the change adds"
    after = after or {}
    keys = [k for k in LINK_KEYS if before.get(k) != after.get(k)]
    return f"{what}, and the change alters its {', '.join(keys)}"
