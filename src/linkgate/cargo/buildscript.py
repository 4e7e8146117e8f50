"""Read what a build script told cargo, from cargo's own record of it.

Cargo keeps a build script's stdout verbatim in
``target/[<triple>/]<profile>/build/<pkg>-<hash>/output``; the directory is
the parent of the ``out_dir`` that a ``build-script-executed`` message
carries. That message drops ``rustc-link-arg*`` and ``rerun-if-*`` lines, so
the file is the only place to see every directive, with its line number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs

# Directives that change the link line. `rustc-flags` can carry -l/-L too.
LINK_KEYS = frozenset(
    {
        "rustc-link-lib",
        "rustc-link-search",
        "rustc-link-arg",
        "rustc-link-arg-bins",
        "rustc-link-arg-bin",
        "rustc-link-arg-tests",
        "rustc-link-arg-examples",
        "rustc-link-arg-benches",
        "rustc-link-arg-cdylib",
        "rustc-cdylib-link-arg",
        "rustc-flags",
    }
)
RERUN_KEYS = frozenset({"rerun-if-changed", "rerun-if-env-changed"})

# Keys cargo understands in the old one-colon syntax; any other `cargo:K=V`
# is metadata (exported to dependents as DEP_<links>_K).
_KNOWN_KEYS = LINK_KEYS | RERUN_KEYS | {
    "rustc-cfg",
    "rustc-check-cfg",
    "rustc-env",
    "warning",
    "error",
    "metadata",
}

_DIRECTIVE = re.compile(r"^cargo(::?)([A-Za-z0-9_-]+)=(.*)$")


@dataclass(frozen=True)
class Directive:
    """One ``cargo:``/``cargo::`` line; *line* is 1-based in the output file."""

    key: str
    value: str
    line: int


@dataclass(frozen=True)
class BuildScriptOutput:
    """A build script's recorded output: the directives it printed, and where."""

    package_id: str | None
    out_dir: Path
    output_file: Path
    directives: tuple[Directive, ...]

    def link_directives(self) -> tuple[Directive, ...]:
        return link_directives(self.directives)

    def rerun_directives(self) -> tuple[Directive, ...]:
        return tuple(d for d in self.directives if d.key in RERUN_KEYS)

    @property
    def package_dir_name(self) -> str:
        """``<pkg>-<hash>``: the build directory's name."""
        return self.output_file.parent.name


def parse_directives(lines: Iterable[str]) -> tuple[Directive, ...]:
    """Parse directives in both syntaxes; other stdout lines are ignored, as cargo does."""
    out: list[Directive] = []
    for number, raw in enumerate(lines, start=1):
        m = _DIRECTIVE.match(raw.rstrip("\r\n"))
        if m is None:
            continue
        colons, key, value = m.groups()
        if colons == ":" and key not in _KNOWN_KEYS:
            # Old syntax: `cargo:foo=bar` means `cargo::metadata=foo=bar`.
            value, key = f"{key}={value}", "metadata"
        out.append(Directive(key, value, number))
    return tuple(out)


def link_directives(directives: Iterable[Directive]) -> tuple[Directive, ...]:
    return tuple(d for d in directives if d.key in LINK_KEYS)


def output_file_for(out_dir: Path) -> Path:
    return Path(out_dir).parent / "output"


def read_build_script_output(
    out_dir: Path, package_id: str | None = None
) -> BuildScriptOutput | None:
    """Read the recorded output for *out_dir*; None when cargo kept none.

    None is normal: a build script that failed to run, or a target directory
    cleaned since, leaves no file, and the caller still has a diagnosis.
    """
    path = output_file_for(Path(out_dir))
    try:
        # Build scripts may print any bytes; directives we care about are ASCII.
        text = repofs.read_text(path, inside=None, errors="replace")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    return BuildScriptOutput(
        package_id=package_id,
        out_dir=Path(out_dir),
        output_file=path,
        directives=parse_directives(text.splitlines()),
    )


def build_script_source(manifest_dir: Path) -> Path | None:
    """The build script's source: Cargo.toml's ``package.build`` or ``build.rs``.

    ``build = false`` turns auto-detection off; ``build = "path"`` names it.
    """
    manifest_dir = Path(manifest_dir)
    manifest = manifest_dir / "Cargo.toml"
    build: object = None
    try:
        import tomllib

        package = tomllib.loads(repofs.read_text(manifest, inside=None)).get("package", {})
        if isinstance(package, dict):
            build = package.get("build")
    except (OSError, ValueError):
        build = None
    if build is False:
        return None
    if isinstance(build, str):
        candidate = manifest_dir / build
        return candidate if candidate.is_file() else None
    default = manifest_dir / "build.rs"
    return default if default.is_file() else None


def manifest_dir_from_package_id(package_id: str) -> Path | None:
    """The package directory of a local package id, else None.

    Cargo >= 1.77 ids look like ``path+file:///dir#name@0.1.0``; older ones
    like ``name 0.1.0 (path+file:///dir)``. Registry packages have no dir here.
    """
    m = re.search(r"path\+file://([^#)\s]+)", package_id)
    if m is None:
        return None
    from urllib.parse import unquote

    return Path(unquote(m.group(1)))
