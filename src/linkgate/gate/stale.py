"""Inputs a build script reads but cargo does not watch, changed since it last ran.

A ``cc``-style build script prints only ``rerun-if-env-changed`` lines, and
cargo then reruns it for nothing but those variables: edit a vendored C
source and cargo reuses the old archive, so a green run would vouch for a
tree it never linked. After each build, linkgate compares the files of every
local package whose build script is blind that way with the time cargo last
ran the script (its run fingerprint, cargo's own record); a newer file means
the archive is stale, and the caller rebuilds the package.

Only what cargo would miss counts: ``.rs`` files and manifests (rustc's
dep-info and cargo track them), files under a ``rerun-if-changed`` path, and
other packages' directories are left out, as are build output and VCS data.
So are files no build script compiles or reads as a build input: linkgate's own
configuration and state, dotfiles (``.gitignore``, ``.editorconfig``) and a
package's prose (LICENSE, README, CHANGELOG ...). Editing ``linkgate.toml``
must not cost a full C rebuild; anything else still counts (fail closed).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from linkgate.cargo.fingerprint import record_for_out_dir

_SKIP_DIRS = {"target", ".git", ".hg", ".svn", "node_modules", ".linkgate"}
# .rs: rustc's dep-info tracks them; .md: documentation no build script compiles.
_TRACKED_BY_CARGO = (".rs", ".md")
_MANIFESTS = {"Cargo.toml", "Cargo.lock"}
# linkgate's configuration (config.CONFIG_NAME) and the prose every package carries,
# matched on the name before its first dot (LICENSE-MIT, README.rst, CHANGELOG.txt).
_NOT_INPUTS = {"linkgate.toml"}
_PROSE = {"license", "licence", "copying", "notice", "authors", "contributors", "readme", "changelog",
          "changes", "history", "news", "contributing", "code_of_conduct", "security", "codeowners"}
# Enough to name the problem; the rebuild does not depend on the list being whole.
_SHOWN = 3


@dataclass(frozen=True)
class StaleScript:
    """A build script cargo did not rerun although a file it reads changed."""

    package: str       # name, as cargo's unit directories spell it
    package_dir: Path
    changed: tuple[str, ...]  # paths relative to package_dir, newest first, at most _SHOWN


def package_dir(package_id: str) -> Path | None:
    """The directory of a local package from its cargo id; None for registry and git ones.

    ``path+file:///src/zsys#0.1.0`` (cargo 1.77+) or ``zsys 0.1.0 (path+file:///src/zsys)``.
    """
    text = package_id
    if "(" in text and text.endswith(")"):
        text = text[text.rindex("(") + 1 : -1]
    if not text.startswith("path+file://"):
        return None
    url = urlparse(text[len("path+"):].split("#", 1)[0])
    return Path(unquote(url.path))


def stale_scripts(build_scripts: Iterable[tuple[str, str]]) -> list[StaleScript]:
    """The blind build scripts, of *build_scripts* ((package_id, out_dir) as cargo reported
    them), whose package holds a file changed after the script last ran."""
    found: list[StaleScript] = []
    for package_id, out_dir in build_scripts:
        pdir = package_dir(package_id)
        if pdir is None or not out_dir:
            continue
        record = record_for_out_dir(out_dir)
        if record is None or record.any_change:
            continue  # cargo watches the whole package itself
        watched = [os.path.normpath(pdir / p) for p in record.changed_paths]
        changed = _newer_files(pdir, record.mtime, watched)
        if changed:
            found.append(StaleScript(record.package, pdir, tuple(changed[:_SHOWN])))
    return found


def blind_input(name: str) -> bool:
    """Could a build script that names nothing it reads read the file *name* as an input that
    neither rustc's dep-info nor cargo tracks? (gate/dirtyinputs.py asks the same question.)"""
    return not name.endswith(_TRACKED_BY_CARGO) and name not in _MANIFESTS and _may_be_input(name)


def _may_be_input(name: str) -> bool:
    """False for files no build script reads as a build input (see the module's docstring)."""
    if name in _NOT_INPUTS or name.startswith("."):
        return False
    stem = name.split(".", 1)[0].split("-", 1)[0].lower()
    return stem not in _PROSE


def _newer_files(root: Path, since: float, watched: list[str]) -> list[str]:
    newer: list[tuple[float, str]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        if dirpath != str(root) and "Cargo.toml" in filenames:
            dirnames[:] = []
            continue  # another package: its own build script, its own record
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in filenames:
            if not blind_input(name):
                continue
            path = os.path.join(dirpath, name)
            if any(path == w or path.startswith(w.rstrip("/") + "/") for w in watched):
                continue  # cargo reruns the script for it
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                continue
            if mtime > since:
                newer.append((mtime, os.path.relpath(path, root)))
    return [p for _, p in sorted(newer, reverse=True)]
