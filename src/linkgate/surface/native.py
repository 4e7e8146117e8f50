"""Which packages link natively, read from their build scripts' source (``linkgate init``).

The same static reading as ``surface --static``: a literal ``cargo:``/``cargo::``
link directive, or a call into a helper crate that prints one (``cc::Build``,
``cmake``, ``cxx_build``, ``pkg_config``: a script that builds an archive with
``cc`` links it). A script that cannot be read counts as linking: what it
links cannot be told, and a gate that runs is the safe side.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from linkgate.surface.scripts import read_script
from linkgate.surface.static import scan_source


@dataclass(frozen=True)
class NativeLink:
    package: str
    script: Path
    keys: tuple[str, ...]       # the literal directives' keys, in order of appearance
    directives: tuple[str, ...]  # "key=value" as written, helpers' as the scan names them
    helpers: bool               # a helper crate prints rustc-link-lib for it
    unreadable: str | None = None

    def describe(self) -> str:
        if self.unreadable is not None:
            return f"a build script linkgate cannot read ({self.unreadable})"
        first = self.directives[0]
        more = len(self.directives) - 1
        return first + (f" and {more} more link directive{'s' if more > 1 else ''}" if more else "")


def scan(package: str, manifest_dir: Path) -> NativeLink | None:
    """The package's link evidence, or None when its build script links nothing (or it has none)."""
    source = read_script(manifest_dir)
    if source.path is None:
        return None
    if source.error is not None:
        return NativeLink(package, source.path, (), (), True, source.error)
    links, _, _ = scan_source(source.text)
    # A value the scan cut at a `{` placeholder (`rustc-link-arg={arg}`) is shown as cut.
    described = [f"{k}={v}" if f"{k}={v}\"" in source.text else f"{k}={v}..." for k, v in links]
    described += source.scan.emitters
    if not described:
        return None
    # A library says more than a link argument, and both more than a search path.
    described.sort(key=lambda d: 2 if d.startswith("rustc-link-search") else 0 if "rustc-link-lib" in d else 1)
    return NativeLink(package, source.path, tuple(dict.fromkeys(k for k, _ in links)), tuple(described),
                      bool(source.scan.emitters))
