"""One ``rustc-link-lib`` value, as rustc reads it: ``[KIND[:MODIFIERS]=]NAME[:RENAME]``.

Every reader of a build script's libraries (the archives it links, the ones
rustc bundles into an rlib, the outside inputs linkgate watches) parses the
value here, so a modifier one of them forgot cannot make an archive vanish from
another's view: ``static:+verbatim=libext.a`` names the file ``libext.a`` itself,
not ``liblibext.a.a``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LinkLib:
    """A parsed ``rustc-link-lib`` value."""

    kind: str                       # "static", "dylib", "framework", "link-arg" or "" (rustc's default)
    modifiers: tuple[str, ...]      # as written: "+verbatim", "-bundle", "+whole-archive", ...
    name: str                       # the name rustc links: RENAME when given, else NAME

    def setting(self, modifier: str) -> bool | None:
        """``+modifier`` True, ``-modifier`` False, not written None (the last spelling wins)."""
        value = None
        for m in self.modifiers:
            if m[1:] == modifier:
                value = m[0] == "+"
        return value

    @property
    def verbatim(self) -> bool:
        return self.setting("verbatim") is True

    @property
    def may_be_archive(self) -> bool:
        """Can the linker take this library from a static archive? ``static`` always; no
        kind lets the linker choose (``-lfoo`` finds ``libfoo.a`` when no ``.so`` is there)."""
        return self.kind in ("static", "")

    @property
    def bundled(self) -> bool:
        """Does rustc copy the archive into the crate's rlib? ``static`` unless ``-bundle``."""
        return self.kind == "static" and self.setting("bundle") is not False

    @property
    def archive_file(self) -> str:
        """The file name the linker looks for in the search path."""
        return self.name if self.verbatim else f"lib{self.name}.a"


def parse(value: str) -> LinkLib:
    """``static:+verbatim=libext.a``, ``dylib=foo:bar``, ``z``."""
    kind_part, sep, name_part = value.partition("=")
    if not sep:
        kind_part, name_part = "", value
    kind, _, mods = kind_part.partition(":")
    modifiers = tuple(m.strip() for m in mods.split(",") if m.strip()[:1] in ("+", "-") and len(m.strip()) > 1)
    name, _, rename = name_part.partition(":")
    return LinkLib(kind.strip(), modifiers, (rename or name).strip())
