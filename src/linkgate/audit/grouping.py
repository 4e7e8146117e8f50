"""Findings of one shape, grouped: feature sets from the same command line that differ only
along one matrix axis are one finding naming the axis and its values; sets of one command line
and one combination (a `cargo hack --each-feature` run) are one finding listing them.

A check matrix of 4 runtimes x 3 TLS back ends gave 37 `never-linked` errors, one per
set, all the same sentence. Sets are grouped by the command line (file, line, job) of
their first compiling (or linking) invocation; within a line, the axis with the most
values is the one named, and the sets are split by the values of every other axis, so
each group differs along that one axis only. The JSON keeps every set (``sets``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from linkgate.audit.model import Classified
from linkgate.cargo.features import FeatureSet
from linkgate.workflows.ghexpr import render


@dataclass(frozen=True)
class Entry:
    fs: FeatureSet
    users: tuple[Classified, ...]  # the invocations the finding's sentence names
    first: Classified  # where it is reported
    # The per-package sets the entry stands for (one command's label over several packages).
    members: tuple[FeatureSet, ...] = ()

    @property
    def sets(self) -> tuple[FeatureSet, ...]:
        return self.members or (self.fs,)


def by_package(entries: Iterable[Entry]) -> list[Entry]:
    """Entries of one label first reported at the same invocation, one per package, as one
    entry naming their packages (``all features`` of riscv-rt, riscv-peripheral, ...)."""
    merged: dict[tuple[int, str, str], list[Entry]] = {}
    for e in entries:
        merged.setdefault((id(e.first), e.fs.label, e.fs.scope), []).append(e)
    out: list[Entry] = []
    for part in merged.values():
        if len(part) == 1:
            out.append(part[0])
            continue
        packages = tuple(sorted({p for e in part for p in e.fs.packages}))
        users = tuple({id(c): c for e in part for c in e.users}.values())  # Classified is unhashable
        out.append(Entry(replace(part[0].fs, packages=packages), users, part[0].first, tuple(e.fs for e in part)))
    return out


@dataclass(frozen=True)
class Group:
    entries: tuple[Entry, ...]
    axis: str = ""  # the matrix axis the sets differ along ("" for one set)

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(_text((e.first.inv.matrix or {}).get(self.axis)) for e in self.entries)


def groups(entries: Iterable[Entry]) -> list[Group]:
    by_line: dict[tuple[str, int, str, str], list[Entry]] = {}
    for e in by_package(entries):
        inv = e.first.inv
        by_line.setdefault((inv.file, inv.line, inv.workflow.rel, inv.job.id), []).append(e)
    out: list[Group] = []
    for line in by_line.values():
        out += _split(line)
    return sorted(out, key=lambda g: (g.entries[0].first.inv.file, g.entries[0].first.inv.line))


def _split(line: list[Entry]) -> list[Group]:
    if len(line) < 2:
        return [Group(tuple(line))]
    matrices = [e.first.inv.matrix or {} for e in line]
    axes = sorted({k for m in matrices for k in m},
                  key=lambda k: (-len({_text(m.get(k)) for m in matrices}), k))
    varying = [k for k in axes if len({_text(m.get(k)) for m in matrices}) > 1]
    if not varying:
        # One command line, one matrix combination, several sets: a `cargo hack
        # --each-feature` run, or packages with different sets. One finding, its sets listed.
        return [Group(tuple(line))]
    axis = varying[0]
    rest: dict[tuple[str, ...], list[Entry]] = {}
    for e, m in zip(line, matrices):
        rest.setdefault(tuple(_text(m.get(k)) for k in axes if k != axis), []).append(e)
    return [Group(tuple(part), axis if len(part) > 1 else "") for part in rest.values()]


def _text(value: Any) -> str:
    # As GitHub renders the value in `${{ }}`: `true`, not Python's True (a matrix axis of
    # `fromJSON('[true, false]')` holds booleans).
    return render(value)
