"""Linker diagnostics: classify linker output into stable kinds with hints.

API (stable; callers: linkgate run, explain, prove):
  classify(lines, command_line=None) -> list[Diagnostic]
  classify_text(text) -> list[Diagnostic]
  classify_stream(binary_file) -> list[Diagnostic]   (constant memory)
  linker_lines_from_cargo_message(msg) -> list[str]  (the linker's stderr only)
  attach_recipe(diags, build_scripts) -> list[Diagnostic]
  native_archives(package, linked_libs, linked_paths) -> list[NativeArchive]
      (pass as classify(..., native=...) for the "source missing from the build list" hint)
  Diagnostic.to_dict() -> dict (JSON-ready)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from linkgate.diagnose.archives import NativeArchive, native_archives
from linkgate.diagnose.model import FAMILIES, KINDS, Diagnostic, RecipeLine
from linkgate.diagnose.recipe import attach_recipe
from linkgate.diagnose.rustc_notes import linker_lines_from_cargo_message

if TYPE_CHECKING:
    from linkgate.diagnose.classifier import Classifier

__all__ = [
    "Diagnostic",
    "FAMILIES",
    "KINDS",
    "NativeArchive",
    "RecipeLine",
    "attach_recipe",
    "classify",
    "classify_stream",
    "classify_text",
    "linker_lines_from_cargo_message",
    "native_archives",
]


def classify(
    lines: Iterable[str],
    *,
    command_line: Sequence[str] | None = None,
    cwd: Path | None = None,
    native: Sequence[NativeArchive] = (),
) -> list[Diagnostic]:
    """Classify linker output, a cargo log (human or JSON) or any build log.

    *command_line*, when known, is the link command's argv: it lets the
    hints say when an undefined symbol is an archive-order problem.
    """
    from linkgate.diagnose.classifier import classify_candidates
    from linkgate.diagnose.reader import candidate_lines

    return _finish(classify_candidates(candidate_lines(lines)), command_line, cwd, native)


def classify_text(text: str, **kwargs: object) -> list[Diagnostic]:
    return classify(text.splitlines(), **kwargs)  # type: ignore[arg-type]


def classify_stream(
    fh: BinaryIO,
    *,
    command_line: Sequence[str] | None = None,
    cwd: Path | None = None,
) -> list[Diagnostic]:
    """Classify a byte stream of any size in constant memory; never raises on bad bytes."""
    from linkgate.diagnose.classifier import classify_candidates
    from linkgate.diagnose.reader import candidate_lines_binary

    return _finish(classify_candidates(candidate_lines_binary(fh)), command_line, cwd)


def _finish(
    classifier: Classifier,
    command_line: Sequence[str] | None,
    cwd: Path | None,
    native: Sequence[NativeArchive] = (),
) -> list[Diagnostic]:
    from linkgate.diagnose.demangle import demangle_many
    from linkgate.diagnose.hints import Evidence, with_hints

    diags, searched = classifier.result(), classifier.searched
    if not command_line and classifier.command_line and (diags or classifier.backrefs):
        from linkgate.diagnose.rustc_notes import parse_command_line

        command_line = parse_command_line(classifier.command_line)
    if classifier.build_scripts and not native:
        native = _native_from_log(classifier.build_scripts)
    names = demangle_many(d.symbol for d in diags if d.symbol)
    diags = [replace(d, demangled=names[d.symbol]) if d.symbol in names else d for d in diags]
    archives: list = []  # type: ignore[type-arg]
    search_paths: list[str] = []
    if command_line:
        from linkgate.diagnose.archives import archives_on_line

        archives = archives_on_line(command_line, cwd)
        search_paths = [a[2:] for a in command_line if a.startswith("-L") and len(a) > 2]
    diags = with_hints(
        diags, Evidence(archives=archives, args=list(command_line or ()), search_paths=search_paths, searched=searched, native=native)
    )
    if classifier.backrefs:
        from linkgate.diagnose.order import from_backrefs

        diags += from_backrefs(classifier.backrefs, args=command_line or (), cwd=cwd)
    return diags


def _native_from_log(records: Sequence[tuple[str, Sequence[str], Sequence[str]]]) -> list[NativeArchive]:
    """Static libraries named by the build-script records of a cargo JSON log, found on disk."""
    from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id
    from linkgate.cargo.messages import package_name

    found: list[NativeArchive] = []
    for package_id, libs, paths in records:
        manifest_dir = manifest_dir_from_package_id(package_id)
        script = build_script_source(manifest_dir) if manifest_dir else None
        found += native_archives(package_name(package_id), libs, paths, str(script) if script else None)
    return found
