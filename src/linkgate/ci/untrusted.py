"""What `ci github` copies from the configuration into a workflow, checked first.

GitHub evaluates ``${{ ... }}`` wherever it appears in a job (``run:``, ``env:``,
``with:``, a step's name), before the shell sees it: a provision command
``echo ${{ github.event.pull_request.title }}`` would run whatever a pull
request's title says (zizmor's ``template-injection``). linkgate writes no
expression that came from the configuration: it refuses the value and names
its key. A line break is refused where it would end a value early: in a
runner label, a paths pattern, ``provision-env`` (the rest would run as a
second command) and ``target-dir``; everywhere, so is any character the YAML
emitter refuses (``yamlemit.problem``: U+2028, U+2029, NEL, control
characters), named by key before any YAML is written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from linkgate import yamlemit
from linkgate.config import Config, Gate
from linkgate.errors import ConfigError, UsageError

EXPRESSION = "${{"


def _values(gate: Gate) -> Iterator[tuple[str, str, bool]]:
    """(key, value, whether a line break is allowed) for everything the job copies."""
    key = f"gate.{gate.name}"
    yield f"{key}.name", gate.name, False
    for name, value in gate.env.items():
        yield f"{key}.env", name, False
        yield f"{key}.env.{name}", value, True
    for i, cmd in enumerate(gate.provision):
        yield f"{key}.provision[{i}]", cmd, True
    for i, cmd in enumerate(gate.provision_env):
        yield f"{key}.provision-env[{i}]", cmd, False
    for i, label in enumerate(gate.runner):
        yield f"{key}.runner[{i}]", label, False
    for i, pattern in enumerate(gate.paths):
        yield f"{key}.paths[{i}]", pattern, False
    if gate.target_dir is not None:
        yield f"{key}.target-dir", gate.target_dir, False


def check_gate(cfg: Config, gate: Gate) -> None:
    """Raise ConfigError (exit 2) for the first value the job must not carry."""
    for key, value, multiline in _values(gate):
        if EXPRESSION in value:
            raise ConfigError(
                f"contains '${{{{', which GitHub would evaluate as an expression in the generated job",
                file=str(cfg.path), line=gate.line, key=key,
                hint="keep GitHub expressions out of linkgate's configuration: put the value in the workflow's "
                "env: by hand and read it as \"$NAME\" in the command",
            )
        problem = yamlemit.problem(value, multiline=multiline)
        if problem is not None:
            raise ConfigError(f"{problem}, which the generated job cannot carry here",
                              file=str(cfg.path), line=gate.line, key=key,
                              hint="write it on one line" if "line break" in problem and "U+" not in problem
                              else "remove that character")


def check_pattern(gate: Gate, pattern: str) -> None:
    """A paths-filter pattern from the gate's causal surface (a file name in the tree)."""
    problem = yamlemit.problem(pattern)
    if EXPRESSION in pattern or problem is not None:
        raise ConfigError(
            f"the causal surface of gate {gate.name!r} names {pattern!r}, which a workflow's paths filter cannot "
            f"carry ({problem or 'it holds ${{'})",
            hint="set paths = [...] on the gate, or use --trigger every-pr",
        )


def check_repository(value: str, source: str) -> str:
    """*value* when it is GitHub's ``owner/name``: an owner is letters, digits and
    single hyphens, a repository name letters, digits, ``.``, ``_`` and ``-``."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}/[A-Za-z0-9._-]{1,100}", value) \
            or value.split("/")[1] in (".", ".."):
        raise UsageError(f"{source} {value!r} is not a GitHub repository (owner/name)",
                         hint="pass --repository owner/name, e.g. --repository rtlab/rtcore")
    return value


def inside_repository(root: Path, path: Path, what: str) -> Path:
    """*path* resolved (symbolic links followed), when it stays inside the
    repository: a committed symlink under .github/workflows must not make
    linkgate read or write elsewhere."""
    resolved, top = path.resolve(), root.resolve()
    if resolved != top and top not in resolved.parents:
        raise UsageError(f"{what} {os.path.relpath(path, root)} resolves to {resolved}, outside the repository {top}",
                         hint="pass a workflow under .github/workflows/ of this repository")
    return resolved
