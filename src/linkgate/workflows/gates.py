"""The cargo commands a ``linkgate run`` line runs, read from the repository's configuration.

``linkgate run [GATE ...] [--only GATE:LINKER] [--config PATH] [--repo DIR]``
runs each named gate's cargo command (every gate when none is named; ``--only``
selects pairs), in the gate's ``working-directory`` with the gate's ``env``, as
``linkgate.commands.run`` does. The gates come from the configuration that
command would load: ``--config``, else ``linkgate.toml`` or the Cargo.toml
metadata found from the step's directory up to the repository root, loaded by
``linkgate.config``. A configuration that is missing or invalid, a gate name
that is unknown, and a ``command = [...]`` gate (linkgate cannot see what it
links) become notes; the line then adds nothing to the audit.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.config import Config, Gate
from linkgate.errors import LinkgateError

# `linkgate run`'s options that take a value (commands/run.py, commands/options.py);
# every other dash word is a flag.
_VALUE_OPTIONS = {"--linker", "--only", "--config", "--repo", "--format", "-f", "--output", "-o", "--history"}


@dataclass(frozen=True)
class RunLine:
    """The gate selection of one ``linkgate run`` command line."""

    gates: tuple[str, ...]
    only: tuple[tuple[str, str], ...]
    linkers: tuple[str, ...]
    config: str | None
    repo: str | None


@dataclass(frozen=True)
class GateCommand:
    """One gate's cargo command as a ``linkgate run`` line runs it."""

    gate: str
    argv: tuple[str, ...]
    cwd: str  # relative to the repository root
    env: Mapping[str, str]
    defined: str  # `linkgate.toml:2 gate bz-link`, for the invocation's `via`
    condition: str | None = None  # when the line's gate names cannot be known


@dataclass(frozen=True)
class GateNote:
    cause: str
    message: str
    # A gate that runs a command linkgate does not read may link; a configuration or gate
    # name `linkgate run` refuses makes it fail before anything is built.
    may_link: bool = False


def run_line(argv: Sequence[str]) -> RunLine | None:
    """The selection of ``linkgate run ...`` (also ``python -m linkgate run``); None for anything else."""
    words = list(argv)
    name = words[0].rsplit("/", 1)[-1] if words else ""
    if name.startswith("python") and words[1:3] == ["-m", "linkgate"]:
        words = ["linkgate", *words[3:]]
    elif name != "linkgate":
        return None
    if len(words) < 2 or words[1] != "run":
        return None
    gates: list[str] = []
    values: dict[str, list[str]] = {}
    rest = words[2:]
    i = 0
    while i < len(rest):
        word = rest[i]
        i += 1
        key, eq, value = word.partition("=")
        if word.startswith("-") and eq and key in _VALUE_OPTIONS:
            values.setdefault(key, []).append(value)
        elif word in _VALUE_OPTIONS:
            if i < len(rest):
                values.setdefault(word, []).append(rest[i])
                i += 1
        elif not word.startswith("-"):
            gates.append(word)
    only = tuple((v.rpartition(":")[0], v.rpartition(":")[2]) for v in values.get("--only", []) if ":" in v)
    return RunLine(
        gates=tuple(gates),
        only=only,
        linkers=tuple(values.get("--linker", [])),
        config=values["--config"][-1] if "--config" in values else None,
        repo=values["--repo"][-1] if "--repo" in values else None,
    )


class GateSource:
    """Loads the repository's linkgate configuration once per place it is loaded from."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._loaded: dict[tuple[str, str | None, str | None], Config | str] = {}

    def commands(self, line: RunLine, cwd: str, env: Mapping[str, str],
                 unknown: Sequence[str]) -> tuple[list[GateCommand], list[GateNote]]:
        """The cargo commands *line*, run in *cwd* with *env*, runs; notes say what is not audited."""
        config = self._load(line, cwd)
        if isinstance(config, str):
            return [], [GateNote(config, f"`linkgate run` reads no usable linkgate configuration ({config}); "
                                 "the gates it runs are not audited")]
        def fits(word: str, value: str) -> bool:
            # A word from an expression (`--only ${{ matrix.gate }}:${{ matrix.linker }}`, a leg
            # of `ci github --matrix` whose plan is `linkgate matrix`) may be any value.
            return word == value or any(c in word for c in unknown)

        names = tuple(dict.fromkeys((*line.gates, *(g for g, _ in line.only))))
        cause = next((c for n in names for c in unknown if c in n), None)
        condition = None
        if cause is not None:
            names = ()
            condition = f"`linkgate run` selects its gates by {cause}: taken as any gate of {self._rel(config.path)}"
        by_name = {g.name: g for g in config.gates}
        notes = [GateNote(n, f"`linkgate run` names no gate {n!r} of {self._rel(config.path)}")
                 for n in names if n not in by_name]
        out: list[GateCommand] = []
        for gate in (by_name[n] for n in names if n in by_name) if names else config.gates:
            linkers = [k for k in gate.linkers if (not line.linkers or any(fits(w, k) for w in line.linkers))
                       and (not line.only or any(fits(g, gate.name) and fits(w, k) for g, w in line.only))]
            if not linkers:
                continue
            if gate.cargo is None:
                notes.append(GateNote(gate.name, f"gate {gate.name!r} runs `{' '.join(gate.command or ())}`, "
                                      "not cargo: what it links is not audited", may_link=True))
                continue
            gate_env = {**env, **gate.env}
            gate_env["CARGO_TARGET_DIR"] = self._target_dir(config, gate, linkers, gate_env)
            defined = f"{self._rel(config.path)}:{gate.line or 1} gate {gate.name}"
            out.append(GateCommand(gate.name, ("cargo", *gate.cargo), _clean(gate.working_directory or ""),
                                   gate_env, defined, condition))
        return out, notes

    def _load(self, line: RunLine, cwd: str) -> Config | str:
        """The Config, or a one-line reason why there is none."""
        key = (cwd, line.config, line.repo)
        if key not in self._loaded:
            self._loaded[key] = self._read(line, cwd)
        return self._loaded[key]

    def _read(self, line: RunLine, cwd: str) -> Config | str:
        from linkgate import config as config_mod

        if "$" in cwd or "{" in cwd or any("$" in v or "{" in v for v in (line.config or "", line.repo or "")):
            return "its directory or --config/--repo cannot be evaluated"
        start = Path(os.path.normpath(self.repo / cwd))
        root = Path(os.path.normpath(start / line.repo)) if line.repo else self.repo
        try:
            return config_mod.load(start / line.config if line.config else None,
                                   start=start if start.is_dir() else self.repo, root=root)
        except (LinkgateError, OSError, ValueError) as exc:
            if line.config is None and str(exc).startswith("no linkgate configuration found"):
                return f"no {config_mod.CONFIG_NAME}, nor a linkgate table in Cargo.toml metadata"
            return str(exc).replace(f"{self.repo.resolve()}/", "").replace(f"{self.repo}/", "")

    def _target_dir(self, config: Config, gate: Gate, linkers: list[str], env: Mapping[str, str]) -> str:
        """Where linkgate builds the gate: its own directory, never a job's shared one."""
        from linkgate.gate.layout import target_dir

        path = target_dir(config, gate, linkers[0], env)
        if len(linkers) > 1 and path.name == linkers[0]:
            path = path.parent  # one job, several linkers: each in a directory below this one
        return self._rel(path)

    def _rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.repo.resolve()).as_posix()
        except ValueError:
            return str(path)


def _clean(path: str) -> str:
    return "" if path in ("", ".", "./") else posixpath.normpath(path)
