"""What else selects the linker, and whether the gate's own choice still wins.

linkgate selects a linker with rustflags (gate/linkers.py). Other settings may
select one too, and the verdict of a leg is only about its linker when none of
them wins over linkgate's. Read for every leg, from the environment and cargo
configs its build sees and from what its build scripts printed:

- the environment's ``CARGO_ENCODED_RUSTFLAGS`` or ``RUSTFLAGS`` (cargo uses the
  first that is set). For bfd, gold, lld and mold linkgate appends
  ``-Clinker-features=-lld -Clink-arg=-fuse-ld=<linker>`` after them, and the
  last ``-fuse-ld`` the C compiler driver sees is the one it uses, so an earlier
  ``-fuse-ld`` or ``-Clinker-features`` loses: the gate's choice wins. The
  ``default`` leg adds nothing (it is rustc's own linker, rust-lld), so any
  flag there that selects another linker overrides it;
- cargo configs (every ``.cargo/config.toml`` / ``.cargo/config`` from the
  working directory up, then ``$CARGO_HOME``): ``target.<triple>.rustflags``,
  ``target.'cfg(..)'.rustflags`` (assumed to match: linkgate does not evaluate
  cfg expressions), ``build.rustflags`` and their ``CARGO_TARGET_<TRIPLE>_RUSTFLAGS``
  / ``CARGO_BUILD_RUSTFLAGS`` forms. Cargo ignores all of them once the
  environment sets rustflags, as linkgate does for every leg but ``default``;
  so they override only ``default``;
- the target's linker (``-Clinker=`` in rustflags, ``CARGO_TARGET_<TRIPLE>_LINKER``,
  ``target.<triple>.linker``): a C compiler driver (cc, gcc, clang, with a
  target prefix or version suffix) passes ``-fuse-ld`` on and the gate's choice
  wins; any other program may or may not (a logging wrapper around cc does), so
  it is a suspect: when the marks of what it linked name another linker, it is
  the setting named as overriding the leg;
- a build script's ``cargo:rustc-link-arg*=-fuse-ld=X`` (or ``--ld-path=``):
  rustc puts it after every rustflag (measured with rustc 1.95), so it beats
  linkgate's choice for that package's links, in every leg but X's own.

A leg something overrides ends as ``linker-overridden`` naming the source; the
marks check after the link (gate/proof.py) catches whatever this list misses.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.errors import LinkgateError

_SEP = "\x1f"
# What each leg hands the C compiler driver as -fuse-ld (default: rustc's rust-lld, as lld).
_FUSE = {"default": "lld", "bfd": "bfd", "gold": "gold", "lld": "lld", "mold": "mold"}
_DRIVER = re.compile(r"^(?:[\w.]+-)*(?:cc|gcc|clang|c\+\+|g\+\+|clang\+\+)(?:-\d+(?:\.\d+)*)?$")
_SELECTING_CODEGEN = ("linker-flavor", "link-self-contained")


@dataclass(frozen=True)
class Override:
    """A setting that selects another linker than the leg's: where, what it says, what it selects."""

    source: str
    setting: str
    selects: str
    hint: str

    def render(self, linker: str) -> str:
        return (f"{self.source} sets {self.setting}, which selects {self.selects} instead of linkgate's "
                f"{linker!r}, so this leg's link would not be {linker}'s; {self.hint}")


def _fuse_name(value: str) -> str:
    name = os.path.basename(value)
    return name[len("ld."):] if name.startswith("ld.") else name


def codegen(flags: Sequence[str]) -> list[str]:
    """``name=value`` of every ``-C`` option in *flags* (all four spellings)."""
    out = []
    for i, flag in enumerate(flags):
        if flag in ("-C", "--codegen") and i + 1 < len(flags):
            out.append(flags[i + 1])
        elif flag.startswith("--codegen="):
            out.append(flag[len("--codegen="):])
        elif flag.startswith("-C") and len(flag) > 2:
            out.append(flag[2:])
    return out


def _link_args(option: str) -> list[str]:
    name, _, value = option.partition("=")
    if name == "link-arg":
        return [value]
    return value.split() if name == "link-args" else []


def _from_flags(flags: Sequence[str], linker: str, source: str, *, beaten: bool) -> list[Override]:
    """Overrides among *flags*; *beaten*: linkgate's own flags come after these."""
    found = []
    for option in codegen(flags):
        name, _, value = option.partition("=")
        for arg in _link_args(option):
            if arg.startswith("-fuse-ld=") and not beaten and _fuse_name(arg[9:]) != _FUSE[linker]:
                found.append(Override(source, f"-Clink-arg={arg}", _fuse_name(arg[9:]), _hint(linker, _fuse_name(arg[9:]))))
            elif arg.startswith("--ld-path="):
                found.append(Override(source, f"-Clink-arg={arg}", arg[len("--ld-path="):],
                                      "linkgate does not undo --ld-path; remove it from the flags"))
        if name == "linker-features" and not beaten and "lld" in value:
            found.append(Override(source, f"-C{option}", "GNU ld" if "-lld" in value else "lld",
                                  _hint(linker, "bfd" if "-lld" in value else "lld")))
        elif name in _SELECTING_CODEGEN:
            found.append(Override(source, f"-C{option}", f"a linker of its own ({option})",
                                  "linkgate does not undo it; remove it from the flags"))
    return found


def _hint(linker: str, other: str) -> str:
    if linker == "default":
        return (f"`default` is rustc's own linker (rust-lld): to gate {other}, name it in the gate's linkers "
                "(linkgate then selects it itself), or remove the setting")
    return "remove the setting, or drop this linker from the gate's linkers"


def env_flags(env: Mapping[str, str]) -> tuple[str, list[str]] | None:
    """The environment's rustflags as cargo reads them (encoded first), with the variable's name."""
    if env.get("CARGO_ENCODED_RUSTFLAGS") is not None:
        return "CARGO_ENCODED_RUSTFLAGS", [f for f in env["CARGO_ENCODED_RUSTFLAGS"].split(_SEP) if f]
    if env.get("RUSTFLAGS") is not None:
        return "RUSTFLAGS", env["RUSTFLAGS"].split()
    return None


@dataclass(frozen=True)
class _Setting:
    source: str
    value: Any


def config_files(cwd: Path, env: Mapping[str, str]) -> list[Path]:
    """Cargo config files cargo reads from *cwd*, nearest first, then ``$CARGO_HOME``'s."""
    here = cwd.resolve()
    dirs = [here, *here.parents]
    home = Path(env.get("CARGO_HOME") or Path(env.get("HOME") or Path.home()) / ".cargo")
    found = [d / ".cargo" / n for d in dirs for n in ("config.toml", "config")]
    found += [home / "config.toml", home / "config"]
    seen: list[Path] = []
    for path in found:
        if path.is_file() and path.resolve() not in [s.resolve() for s in seen]:
            seen.append(path)
    return seen


def _line(text: str, table: str, key: str) -> int | None:
    from linkgate.tomlsource import Locator

    at = Locator(text, "").table(table, key)
    if at is not None:
        return at
    dotted = re.compile(r"^\s*" + r"\s*\.\s*".join(
        rf'"?{re.escape(p)}"?' for p in [*table.split(".", 1), key]) + r"\s*=")
    return next((n for n, ln in enumerate(text.splitlines(), 1) if dotted.match(ln)), None)


def _config_settings(files: Iterable[Path], triple: str) -> dict[str, list[_Setting]]:
    """``target`` rustflags, ``build`` rustflags and the target linker, from each config file."""
    out: dict[str, list[_Setting]] = {"target": [], "build": [], "linker": []}
    for path in files:
        try:
            # Cargo's configs live above the repository too ($CARGO_HOME): read through the
            # one path guard, which refuses FIFOs, devices and oversized files.
            text = repofs.read_text(path, inside=None)
            data = tomllib.loads(text)
        except (OSError, ValueError, LinkgateError):
            continue  # cargo itself refuses a config it cannot parse, before any link
        targets = data.get("target")
        for name, table in (targets.items() if isinstance(targets, dict) else ()):
            if not isinstance(table, dict) or not (name == triple or name.startswith("cfg(")):
                continue
            where = f"target.{name}" if name == triple else f"target.'{name}'"
            for key in ("rustflags", "linker"):
                if key in table:
                    line = _line(text, f"target.{name}", key)
                    src = f"{path}{f':{line}' if line else ''}: {where}.{key}"
                    if key == "linker" and name == triple:
                        out["linker"].append(_Setting(src, table[key]))
                    elif key == "rustflags":
                        out["target"].append(_Setting(src, table[key]))
        build = data.get("build")
        if isinstance(build, dict) and "rustflags" in build:
            line = _line(text, "build", "rustflags")
            out["build"].append(_Setting(f"{path}{f':{line}' if line else ''}: build.rustflags", build["rustflags"]))
    return out


def _as_flags(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    return [str(v) for v in value] if isinstance(value, list) else []


def _env_name(triple: str, what: str) -> str:
    return "CARGO_TARGET_" + re.sub(r"[^A-Za-z0-9]", "_", triple).upper() + "_" + what


def before_build(linker: str, env: Mapping[str, str], cwd: Path, triple: str) -> list[Override]:
    """What overrides *linker* among the environment and cargo configs (*env*: the
    gate's environment before linkgate adds its own settings)."""
    found: list[Override] = []
    settings = _config_settings(config_files(cwd, env), triple)
    flags = env_flags(env)
    if flags is not None:
        name, values = flags
        found += _from_flags(values, linker, f"environment variable {name}", beaten=linker != "default")
    elif linker == "default":
        # Cargo's order: target rustflags (all matching tables joined), else build.rustflags.
        target = [_Setting(f"environment variable {_env_name(triple, 'RUSTFLAGS')}", env[_env_name(triple, 'RUSTFLAGS')])] \
            if env.get(_env_name(triple, "RUSTFLAGS")) is not None else []
        target += settings["target"]
        build = [_Setting("environment variable CARGO_BUILD_RUSTFLAGS", env["CARGO_BUILD_RUSTFLAGS"])] \
            if env.get("CARGO_BUILD_RUSTFLAGS") is not None else settings["build"]
        for s in target or build:
            found += _from_flags(_as_flags(s.value), linker, s.source, beaten=False)
    return found


def suspects(env: Mapping[str, str], cwd: Path, triple: str) -> list[Override]:
    """A target linker that is not a C compiler driver: it may pass linkgate's ``-fuse-ld``
    on (a logging wrapper around cc) or not (a script that picks mold). Which, only the
    marks of what it linked tell (gate/proof.py); when they name another linker, this
    is the setting that overrode the leg."""
    flags = env_flags(env)
    driver = _target_linker(flags[1] if flags else [], env, triple,
                            _config_settings(config_files(cwd, env), triple)["linker"])
    if driver is None or _DRIVER.match(os.path.basename(str(driver.value))):
        return []
    return [Override(driver.source, f"the target's linker to {driver.value!r}", f"whatever {driver.value} runs",
                     "linkgate selects a linker through the C compiler driver's -fuse-ld, and this program did not "
                     "pass it on (another linker's marks or error lines came out of it); point the linker at a "
                     "compiler driver, or have it pass -fuse-ld through")]


def _target_linker(flags: Sequence[str], env: Mapping[str, str], triple: str,
                   configured: Sequence[_Setting]) -> _Setting | None:
    """The linker rustc runs, in cargo's order: -Clinker in rustflags, the env variable, the nearest config."""
    for option in reversed(codegen(flags)):
        if option.startswith("linker="):
            return _Setting("-Clinker in the environment's rustflags", option[len("linker="):])
    if env.get(_env_name(triple, "LINKER")):
        return _Setting(f"environment variable {_env_name(triple, 'LINKER')}", env[_env_name(triple, "LINKER")])
    return configured[0] if configured else None


def from_build_scripts(linker: str, build_scripts: Iterable[tuple[str, str]]) -> list[Override]:
    """Build scripts whose ``rustc-link-arg*`` selects another linker than *linker*'s."""
    from linkgate.cargo.buildscript import build_script_source, manifest_dir_from_package_id, read_build_script_output
    from linkgate.cargo.messages import package_name

    found = []
    for package_id, out_dir in build_scripts:
        out = read_build_script_output(Path(out_dir), package_id) if out_dir else None
        if out is None:
            continue
        for d in out.directives:
            if not d.key.startswith("rustc-link-arg"):
                continue
            selects = (_fuse_name(d.value[9:]) if d.value.startswith("-fuse-ld=") else
                       d.value[len("--ld-path="):] if d.value.startswith("--ld-path=") else None)
            if selects is None or selects == _FUSE[linker]:
                continue
            manifest = manifest_dir_from_package_id(package_id)
            script = build_script_source(manifest) if manifest else None
            where = f"{out.output_file}:{d.line}"
            try:
                text = repofs.read_text(script, inside=None, errors="replace") if script else ""
            except (OSError, LinkgateError):
                text = ""
            at = text.find(d.value)
            if script is not None and at >= 0:
                where = f"{script}:{text.count(chr(10), 0, at) + 1} (printed into {where})"
            found.append(Override(
                f"the build script of {package_name(package_id)} ({where})", f"cargo:{d.key}={d.value}", selects,
                "rustc passes a build script's link arguments after every rustflag, so no linker linkgate selects "
                "wins for this package's links; remove the line, or gate only " + selects))
    return found
