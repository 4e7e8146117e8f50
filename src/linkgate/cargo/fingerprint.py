"""Read the rerun triggers cargo recorded for each build-script run.

Cargo keeps them in ``.fingerprint/<pkg>-<hash>/run-build-script-build-script-build.json``
under ``"local"``: ``{"RerunIfChanged": {"output": "<profile>/build/<pkg>-<hash>/output",
"paths": [...]}}`` (paths relative to the package directory) and
``{"RerunIfEnvChanged": {"var": ..., "val": ...}}``. A script that printed no
``rerun-if-*`` line gets a ``Precalculated`` entry instead and reruns on any
change in its package.
"""

from __future__ import annotations

import json
import os
import shutil
import re
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs

_HASHED = re.compile(r"^(?P<name>.+)-[0-9a-f]{16}$")
RUN_RECORD = "run-build-script-build-script-build.json"


@dataclass(frozen=True)
class RerunRecord:
    """What cargo recorded of a build script's last run: its output and the paths it watches."""

    package: str  # package name, from the directory name
    fingerprint_dir: Path
    output_file: Path | None  # the build script's recorded stdout
    changed_paths: tuple[str, ...]
    env_vars: tuple[str, ...]
    any_change: bool  # no rerun-if-* lines: any file in the package reruns it
    mtime: float
    # Each rerun-if-env-changed variable with the value cargo saw when the script ran
    # (None: unset): the record of which branch an env-guarded script took.
    env_values: tuple[tuple[str, str | None], ...] = ()


def package_of(dirname: str) -> str | None:
    m = _HASHED.match(dirname)
    return m.group("name") if m else None


def read_run_record(path: Path, profile_root: Path) -> RerunRecord | None:
    """Parse one fingerprint JSON; *profile_root* is the parent of ``<profile>/``."""
    package = package_of(path.parent.name)
    try:
        data = json.loads(repofs.read_text(path, inside=None))
        mtime = path.stat().st_mtime
    except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested past Python's stack
        return None
    if package is None or not _well_typed(data):
        return None  # not what cargo writes: unread, like a record that is not JSON
    paths: list[str] = []
    env: list[str] = []
    values: list[tuple[str, str | None]] = []
    output: Path | None = None
    any_change = True
    for item in data.get("local") or []:
        if not isinstance(item, dict):
            continue
        if "RerunIfChanged" in item:
            any_change = False
            rec = item["RerunIfChanged"]
            paths += [str(p) for p in rec.get("paths") or []]
            if rec.get("output"):
                # Relative to the target directory's root: under --target it starts with the
                # triple (x86_64-unknown-linux-gnu/release/build/<pkg>-<hash>/output), which
                # *profile_root* already is; its last four parts are <profile>/build/<dir>/output.
                parts = Path(str(rec["output"])).parts
                output = profile_root.joinpath(*parts[-4:]) if len(parts) >= 4 else profile_root / rec["output"]
        elif "RerunIfEnvChanged" in item:
            any_change = False
            rec = item["RerunIfEnvChanged"]
            env.append(str(rec.get("var")))
            val = rec.get("val")
            values.append((str(rec.get("var")), val if isinstance(val, str) else None))
    if output is None:
        # Only a RerunIfChanged entry names the output file; a script that printed
        # just rerun-if-env-changed (every cc-built -sys crate) has none. The run
        # unit's build directory has the fingerprint directory's name.
        output = path.parents[2] / "build" / path.parent.name / "output"
    return RerunRecord(package, path.parent, output, tuple(paths), tuple(env), any_change, mtime, tuple(values))


def _well_typed(data: object) -> bool:
    """Whether *data* has the types cargo writes, so no field is guessed from another
    shape (a string of paths iterated as characters, a number as a list)."""
    if not isinstance(data, dict):
        return False
    local = data.get("local")
    if local is None:
        return True
    if not isinstance(local, list):
        return False
    for item in local:
        if not isinstance(item, dict):
            continue
        changed, env = item.get("RerunIfChanged"), item.get("RerunIfEnvChanged")
        if changed is not None:
            if not isinstance(changed, dict):
                return False
            paths, output = changed.get("paths"), changed.get("output")
            if paths is not None and not (isinstance(paths, list) and all(isinstance(p, str) for p in paths)):
                return False
            if output is not None and not isinstance(output, str):
                return False
        if env is not None and not (isinstance(env, dict) and isinstance(env.get("var"), str)
                                    and (env.get("val") is None or isinstance(env.get("val"), str))):
            return False
    return True


def record_for_out_dir(out_dir: str | Path) -> RerunRecord | None:
    """The run record of the build script whose ``OUT_DIR`` is *out_dir*
    (``<profile>/build/<pkg>-<hash>/out``); None when cargo kept none there."""
    build_dir = Path(out_dir).parent
    if len(build_dir.parents) < 3:
        return None  # not cargo's layout
    record_file = build_dir.parents[1] / ".fingerprint" / build_dir.name / RUN_RECORD
    return read_run_record(record_file, record_file.parents[3])


def run_records(target_dir: Path) -> list[RerunRecord]:
    """Every build-script run record under *target_dir* (any profile, any triple)."""
    records = []
    for path in sorted(Path(target_dir).glob(f"**/.fingerprint/*/{RUN_RECORD}")):
        # <profile_root>/<profile>/.fingerprint/<pkg>-<hash>/<file>
        record = read_run_record(path, path.parents[3])
        if record is not None:
            records.append(record)
    return records


def invalidate_package(target_dir: Path, package: str) -> int:
    """Delete the fingerprints of every unit of *package* so cargo rebuilds it.

    Used when cargo did not notice a mutation (the file is outside the build
    script's rerun-if-changed list): the defect must be judged on a build that
    really used the mutated file, not on a fresh cache.
    """
    removed = 0
    names = {package, package.replace("-", "_")}
    for dirpath, dirnames, _ in os.walk(target_dir):
        if os.path.basename(dirpath) == ".fingerprint":
            for d in list(dirnames):
                stem = d.rsplit("-", 1)[0]
                if stem in names:
                    shutil.rmtree(os.path.join(dirpath, d), ignore_errors=True)
                    removed += 1
            dirnames[:] = []
    return removed
