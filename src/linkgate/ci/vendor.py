"""A linkgate wheel kept in the user's repository, the way the Gradle wrapper keeps its jar.

``linkgate vendor`` builds the running linkgate into a wheel (``pip wheel
--no-deps`` of the source it was installed from: the project directory of an
editable or local install, else the pinned git commit, archive or index
version), writes it under ``.github/linkgate/`` with its sha256 in
``linkgate.lock``, and the generated job installs exactly that file after
checking the hash (``sha256sum --check``). Nothing outside the repository is
needed at CI time but the package index for linkgate's own dependencies.

The lock is TOML: ``wheel`` (the file name, beside the lock), ``sha256``,
``version`` and ``built-from`` (what pip built).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from linkgate.errors import UsageError

DEFAULT_DIR = ".github/linkgate"
LOCK_NAME = "linkgate.lock"
# A wheel's file name (PEP 427): no path, no shell metacharacter reaches the job.
_WHEEL_NAME = re.compile(r"linkgate-[A-Za-z0-9_.+!]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+\.whl")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_DIR = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_./-]*")


@dataclass(frozen=True)
class VendoredWheel:
    directory: str   # relative to the repository root, POSIX
    wheel: str       # file name inside it
    sha256: str
    version: str

    @property
    def path(self) -> str:
        return f"{self.directory}/{self.wheel}"


def check_directory(root: Path, directory: str) -> Path:
    """The absolute vendor directory: relative, inside *root* (symlinks resolved), a plain name."""
    if not _DIR.fullmatch(directory) or ".." in directory.split("/") or directory.startswith("/"):
        raise UsageError(f"--dir {directory!r}: must be a relative path inside the repository "
                         "(letters, digits, '.', '_', '-', '/')", hint=f"e.g. --dir {DEFAULT_DIR}")
    path = root / directory
    real_root = root.resolve()
    resolved = path.resolve()
    if resolved != real_root and real_root not in resolved.parents:
        raise UsageError(f"--dir {directory}: resolves to {resolved}, outside the repository {real_root}",
                         hint="name a directory inside the repository that is not a symlink out of it")
    return path


def read_lock(root: Path, directory: str = DEFAULT_DIR) -> VendoredWheel | None:
    """The vendored wheel the lock names, or None when there is no lock; a lock that cannot
    be read, or names an unsafe file, is an error (the job must never install a guess)."""
    lock = check_directory(root, directory) / LOCK_NAME
    if not lock.exists() and not lock.is_symlink():
        return None
    where = f"{directory}/{LOCK_NAME}"
    if lock.is_symlink() or not lock.is_file():
        raise UsageError(f"{where} is not a regular file", hint="run `linkgate vendor` to write it again")
    try:
        data = tomllib.loads(lock.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{where}: cannot read it ({exc})", hint="run `linkgate vendor` to write it again") from None
    wheel, sha, version = data.get("wheel"), data.get("sha256"), data.get("version")
    if not isinstance(wheel, str) or not _WHEEL_NAME.fullmatch(wheel):
        raise UsageError(f"{where}: wheel = {wheel!r} is not a linkgate wheel's file name",
                         hint="run `linkgate vendor` to write it again")
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        raise UsageError(f"{where}: sha256 = {sha!r} is not 64 lowercase hex digits",
                         hint="run `linkgate vendor` to write it again")
    return VendoredWheel(directory, wheel, sha, version if isinstance(version, str) else "")


def problems(root: Path, directory: str = DEFAULT_DIR) -> list[str]:
    """Why the vendored wheel and its lock disagree ([] when they agree)."""
    found = read_lock(root, directory)
    if found is None:
        return [f"no {directory}/{LOCK_NAME}: run `linkgate vendor`"]
    wheel = root / found.path
    if wheel.is_symlink() or not wheel.is_file():
        return [f"{found.path}, which {directory}/{LOCK_NAME} names, is missing (or not a regular file)"]
    actual = sha256_of(wheel)
    if actual != found.sha256:
        return [f"{found.path} has sha256 {actual}, but {directory}/{LOCK_NAME} says {found.sha256}"]
    return []


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_wheel(out_dir: Path, source: str, said: str) -> Path:
    """Build *source* (what `pip wheel` takes; ci/install.build_source) into *out_dir*."""
    from linkgate import proc
    from linkgate.errors import CommandFailed

    try:
        proc.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out_dir),
                  "--", source])
    except CommandFailed as exc:
        tail = (exc.stderr or exc.stdout or "").strip().splitlines()[-3:]
        raise UsageError(f"pip could not build a wheel of {said}: " + " / ".join(tail),
                         hint="check that pip can reach an index for setuptools (the build backend)") from None
    wheels = sorted(out_dir.glob("linkgate-*.whl"))
    if len(wheels) != 1:
        raise UsageError(f"pip built {len(wheels)} linkgate wheels from {said}, expected one")
    return wheels[0]


def write(root: Path, source: str, said: str, directory: str = DEFAULT_DIR) -> VendoredWheel:
    """Build *source*, then put the wheel and its lock in place (each by rename); drop the wheel
    an older lock named. Returns what the lock now says."""
    target = check_directory(root, directory)
    old = read_lock(root, directory) if (target / LOCK_NAME).exists() else None
    if target.is_symlink():
        raise UsageError(f"{directory} is a symlink", hint="vendor into a real directory of the repository")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".linkgate-vendor-", dir=target) as tmp:
        wheel = build_wheel(Path(tmp), source, said)
        if not _WHEEL_NAME.fullmatch(wheel.name):
            raise UsageError(f"pip built {wheel.name}, which is not a linkgate wheel's file name")
        sha = sha256_of(wheel)
        version = wheel.name.split("-")[1]
        os.replace(wheel, target / wheel.name)
        lock_tmp = Path(tmp) / LOCK_NAME
        lock_tmp.write_text(
            "# Written by `linkgate vendor`: the wheel CI installs, checked by its sha256.\n"
            f'wheel = "{wheel.name}"\nsha256 = "{sha}"\nversion = "{version}"\n'
            f"built-from = {json.dumps(said)}\n", encoding="utf-8")
        os.replace(lock_tmp, target / LOCK_NAME)
    if old is not None and old.wheel != wheel.name:
        (target / old.wheel).unlink(missing_ok=True)
    return VendoredWheel(directory, wheel.name, sha, version)
