"""Steps that give a generated job the linkers its gate links with.

A gate's ``linkers`` name programs the runner must have: ``mold`` (apt
package ``mold``), ``ld.lld`` (``lld``), ``ld.gold`` (``binutils``).
``default`` is rustc's own rust-lld and ``bfd`` is GNU ld from binutils,
which GitHub's Ubuntu images already carry (FACTS.md, "Which linker runs").

- On a GitHub-hosted Ubuntu runner the job installs the packages with apt.
  No ``pkg=version`` pin: Ubuntu's archive keeps one version of a package
  per release pocket, so a pinned version stops installing at the next
  security update; the runner image (``ubuntu-24.04``) is what pins the
  release. The step prints each linker's version so the log records it.
  The .deb files are not cached: they come from the runner's own Azure
  mirror, and a cache restore of the same few megabytes is no faster.
- On any other runner (self-hosted, or a label that is not GitHub's) the
  job cannot know how to install, so it checks first and fails naming the
  missing linker, instead of failing after the first linker's full build.
- On GitHub's macOS and Windows runners there is no apt: no step, a note.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from linkgate.config import Gate
from linkgate.gate.linkers import LINKERS

_UBUNTU = re.compile(r"^ubuntu-(latest|\d[\w.-]*)$", re.IGNORECASE)
_OTHER_HOSTED = re.compile(r"^(windows|macos)-(latest|\d[\w.-]*)$", re.IGNORECASE)

# Packages the Ubuntu runner images already have, so installing them is skipped.
_PREINSTALLED_ON_UBUNTU = {"bfd"}


@dataclass(frozen=True)
class LinkerSteps:
    steps: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]


def runner_kind(gate: Gate) -> str:
    """``ubuntu`` (GitHub-hosted Ubuntu), ``hosted-other`` (GitHub's macOS or
    Windows) or ``own`` (self-hosted, or any label GitHub does not host)."""
    if gate.self_hosted or len(gate.runner) != 1:
        return "own"
    label = gate.runner[0]
    if _UBUNTU.match(label):
        return "ubuntu"
    if _OTHER_HOSTED.match(label):
        return "hosted-other"
    return "own"


def _needing_programs(gate: Gate) -> list[str]:
    return [name for name in gate.linkers if LINKERS[name].program is not None]


def _install(packages: list[str], programs: list[str], when: str | None) -> dict[str, Any]:
    versions = "".join(f"{shlex.quote(p)} --version | head -n 1\n" for p in programs)
    step: dict[str, Any] = {
        "name": f"Install the linkers ({', '.join(packages)})",
        "run": "sudo apt-get update -qq\n"
        f"sudo apt-get install -y --no-install-recommends {' '.join(packages)}\n" + versions,
    }
    if when:
        step = {"name": step["name"], "if": when, "run": step["run"]}
    return step


def _check(names: list[str], when: str | None) -> dict[str, Any]:
    lines = []
    for name in names:
        linker = LINKERS[name]
        assert linker.program is not None and linker.package is not None
        lines.append(
            f"command -v {linker.program} >/dev/null || {{ echo \"::error::linker '{name}' needs "
            f"{linker.program}, which this runner does not have: install it (apt-get install {linker.package}) "
            f"or drop '{name}' from the gate's linkers\"; exit 1; }}\n")
    step: dict[str, Any] = {"name": f"Check the linkers ({', '.join(names)})"}
    if when:
        step["if"] = when
    step["run"] = "".join(lines)
    return step


def linker_steps(gate: Gate, matrix: bool = False) -> LinkerSteps:
    """The steps that install or check the gate's linkers, and notes for the
    linkers no step installs. In a matrix leg each step runs only for its
    own linker (``if: matrix.linker == ...``)."""
    names = _needing_programs(gate)
    kind = runner_kind(gate)
    runner = ", ".join(gate.runner)
    if not names:
        return LinkerSteps((), ())
    if kind == "hosted-other":
        return LinkerSteps((), tuple(
            f"linker {n!r} of gate {gate.name!r} has no install step: {runner} has no apt; install "
            f"{LINKERS[n].program} in a provision step, or drop {n!r} from the gate's linkers" for n in names))
    if kind == "own":
        notes = tuple(
            f"linker {n!r} of gate {gate.name!r} has no install step: runner [{runner}] must have "
            f"{LINKERS[n].program} (apt package {LINKERS[n].package}); the job checks for it first"
            for n in names)
        if matrix:
            return LinkerSteps(tuple(_check([n], f"matrix.linker == '{n}'") for n in names), notes)
        return LinkerSteps((_check(names, None),), notes)
    to_install = [n for n in names if n not in _PREINSTALLED_ON_UBUNTU]
    if not to_install:
        return LinkerSteps((), ())
    if matrix:
        return LinkerSteps(tuple(_install([str(LINKERS[n].package)], [str(LINKERS[n].program)],
                                          f"matrix.linker == '{n}'") for n in to_install), ())
    packages = list(dict.fromkeys(str(LINKERS[n].package) for n in to_install))
    return LinkerSteps((_install(packages, [str(LINKERS[n].program) for n in to_install], None),), ())
