"""What a build read, from cargo's and rustc's own records of it.

A run's ``dirty`` flag says whether the verdict is about a tree some commit
holds. That is a question about the files the build read, not only about the
tracked ones: an untracked C file a build script globs is in the link and in no
clone. The records, by the strength of what they claim:

- dep-info files (``cargo/depinfo.py``): every source rustc read for a unit;
- build scripts' ``rerun-if-changed`` paths (cargo's run fingerprint), a
  directory meaning every file under it, as cargo scans it;
- the archives and files on this run's link lines (gate/external.py's record,
  the recording wrapper's inputs);
- a build script that names no file (no ``rerun-if-changed``: cargo's default
  of "the whole package", or a cc-style script that prints only
  ``rerun-if-env-changed``) may read any file of its package, so the package
  counts, as far as git would put it in a commit (untracked, not ignored).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.cargo import depinfo
from linkgate.cargo.buildscript import manifest_dir_from_package_id
from linkgate.cargo.fingerprint import record_for_out_dir
from linkgate.cargo.messages import Artifact


@dataclass(frozen=True)
class BuildInputs:
    """Absolute paths: files a record names, trees cargo scans, packages a blind script may read."""

    files: tuple[str, ...] = ()
    trees: tuple[str, ...] = ()      # rerun-if-changed directories: every file under them
    packages: tuple[str, ...] = ()   # package directories whose build script names nothing it reads
    unread: tuple[str, ...] = ()     # what could not be placed, and why

    def plus_files(self, more: Iterable[str]) -> BuildInputs:
        files = dict.fromkeys(self.files)
        files.update(dict.fromkeys(os.path.normpath(p) for p in more))
        return BuildInputs(tuple(files), self.trees, self.packages, self.unread)


def collect(artifacts: Sequence[Artifact], build_scripts: Sequence[tuple[str, str]]) -> BuildInputs:
    """The inputs of the units *artifacts* (cargo's messages) and the build scripts
    *build_scripts* ((package_id, out_dir)) of one build."""
    files: dict[str, None] = {}
    unread: list[str] = []
    for art in artifacts:
        for dep_file in depinfo.dep_files(art.filenames, art.kind == "custom-build"):
            info = depinfo.read(dep_file, art.src_path)
            if info is None:
                continue
            files.update(dict.fromkeys(info.files))
            if info.unread:
                unread.append(f"{info.path}: {info.unread}")
    trees: dict[str, None] = {}
    packages: dict[str, None] = {}
    for package_id, out_dir in build_scripts:
        pdir = manifest_dir_from_package_id(package_id)
        if pdir is None or not out_dir:
            continue  # a registry or git package: its sources are pinned by Cargo.lock
        record = record_for_out_dir(out_dir)
        if record is None:
            unread.append(f"{out_dir}: cargo kept no record of what this build script watches")
            packages[str(pdir)] = None
            continue
        if record.any_change or not record.changed_paths:
            packages[str(pdir)] = None
        for p in record.changed_paths:
            full = os.path.normpath(os.path.join(pdir, p))
            if os.path.isdir(full):
                trees[full] = None
            else:
                files[full] = None
    return BuildInputs(tuple(files), tuple(trees), tuple(packages), tuple(unread))


def record_paths(records: Iterable[Sequence[str]], skip: Sequence[Path]) -> list[str]:
    """Of the link-input paths *records* name, those outside every directory in *skip*."""
    roots = [os.path.normpath(s) for s in skip]
    out: list[str] = []
    for paths in records:
        for p in paths:
            n = os.path.normpath(p)
            if not any(n == r or n.startswith(r + os.sep) for r in roots):
                out.append(n)
    return out
