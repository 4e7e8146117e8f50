"""Actions whose inputs are shell scripts the action runs.

Each is read from its own documentation (action.yml and README at the
versions CI pins): the input is handed to a shell as a script, in the
checked-out repository (a VM or container action syncs or mounts the
workspace and runs the script in it), so it is read as a ``run:`` step is,
with the step's matrix and env:

- ``nick-fields/retry``, ``Wandalen/wretry.action``: ``command`` (in the shell
  named by ``shell``, bash by default; pwsh and powershell are read as pwsh);
- ``vmactions/<os>-vm`` (freebsd, netbsd, openbsd, solaris, dragonflybsd,
  omnios, haiku): ``prepare`` then ``run``, each in the VM's shell;
- ``cross-platform-actions/action``: ``run``;
- ``uraimo/run-on-arch-action``: ``install`` (run when the container image is
  built) then ``run``;
- ``addnab/docker-run-action``: ``run`` (in the container, in its working
  directory: the repository when the workspace is mounted there);
- ``CodSpeedHQ/action``: ``run`` (the benchmark command, on the runner, in the
  shell named by ``shell``, bash by default, in ``working-directory`` when given).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from linkgate.workflows.yamlnodes import YStr

_VM = re.compile(r"^vmactions/[a-z]+-vm$")
_BY_NAME: dict[str, tuple[str, ...]] = {
    "nick-fields/retry": ("command",),
    "wandalen/wretry.action": ("command",),
    "cross-platform-actions/action": ("run",),
    "uraimo/run-on-arch-action": ("install", "run"),
    "addnab/docker-run-action": ("run",),
    "codspeedhq/action": ("run",),
}
# Actions that run the script on the runner itself, in the shell their `shell` input names.
_RETRY = {"nick-fields/retry", "wandalen/wretry.action", "codspeedhq/action"}
# Actions whose input names the directory the script runs in.
_WORKING_DIRECTORY = {"codspeedhq/action": "working-directory"}


def script_inputs(uses: str) -> tuple[str, ...] | None:
    """The names of the inputs *uses* runs as shell scripts, in the order it runs them; None for other actions."""
    name = uses.split("@", 1)[0].strip().lower().rstrip("/")
    if _VM.match(name):
        return ("prepare", "run")
    return _BY_NAME.get(name)


def scripts(uses: str, inputs: Mapping[str, Any]) -> list[tuple[str, YStr, bool]]:
    """(input name, its text, whether it is PowerShell) for each script input *inputs* gives."""
    names = script_inputs(uses) or ()
    name = uses.split("@", 1)[0].strip().lower()
    shell = inputs.get("shell")
    powershell = name in _RETRY and isinstance(shell, str) and shell.strip().lower() in ("pwsh", "powershell")
    return [(key, value, powershell) for key in names
            if isinstance(value := inputs.get(key), YStr) and value.strip()]


def on_runner(uses: str) -> bool:
    """Whether the script runs on the runner itself (a retry action), not in a VM or container."""
    return uses.split("@", 1)[0].strip().lower() in _RETRY


def foreign_shell(uses: str, inputs: Mapping[str, Any]) -> str | None:
    """The retry action's ``shell: python`` (or another interpreter linkgate does not read as a shell)."""
    name = uses.split("@", 1)[0].strip().lower()
    shell = inputs.get("shell")
    if name in _RETRY and isinstance(shell, str) and shell.strip().lower() in ("python", "node"):
        return shell.strip().lower()
    return None


def working_directory(uses: str, inputs: Mapping[str, Any]) -> str | None:
    """The directory an action's input says its script runs in (relative to the workspace), or None."""
    key = _WORKING_DIRECTORY.get(uses.split("@", 1)[0].strip().lower())
    value = inputs.get(key) if key else None
    return str(value).strip() or None if isinstance(value, str) else None
