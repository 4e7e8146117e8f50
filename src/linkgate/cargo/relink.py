"""Proof of link: pick the cheapest linked unit and make cargo relink exactly it.

Facts (FACTS.md, "What rebuilds on a warm tree"): deleting the executable
cargo reports in ``deps/`` relinks only that unit; deleting the copy cargo
uplifted to ``<profile>/<name>`` relinks nothing, because cargo restores it.
"""

from __future__ import annotations

import os
from pathlib import Path

from linkgate.cargo.messages import Artifact


def cheapest(candidates: list[Artifact]) -> Artifact | None:
    """The smallest linked output: a proxy for the unit that relinks fastest."""
    sized = []
    for a in candidates:
        out = a.output
        if out and os.path.exists(out):
            sized.append((os.path.getsize(out), a.target, a))
    sized.sort(key=lambda t: (t[0], t[1]))
    return sized[0][2] if sized else None


def deps_output(a: Artifact) -> Path | None:
    """The file in ``deps/`` that cargo's fingerprint tracks for this unit.

    Cargo uplifts binaries to ``<profile>/<name>`` as a hard link (or copy) of
    ``<profile>/deps/<name>-<hash>``; deleting the uplifted copy relinks
    nothing (cargo restores it), deleting the deps file relinks exactly it.
    """
    out = a.output
    if not out:
        return None
    path = Path(out)
    if path.parent.name == "deps":
        return path
    deps = path.parent / "deps"
    try:
        st = path.stat()
    except OSError:
        return None
    stem = path.name.split(".", 1)[0].replace("-", "_")
    candidates = []
    for child in deps.iterdir() if deps.is_dir() else ():
        name = child.name.replace("-", "_")
        if not name.startswith(stem + "_"):
            continue
        try:
            cst = child.stat()
        except OSError:
            continue
        if (cst.st_ino, cst.st_dev) == (st.st_ino, st.st_dev):
            return child
        if cst.st_size == st.st_size and child.suffix == path.suffix:
            candidates.append(child)
    for child in candidates:
        if child.read_bytes() == path.read_bytes():
            return child
    return None
