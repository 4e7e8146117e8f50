"""What linkgate knows about a gate that its CI job's comment must state.

Gathered from the history (cost, last negative-control outcomes) and from
the declared recipes (coverage). Every field says "not known" explicitly
(None or empty) rather than defaulting to a reassuring value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_TIMEOUT_MINUTES = 120  # a cold release link of a large native runtime takes many minutes


@dataclass(frozen=True)
class CostFacts:
    cold_count: int
    cold_median_s: float | None
    cold_max_s: float | None
    warm_count: int
    warm_median_s: float | None
    first_date: str | None
    last_date: str | None
    recommended_timeout_minutes: int
    reason: str


@dataclass(frozen=True)
class ControlFact:
    name: str
    linker: str
    outcome: str
    date: str


@dataclass(frozen=True)
class GateFacts:
    cost: CostFacts | None = None
    # Recipes no gate links, as "name (file:line)"; None when no [[recipe]] is declared.
    gaps: tuple[str, ...] | None = None
    controls: tuple[ControlFact, ...] = field(default=())

    @property
    def timeout_minutes(self) -> int:
        return self.cost.recommended_timeout_minutes if self.cost else DEFAULT_TIMEOUT_MINUTES


def gather(cfg: object, gate: object) -> GateFacts:
    """Facts from the history and the declared recipes (filled in as those land)."""
    return GateFacts()
