"""Does a gate's cargo subcommand invoke the linker at all?

A gate that runs ``cargo check`` can never fail on a link, yet it exits 0:
the false green linkgate exists to prevent. So the subcommand is judged when
the configuration loads, before anything is built. Cargo resolves a
subcommand in this order (cargo's ``cli.rs``): a user alias from ``[alias]``
in ``.cargo/config.toml`` (cwd and its parents, then ``$CARGO_HOME``) or
``CARGO_ALIAS_<NAME>``; then the built-in aliases ``b c d t r rm``; built-in
commands shadow user aliases of the same name; anything else is an external
``cargo-<name>`` program. Aliases expand recursively.

The run-time check ("nothing linked" is an error) is the real guarantee;
this module only turns the certain cases into an early configuration error.
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.errors import RefusedFile

BUILTIN_ALIASES = {"b": "build", "c": "check", "d": "doc", "t": "test", "r": "run", "rm": "remove"}

# Subcommands that run rustc through to the linker for their linkable targets.
LINKING = frozenset({"build", "test", "bench", "run", "rustc", "install"})

_NO_COMPILE = "compiles nothing"
# Built-in (and rustup-shipped) subcommands that never invoke the linker, with the reason.
NOT_LINKING: dict[str, str] = {
    "check": "cargo check stops after type checking and writes metadata (.rmeta); it never invokes the linker",
    "clippy": "cargo clippy runs cargo check with lints; it never invokes the linker",
    "fix": "cargo fix runs cargo check and applies suggestions; it never invokes the linker",
    "doc": "cargo doc runs rustdoc, which writes HTML and never invokes the linker for your targets",
    "rustdoc": "cargo rustdoc runs rustdoc, which writes HTML and never invokes the linker for your targets",
    "miri": "cargo miri interprets the program; it never invokes the linker",
    "fmt": f"cargo fmt formats source and {_NO_COMPILE}",
    "metadata": f"cargo metadata prints the package graph and {_NO_COMPILE}",
    "tree": f"cargo tree prints the dependency tree and {_NO_COMPILE}",
    "package": "cargo package builds a copy unpacked from the .crate file, not your working tree",
    "publish": "cargo publish uploads to a registry; its verification build uses a copy unpacked from the .crate file",
    **{
        name: f"cargo {name} {_NO_COMPILE}"
        for name in (
            "add", "remove", "clean", "config", "fetch", "generate-lockfile", "help", "info", "init",
            "locate-project", "login", "logout", "new", "owner", "pkgid", "read-manifest", "report",
            "search", "uninstall", "update", "vendor", "verify-project", "version", "yank",
        )
    },
    # Common external subcommands whose job is not a link.
    "udeps": "cargo udeps runs cargo check; it never invokes the linker",
    "expand": "cargo expand prints macro-expanded source; it never invokes the linker",
    "semver-checks": "cargo semver-checks compares rustdoc JSON; it never invokes the linker",
    "generate-rpm": f"cargo generate-rpm packs binaries built before and {_NO_COMPILE}",
    "cache": f"cargo cache (cargo-cache) cleans or reports ~/.cargo and {_NO_COMPILE}",
    **{
        name: f"cargo {name} inspects dependencies and {_NO_COMPILE}"
        for name in ("deny", "audit", "machete", "outdated")
    },
}
# External subcommands that take another cargo subcommand as their first argument.
FORWARDING = frozenset({"hack", "auditable", "careful"})
BUILTIN = LINKING | {n for n in NOT_LINKING if n not in ("udeps", "expand", "semver-checks", "deny",
                                                          "audit", "machete", "outdated", "generate-rpm", "cache")}


# External cargo-NAME programs linkgate knows by name (what they compile is in
# cargo.frontends and audit.model.EXERCISE; the rest compile nothing of the project's).
# cargo-tauri, cargo-leptos, cargo-dinghy and cargo-pgrx build the project in ways linkgate
# does not read (the app directory tauri.conf.json names, [package.metadata.leptos], a
# device's options before the subcommand, the features a Postgres version selects): left out, so each is an `unresolved` note, never a record.
# A word outside cargo's own commands, its aliases and these is never taken as a
# subcommand: `{{msrv}}`, `$X`, a quoted fragment, or a plugin linkgate has never met.
KNOWN_PLUGINS = frozenset({
    "hack", "nextest", "llvm-cov", "miri", "tarpaulin", "zigbuild", "auditable", "careful", "cbuild", "cinstall",
    "ctest", "fuzz", "ndk", "xtask", "make", "udeps", "expand", "semver-checks", "deny", "audit", "machete",
    "outdated", "binstall", "sort", "insta", "component", "about", "bloat", "release", "dist", "msrv", "mutants",
    "flamegraph", "afl", "kani", "sqlx", "lambda", "apk", "xwin", "wix", "generate-rpm", "cache",
    "deb", "generate", "watch", "sweep", "shear", "vet", "public-api", "minimal-versions", "hakari", "cyclonedx",
    "geiger", "llvm-lines", "show-asm", "asm", "espflash", "set-version", "upgrade", "bump", "readme", "rdme",
    "spellcheck", "all-features", "bundle", "codspeed", "pgo", "criterion", "run-script", "sbom",
    "docs-rs",
})
BUILTIN_NAMES = frozenset({*LINKING, *NOT_LINKING, *BUILTIN_ALIASES})


def known_name(word: str) -> bool:
    """Is *word* a cargo subcommand, a built-in alias, or a plugin linkgate knows?"""
    return word in BUILTIN_NAMES or word in KNOWN_PLUGINS


@dataclass(frozen=True)
class Judgement:
    """Whether a cargo command line links, after aliases, and why."""

    links: bool | None  # None: linkgate cannot tell before building
    subcommand: str  # the resolved subcommand (after aliases and forwarding)
    reason: str  # why it does not link, or why linkgate cannot tell; "" when it links
    via: str = ""  # how it was resolved, e.g. "alias 'ci' in /w/.cargo/config.toml"


def judge(args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> Judgement:
    """Judge a gate's ``cargo = [...]`` list (without the leading ``cargo``)."""
    env = os.environ if env is None else env
    rest = list(args[1:] if args and args[0].startswith("+") else args)
    if not rest or rest[0].startswith("-"):
        first = rest[0] if rest else "(nothing)"
        return Judgement(False, first, f"the first argument must be the cargo subcommand, not {first!r}: "
                         "linkgate inserts --message-format=json right after it")
    aliases: AliasTable | None = None  # read only for a name cargo does not build in
    via: list[str] = []
    seen: set[str] = set()
    while True:
        name = rest[0]
        if name not in BUILTIN:
            aliases = aliases or AliasTable(cwd, env)
            expansion = aliases.get(name)
            if expansion is not None:
                if name in seen:
                    return Judgement(None, name, f"cargo alias {name!r} expands to itself", "; ".join(via))
                seen.add(name)
                via.append(f"alias {name!r} = {' '.join(expansion[0])!r} ({expansion[1]})")
                rest = [*expansion[0], *rest[1:]]
                if not rest:
                    return Judgement(False, name, f"cargo alias {name!r} is empty", "; ".join(via))
                continue
        if name in FORWARDING:
            inner = next((a for a in rest[1:] if not a.startswith("-")), None)
            if inner is None:
                return Judgement(None, name, f"cargo {name} was given no subcommand to run", "; ".join(via))
            via.append(f"cargo {name} runs cargo {inner}")
            rest = rest[rest.index(inner):]
            continue
        break
    shown = "; ".join(via)
    if name in LINKING:
        return Judgement(True, name, "", shown)
    if name in NOT_LINKING:
        return Judgement(False, name, NOT_LINKING[name], shown)
    return Judgement(
        None, name,
        f"cargo {name} is neither a built-in subcommand nor an alias linkgate found (an external "
        f"cargo-{name} program?); linkgate cannot tell before building whether it links",
        shown,
    )


def expand_aliases(args: Sequence[str], cwd: Path, root: Path) -> tuple[list[str], list[str]]:
    """A cargo command line (without ``cargo``) with its user aliases expanded as cargo
    would, reading only ``.cargo/config.toml`` files from *cwd* up to *root* (the
    audit judges the tree, not the machine it runs on). Returns the expanded
    arguments and one ``alias NAME = ...`` line per expansion; unchanged when the
    subcommand is built in, unknown or an alias loop."""
    head: list[str] = []
    rest = list(args)
    if rest and rest[0].startswith("+"):
        head, rest = rest[:1], rest[1:]
    while rest and rest[0].startswith("-"):
        flag = rest[0].split("=", 1)[0]
        take = 2 if flag in ("--color", "--config", "-Z", "-C", "--manifest-path") and "=" not in rest[0] else 1
        head, rest = head + rest[:take], rest[take:]
    table = AliasTable(cwd, {}, root=root, home=False)
    via: list[str] = []
    seen: set[str] = set()
    while rest and rest[0] not in BUILTIN and rest[0] not in BUILTIN_ALIASES and rest[0] not in seen:
        found = table.get(rest[0])
        if found is None:
            break
        seen.add(rest[0])
        where = os.path.relpath(found[1], root) if os.path.isabs(found[1]) else found[1]
        via.append(f"alias {rest[0]} = {' '.join(found[0])!r} ({where})")
        rest = [*found[0], *rest[1:]]
    return [*head, *rest], via


def _alias_section(path: Path) -> Any:
    """The ``[alias]`` table of one configuration file, parsed once per version of
    it: the audit asks for every cargo step, and a workflow can hold thousands."""
    try:
        st = path.stat()
    except OSError:
        return {}
    return _parsed_aliases(str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=256)
def _parsed_aliases(path: str, mtime_ns: int, size: int) -> Any:
    try:
        return tomllib.loads(repofs.read_text(path, inside=None)).get("alias", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, RefusedFile):
        return {}


def unread_configs(cwd: Path, root: Path) -> list[tuple[str, str]]:
    """(path relative to *root*, why) of each ``.cargo/config.toml`` from *cwd* up to
    *root* that ``AliasTable`` will not read: it leads outside the repository, is not
    a regular file, or is too large. The aliases it may define are unknown."""
    found: list[tuple[str, str]] = []
    here, top = cwd.resolve(), root.resolve()
    for directory in (here, *here.parents):
        if directory != top and top not in directory.parents:
            break
        for name in ("config.toml", "config"):
            path = directory / ".cargo" / name
            if not os.path.lexists(path):
                continue
            try:
                repofs.check(path, inside=top, limit=repofs.MAX_SOURCE)
            except RefusedFile as exc:
                if exc.why != "directory":
                    found.append((path.relative_to(top).as_posix(), exc.reason))
            except OSError:
                pass
            break
    return found


class AliasTable:
    """``[alias]`` tables, nearest configuration first (up to *root* when given), then
    ``$CARGO_HOME`` and ``CARGO_ALIAS_*`` (when *home*): one resolver for the gate
    configuration's check and the audit."""

    def __init__(self, cwd: Path, env: Mapping[str, str], root: Path | None = None, home: bool = True) -> None:
        self.env = env
        self.files: list[Path] = []
        here = cwd.resolve()
        top = root.resolve() if root is not None else None
        for directory in (here, *here.parents):
            if top is not None and directory != top and top not in directory.parents:
                break
            for name in ("config.toml", "config"):
                path = directory / ".cargo" / name
                if repofs.is_file(path):
                    # The repository's own configuration is judged, never a file
                    # a committed symlink points at outside it (unread_configs names it).
                    if top is None or repofs.is_inside(os.path.realpath(path), top):
                        self.files.append(path)
                    break
        if not home:
            return
        try:
            home_dir = Path(env.get("CARGO_HOME") or Path.home() / ".cargo")
        except RuntimeError:  # no HOME: cargo would find no home configuration either
            return
        for name in ("config.toml", "config"):
            if (home_dir / name).is_file() and (home_dir / name) not in self.files:
                self.files.append(home_dir / name)
                break

    def get(self, name: str) -> tuple[list[str], str] | None:
        var = "CARGO_ALIAS_" + name.upper().replace("-", "_")
        if var in self.env:
            return self.env[var].split(), f"${var}"
        for path in self.files:
            table = _alias_section(path)
            value = table.get(name) if isinstance(table, dict) else None
            if isinstance(value, str):
                return value.split(), str(path)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return list(value), str(path)
        if name in BUILTIN_ALIASES:
            return [BUILTIN_ALIASES[name]], "built-in alias"
        return None
