"""The comment block above a generated job: what, when, cost, gaps, evidence.

Regenerated on every ``--write`` so its numbers never go stale silently.
"""

from __future__ import annotations

import shlex
import textwrap

from linkgate.ci.facts import DEFAULT_TIMEOUT_MINUTES, GateFacts
from linkgate.config import Gate

_TRADE_OFFS = {
    "every-pr": "every pull request pays the link, so no link regression can merge unseen",
    "paths": "the link runs only when a file of its causal surface changes: cheap on most pull "
    "requests, blind to a cause outside the filter (`linkgate audit` checks the filter)",
    "schedule": "pull requests never pay the link; a regression is found after it merges, "
    "at the next scheduled run",
}


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = int(round(seconds))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _what(gate: Gate) -> list[str]:
    argv = ("cargo", *gate.cargo) if gate.cargo else tuple(gate.command or ())
    lines = [f"Links: {shlex.join(argv)}"]
    if gate.why:
        lines.append(f"Why this target: {gate.why}")
    if gate.cargo and "--no-run" in gate.cargo:
        lines.append("--no-run builds and links the test binaries and executes nothing (no GPU or test work).")
    return lines


def _cost(facts: GateFacts) -> list[str]:
    c = facts.cost
    if c is None:
        return [f"Cost: not yet measured; timeout-minutes {DEFAULT_TIMEOUT_MINUTES} is linkgate's default "
                "for a cold release link. Run the gate, then `linkgate ci github --write` again."]
    parts = []
    if c.cold_count:
        parts.append(f"cold {_duration(c.cold_median_s)} median of {c.cold_count} run(s), max {_duration(c.cold_max_s)}")
    else:
        parts.append("no cold run recorded")
    if c.warm_count:
        parts.append(f"warm {_duration(c.warm_median_s)} median of {c.warm_count} run(s)")
    when = f" ({c.first_date} to {c.last_date})" if c.first_date else ""
    return [f"Cost: {'; '.join(parts)}{when}.",
            f"timeout-minutes {c.recommended_timeout_minutes}: {c.reason}"]


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
        out.append(f"  {c.date} {c.name} [{c.linker}]: {verdict}")
    return out


def render(gate: Gate, trigger: str, facts: GateFacts, command: str) -> list[str]:
    """Comment lines without the leading ``# ``."""
    body = [f"Link gate {gate.name!r}, written by `{command}`; rerun it rather than editing by hand."]
    body += _what(gate)
    body.append(f"Trigger: {trigger}: {_TRADE_OFFS[trigger]}.")
    body += _cost(facts) + _gaps(facts) + _controls(facts)
    out: list[str] = []
    for line in body:
        indent = len(line) - len(line.lstrip(" "))
        out += textwrap.wrap(line, width=96, subsequent_indent=" " * (indent + 2), break_on_hyphens=False,
                             break_long_words=False) or [""]
    return out
