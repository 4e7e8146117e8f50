"""Fold cargo's ``--message-format=json`` stream into a BuildLog as it arrives.

Facts this rests on (FACTS.md, "Cargo's JSON messages"):
- ``compiler-artifact`` carries ``fresh``: true means rustc did not run for
  that unit, so nothing was linked for it in this run.
- A failed link produces no artifact, only a ``compiler-message`` whose text is
  "linking with `cc` failed" and whose notes hold the linker's stderr.
- ``build-finished`` arrives only when cargo got as far as building; its
  absence after a non-zero exit means cargo itself refused (bad arguments...).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_LINK_FAILED = re.compile(r"^linking with `[^`]*` failed")
_LINKER_MISSING = re.compile(r"^linker `[^`]*` not found")
# rustc's own link-recipe errors: it reads native static libraries while it
# writes the rlib (to bundle them), so a missing or unreadable one fails there,
# before any linker runs. They are still link failures: the recipe is wrong.
_RECIPE_ERROR = re.compile(
    r"^could not find native static library `[^`]+`|^failed to add native library "
)
# Shared libraries the linker writes for a cdylib/dylib target. Proc-macros and
# build scripts are linked too, but they are tools of the build, not its output.
_SHARED_CRATE_TYPES = frozenset({"cdylib", "dylib"})
_SHARED_SUFFIXES = (".so", ".dylib", ".dll")


@dataclass(frozen=True)
class Artifact:
    """A ``compiler-artifact`` message: a unit cargo built, and its files."""

    package_id: str
    target: str
    kind: str
    crate_types: tuple[str, ...]
    test: bool
    filenames: tuple[str, ...]
    executable: str | None
    fresh: bool
    manifest_path: str
    src_path: str = ""  # the crate root, absolute (dep-info files spell it relative)

    @property
    def linkable(self) -> bool:
        """Whether a linker wrote this unit's output (if it was not fresh).

        Judged from the files cargo reports, never from the target kind:
        ``cargo check``/``clippy`` report a ``bin`` whose only file is a
        ``.rmeta`` and ``executable: null``, and ``cargo doc`` an index.html.
        A ``staticlib`` is not counted: rustc writes that archive itself and
        no linker runs for it. Nor is an rlib, whatever its crate types.
        """
        if self.kind == "custom-build":
            return False
        return self.output is not None

    @property
    def output(self) -> str | None:
        """The file the linker wrote: the executable, else the shared library."""
        if self.executable:
            return self.executable
        if _SHARED_CRATE_TYPES & set(self.crate_types):
            for name in self.filenames:
                if name.endswith(_SHARED_SUFFIXES):
                    return name
        return None

    @property
    def label(self) -> str:
        return f"{self.target} ({'test ' if self.test and self.kind != 'test' else ''}{self.kind})"


@dataclass(frozen=True)
class CompilerError:
    """An error rustc reported for a unit, as cargo relays it."""

    package_id: str
    target: str
    kind: str
    message: str
    rendered: str
    is_link: bool
    raw: dict[str, Any]


@dataclass(frozen=True)
class BuildScriptRun:
    """A ``build-script-executed`` message: the libraries and paths a build script named."""

    package_id: str
    out_dir: str
    linked_libs: tuple[str, ...]
    linked_paths: tuple[str, ...]


@dataclass
class BuildLog:
    """What cargo's JSON messages of one build said: artifacts, errors, build scripts, success."""

    artifacts: list[Artifact] = field(default_factory=list)
    errors: list[CompilerError] = field(default_factory=list)
    build_scripts: list[BuildScriptRun] = field(default_factory=list)
    finished: bool | None = None  # build-finished.success, None if never sent
    other_lines: list[str] = field(default_factory=list)
    units_done: int = 0
    last_unit: str = ""

    def feed(self, line: str) -> None:
        if not line.startswith("{"):
            if line.strip():
                self.other_lines.append(line)
            return
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            self.other_lines.append(line)
            return
        reason = msg.get("reason")
        if reason == "compiler-artifact":
            self._artifact(msg)
        elif reason == "compiler-message":
            self._message(msg)
        elif reason == "build-script-executed":
            self.build_scripts.append(
                BuildScriptRun(
                    package_id=msg.get("package_id", ""),
                    out_dir=msg.get("out_dir", ""),
                    linked_libs=tuple(msg.get("linked_libs", [])),
                    linked_paths=tuple(msg.get("linked_paths", [])),
                )
            )
        elif reason == "build-finished":
            self.finished = bool(msg.get("success"))

    def _artifact(self, msg: dict[str, Any]) -> None:
        target = msg.get("target", {})
        kinds = target.get("kind") or ["?"]
        art = Artifact(
            package_id=msg.get("package_id", ""),
            target=target.get("name", "?"),
            kind=kinds[0],
            crate_types=tuple(target.get("crate_types", [])),
            test=bool(msg.get("profile", {}).get("test")),
            filenames=tuple(msg.get("filenames", [])),
            executable=msg.get("executable"),
            fresh=bool(msg.get("fresh")),
            manifest_path=msg.get("manifest_path", ""),
            src_path=str(target.get("src_path") or ""),
        )
        self.artifacts.append(art)
        self.units_done += 1
        self.last_unit = art.target

    def _message(self, msg: dict[str, Any]) -> None:
        inner = msg.get("message", {})
        if inner.get("level") not in ("error", "error: internal compiler error"):
            return
        text = inner.get("message", "")
        target = msg.get("target", {})
        self.errors.append(
            CompilerError(
                package_id=msg.get("package_id", ""),
                target=target.get("name", "?"),
                kind=(target.get("kind") or ["?"])[0],
                message=text,
                rendered=inner.get("rendered") or text,
                is_link=bool(_LINK_FAILED.match(text) or _LINKER_MISSING.match(text) or _RECIPE_ERROR.match(text)),
                raw=inner,
            )
        )

    @property
    def link_errors(self) -> list[CompilerError]:
        return [e for e in self.errors if e.is_link]

    @property
    def linkable(self) -> list[Artifact]:
        return [a for a in self.artifacts if a.linkable]


def package_name(package_id: str) -> str:
    """Name from a package id in either of cargo's spellings.

    ``path+file:///w/foo#0.1.0`` (name = last path component), or
    ``path+file:///w/x#foo@0.1.0``, or the old ``foo 0.1.0 (path+file://...)``.
    """
    if " " in package_id and "(" in package_id:
        return package_id.split(" ", 1)[0]
    frag = package_id.rsplit("#", 1)[-1]
    if "@" in frag:
        return frag.split("@", 1)[0]
    path = package_id.rsplit("#", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]
