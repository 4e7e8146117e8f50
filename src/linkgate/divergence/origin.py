"""Which package's build script made an archive, and the line that compiled it.

An archive in a build script's ``OUT_DIR`` is that script's; an rlib is its
crate's (``lib<crate>-<hash>.rlib``), and the static archive rustc bundled
into it is the one in that package's ``OUT_DIR`` holding the same members.
The line is the script's first that passes ``-flto`` (or names ``flto`` in a
``cc`` flag call); when none does, the first that names one of the sources by
stem. None of these is guessed when it cannot be read: the field stays empty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs
from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id
from linkgate.cargo.messages import package_name
from linkgate.objects import ar

_RLIB = re.compile(r"^lib(?P<crate>.+)-[0-9a-f]+\.rlib$")


@dataclass(frozen=True)
class Origin:
    package: str | None = None
    archive: Path | None = None  # the static archive the build script wrote
    script: Path | None = None
    line: int | None = None


def _owner(archive: Path, build_scripts: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    for package_id, out_dir in build_scripts:
        if out_dir and archive.is_relative_to(out_dir):
            return package_id, out_dir
    m = _RLIB.match(archive.name)
    for package_id, out_dir in build_scripts if m else ():
        if package_name(package_id).replace("-", "_") == m.group("crate"):  # type: ignore[union-attr]
            return package_id, out_dir
    return None


def _script_line(script: Path, members: Sequence[str]) -> int | None:
    try:
        lines = repofs.read_text(script, inside=None, errors="replace").splitlines()
    except OSError:
        return None
    stems = [Path(m).stem.rsplit("-", 1)[-1] for m in members]  # cc names objects <hash>-<stem>.o
    for needle in ("-flto", "flto", *stems):
        for n, text in enumerate(lines, 1):
            if needle in text:
                return n
    return None


def of(archive: Path, members: Sequence[str], build_scripts: Sequence[tuple[str, str]]) -> Origin:
    owner = _owner(archive, build_scripts)
    if owner is None:
        return Origin()
    package_id, out_dir = owner
    made = archive if archive.suffix == ".a" else None
    if made is None and out_dir and Path(out_dir).is_dir():
        made = next((a for a in sorted(Path(out_dir).rglob("*.a")) if set(members) <= ar.member_names(a)), None)
    manifest = manifest_dir_from_package_id(package_id)
    script = build_script_source(manifest) if manifest else None
    return Origin(package_name(package_id), made, script, _script_line(script, members) if script else None)
