"""The link directives the build scripts printed, and the argument each becomes.

``rustc-link-lib`` becomes ``-lNAME`` (``-l:NAME`` with ``+verbatim``);
``rustc-link-arg`` values stand on the line verbatim. Which copy on a line is
whose is :mod:`linkgate.replay.copies`.

A ``static`` library without the ``-bundle`` modifier is bundled by rustc into
the emitting package's rlib: the crates that link that rlib get the library's
objects from it, and ``-lNAME`` is only on the link lines of the package's own
binaries and test harnesses. Dropping such a directive changes the rlib, so
removing ``-lNAME`` from recorded lines cannot show what dropping it does;
:attr:`SourceDirective.bundled_into` marks these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs
from linkgate.cargo import manifests
from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id, read_build_script_output
from linkgate.cargo.messages import package_name

SWEPT_KEYS = ("rustc-link-lib", "rustc-link-arg", "rustc-link-arg-bins", "rustc-link-arg-bin",
              "rustc-link-arg-tests", "rustc-link-arg-examples", "rustc-link-arg-benches",
              "rustc-link-arg-cdylib", "rustc-cdylib-link-arg")


@dataclass(frozen=True)
class SourceDirective:
    key: str
    value: str
    package: str
    build_script: str | None   # the script's source file, when local
    line: int | None           # its line there, when the value is written out literally
    output_file: str
    output_line: int
    bundled_into: str | None = None  # "zsys's rlib": the archive rustc bundles this static library into
    package_id: str = ""             # cargo's id of the package (its name may not be unique)

    @property
    def unjudged(self) -> str | None:
        """Why replay cannot judge dropping this directive, or None when it can."""
        if self.bundled_into is None:
            return None
        return (f"rustc bundles {self.value} into {self.bundled_into}, and its users get the objects from "
                "there; replay cannot rebuild that archive")

    @property
    def argument(self) -> str:
        """The link-line argument this directive becomes."""
        if self.key == "rustc-link-lib":
            return lib_argument(self.value)
        value = self.value
        if self.key == "rustc-link-arg-bin" and "=" in value:
            value = value.split("=", 1)[1]
        return value

    @property
    def label(self) -> str:
        return f"{self.key}={self.value}" if self.key == "rustc-link-lib" else self.argument


def lib_argument(value: str) -> str:
    """``static:+verbatim=libfoo.a`` -> ``-l:libfoo.a``; ``dylib=foo:bar`` -> ``-lbar``."""
    kind, _, name = value.rpartition("=")
    if ":" in name:
        name = name.split(":", 1)[1] or name.split(":", 1)[0]
    return f"-l:{name}" if "+verbatim" in kind else f"-l{name}"


UNJUDGED_REMEDY = "prove it with a file control that deletes the line printing it (a full build)"


def bundles(value: str) -> bool:
    """Does rustc bundle this ``rustc-link-lib`` value into a library's archive?
    ``static=z``, ``static:+bundle=z``, ``static:+whole-archive=z``: yes; ``static:-bundle=z``, ``z``: no."""
    kind, sep, _ = value.partition("=")
    if not sep:
        return False
    name, _, modifiers = kind.partition(":")
    return name == "static" and "-bundle" not in modifiers.split(",")


def archive_of(package_id: str) -> str | None:
    """The archive rustc bundles the package's ``static`` libraries into ("zsys's rlib"), or None."""
    manifest_dir = manifest_dir_from_package_id(package_id)
    fallback = f"{package_name(package_id).replace('-', '_')}'s rlib"
    if manifest_dir is None:
        # A registry or git package: a build can only depend on its library.
        return fallback
    try:
        found = manifests.archived_library(manifest_dir)
    except manifests.ManifestError:
        return fallback  # cannot tell: assume the library, the answer that claims less
    return f"{found[0]}'s {found[1]}" if found else None


def _line_in_source(source: str | None, key: str, value: str) -> int | None:
    if not source:
        return None
    try:
        lines = repofs.read_text(source, inside=None, errors="replace").splitlines()
    except OSError:
        return None
    needles = [f'"{value}"', f"{key}={value}\"", f"={value}\""]
    for needle in needles:
        hits = [i for i, ln in enumerate(lines, start=1) if needle in ln]
        if hits:
            return hits[0]
    return None


def from_build_scripts(build_scripts: Sequence[tuple[str, str]]) -> list[SourceDirective]:
    found: list[SourceDirective] = []
    for package_id, out_dir in build_scripts:
        bso = read_build_script_output(Path(out_dir), package_id)
        if bso is None:
            continue
        manifest_dir = manifest_dir_from_package_id(package_id)
        src = build_script_source(manifest_dir) if manifest_dir else None
        source = str(src) if src else None
        for d in bso.directives:
            if d.key in SWEPT_KEYS:
                bundled = d.key == "rustc-link-lib" and bundles(d.value)
                found.append(SourceDirective(
                    d.key, d.value, package_name(package_id), source,
                    _line_in_source(source, d.key, d.value), str(bso.output_file), d.line,
                    archive_of(package_id) if bundled else None, package_id,
                ))
    return found


def library_of(argument: str) -> str | None:
    """The file-name stem a -l argument looks for: ``-lm`` -> ``libm.``, ``-l:x.a`` -> ``x.a``."""
    m = re.match(r"^-l(:?)(.+)$", argument)
    if m is None:
        return None
    return m.group(2) if m.group(1) else f"lib{m.group(2)}."
