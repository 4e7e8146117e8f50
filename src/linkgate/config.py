"""Load, validate and freeze linkgate's configuration.

One schema (``GATE_KEYS`` and friends) is the source of truth for what is
allowed; every error names file, line and key, with a did-you-mean for
misspelt keys. TOML is parsed with the standard library's tomllib, which keeps
no positions, so ``linkgate.tomlsource`` finds lines in the raw text itself.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linkgate.errors import ConfigError
from linkgate.tomlsource import Locator as _Locator
from linkgate.tomlsource import Validator as _Validator
from linkgate.tomlsource import did_you_mean as _did_you_mean
from linkgate.tomlsource import parse_toml as _parse_toml

LINKERS = ("default", "bfd", "gold", "lld", "mold")
QUANTIFIERS = ("some", "every")
SEVERITIES = ("error", "warning", "note", "off")
CONFIG_NAME = "linkgate.toml"

# Flags linkgate sets itself on a cargo gate; a user value would silently fight ours.
_RESERVED_CARGO_FLAGS = ("--message-format", "--target-dir")


@dataclass(frozen=True)
class PathsFrom:
    workflow: str
    filter: str


@dataclass(frozen=True)
class Control:
    name: str
    file: str
    delete: str | None = None
    replace: tuple[str, str] | None = None
    patch: str | None = None
    expect_kind: str | None = None
    expect_match: str | None = None
    line: int | None = None
    key_lines: Mapping[str, int] = field(default_factory=dict)

    def line_of(self, key: str) -> int | None:
        return self.key_lines.get(key.split(".", 1)[0], self.line)


@dataclass(frozen=True)
class Gate:
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

    @property
    def self_hosted(self) -> bool:
        return "self-hosted" in self.runner

    @property
    def is_cargo(self) -> bool:
        return self.cargo is not None


@dataclass(frozen=True)
class AuditIgnore:
    finding: str
    reason: str
    match: str | None = None


@dataclass(frozen=True)
class AuditConfig:
    severity: Mapping[str, str] = field(default_factory=dict)
    ignore: tuple[AuditIgnore, ...] = ()


@dataclass(frozen=True)
class Config:
    path: Path
    root: Path
    gates: tuple[Gate, ...]
    audit: AuditConfig = AuditConfig()

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
    "paths": "list[str]",
    "predicate-quantifier": "str",
    "paths-from": "table",
    "provision": "list[str]",
    "control": "list[table]",
    "runner": "list[str]",
    "provision-env": "list[str]",
    "why": "str",
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
}
REPLACE_KEYS = {"pattern": "str", "with": "str"}
AUDIT_KEYS = {"severity": "table[str]", "ignore": "list[table]"}
AUDIT_IGNORE_KEYS = {"finding": "str", "reason": "str", "match": "str"}
TOP_KEYS = {"gate": "list[table]", "audit": "table"}


def _cargo_metadata_table(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], str] | None:
    for section in ("workspace", "package"):
        meta = data.get(section, {})
        if isinstance(meta, dict):
            table = meta.get("metadata", {})
            if isinstance(table, dict) and isinstance(table.get("linkgate"), dict):
                return table["linkgate"], f"{section}.metadata.linkgate."
    return None


def find_config(start: Path) -> Path:
    """Walk up from *start* to the repository root looking for configuration."""
    here = start.resolve()
    for directory in (here, *here.parents):
        candidate = directory / CONFIG_NAME
        if candidate.is_file():
            return candidate
        manifest = directory / "Cargo.toml"
        if manifest.is_file():
            try:
                data = tomllib.loads(manifest.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
                data = {}
            if _cargo_metadata_table(data) is not None:
                return manifest
        if (directory / ".git").exists():
            break
    raise ConfigError(
        f"no linkgate configuration found from {here} up to the repository root",
        hint=f"create {CONFIG_NAME} with a [[gate]] table, or add "
        "[workspace.metadata.linkgate] to Cargo.toml, or pass --config PATH",
    )


def load(path: str | Path | None = None, start: Path | None = None) -> Config:
    """Load configuration from *path*, or discover it from *start* (cwd)."""
    if path is None:
        cfg_path = find_config(start or Path.cwd())
    else:
        cfg_path = Path(path)
        if not cfg_path.is_file():
            raise ConfigError(
                "configuration file does not exist", file=str(cfg_path), hint="check the --config path"
            )
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
    return _build(cfg_path, data, _Locator(text, prefix), prefix)


def _build(path: Path, data: Mapping[str, Any], loc: _Locator, prefix: str) -> Config:
    v = _Validator(path, loc, prefix)
    v.check_keys(data, TOP_KEYS, "", lambda k: loc.table(k) or loc.key_line(0, 10**9, k))
    raw_gates = data.get("gate", [])
    if not raw_gates and "audit" not in data:
        raise v.fail("no gates configured", 1, "gate", hint="add a [[gate]] table with a name and cargo = [...]")
    gates: list[Gate] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_gates):
        gates.append(_build_gate(v, loc, i, raw, seen))
    audit = _build_audit(v, loc, data.get("audit", {}))
    return Config(path=path, root=path.parent, gates=tuple(gates), audit=audit)


_GATE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _build_gate(v: _Validator, loc: _Locator, i: int, raw: Mapping[str, Any], seen: dict[str, int]) -> Gate:
    def line_of(key: str) -> int | None:
        return loc.gate(i, key)

    v.check_keys(raw, GATE_KEYS, f"gate[{i}]", line_of)
    where = f"gate[{i}]"
    if "name" not in raw:
        raise v.fail("gate has no name", loc.gate(i), f"{where}.name", hint='add name = "..."')
    name = raw["name"]
    if not _GATE_NAME.match(name):
        raise v.fail(
            f"gate name {name!r} must start with a letter or digit and use only letters, digits, '.', '_', '-'",
            line_of("name"),
            f"{where}.name",
        )
    if name in seen:
        raise v.fail(
            f"duplicate gate name {name!r} (first defined at line {seen[name]})",
            line_of("name"),
            f"{where}.name",
            hint="give each gate a unique name",
        )
    seen[name] = line_of("name") or 0
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
    quant = raw.get("predicate-quantifier", "some")
    if quant not in QUANTIFIERS:
        raise v.fail(
            f"must be 'some' or 'every', not {quant!r}",
            line_of("predicate-quantifier"),
            f"{where}.predicate-quantifier",
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
        _build_control(v, loc, i, j, name, c) for j, c in enumerate(raw.get("control", []))
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
    )


def _runner(v: _Validator, raw: Mapping[str, Any], line: int | None, key: str) -> tuple[str, ...]:
    labels = tuple(raw.get("runner", ["ubuntu-latest"]))
    if not labels or any(not label.strip() for label in labels):
        raise v.fail("runner labels must not be empty", line, key, hint='e.g. runner = ["self-hosted", "gpu"]')
    return labels


def _build_control(
    v: _Validator, loc: _Locator, gi: int, ci: int, gate: str, raw: Mapping[str, Any]
) -> Control:
    def line_of(key: str) -> int | None:
        return loc.control(gi, ci, key)

    where = f"gate.{gate}.control[{ci}]"
    v.check_keys(raw, CONTROL_KEYS, where, line_of)
    for key in ("name", "file"):
        if key not in raw:
            raise v.fail(f"control has no {key}", loc.control(gi, ci), f"{where}.{key}")
    kinds = [k for k in ("delete", "replace", "patch") if k in raw]
    if len(kinds) != 1:
        raise v.fail(
            "a control needs exactly one of delete, replace or patch"
            + (f" (found {', '.join(kinds)})" if kinds else ""),
            loc.control(gi, ci),
            where,
        )
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
    if replace is not None:
        _check_regex(v, replace[0], line_of("replace"), f"{where}.replace.pattern")
    return Control(
        name=raw["name"],
        file=raw["file"],
        delete=raw.get("delete"),
        replace=replace,
        patch=raw.get("patch"),
        expect_kind=raw.get("expect-kind"),
        expect_match=raw.get("expect-match"),
        line=loc.control(gi, ci),
        key_lines={k: n for k in raw if (n := line_of(k)) is not None},
    )


def _check_regex(v: _Validator, pattern: str, line: int | None, key: str) -> None:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise v.fail(f"invalid regular expression: {exc}", line, key) from None


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
