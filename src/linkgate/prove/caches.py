"""Which cargo fingerprints a mutation can leave lying, and how to make them honest.

Rustc records every file it reads (dep-info), so cargo always notices a
changed ``.rs`` file or ``include_bytes!`` input. A build script is different:
cargo reruns it only for its recorded ``rerun-if-changed`` paths, or, when it
printed no ``rerun-if-*`` line at all, for any change in its package. A
``cc``-style script prints only ``rerun-if-env-changed`` lines, so a mutated
C source is invisible to cargo: the mutated build would reuse the pristine
archive (a false "not reproduced"), and after an interruption the pristine
build would reuse the mutated one (a false "link-failed").

Deleting the package's fingerprint directories (``.fingerprint/<pkg>-<hash>/``)
makes cargo rerun the script and rebuild the package and everything that
depends on it; nothing else is redone.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.cargo.fingerprint import RUN_RECORD, package_of, read_run_record
from linkgate.gate.layout import exclusive_flock

EVERY_PACKAGE = "*"


@dataclass(frozen=True)
class CacheScope:
    """The build-script runs a mutation of *file* can make stale, in *target_dirs*.

    ``package`` is the package whose directory holds the file; a file outside
    every package can be read by any build script, so it is ``*``.
    """

    file: str  # absolute path of the mutated file
    package: str
    package_dir: str | None  # absolute; None with ``*``
    target_dirs: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "package": self.package,
            "package_dir": self.package_dir,
            "target_dirs": list(self.target_dirs),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> CacheScope:
        return CacheScope(str(d["file"]), str(d["package"]), d.get("package_dir"), tuple(d["target_dirs"]))


def owning_package(root: Path, rel: str) -> tuple[str, Path] | None:
    """Name and directory of the package whose manifest is nearest above *rel*."""
    import tomllib

    root = root.resolve()
    here = (root / rel).parent.resolve()
    while True:
        manifest = here / "Cargo.toml"
        if manifest.is_file():
            try:
                data = tomllib.loads(repofs.read_text(manifest, inside=root))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                data = {}
            name = data.get("package", {}).get("name")
            if isinstance(name, str):
                return name, here
        if here == root or here.parent == here:
            return None
        here = here.parent


def scope_for(root: Path, rel: str, target_dirs: list[Path]) -> CacheScope:
    owner = owning_package(root, rel)
    file = str((root / rel).resolve())
    dirs = tuple(str(d) for d in target_dirs)
    if owner is None:
        return CacheScope(file, EVERY_PACKAGE, None, dirs)
    return CacheScope(file, owner[0], str(owner[1]), dirs)


def _watched(record_paths: tuple[str, ...], any_change: bool, package_dir: str | None, file: str) -> bool:
    """Would cargo rerun this build script after *file* changed?"""
    if package_dir is None:
        return False  # cannot resolve its relative paths: assume blind, invalidate
    if any_change:
        return file.startswith(package_dir.rstrip("/") + "/")
    for p in record_paths:
        watched = os.path.normpath(os.path.join(package_dir, p))
        # rerun-if-changed on a directory scans it recursively.
        if file == watched or file.startswith(watched.rstrip("/") + "/"):
            return True
    return False


def invalidate(scope: CacheScope, target_dirs: tuple[str, ...] | None = None) -> list[str]:
    """Delete every unit of each package whose build script is blind to
    ``scope.file``; return the unit directories that went.

    Rerunning the script is not enough: when its stdout is unchanged cargo
    keeps the library that bundled the old archive (rustc copies a
    ``static=`` library into the rlib, and cargo does not track that input).
    Without the library's fingerprint the library is rebuilt, and cargo then
    rebuilds its dependents (``the dependency `zsys` was rebuilt``).

    Idempotent, and harmless when the file was never mutated: the cost is one
    rebuild of the package and its dependents.
    """
    names = {scope.package, scope.package.replace("-", "_")}
    removed: list[str] = []
    for tdir in target_dirs if target_dirs is not None else scope.target_dirs:
        # <tdir>/<profile>/.fingerprint, or <tdir>/<triple>/<profile>/.fingerprint
        # with --target; not "**", which would walk every build script's out/.
        found = [*Path(tdir).glob("*/.fingerprint"), *Path(tdir).glob("*/*/.fingerprint")]
        for fingerprints in sorted(found):
            with _cargo_idle(fingerprints.parent):
                blind = _blind_packages(fingerprints, scope, names)
                for unit in sorted(fingerprints.iterdir()) if blind else ():
                    if (package_of(unit.name) or "").replace("-", "_") in blind:
                        shutil.rmtree(unit, ignore_errors=True)
                        removed.append(str(unit))
    return removed


def _blind_packages(fingerprints: Path, scope: CacheScope, names: set[str]) -> set[str]:
    """Packages (as crate names) whose recorded build-script run ignores the file."""
    blind = set()
    for record_file in sorted(fingerprints.glob(f"*/{RUN_RECORD}")):
        record = read_run_record(record_file, record_file.parents[3])
        if record is None:
            continue
        if scope.package != EVERY_PACKAGE and record.package not in names:
            continue
        if _compiled_into_script(fingerprints.parent, record.package, scope.file):
            continue  # the script's own source: cargo recompiles the script, then reruns it
        if not _watched(record.changed_paths, record.any_change, scope.package_dir, scope.file):
            blind.add(record.package.replace("-", "_"))
    return blind


def _compiled_into_script(profile: Path, package: str, file: str) -> bool:
    """Is *file* a source of *package*'s build script itself (build.rs, its modules, an
    ``include!``)? rustc's dep-info for the script's compile unit,
    ``<profile>/build/<pkg>-<hash>/build_script_build-<hash>.d``, lists them, relative
    to the workspace root (or absolute); a change recompiles the script and cargo runs
    it again, whatever ``rerun-if-changed`` says."""
    for dep_info in profile.glob(f"build/{package}-*/build_script_*.d"):
        try:
            text = repofs.read_text(dep_info, inside=None, errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            target, sep, _ = line.partition(": ")
            if not sep and line.endswith(":"):
                target = line[:-1]  # `path:` lines: one per source, with no prerequisites
            elif not sep:
                continue
            dep = target.replace("\\ ", " ")
            if dep.endswith(".d") or not dep:
                continue
            if file == dep or file.endswith("/" + dep.lstrip("./")):
                return True
    return False


@contextmanager
def _cargo_idle(profile: Path) -> Iterator[None]:
    """Hold cargo's own build-directory lock while deleting fingerprints.

    Builds run in their own session, so ``kill -9`` of linkgate can leave a
    cargo building the mutated tree; it writes fresh fingerprints when it
    ends. Waiting for its ``.cargo-lock`` (an flock cargo holds for the whole
    build) means those land before we delete them, never after.
    """
    import sys

    def waiting() -> None:
        sys.stderr.write(
            f"linkgate: waiting for a cargo build still running in {profile} "
            "(left by an interrupted linkgate) before invalidating its fingerprints\n"
        )

    with exclusive_flock(profile / ".cargo-lock", create=False, waiting=waiting):
        yield
