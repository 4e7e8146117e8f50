"""Point a diagnosis at the build-script lines that made the link line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from linkgate import repofs
from linkgate.cargo.buildscript import (
    BuildScriptOutput,
    Directive,
    build_script_source,
    manifest_dir_from_package_id,
)
from linkgate.diagnose.model import Diagnostic, RecipeLine
from linkgate.diagnose.order import explanation

# Kinds whose fix lives in the link directives; the rest (crash, overflow) do not.
_INVOLVED_KINDS = frozenset(
    {"dso-missing", "undefined-symbol", "library-not-found", "incompatible-input", "archive-order"}
)


def _lib_name(diag: Diagnostic) -> str | None:
    if not diag.library:
        return None
    name = Path(diag.library).name
    m = re.match(r"^(?:lib)?(.+?)(?:\.(?:so[0-9.]*|a|lib|dylib))?$", name)
    return m.group(1) if m else name


def _archive_lib(path: str) -> str:
    """``/o/libhelper.a`` -> ``helper``; another file name as it is."""
    name = Path(path).name
    m = re.match(r"^lib(.+)\.a$", name)
    return m.group(1) if m else name


def _directive_lib(d: Directive) -> str | None:
    """``static:-bundle=helper`` -> ``helper`` (``name:rename`` -> ``name``)."""
    if d.key != "rustc-link-lib":
        return None
    return d.value.rsplit("=", 1)[-1].split(":", 1)[0]


def _names_archive(d: Directive, path: str) -> bool:
    if _directive_lib(d) == _archive_lib(path):
        return True
    return d.key.startswith("rustc-link-arg") and (
        Path(path).name in d.value or re.search(rf"-l:?{re.escape(_archive_lib(path))}\b", d.value) is not None
    )


def _involved(diag: Diagnostic, d: Directive) -> bool:
    if diag.kind == "archive-order":
        return any(_names_archive(d, a) for a in diag.archives)
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
        found = replace(
            diag,
            directives=tuple(lines),
            build_script=sources[0] if len(sources) == 1 else diag.build_script,
        )
        out.append(_order_hint(found) if diag.kind == "archive-order" else found)
    return out


def source_line(script: str | None, d: RecipeLine) -> int | None:
    """The build script's line that prints the directive, when it is spelt out there literally."""
    if not script:
        return None
    try:
        text = repofs.read_text(script, inside=None, errors="replace")
    except OSError:
        return None
    needle = f"{d.key}={d.value}"
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None


def _where(r: RecipeLine) -> str:
    line = source_line(r.build_script, r)
    if line is not None and r.build_script:
        return f"{r.build_script}:{line}"
    return f"{r.output_file}:{r.line}"


def _order_hint(diag: Diagnostic) -> Diagnostic:
    """Say which directive to move, and where it is printed."""
    definer = next((r for r in diag.directives if _names_archive(_as_directive(r), diag.archives[0])), None)
    user = None
    if len(diag.archives) > 1:
        user = next((r for r in diag.directives if _names_archive(_as_directive(r), diag.archives[1])), None)
    if definer is None:
        return diag
    moved = f"`cargo:{definer.key}={definer.value}` ({_where(definer)})"
    if user is not None:
        target = f"after `cargo:{user.key}={user.value}` ({_where(user)})"
    else:
        target = f"after whatever links {Path(diag.archives[1]).name}" if len(diag.archives) > 1 else "later"
    text = (
        f"Move the directive {moved} {target}, so that {Path(diag.archives[0]).name} comes after the archive "
        "that uses it; or have the build script put both archives' objects into one archive (the "
        "members of one archive resolve each other in any order). "
    )
    why = explanation(diag.shown_symbol or "", passed=diag.level == "warning")
    return replace(diag, hint=text + why)


def _as_directive(r: RecipeLine) -> Directive:
    return Directive(r.key, r.value, r.line)
