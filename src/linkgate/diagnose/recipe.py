"""Point a diagnosis at the build-script lines that made the link line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from linkgate.cargo.buildscript import (
    BuildScriptOutput,
    Directive,
    build_script_source,
    manifest_dir_from_package_id,
)
from linkgate.diagnose.model import Diagnostic, RecipeLine

# Kinds whose fix lives in the link directives; the rest (crash, overflow) do not.
_INVOLVED_KINDS = frozenset(
    {"dso-missing", "undefined-symbol", "library-not-found", "incompatible-input"}
)


def _lib_name(diag: Diagnostic) -> str | None:
    if not diag.library:
        return None
    name = Path(diag.library).name
    m = re.match(r"^(?:lib)?(.+?)(?:\.(?:so[0-9.]*|a|lib|dylib))?$", name)
    return m.group(1) if m else name


def _involved(diag: Diagnostic, d: Directive) -> bool:
    if diag.kind in ("dso-missing", "undefined-symbol"):
        # The -l entries the hint says to move or add next to.
        return d.key == "rustc-link-lib" or d.key.startswith("rustc-link-arg") or d.key in (
            "rustc-cdylib-link-arg", "rustc-flags",
        )
    name = _lib_name(diag)
    if d.key == "rustc-link-search":
        return True
    return bool(name) and re.search(rf"(?:^|[=:\s,-]l:?|/|=){re.escape(name or '')}\b", d.value) is not None


def _script_for(bso: BuildScriptOutput) -> str | None:
    if not bso.package_id:
        return None
    manifest_dir = manifest_dir_from_package_id(bso.package_id)
    if manifest_dir is None:
        return None
    src = build_script_source(manifest_dir)
    return str(src) if src else None


def attach_recipe(diags: Sequence[Diagnostic], build_scripts: Sequence[BuildScriptOutput]) -> list[Diagnostic]:
    """Add the involved link directives (file:line in cargo's record) and the script's source."""
    scripts = [(bso, _script_for(bso)) for bso in build_scripts]
    out: list[Diagnostic] = []
    for diag in diags:
        if diag.kind not in _INVOLVED_KINDS:
            out.append(diag)
            continue
        lines: list[RecipeLine] = []
        sources: list[str] = []
        for bso, source in scripts:
            hits = [d for d in bso.link_directives() if _involved(diag, d)]
            for d in hits:
                lines.append(RecipeLine(d.key, d.value, str(bso.output_file), d.line, bso.package_id, source))
            if hits and source and source not in sources:
                sources.append(source)
        if not lines:
            out.append(diag)
            continue
        out.append(
            replace(
                diag,
                directives=tuple(lines),
                build_script=sources[0] if len(sources) == 1 else diag.build_script,
            )
        )
    return out
