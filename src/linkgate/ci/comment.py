"""The comment block above a generated job: what, when, cost, gaps, evidence.

Regenerated on every ``--write`` so its numbers never go stale silently.
"""

from __future__ import annotations

import re
import shlex
import textwrap

from linkgate.ci.facts import GateFacts
from linkgate.config import Gate

_TRADE_OFFS = {
    "every-pr": "every pull request pays the link, so no link regression can merge unseen",
    "paths": "the link runs only when a file of its causal surface changes: cheap on most pull "
    "requests, blind to a cause outside the filter, such as Rust code that starts calling a C "
    "symbol the archive lacks (`linkgate audit` checks the filter; a schedule covers the rest)",
    "schedule": "pull requests never pay the link; a regression is found after it merges, "
    "at the next scheduled run",
}


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 10:
        return f"{seconds:.1f}s"
    s = int(round(seconds))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _what(gate: Gate) -> list[str]:
    argv = ("cargo", *gate.cargo) if gate.cargo else tuple(gate.command or ())
    lines = [f"Links: {shlex.join(argv)}"]
    if gate.why:
        lines.append(f"Why this target: {gate.why}")
    if gate.cargo and "--no-run" in gate.cargo:
        lines.append("--no-run builds and links the test binaries and executes none of them.")
    return lines


def _cost(facts: GateFacts, parallel: bool) -> list[str]:
    c = facts.cost
    timeout = facts.timeout_minutes(parallel)
    if c is None:
        return [f"Cost: not yet measured; timeout-minutes {timeout} is linkgate's default for a cold "
                "release link. Run the gate, then `linkgate ci github --write` again."]
    when = c.first_date if c.first_date == c.last_date else f"from {c.first_date} to {c.last_date}"
    out = [f"Cost, measured by linkgate {'on ' if when == c.first_date else ''}{when} on runner(s) {', '.join(c.runners)}:"]
    for lc in c.linkers:
        parts = [f"cold {_duration(lc.cold_median_s)} median of {lc.cold_count} run(s), max {_duration(lc.cold_max_s)}"
                 if lc.cold_count else "no cold run recorded"]
        if lc.warm_count:
            parts.append(f"warm {_duration(lc.warm_median_s)} median of {lc.warm_count} run(s)")
        out.append(f"  {lc.linker}: {'; '.join(parts)}; timeout {lc.timeout_minutes} min ({lc.reason})")
    if parallel:
        how = "the slowest leg's"
    elif c.replay_after is not None:
        others = [ln for ln in c.gate_linkers if ln != c.replay_after]
        how = (f"{c.replay_after}'s build, then one relink each under {', '.join(others)} "
               f"(linker-matrix = replay: {' + '.join(str(c.relink_minutes(ln)) for ln in others)} min)")
    else:
        how = "the sum over linkers, which this one job builds in turn (linker-matrix = rebuild)"
    out.append(f"timeout-minutes {timeout}: {how}.")
    return out


def _gaps(facts: GateFacts) -> list[str]:
    if facts.gaps is None:
        return ["Coverage: no link recipes are declared ([[recipe]] in linkgate.toml), so none is known to be unlinked."]
    if not facts.gaps:
        return ["Coverage: every declared recipe is linked by some gate."]
    return ["Coverage gap, recorded rather than assumed shut: no gate on any runner links "
            + ", ".join(facts.gaps) + "."]


def _controls(facts: GateFacts) -> list[str]:
    if not facts.controls:
        return ["Negative controls: none recorded yet (`linkgate prove`)."]
    out = ["Negative controls (last outcome):"]
    for c in facts.controls:
        verdict = "caught" if c.outcome == "caught" else f"{c.outcome}: NOT caught"
        out.append(f"  {c.date} {c.name} [{c.linker}]: {verdict} ({c.source})")
    return out


def head(gate: Gate, trigger: str, command: str) -> list[str]:
    """The comment's lines that follow from the configuration alone (without ``# ``)."""
    body = [f"Link gate {gate.name!r}, written by `{command}`; rerun it rather than editing by hand."]
    body += _what(gate)
    body.append(f"Trigger: {trigger}: {_TRADE_OFFS[trigger]}.")
    return _wrap(body)


def measured(facts: GateFacts, parallel: bool = False) -> list[str]:
    """The lines that follow from the history: cost, coverage, controls. They
    come last and the first starts with ``Cost``, so a written comment splits."""
    return _wrap(_cost(facts, parallel) + _gaps(facts) + _controls(facts))


def render(gate: Gate, trigger: str, facts: GateFacts, command: str, parallel: bool = False) -> list[str]:
    """Comment lines without the leading ``# ``."""
    return head(gate, trigger, command) + measured(facts, parallel)


_TIMEOUT = re.compile(r"\btimeout-minutes (\d+)\b")


def written_measured(lines: list[str]) -> tuple[list[str], int] | None:
    """The measured lines of a written comment and the timeout they state, or
    None when the comment does not have the shape ``measured`` writes."""
    start = next((i for i, line in enumerate(lines) if line.startswith("Cost")), None)
    if start is None:
        return None
    tail = lines[start:]
    # Wrapping may split "timeout-minutes" from its number; joined, they meet again.
    m = _TIMEOUT.search(" ".join(line.strip() for line in tail))
    return (tail, int(m[1])) if m else None


def _wrap(body: list[str]) -> list[str]:
    out: list[str] = []
    for line in body:
        indent = len(line) - len(line.lstrip(" "))
        out += textwrap.wrap(line, width=96, subsequent_indent=" " * (indent + 2), break_on_hyphens=False,
                             break_long_words=False) or [""]
    return out
