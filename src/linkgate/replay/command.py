"""Turn a link record back into a command that can run again, without cargo.

The command is the recorded one with three substitutions: the objects rustc
deleted after the link are read from the copies the wrapper kept, the output
goes to a path the caller chooses (never over cargo's artifact), and response
files are re-read from the recorded expansion (rustc's own are gone with its
temporary directory). Arguments can be dropped or moved for a sweep.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate import statedir
from linkgate.gate import linkinputs
from linkgate.gate.linkrecord import LinkRecord

# Above this many bytes of arguments, pass them in a response file as rustc
# does (Linux's per-argument and total limits are far higher; this keeps
# `ps` readable and matches what rustc would have done for a long line).
_RESPONSE_FILE_OVER = 64 * 1024


@dataclass(frozen=True)
class ReplayCommand:
    argv: tuple[str, ...]
    cwd: str
    env: dict[str, str]
    output: str


def substitute(args: Sequence[str], preserved: Mapping[str, str], cwd: str = "/") -> list[str]:
    """Kept copies in place of deleted inputs (the wrapper keys them by absolute path)."""
    if not preserved:
        return list(args)
    ordered = sorted(preserved.items(), key=lambda kv: -len(kv[0]))
    out = []
    for a in args:
        full = os.path.join(cwd, a)
        if full in preserved:
            out.append(preserved[full])
            continue
        for orig, kept in ordered:
            if orig in a:
                a = a.replace(orig, kept)
        out.append(a)
    return out


def redirect_output(args: Sequence[str], output: str) -> list[str]:
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-o" and i + 1 < len(args):
            out += ["-o", output]
            i += 2
            continue
        out.append("-o" + output if a.startswith("-o") and len(a) > 2 and a[2] != "-" else a)
        i += 1
    return out


def gcc_quote(arg: str) -> str:
    """One argument in GCC's response-file syntax (what libiberty's buildargv reads)."""
    return "".join("\\" + c if c in " \t\n\r\f\v'\"\\" else c for c in arg)


def build(
    rec: LinkRecord,
    output: str,
    *,
    args: Sequence[str] | None = None,
    scratch: Path | None = None,
    extra: Sequence[str] = (),
) -> ReplayCommand:
    """The replay of *rec* writing *output*; *args* overrides the recorded
    arguments (already substituted: see :func:`arguments`)."""
    final = redirect_output(list(args if args is not None else arguments(rec)), output) + list(extra)
    env = dict(os.environ)
    env.update(rec.env)
    # rustc runs every linker in the C locale (FACTS.md); the message parsers expect it.
    env["LC_ALL"] = rec.env.get("LC_ALL", "C")
    program = rec.argv[0] if rec.argv else rec.linker_program or "cc"
    if scratch is not None and sum(len(a) + 1 for a in final) > _RESPONSE_FILE_OVER:
        rsp = scratch / (Path(output).name + ".args")
        statedir.create_fresh(rsp, "\n".join(gcc_quote(a) for a in final) + "\n")
        final = [f"@{rsp}"]
    return ReplayCommand(argv=(program, *final), cwd=rec.cwd, env=env, output=output)


def arguments(rec: LinkRecord) -> list[str]:
    """The recorded arguments with kept copies in place of deleted inputs."""
    return substitute(rec.args, rec.preserved, rec.cwd)


def stale_inputs(rec: LinkRecord) -> list[str]:
    """Why this record can no longer be replayed faithfully; empty when it can."""
    problems = []
    for kept_from, kept in rec.preserved.items():
        if not os.path.isfile(kept):
            problems.append(f"{kept_from} (linkgate's copy {kept} vanished)")
    for item in rec.inputs:
        path = str(item.get("path"))
        now = linkinputs.stat_of(path)
        if now is None:
            problems.append(f"{path} vanished")
        elif now["size"] != item.get("size") or now["mtime_ns"] != item.get("mtime_ns"):
            problems.append(f"{path} changed")
    return problems
