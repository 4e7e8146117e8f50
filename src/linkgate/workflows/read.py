"""Find and read a repository's workflows; a broken file never hides the others."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from linkgate import repofs
from linkgate.errors import RefusedFile
from linkgate.workflows.model import Workflow, parse_workflow
from linkgate.workflows.yamlnodes import YamlError, load_bytes

WORKFLOW_DIR = ".github/workflows"
# GitHub starts no run of a workflow file larger than this (docs: Actions
# limits, "Workflow file size: 500 KB per file"); reading one costs seconds.
MAX_BYTES = 500 * 1024


@dataclass(frozen=True)
class Unreadable:
    rel: str
    line: int | None
    message: str
    # Not read at all (outside the repository, not a regular file): what it
    # holds is unknown, not invalid.
    refused: bool = False


def discover(repo: Path) -> list[Path]:
    """``.github/workflows/*.yml`` and ``*.yaml``, as GitHub reads them (no subdirectories).
    A symlink, FIFO or device of that name is listed too: reading it is refused, by name."""
    directory = repo / WORKFLOW_DIR
    if not directory.is_dir() or directory.is_symlink():
        return []
    return sorted(p for p in directory.iterdir()
                  if p.suffix in (".yml", ".yaml") and (p.is_symlink() or not p.is_dir()))


def read_workflows(repo: Path) -> tuple[list[Workflow], list[Unreadable]]:
    workflows: list[Workflow] = []
    broken: list[Unreadable] = []
    for path in discover(repo):
        rel = path.relative_to(repo).as_posix()
        try:
            data = repofs.read_bytes(rel, inside=repo, limit=MAX_BYTES, shown=rel)
            workflows.append(parse_workflow(path, rel, load_bytes(data)))
        except RefusedFile as exc:
            if exc.why == "too-large":
                size = os.stat(path).st_size
                broken.append(Unreadable(rel, None, f"it is {size:,} bytes, over GitHub's 500 KB limit for a "
                                         "workflow file (GitHub starts no run of it)"))
            else:
                broken.append(Unreadable(rel, None, exc.reason, refused=True))
        except YamlError as exc:
            broken.append(Unreadable(rel, exc.line, exc.message))
        except OSError as exc:
            broken.append(Unreadable(rel, None, f"cannot read: {exc.strerror}"))
    return workflows, broken
