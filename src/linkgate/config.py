"""Load, validate and freeze linkgate's configuration.

One schema (``GATE_KEYS`` and friends) is the source of truth for what is
allowed; every error names file, line and key, with a did-you-mean for
misspelt keys. TOML is parsed with the standard library's tomllib, which keeps
no positions, so ``linkgate.tomlsource`` finds lines in the raw text itself.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate import repofs, yamlemit
from linkgate.cargo.subcommand import judge
from linkgate.errors import ConfigError
from linkgate.tomlsource import Locator as _Locator
from linkgate.tomlsource import Validator as _Validator
from linkgate.tomlsource import did_you_mean as _did_you_mean
from linkgate.tomlsource import parse_toml as _parse_toml
from linkgate.userregex import RegexRefused, compile_user

LINKERS = ("default", "bfd", "gold", "lld", "mold")
MATRIX_MODES = ("replay", "rebuild")  # gate key linker-matrix
QUANTIFIERS = ("some", "every")
# What an archive-order problem lld reported on a link that passed does to the verdict.
ARCHIVE_ORDER = ("warn", "fail")
# What a difference between the linkers' files of one target (divergence/) does to the verdict.
DIVERGENCE = ("warn", "fail", "off")
# The kinds of difference divergence/compare.py reports, each overridable (divergence-kinds).
DIVERGENCE_KINDS = ("needed", "dynamic-undefined", "weak-undefined", "functions", "section-size")
# What divergence-kinds may set: those, and lto-skipped (divergence/lto.py), which needs no
# second linker and so does not follow `divergence` (its default is "warn").
OVERRIDABLE_KINDS = (*DIVERGENCE_KINDS, "lto-skipped")
SEVERITIES = ("error", "warning", "note", "off")
CONFIG_NAME = "linkgate.toml"

# Flags linkgate sets itself on a cargo gate; a user value would silently fight ours.
_RESERVED_CARGO_FLAGS = ("--message-format", "--target-dir")


@dataclass(frozen=True)
class PathsFrom:
    """A gate's ``paths-from``: the workflow filter its trigger paths come from."""

    workflow: str
    filter: str


@dataclass(frozen=True)
class Control:
    """A negative control of a gate: a mutation the gate must catch."""

    name: str
    file: str
    delete: str | None = None
    replace: tuple[str, str] | None = None
    patch: str | None = None
    expect_kind: str | None = None
    expect_match: str | None = None
    line: int | None = None
    key_lines: Mapping[str, int] = field(default_factory=dict)
    # drop-directive = "-lc" (a link-line argument a build script printed) or
    # { lib = "static=foo" } (a rustc-link-lib value): judged by replay, no file changes.
    drop_directive: str | None = None
    drop_lib: str | None = None
    # { lib = ..., package = "ziplink" }: only that package's directive; without it,
    # a lib several packages print is refused (prove names them).
    drop_package: str | None = None
    # linkers = ["bfd"]: run and judge the control only under these (a subset of the
    # gate's); empty: every linker of the gate.
    linkers: tuple[str, ...] = ()

    def runs_under(self, gate_linkers: Sequence[str]) -> tuple[str, ...]:
        return tuple(ln for ln in gate_linkers if not self.linkers or ln in self.linkers)

    @property
    def drops_directive(self) -> bool:
        return self.drop_directive is not None or self.drop_lib is not None

    def line_of(self, key: str) -> int | None:
        return self.key_lines.get(key.split(".", 1)[0], self.line)


@dataclass(frozen=True)
class Gate:
    """A ``[[gate]]`` of linkgate.toml: what to build, under which linkers, with its controls."""

    name: str
    cargo: tuple[str, ...] | None = None
    command: tuple[str, ...] | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    working_directory: str | None = None
    target_dir: str | None = None
    linkers: tuple[str, ...] = ("default",)
    paths: tuple[str, ...] = ()
    predicate_quantifier: str = "some"
    paths_from: PathsFrom | None = None
    provision: tuple[str, ...] = ()
    controls: tuple[Control, ...] = ()
    line: int | None = None
    runner: tuple[str, ...] = ("ubuntu-latest",)
    provision_env: tuple[str, ...] = ()
    why: str | None = None
    archive_order: str = "warn"
    # "warn": differences between the linkers' files are listed; "fail": they fail the
    # gate; "off": not compared (lto-skipped still runs: it needs no second linker).
    divergence: str = "warn"
    # Per kind of difference (DIVERGENCE_KINDS), what it does instead of `divergence`.
    divergence_kinds: Mapping[str, str] = field(default_factory=dict)
    divergence_threshold: int = 2  # percent: a smaller section-size difference is not one
    # "replay": build under the first linker, relink its recorded links under the
    # others (replay/matrix.py); "rebuild": a full build per linker.
    linker_matrix: str = "replay"

    @property
    def self_hosted(self) -> bool:
        return "self-hosted" in self.runner

    @property
    def is_cargo(self) -> bool:
        return self.cargo is not None


@dataclass(frozen=True)
class AuditIgnore:
    """An ``[[audit.ignore]]`` entry: a finding the user accepted, with the reason."""

    finding: str
    reason: str
    match: str | None = None


@dataclass(frozen=True)
class AuditConfig:
    """The ``[audit]`` table: severities by rule, and the findings ignored."""

    severity: Mapping[str, str] = field(default_factory=dict)
    ignore: tuple[AuditIgnore, ...] = ()


@dataclass(frozen=True)
class Recipe:
    """A named link recipe: a branch of a build script and the conditions that select it."""

    name: str
    when_env: tuple[str, ...] = ()        # every variable set
    unless_env: tuple[str, ...] = ()      # none of these set (the later arms of an if/else-if chain)
    when_target: str | None = None        # glob on the target triple
    unless_target: str | None = None
    when_features: tuple[str, ...] = ()   # every feature enabled
    unless_features: tuple[str, ...] = ()  # none of these enabled (an `else` after a feature branch)
    file: str | None = None               # the branch in the build script, relative to the root
    line: int | None = None
    config_line: int | None = None

    @property
    def location(self) -> str | None:
        if self.file is None:
            return None
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class CiConfig:
    """The ``[ci]`` table: where the generated job installs linkgate from."""

    install: str | None = None     # what the CI job pip-installs linkgate from
    install_line: int | None = None
    # False: the runners' python3 is already 3.11 or newer (self-hosted), so the jobs set up
    # no Python of their own (actions/setup-python) before installing linkgate.
    setup_python: bool = True


@dataclass(frozen=True)
class Config:
    """A loaded linkgate.toml: its gates, audit, recipe and ci settings, and where it lives."""

    path: Path
    root: Path
    gates: tuple[Gate, ...]
    audit: AuditConfig = AuditConfig()
    recipes: tuple[Recipe, ...] = ()
    ci: CiConfig = CiConfig()

    def select(self, names: Sequence[str]) -> tuple[Gate, ...]:
        if not self.gates:
            raise ConfigError(
                "no gates configured", file=str(self.path), hint="add a [[gate]] table with a name and cargo = [...]"
            )
        if not names:
            return self.gates
        by_name = {g.name: g for g in self.gates}
        chosen = []
        for name in names:
            if name not in by_name:
                raise ConfigError(
                    f"no gate named {name!r}",
                    file=str(self.path),
                    hint=_did_you_mean(name, list(by_name)) or "gates: " + ", ".join(by_name),
                )
            chosen.append(by_name[name])
        return tuple(chosen)

    def gate(self, name: str) -> Gate:
        return self.select([name])[0]


# key -> expected type tag. Tags: str, list[str], table[str], table, bool, list[table]
GATE_KEYS: dict[str, str] = {
    "name": "str",
    "cargo": "list[str]",
    "command": "list[str]",
    "env": "table[str]",
    "working-directory": "str",
    "target-dir": "str",
    "linkers": "list[str]",
    "linker-matrix": "str",
    "paths": "list[str]",
    "predicate-quantifier": "str",
    "paths-from": "table",
    "provision": "list[str]",
    "control": "list[table]",
    "runner": "list[str]",
    "provision-env": "list[str]",
    "why": "str",
    "archive-order": "str",
    "divergence": "str",
    "divergence-kinds": "table[str]",
    "divergence-threshold": "int",
}
PATHS_FROM_KEYS = {"workflow": "str", "filter": "str"}
CONTROL_KEYS: dict[str, str] = {
    "name": "str",
    "file": "str",
    "delete": "str",
    "replace": "table",
    "patch": "str",
    "expect-kind": "str",
    "expect-match": "str",
    "drop-directive": "str|table",
    "linkers": "list[str]",
}
DROP_DIRECTIVE_KEYS = {"lib": "str", "package": "str"}
REPLACE_KEYS = {"pattern": "str", "with": "str"}
AUDIT_KEYS = {"severity": "table[str]", "ignore": "list[table]"}
AUDIT_IGNORE_KEYS = {"finding": "str", "reason": "str", "match": "str"}
RECIPE_KEYS: dict[str, str] = {
    "name": "str",
    "when-env": "list[str]",
    "unless-env": "list[str]",
    "when-target": "str",
    "unless-target": "str",
    "when-features": "list[str]",
    "unless-features": "list[str]",
    "file": "str",
    "line": "int",
}
CI_KEYS = {"install": "str", "setup-python": "bool"}
TOP_KEYS = {"gate": "list[table]", "audit": "table", "recipe": "list[table]", "ci": "table"}


def _cargo_metadata_table(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], str] | None:
    for section in ("workspace", "package"):
        meta = data.get(section, {})
        if isinstance(meta, dict):
            table = meta.get("metadata", {})
            if isinstance(table, dict) and isinstance(table.get("linkgate"), dict):
                return table["linkgate"], f"{section}.metadata.linkgate."
    return None


def linkgate_table(manifest: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The ``[workspace|package.metadata.linkgate]`` table of a parsed Cargo.toml."""
    found = _cargo_metadata_table(manifest)
    return None if found is None else found[0]


def repository_root(start: Path) -> Path | None:
    """The git top-level above *start*: the nearest directory holding ``.git``
    (a directory, or a file in a submodule or a linked worktree). A walk, not
    ``git rev-parse``, because should-run starts on every pull request."""
    here = start.resolve()
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return directory
    return None


def find_config(start: Path, stop: Path | None = None) -> Path:
    """Walk up from *start* to the repository root looking for configuration."""
    here = start.resolve()
    for directory in (here, *here.parents):
        # What is found here is the repository's: a committed linkgate.toml or
        # Cargo.toml that links outside it, a FIFO or a device is refused
        # (RefusedFile), never read (docs/configuration.md).
        boundary = stop or repository_root(directory) or directory
        candidate = directory / CONFIG_NAME
        if os.path.lexists(candidate):
            repofs.check(candidate, inside=boundary, limit=repofs.MAX_SOURCE, shown=str(candidate))
            return candidate
        manifest = directory / "Cargo.toml"
        if manifest.is_file():
            try:
                data = tomllib.loads(repofs.read_text(manifest, inside=boundary))
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError, RecursionError):
                data = {}
            if _cargo_metadata_table(data) is not None:
                return manifest
        if (directory / ".git").exists() or directory == stop:
            break
    raise ConfigError(
        f"no linkgate configuration found from {here} up to the repository root",
        hint=f"run `linkgate init` to write {CONFIG_NAME} from the workspace's build scripts, or add "
        "[workspace.metadata.linkgate] to Cargo.toml, or pass --config PATH",
    )


def load(path: str | Path | None = None, start: Path | None = None, root: str | Path | None = None) -> Config:
    """Load configuration from *path*, or discover it from *start* (cwd).

    The repository root is *root* (``--repo``), else the git top-level of
    *start*, never the configuration's directory: ``--config ci/linkgate.toml``
    must not make ``ci/`` the root. Outside git it is the directory of the
    discovered configuration, or *start* when a path was given.
    """
    here = (start or Path.cwd()).resolve()
    top: Path | None
    if root is not None:
        top = Path(root).resolve()
        if not top.is_dir():
            raise ConfigError(f"--repo {root}: not a directory", hint="pass the repository's top-level directory")
    else:
        top = repository_root(here)
    if path is None:
        # From the working directory when it is inside the root (a crate's own
        # [package.metadata.linkgate]), else from the root itself.
        search = here if top is None or here == top or top in here.parents else top
        cfg_path = find_config(search, stop=top)
    else:
        cfg_path = Path(path)
        if not os.path.lexists(cfg_path) or not cfg_path.exists():
            raise ConfigError(
                "configuration file does not exist", file=str(cfg_path), hint="check the --config path"
            )
        repofs.check(cfg_path, inside=None, limit=repofs.MAX_SOURCE, shown=str(cfg_path))
    cfg_path = cfg_path.resolve()
    data, text = _parse_toml(cfg_path)
    prefix = ""
    if cfg_path.name == "Cargo.toml":
        found = _cargo_metadata_table(data)
        if found is None:
            raise ConfigError(
                "no [workspace.metadata.linkgate] or [package.metadata.linkgate] table",
                file=str(cfg_path),
                hint="add one, or create linkgate.toml",
            )
        data, prefix = dict(found[0]), found[1]
    if top is None:
        top = cfg_path.parent if path is None else here
    return _build(cfg_path, data, _Locator(text, prefix), prefix, top)


def _build(path: Path, data: Mapping[str, Any], loc: _Locator, prefix: str, root: Path) -> Config:
    v = _Validator(path, loc, prefix)
    v.check_keys(data, TOP_KEYS, "", lambda k: loc.table(k) or loc.key_line(0, 10**9, k))
    raw_gates = data.get("gate", [])
    if not raw_gates and not {"audit", "recipe", "ci"} & set(data):
        raise v.fail("no gates configured", 1, "gate", hint="add a [[gate]] table with a name and cargo = [...]")
    gates: list[Gate] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_gates):
        gates.append(_build_gate(v, loc, i, raw, seen))
    audit = _build_audit(v, loc, data.get("audit", {}))
    recipes = _build_recipes(v, loc, data.get("recipe", []))
    _check_recipe_features(v, loc, recipes, root)
    ci = _build_ci(v, loc, data.get("ci", {}))
    config = Config(path=path, root=root, gates=tuple(gates), audit=audit, recipes=recipes, ci=ci)
    # Checked once the root is known: working-directory is relative to it.
    environ = dict(os.environ)  # once: a copy per gate is most of the check for 20,000 gates
    for i, gate in enumerate(config.gates):
        _check_values(v, loc, i, gate, config.root)
        if gate.cargo is not None:
            _check_links(v, gate, config.root, loc.gate(i, "cargo"), environ)
    return config


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
MAX_NAME = 100


def _check_values(v: _Validator, loc: _Locator, i: int, gate: Gate, root: Path) -> None:
    """What would fail later, at use (a crash in run, a broken workflow), refused at load."""
    where = f"gate.{gate.name}"

    def line_of(key: str) -> int | None:
        return loc.gate(i, key)

    for name, value in gate.env.items():
        if not _ENV_NAME.fullmatch(name):
            raise v.fail(f"{name!r} is not an environment variable name (letters, digits, '_', not starting "
                         "with a digit)", line_of("env"), f"{where}.env")
        if "\0" in value:
            raise v.fail("a value holds a NUL character, which no environment can carry", line_of("env"),
                         f"{where}.env.{name}")
    for key, items in (("cargo", gate.cargo or ()), ("command", gate.command or ()), ("provision", gate.provision),
                       ("provision-env", gate.provision_env)):
        for j, arg in enumerate(items):
            if "\0" in arg:
                raise v.fail("holds a NUL character, which no command line can carry", line_of(key),
                             f"{where}.{key}[{j}]")
    for j, pattern in enumerate(gate.paths):
        if _CONTROL_CHARS.search(pattern):
            raise v.fail(f"pattern {pattern!r} holds a control character", line_of("paths"), f"{where}.paths[{j}]")
    if gate.why is not None and _CONTROL_CHARS.search(gate.why.replace("\t", " ")):
        raise v.fail("holds a control character (a line break included): write it on one line", line_of("why"),
                     f"{where}.why")
    inside: list[tuple[str, str | None, int | None]] = [
        ("working-directory", gate.working_directory, line_of("working-directory"))]
    if gate.paths_from is not None:
        inside.append(("paths-from.workflow", gate.paths_from.workflow, line_of("paths-from")))
    for j, control in enumerate(gate.controls):
        inside += [(f"control.{control.name}.file", control.file, loc.control(i, j, "file")),
                   (f"control.{control.name}.patch", control.patch, loc.control(i, j, "patch"))]
    if gate.target_dir is not None and _CONTROL_CHARS.search(gate.target_dir):
        # May lie outside the repository (a runner's cache directory), never hold a control character.
        raise v.fail("holds a control character", line_of("target-dir"), f"{where}.target-dir")
    top = root.resolve()
    for key, path_value, line in inside:
        if path_value is None:
            continue
        if _CONTROL_CHARS.search(path_value):
            raise v.fail(f"{path_value!r} holds a control character", line, f"{where}.{key}")
        resolved = (root / path_value).resolve()
        if resolved != top and top not in resolved.parents:
            plain = Path(os.path.normpath(root.resolve() / path_value))
            how = ("is a symlink leading outside the repository" if plain == top or top in plain.parents
                   else "escapes the repository")
            raise v.fail(f"{path_value!r} {how} {top}", line, f"{where}.{key}",
                         hint="give a path relative to the repository root that stays inside it")


_GATE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _check_name(v: _Validator, kind: str, name: str, seen: dict[str, int],
                line_of: Callable[[str], int | None], where: str) -> None:
    """A gate's or recipe's name: the allowed characters, once per file; *seen* records it."""
    if len(name) > MAX_NAME:
        raise v.fail(f"{kind} name is {len(name)} characters long; at most {MAX_NAME}", line_of("name"),
                     f"{where}.name")
    if not _GATE_NAME.fullmatch(name):
        raise v.fail(
            f"{kind} name {name!r} must start with a letter or digit and use only letters, digits, '.', '_', '-'",
            line_of("name"),
            f"{where}.name",
        )
    if name in seen:
        raise v.fail(
            f"duplicate {kind} name {name!r} (first defined at line {seen[name]})",
            line_of("name"),
            f"{where}.name",
            hint=f"give each {kind} a unique name",
        )
    seen[name] = line_of("name") or 0


def _build_gate(v: _Validator, loc: _Locator, i: int, raw: Mapping[str, Any], seen: dict[str, int]) -> Gate:
    def line_of(key: str) -> int | None:
        return loc.gate(i, key)

    v.check_keys(raw, GATE_KEYS, f"gate[{i}]", line_of)
    where = f"gate[{i}]"
    if "name" not in raw:
        raise v.fail("gate has no name", loc.gate(i), f"{where}.name", hint='add name = "..."')
    name = raw["name"]
    _check_name(v, "gate", name, seen, line_of, where)
    where = f"gate.{name}"
    has_cargo, has_command = "cargo" in raw, "command" in raw
    if has_cargo and has_command:
        raise v.fail(
            "a gate has either cargo = [...] or command = [...], not both",
            line_of("command"),
            f"{where}.command",
        )
    if not has_cargo and not has_command:
        raise v.fail(
            "gate has neither cargo = [...] nor command = [...]",
            loc.gate(i),
            where,
            hint='add cargo = ["test", "--release", "--no-run"] or command = [...]',
        )
    argv = raw.get("cargo", raw.get("command"))
    if not argv:
        key = "cargo" if has_cargo else "command"
        raise v.fail("must not be empty", line_of(key), f"{where}.{key}")
    if has_cargo:
        for arg in argv:
            flag = arg.split("=", 1)[0]
            if flag in _RESERVED_CARGO_FLAGS:
                raise v.fail(
                    f"{flag} is set by linkgate itself",
                    line_of("cargo"),
                    f"{where}.cargo",
                    hint="remove it; use target-dir = \"...\" for the target directory",
                )
    linkers = tuple(raw.get("linkers", ["default"]))
    if not linkers:
        raise v.fail("must name at least one linker", line_of("linkers"), f"{where}.linkers")
    for linker in linkers:
        if linker not in LINKERS:
            raise v.fail(
                f"unknown linker {linker!r}",
                line_of("linkers"),
                f"{where}.linkers",
                hint=_did_you_mean(linker, LINKERS) or "choose from: " + ", ".join(LINKERS),
            )
    if len(set(linkers)) != len(linkers):
        raise v.fail("a linker is listed twice", line_of("linkers"), f"{where}.linkers")
    def choice(key: str, choices: tuple[str, ...], hint: str | None = None, member: str | None = None) -> str:
        """The value of a key that takes one of *choices* (the first is the default);
        with *member*, of that member of the table *key*."""
        value = raw.get(key, choices[0]) if member is None else raw[key][member]
        if value not in choices:
            named = [repr(c) for c in choices]
            line = line_of(key) if member is None else loc.gate_member(i, key, member)
            raise v.fail(f"must be {', '.join(named[:-1])} or {named[-1]}, not {value!r}", line,
                         f"{where}.{key}" + (f".{member}" if member else ""),
                         hint=_did_you_mean(str(value), choices) or hint)
        return str(value)

    matrix = choice("linker-matrix", MATRIX_MODES, "replay: compile once, relink under each linker; "
                    "rebuild: a full build per linker")
    quant = choice("predicate-quantifier", QUANTIFIERS)
    archive_order = choice("archive-order", ARCHIVE_ORDER,
                           "warn: a link lld passed in spite of an archive-order problem is linked, with a "
                           "warning; fail: it is a link failure")
    divergence = choice("divergence", DIVERGENCE, "warn: differences between the linkers' files are listed; "
                        "fail: they fail the gate; off: the files are not compared")
    kinds: dict[str, str] = {}
    for kind in raw.get("divergence-kinds", {}):
        if kind not in OVERRIDABLE_KINDS:
            raise v.fail(f"unknown kind of divergence {kind!r}", loc.gate_member(i, "divergence-kinds", kind),
                         f"{where}.divergence-kinds.{kind}",
                         hint=_did_you_mean(kind, OVERRIDABLE_KINDS) or "choose from: " + ", ".join(OVERRIDABLE_KINDS))
        kinds[kind] = choice("divergence-kinds", DIVERGENCE, "warn: listed; fail: fails the gate; off: not reported",
                             member=kind)
    threshold = raw.get("divergence-threshold", 2)
    if not 0 <= threshold <= 100:
        raise v.fail(
            f"must be a percentage from 0 to 100, not {threshold}",
            line_of("divergence-threshold"),
            f"{where}.divergence-threshold",
            hint="e.g. divergence-threshold = 2: a section whose size differs by more than 2 % is reported",
        )
    paths_from = None
    if "paths-from" in raw:
        pf = raw["paths-from"]
        v.check_keys(pf, PATHS_FROM_KEYS, f"{where}.paths-from", lambda k: line_of("paths-from"))
        for key in PATHS_FROM_KEYS:
            if key not in pf:
                raise v.fail(f"missing {key!r}", line_of("paths-from"), f"{where}.paths-from.{key}")
        if "paths" in raw:
            raise v.fail(
                "a gate takes its filter from paths or from paths-from, not both",
                line_of("paths-from"),
                f"{where}.paths-from",
            )
        paths_from = PathsFrom(workflow=pf["workflow"], filter=pf["filter"])
    controls = tuple(
        _build_control(v, loc, i, j, name, c, linkers) for j, c in enumerate(raw.get("control", []))
    )
    names = [c.name for c in controls]
    for j, cname in enumerate(names):
        if cname in names[:j]:
            raise v.fail(f"duplicate control name {cname!r}", loc.control(i, j, "name"), f"{where}.control.name")
    return Gate(
        name=name,
        cargo=tuple(raw["cargo"]) if has_cargo else None,
        command=tuple(raw["command"]) if has_command else None,
        env=dict(raw.get("env", {})),
        working_directory=raw.get("working-directory"),
        target_dir=raw.get("target-dir"),
        linkers=linkers,
        paths=tuple(raw.get("paths", [])),
        predicate_quantifier=quant,
        paths_from=paths_from,
        provision=tuple(raw.get("provision", [])),
        controls=controls,
        line=loc.gate(i),
        runner=_runner(v, raw, line_of("runner"), f"{where}.runner"),
        provision_env=tuple(raw.get("provision-env", [])),
        why=raw.get("why"),
        archive_order=archive_order,
        divergence=divergence,
        divergence_kinds=kinds,
        divergence_threshold=threshold,
        linker_matrix=matrix,
    )


def _runner(v: _Validator, raw: Mapping[str, Any], line: int | None, key: str) -> tuple[str, ...]:
    labels = tuple(raw.get("runner", ["ubuntu-latest"]))
    if not labels or any(not label.strip() for label in labels):
        raise v.fail("runner labels must not be empty", line, key, hint='e.g. runner = ["self-hosted", "gpu"]')
    return labels


def _build_control(
    v: _Validator, loc: _Locator, gi: int, ci: int, gate: str, raw: Mapping[str, Any],
    gate_linkers: tuple[str, ...],
) -> Control:
    def line_of(key: str) -> int | None:
        return loc.control(gi, ci, key)

    where = f"gate.{gate}.control[{ci}]"
    v.check_keys(raw, CONTROL_KEYS, where, line_of)
    drop = _build_drop(v, raw, line_of, where)
    for key in ("name", "file") if drop is None else ("name",):
        if key not in raw:
            raise v.fail(f"control has no {key}", loc.control(gi, ci), f"{where}.{key}")
    kinds = [k for k in ("delete", "replace", "patch", "drop-directive") if k in raw]
    if len(kinds) != 1:
        raise v.fail(
            "a control needs exactly one of delete, replace or patch (or drop-directive)"
            + (f" (found {', '.join(kinds)})" if kinds else ""),
            loc.control(gi, ci),
            where,
        )
    if drop is not None and "file" in raw:
        raise v.fail("drop-directive changes no file; remove file", line_of("file"), f"{where}.file")
    replace = None
    if "replace" in raw:
        v.check_keys(raw["replace"], REPLACE_KEYS, f"{where}.replace", lambda k: line_of("replace"))
        if set(raw["replace"]) != set(REPLACE_KEYS):
            raise v.fail(
                "replace needs both pattern and with", line_of("replace"), f"{where}.replace"
            )
        replace = (raw["replace"]["pattern"], raw["replace"]["with"])
    for key in ("delete", "expect-match"):
        if key in raw:
            _check_regex(v, raw[key], line_of(key), f"{where}.{key}")
    if "expect-kind" in raw:
        _check_kind(v, raw["expect-kind"], line_of("expect-kind"), f"{where}.expect-kind")
    if replace is not None:
        _check_regex(v, replace[0], line_of("replace"), f"{where}.replace.pattern")
    linkers = _control_linkers(v, raw, gate_linkers, line_of("linkers"), f"{where}.linkers")
    return Control(
        name=raw["name"],
        file=raw.get("file", ""),
        delete=raw.get("delete"),
        replace=replace,
        patch=raw.get("patch"),
        expect_kind=raw.get("expect-kind"),
        expect_match=raw.get("expect-match"),
        line=loc.control(gi, ci),
        key_lines={k: n for k in raw if (n := line_of(k)) is not None},
        drop_directive=drop[0] if drop else None,
        drop_lib=drop[1] if drop else None,
        drop_package=drop[2] if drop else None,
        linkers=linkers,
    )


def _control_linkers(v: _Validator, raw: Mapping[str, Any], gate_linkers: tuple[str, ...],
                     line: int | None, key: str) -> tuple[str, ...]:
    """A control's own linkers: a non-empty subset of its gate's, each once."""
    if "linkers" not in raw:
        return ()
    linkers = tuple(raw["linkers"])
    if not linkers:
        raise v.fail("must name at least one linker (or leave linkers out: every linker of the gate)", line, key)
    for linker in linkers:
        if linker not in gate_linkers:
            known = linker in LINKERS
            raise v.fail(
                f"linker {linker!r} is not one of the gate's linkers ({', '.join(gate_linkers)})" if known
                else f"unknown linker {linker!r}",
                line, key,
                hint=(f"add {linker!r} to the gate's linkers, or remove it here" if known
                      else _did_you_mean(linker, gate_linkers) or "choose from: " + ", ".join(gate_linkers)),
            )
    if len(set(linkers)) != len(linkers):
        raise v.fail("a linker is listed twice", line, key)
    return linkers


def _check_links(v: _Validator, gate: Gate, root: Path, line: int | None, environ: Mapping[str, str]) -> None:
    """A gate whose cargo subcommand never invokes the linker can only ever pass: refuse it."""
    cwd = root / (gate.working_directory or "")
    verdict = judge(gate.cargo or (), cwd, {**environ, **gate.env} if gate.env else environ)
    if verdict.links is False:
        via = f" ({verdict.via})" if verdict.via else ""
        raise v.fail(
            f"this gate can never fail on a link: {verdict.reason}{via}",
            line,
            f"gate.{gate.name}.cargo",
            hint='link what you mean to gate, e.g. cargo = ["test", "--no-run"] or ["build", "--bins"]',
        )


def _check_kind(v: _Validator, kind: str, line: int | None, key: str) -> None:
    # Imported only here: loading the configuration stays cheap for should-run.
    from linkgate.diagnose.model import KINDS

    if kind not in KINDS:
        raise v.fail(
            f"unknown diagnostic kind {kind!r}",
            line,
            key,
            hint=_did_you_mean(kind, KINDS) or "choose from: " + ", ".join(KINDS),
        )


def _build_drop(
    v: _Validator, raw: Mapping[str, Any], line_of: Any, where: str
) -> tuple[str | None, str | None, str | None] | None:
    if "drop-directive" not in raw:
        return None
    value = raw["drop-directive"]
    key = f"{where}.drop-directive"
    if isinstance(value, str):
        if not value.strip():
            raise v.fail("must name a link-line argument, e.g. \"-lc\"", line_of("drop-directive"), key)
        return value, None, None
    v.check_keys(value, DROP_DIRECTIVE_KEYS, key, lambda k: line_of("drop-directive"))
    if not value.get("lib"):
        raise v.fail("needs lib = \"KIND=NAME\" (a rustc-link-lib value)", line_of("drop-directive"), key)
    package = value.get("package")
    if package is not None and not str(package).strip():
        raise v.fail("package must name a package", line_of("drop-directive"), f"{key}.package")
    return None, str(value["lib"]), package


def _check_regex(v: _Validator, pattern: str, line: int | None, key: str) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise v.fail(f"invalid regular expression: {exc}", line, key) from None
    try:
        compile_user(pattern)
    except RegexRefused as exc:
        # Valid for Python, but RE2 (which runs every user pattern, so none can backtrack for minutes)
        # cannot run it: a backreference or lookaround. Refused here, before any control runs.
        raise v.fail(f"regular expression {pattern!r} cannot be run by RE2 ({exc.reason}); backreferences and "
                     "lookaround are not supported: write the pattern without them", line, key) from None


def _build_audit(v: _Validator, loc: _Locator, raw: Mapping[str, Any]) -> AuditConfig:
    v.check_keys(raw, AUDIT_KEYS, "audit", lambda k: loc.table("audit", k) or loc.table(f"audit.{k}"))
    severity = dict(raw.get("severity", {}))
    for key, value in severity.items():
        if value not in SEVERITIES:
            raise v.fail(
                f"severity must be one of {', '.join(SEVERITIES)}, not {value!r}",
                loc.table("audit.severity", key) or loc.table("audit", "severity"),
                f"audit.severity.{key}",
            )
    ignores = []
    for j, item in enumerate(raw.get("ignore", [])):
        def line_of(k: str, j: int = j) -> int | None:
            return loc.table("audit.ignore", k, index=j)

        v.check_keys(item, AUDIT_IGNORE_KEYS, f"audit.ignore[{j}]", line_of)
        for key in ("finding", "reason"):
            if not item.get(key):
                raise v.fail(
                    f"an ignore needs a {key}",
                    line_of(key),
                    f"audit.ignore[{j}].{key}",
                    hint="every ignore says why it is safe: add reason = \"...\"" if key == "reason" else None,
                )
        ignores.append(AuditIgnore(finding=item["finding"], reason=item["reason"], match=item.get("match")))
    return AuditConfig(severity=severity, ignore=tuple(ignores))


_SELECTORS = ("when-env", "unless-env", "when-target", "unless-target", "when-features", "unless-features")


def _package_features(root: Path, file: str) -> tuple[str, list[str]] | None:
    """(package name, its features) for the package holding *file*: its own feature
    table plus the implicit feature of each optional dependency (none for one a feature
    names as ``dep:KEY``), as cargo knows them; None when unknown."""
    from linkgate.cargo import manifests

    here = (root / file).parent
    for directory in (here, *here.parents):
        manifest = directory / "Cargo.toml"
        if manifest.is_file():
            try:
                info = manifests.read(manifest)
            except manifests.ManifestError:
                return None
            if info.name is None:
                return None
            return info.name, list(info.all_features)
        if directory == root or root not in directory.parents:
            return None
    return None


def _check_recipe_features(v: _Validator, loc: _Locator, recipes: Sequence[Recipe], root: Path) -> None:
    """A feature the recipe's package does not have can never be enabled: refuse it,
    and say how Cargo.toml spells it (``static_z`` is ``static-z`` there)."""
    for j, recipe in enumerate(recipes):
        if recipe.file is None:
            continue
        for key, names in (("when-features", recipe.when_features), ("unless-features", recipe.unless_features)):
            if not names:
                continue
            found = _package_features(root, recipe.file)
            if found is None:
                continue
            package, table = found
            for name in names:
                if name in table:
                    continue
                spelt = next((f for f in table if f.replace("-", "_") == name.replace("-", "_")), None)
                raise v.fail(
                    f"package {package} ({recipe.file}) has no feature {name!r}",
                    loc.table("recipe", key, index=j),
                    f"recipe.{recipe.name}.{key}",
                    hint=(f"Cargo.toml spells it {spelt!r}" if spelt else _did_you_mean(name, table))
                    or ("its features: " + ", ".join(table) if table else "it declares no features"),
                )


def _build_recipes(v: _Validator, loc: _Locator, raw: list[Mapping[str, Any]]) -> tuple[Recipe, ...]:
    recipes: list[Recipe] = []
    seen: dict[str, int] = {}
    for j, item in enumerate(raw):
        def line_of(k: str, j: int = j) -> int | None:
            return loc.table("recipe", k, index=j)

        where = f"recipe[{j}]"
        v.check_keys(item, RECIPE_KEYS, where, line_of)
        name = item.get("name")
        if not name:
            raise v.fail("recipe has no name", loc.table("recipe", index=j), f"{where}.name", hint='add name = "..."')
        _check_name(v, "recipe", name, seen, line_of, where)
        where = f"recipe.{name}"
        if not any(item.get(k) for k in _SELECTORS):
            # A recipe without a condition is active in every run, so it could never show a gap.
            raise v.fail(
                "recipe has no condition",
                loc.table("recipe", index=j),
                where,
                hint="add when-env, when-target or when-features (`linkgate coverage --suggest` proposes them)",
            )
        for key in ("when-target", "unless-target"):
            if key in item and not item[key].strip():
                raise v.fail("must not be empty", line_of(key), f"{where}.{key}")
        clash = set(item.get("when-features", ())) & set(item.get("unless-features", ()))
        if clash:
            raise v.fail(
                f"{sorted(clash)[0]!r} is in both when-features and unless-features: the recipe can never be active",
                line_of("unless-features"),
                f"{where}.unless-features",
            )
        both = set(item.get("when-env", ())) & set(item.get("unless-env", ()))
        if both:
            raise v.fail(
                f"{sorted(both)[0]!r} is in both when-env and unless-env: the recipe can never be active",
                line_of("unless-env"),
                f"{where}.unless-env",
            )
        if "line" in item and item["line"] < 1:
            raise v.fail("must be a line number (1 or more)", line_of("line"), f"{where}.line")
        if "line" in item and "file" not in item:
            raise v.fail("a line needs a file", line_of("line"), f"{where}.line", hint='add file = "build.rs"')
        recipes.append(
            Recipe(
                name=name,
                when_env=tuple(item.get("when-env", ())),
                unless_env=tuple(item.get("unless-env", ())),
                when_target=item.get("when-target"),
                unless_target=item.get("unless-target"),
                when_features=tuple(item.get("when-features", ())),
                unless_features=tuple(item.get("unless-features", ())),
                file=item.get("file"),
                line=item.get("line"),
                config_line=loc.table("recipe", index=j),
            )
        )
    return tuple(recipes)


def _build_ci(v: _Validator, loc: _Locator, raw: Mapping[str, Any]) -> CiConfig:
    v.check_keys(raw, CI_KEYS, "ci", lambda k: loc.table("ci", k))
    setup_python = bool(raw.get("setup-python", True))
    if "install" not in raw:
        return CiConfig(setup_python=setup_python)
    line = loc.table("ci", "install")
    problem = install_spec_problem(raw["install"])
    if problem is not None:
        raise v.fail(problem, line, "ci.install", hint=INSTALL_SPEC_HINT)
    return CiConfig(install=raw["install"], install_line=line, setup_python=setup_python)


INSTALL_SPEC_HINT = ("give what `pip install` takes, pinned: e.g. "
                     "\"git+https://github.com/OWNER/linkgate@<commit>\" or \"linkgate==0.1.0\"")
# Where a CI runner can fetch from; file: (this machine's disk) it cannot.
_URL_SCHEMES = ("https", "http", "git+https", "git+http", "git+ssh", "git+git", "hg+https", "hg+ssh")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def install_spec_problem(spec: str) -> str | None:
    """Why *spec* cannot be what a CI job pip-installs linkgate from, or None.

    The spec is written into a job's ``run:`` script. It is shell-quoted there,
    but GitHub evaluates ``${{ }}`` before any shell runs, a line break would
    end the YAML scalar's line, and a leading ``-`` would make it a pip option
    (``--index-url`` pointing elsewhere): all three are refused here.
    """
    if not spec.strip():
        return "must not be empty"
    if "${{" in spec:
        return "must not contain ${{ (GitHub would evaluate it as an expression in the job)"
    if yamlemit.problem(spec) is not None:  # a control character, U+2028, NEL: the job's YAML could not carry it
        return "must be one line with no control characters"
    if spec.lstrip().startswith("-"):
        return "must not start with '-' (pip would read it as an option)"
    if spec != spec.strip():
        return "must not start or end with spaces"
    if _URL.match(spec):
        return _url_problem(spec)
    # PEP 508, as pip reads a requirement: `linkgate==0.1.0`, `linkgate @ URL`.
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(spec)
    except InvalidRequirement as exc:
        return f"is neither a URL nor a pip requirement ({exc})"
    return _url_problem(req.url) if req.url else None


def _url_problem(url: str) -> str | None:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in _URL_SCHEMES:
        local = parts.scheme == "file" or parts.scheme.endswith("+file")
        where = "a file on this machine, which a CI runner does not have" if local else f"scheme {parts.scheme!r}"
        return f"URL {url!r}: {where}; use one of {', '.join(_URL_SCHEMES)}"
    if not parts.netloc:
        return f"URL {url!r} names no host"
    if any(ch.isspace() for ch in url):
        return f"URL {url!r} contains a space"
    return None
