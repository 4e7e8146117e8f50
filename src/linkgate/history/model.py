"""One row of history: what one (gate, linker) run or negative control did.

This is the contract between the writers (``run``, ``prove``, ``history
import``) and the readers (``cost``, ``coverage``, ``ci github``, ``report
html``). Times are seconds; ``None`` means "not measured", never zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RunRecord:
    """One history row: a (gate, linker) run or a negative control, where, when and what it cost."""

    run_id: str                      # unique per (invocation, gate, linker[, control]); import key
    kind: str                        # "run" or "prove"
    gate: str
    linker: str
    verdict: str                     # run: linked/link-failed/...; prove: the control's outcome
    started_at: str                  # ISO 8601, UTC, e.g. 2026-12-01T02:23:23Z
    wall_s: float
    commit: str | None = None
    branch: str | None = None
    runner: str | None = None        # $RUNNER_NAME, else None
    host: str | None = None
    compile_s: float | None = None   # wall minus link time, when link time is known
    link_s: float | None = None      # sum of the recording wrapper's per-artifact link times
    units_rebuilt: int | None = None
    units_fresh: int | None = None
    cold: bool | None = None         # the target dir was empty before the run
    forced_relink: bool | None = None
    recipes: tuple[str, ...] = ()    # names of the [[recipe]] entries active in this run
    directives_digest: str | None = None
    control: str | None = None       # prove rows: the control's name
    links: tuple[dict[str, object], ...] = field(default=())  # per-artifact link records (wrapper)
    dirty: bool | None = None        # tracked files differed from ``commit``; None: not known (older rows)
    # Recipes whose branch's directives the run printed but another branch prints too, with no
    # recorded value to decide (coverage/printed.py): not active, and never "covered" by this row.
    indistinct: tuple[str, ...] = ()
    # How this leg's linked files differed from the first linker's (the run result's
    # `divergence` entries, docs/json.md); empty when alike, not compared, or older rows.
    divergence: tuple[dict[str, object], ...] = field(default=())
