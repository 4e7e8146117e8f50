"""`sweep`: replay each link without one build-script directive, under each linker.

Statuses per directive and linker:
- ``load-bearing``: the link fails without it (kind and symbol of the failure);
- ``order-sensitive``: it is load-bearing, and the link also fails when it is
  moved: a static archive before its possible dependents (the front of the
  build scripts' block, then the first input), anything else to the end of
  the line. At most two moves are tried, never a permutation;
- ``redundant``: it links without it, with the same NEEDED and RUNPATH
  entries and no new undefined dynamic symbols;
- ``duplicate``: two or more directives put the same argument on the line
  (two packages' ``-lbz2``): each links without it alone, so each looks
  redundant, but the link fails without all of them; they are reported
  together, each naming the others;
- ``changes-output``: it links without it, but the loader would see a
  different file (a NEEDED or RUNPATH entry, or new undefined symbols);
- ``not-on-line``: no recorded link carries it (a directive for targets the
  gate does not link);
- ``not-judged``: a ``static`` library rustc bundles into its package's rlib
  (see :mod:`linkgate.replay.directives`) that the recorded lines do not need.
  Links that fail without ``-lNAME`` still make it ``load-bearing``: the real
  drop removes it from those lines too. Links that pass prove nothing, since
  the rlib the dependents link keeps the library's objects in a replay.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from linkgate.config import Config, Gate
from linkgate.gate import linkinputs
from linkgate.replay import command, copies, directives, elfinfo
from linkgate.replay.directives import SourceDirective
from linkgate.replay.run import (
    Attempt, Recorded, RecordedLink, ReplayRefused, attempt, diagnostics, load, require_fresh,
)

LOAD_BEARING = "load-bearing"
ORDER_SENSITIVE = "order-sensitive"
REDUNDANT = "redundant"
DUPLICATE = "duplicate"
CHANGES_OUTPUT = "changes-output"
NOT_ON_LINE = "not-on-line"
NOT_JUDGED = "not-judged"

LINKER_NAMES = {"default": "rust-lld", "bfd": "GNU ld", "gold": "gold", "lld": "lld", "mold": "mold"}
# `--trace-symbol` lines: GNU ld prefixes its own path ("/usr/bin/ld.bfd: "),
# mold "trace-symbol: ", lld says "shared definition of" for a DSO's symbol.
_DEFINITION = re.compile(
    r"^(?:\S*/ld(?:\.\w+)?: |trace-symbol: )?(?P<file>\S.*?): (?:[a-z]+ )*definition of (?P<sym>\S+)\s*$"
)


def definitions(lines: Sequence[str]) -> list[tuple[str, str]]:
    """(file, symbol) for each definition a linker's ``--trace-symbol`` reported."""
    return [(m.group("file"), m.group("sym")) for ln in lines if (m := _DEFINITION.match(ln))]


@dataclass(frozen=True)
class Judgement:
    status: str
    kind: str | None = None
    symbol: str | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "kind": self.kind, "symbol": self.symbol, "detail": self.detail}


@dataclass
class SweepEntry:
    directive: SourceDirective
    linkers: dict[str, Judgement] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = self.directive
        return {
            "directive": d.label,
            "argument": d.argument,
            "key": d.key,
            "package": d.package,
            "build_script": d.build_script,
            "line": d.line,
            "output_file": d.output_file,
            "output_line": d.output_line,
            "linkers": {ln: j.to_dict() for ln, j in self.linkers.items()},
        }


def _identity(d: SourceDirective) -> tuple[str, str, int]:
    # Not the value: a path into OUT_DIR differs between the linkers' target dirs.
    return (d.package, d.key, d.output_line)


@dataclass(frozen=True)
class _Line:
    """One recorded link, ready to be varied."""

    index: int
    args: tuple[str, ...]
    claims: dict[int, int]  # directive index -> argument index
    doubt: dict[int, str]   # directive index -> why its copy on this line cannot be told

    def block_start(self) -> int:
        return min(self.claims.values())

    def first_input(self) -> int:
        return next((j for j, a in enumerate(self.args) if not a.startswith("-")), 0)


class LinkerSweep:
    """Everything one linker's sweep shares: the recording, the baseline, the scratch dir."""

    def __init__(self, recorded: Recorded, scratch: Path) -> None:
        self.recorded = recorded
        self.scratch = scratch
        self.name = LINKER_NAMES.get(recorded.linker, recorded.linker)
        self.directives = directives.from_build_scripts(recorded.build_scripts)
        self.lines = []
        for i, link in enumerate(recorded.links):
            args = tuple(command.arguments(link.record))
            claims = copies.claim(self.directives, args, recorded.units, link.record.output, link.record.cwd)
            self.lines.append(_Line(i, args, claims.where, claims.doubt))
        self.baseline: dict[str, elfinfo.DynamicView] = {}
        for i, link in enumerate(recorded.links):
            self.baseline[link.target + str(i)] = elfinfo.read(self._baseline_output(link))

    def _baseline_output(self, link: RecordedLink) -> str:
        """The recorded link's own output when it is still the file that link wrote
        (its inputs were checked unchanged); otherwise a replay of it."""
        rec = link.record
        try:
            mtime = os.stat(rec.output or "").st_mtime
        except OSError:
            mtime = -1.0
        if rec.exit_status == 0 and rec.started - 1 <= mtime <= rec.ended + 1:
            return str(rec.output)
        a = attempt(link, self.scratch, tag=".base")
        if not a.ok:
            raise ReplayRefused(
                f"the recorded links of {self.recorded.gate!r} under {self.recorded.linker} fail as recorded "
                f"({link.target}); a sweep needs a link that works",
                hint=f"fix the gate, then run it again: linkgate run {self.recorded.gate} --linker {self.recorded.linker}",
            )
        return a.output

    def _try(self, line: _Line, args: Sequence[str], tag: str, extra: Sequence[str] = ()) -> Attempt:
        return attempt(self.recorded.links[line.index], self.scratch, args=args, tag=tag, extra=extra)

    def _failure(self, failed: Attempt) -> tuple[str | None, str | None]:
        lines = [ln for ln in failed.stderr.splitlines() if ln.strip()]
        diags = diagnostics(lines, self.recorded, failed)
        if not diags:
            return "unknown", None
        return diags[0].kind, diags[0].shown_symbol

    def judge(self, di: int) -> Judgement:
        verdict = self._judge(di)
        why = self.directives[di].unjudged
        if why is None or verdict.status in (LOAD_BEARING, ORDER_SENSITIVE):
            return verdict
        seen = ("on no recorded link line" if verdict.status == NOT_ON_LINE
                else f"the recorded links pass without `{self.directives[di].argument}`")
        return Judgement(NOT_JUDGED, detail=f"{seen}, but {why}; {directives.UNJUDGED_REMEDY}")

    def _judge(self, di: int) -> Judgement:
        doubt = next((ln.doubt[di] for ln in self.lines if di in ln.doubt), None)
        if doubt is not None:
            return Judgement(NOT_JUDGED, detail=doubt)
        lines = [ln for ln in self.lines if di in ln.claims]
        if not lines:
            return Judgement(NOT_ON_LINE, detail="no recorded link line carries it")
        label = self.directives[di].argument
        dropped = {ln.index: [a for j, a in enumerate(ln.args) if j != ln.claims[di]] for ln in lines}
        tries: list[tuple[_Line, Attempt]] = []
        for ln in lines:
            tries.append((ln, self._try(ln, dropped[ln.index], f".d{di}")))
            if not tries[-1][1].ok:
                break  # one failing link settles "needed"; the others need not run
        failed = [a for _, a in tries if not a.ok]
        if failed:
            kind, symbol = self._failure(failed[0])
            # Moves are tried on the line that needed it: that is where "needed where it is" was shown.
            needing = [ln for ln, a in tries if not a.ok]
            for n, (where, ln, moved) in enumerate(self._moves(di, needing)):
                if moved == list(ln.args):
                    continue
                a = self._try(ln, moved, f".m{di}.{n}")
                if not a.ok:
                    mk, ms = self._failure(a)
                    return Judgement(ORDER_SENSITIVE, mk, ms, f"`{label}` is needed where it is under {self.name}: "
                                     f"moved {where}, the link fails ({mk}" + (f" `{ms}`" if ms else "") + ")")
            return Judgement(LOAD_BEARING, kind, symbol, f"without `{label}` {self.name} fails: {kind}"
                             + (f" `{symbol}`" if symbol else ""))
        changes: list[str] = []
        for ln, a in tries:
            before = self.baseline[a.link.target + str(ln.index)]
            changes += [c for c in before.differences(elfinfo.read(a.output)) if c not in changes]
        if changes:
            return Judgement(CHANGES_OUTPUT, detail=f"links without `{label}` under {self.name}, but " + "; ".join(changes))
        return Judgement(REDUNDANT, detail=self.explain(di, lines[0], dropped[lines[0].index]))

    def together(self, group: Sequence[int]) -> Attempt | None:
        """Drop every directive of *group* at once; the first link that then fails, or None."""
        for ln in self.lines:
            gone = {ln.claims[i] for i in group if i in ln.claims}
            if len(gone) < 2:
                continue
            a = self._try(ln, [x for j, x in enumerate(ln.args) if j not in gone], ".g" + "-".join(map(str, group)))
            if not a.ok:
                return a
        return None

    def duplicates(self, verdicts: dict[int, Judgement]) -> dict[int, Judgement]:
        """Redundant directives that name the same argument, judged together: each is
        redundant only while another stays when the link fails without them all."""
        groups: dict[str, list[int]] = {}
        for i, j in verdicts.items():
            if j.status == REDUNDANT:
                groups.setdefault(self.directives[i].argument, []).append(i)
        out: dict[int, Judgement] = {}
        for label, group in groups.items():
            if len(group) < 2:
                continue
            failed = self.together(group)
            if failed is None:
                continue
            kind, symbol = self._failure(failed)
            for i in group:
                others = " and ".join(_naming(self.directives[k], label) for k in group if k != i)
                out[i] = Judgement(DUPLICATE, kind, symbol,
                                   f"`{label}` is redundant only while {others} stays: dropping all "
                                   f"{len(group)} fails under {self.name} ({kind}" + (f" `{symbol}`" if symbol else "")
                                   + "); keep one of them")
        return out

    def _static(self, line: _Line, label: str) -> bool:
        if label.startswith("-l:"):
            return label.endswith(".a")
        if not label.startswith("-l"):
            return label.endswith((".a", ".rlib"))
        search = [a[2:] for a in linkinputs.normalize(line.args) if a.startswith("-L")]
        found = linkinputs.resolve_library(label[2:], search, static=False)
        return bool(found and found.endswith(".a"))

    def _moves(self, di: int, lines: Sequence[_Line]) -> list[tuple[str, _Line, list[str]]]:
        label = self.directives[di].argument
        moves: list[tuple[str, _Line, list[str]]] = []
        for ln in lines:
            j, args = ln.claims[di], list(ln.args)
            if self._static(ln, label):
                moves.append(("before its dependents (the front of the build scripts' block)", ln,
                              _to_front(args, j, ln.block_start())))
                moves.append(("before every input", ln, _to_front(args, j, ln.first_input())))
            else:
                moves.append(("to the end of the line", ln, _to_end(args, j, 0)))
        return moves

    def explain(self, di: int, line: _Line, without: list[str]) -> str:
        """One sentence: which input satisfied what the directive would have provided."""
        label = self.directives[di].argument
        stem = directives.library_of(label)
        view = self.baseline[self.recorded.links[line.index].target + str(line.index)]
        candidates = sorted(view.undefined)
        search = [a[2:] for a in linkinputs.normalize(line.args) if a.startswith("-L")]
        own = linkinputs.resolve_library(label[2:], search, static=False) if stem else None
        if own:
            candidates += elfinfo.defined_globals(own)
        names = sorted({c.split("@", 1)[0] for c in candidates})[:300]
        if stem and names:
            trace = ["-Wl," + ",".join(f"--trace-symbol={n}" for n in names)]
            a = self._try(line, without, f".t{di}", extra=trace)
            for file, sym in definitions(a.stdout_lines()):
                if os.path.basename(file).startswith(stem):
                    return (f"`{label}` is redundant under {self.name}: {self.name} resolves `{sym}` "
                            f"from {file}{self._provider(di, line, label)}")
            return f"`{label}` is redundant under {self.name}: nothing in the link needs a symbol from it"
        return f"`{label}` is redundant under {self.name}: the link and its dynamic section are the same without it"

    def _provider(self, di: int, line: _Line, label: str) -> str:
        claimed = set(line.claims.values())
        for j, a in enumerate(line.args):
            if a == label and j != line.claims[di]:
                return f" pulled in by rustc's own `{a}`" if j not in claimed else f" named again by a build script's `{a}`"
        return " pulled in by another input"


def _naming(d: SourceDirective, label: str) -> str:
    """``ordsys's `-lhelper` (build.rs:28)``: the package, and the line when the script spells it out."""
    where = f"{os.path.basename(d.build_script)}:{d.line}" if d.build_script and d.line else f"output line {d.output_line}"
    return f"{d.package}'s `{label}` ({where})"


def _to_end(args: list[str], j: int, _start: int) -> list[str]:
    return [a for i, a in enumerate(args) if i != j] + [args[j]]


def _to_front(args: list[str], j: int, start: int) -> list[str]:
    if j <= start:
        return args
    rest = [a for i, a in enumerate(args) if i != j]
    return rest[:start] + [args[j]] + rest[start:]


def sweep(
    config: Config,
    gate: Gate,
    linkers: Sequence[str],
    *,
    jobs: int | None = None,
    only: Callable[[SourceDirective], bool] | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> list[SweepEntry]:
    entries: dict[tuple[str, str, int], SweepEntry] = {}
    workers = max(1, jobs or os.cpu_count() or 1)
    for linker in linkers:
        recorded = load(config, gate, linker)
        require_fresh(recorded)
        with tempfile.TemporaryDirectory(prefix="linkgate-sweep-") as tmp:
            progress(f"{gate.name} [{linker}]: baseline replay")
            ls = LinkerSweep(recorded, Path(tmp))
            chosen = [i for i, d in enumerate(ls.directives) if only is None or only(d)]
            progress(f"{gate.name} [{linker}]: {len(chosen)} directive(s), {workers} job(s)")
            with ThreadPoolExecutor(max_workers=workers) as pool:
                verdicts = list(pool.map(ls.judge, chosen))
            together = ls.duplicates(dict(zip(chosen, verdicts)))
            verdicts = [together.get(i, v) for i, v in zip(chosen, verdicts)]
        for i, verdict in zip(chosen, verdicts):
            d = _relative(config.root, ls.directives[i])
            entries.setdefault(_identity(d), SweepEntry(d)).linkers[linker] = verdict
    return list(entries.values())


def _relative(root: Path, d: SourceDirective) -> SourceDirective:
    """The build script as a repository path, as annotations and every other report give files."""
    if d.build_script is None or not os.path.isabs(d.build_script):
        return d
    try:
        rel = Path(d.build_script).resolve().relative_to(root.resolve())
    except ValueError:
        return d  # a registry package's script stays absolute
    return replace(d, build_script=rel.as_posix())
