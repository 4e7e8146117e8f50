"""What gates cost and how to schedule them, computed from the run history.

``compute(records)`` gives one CostEntry per (gate, linker), with a
recommended job timeout; ``recommend_trigger(entries, budget)`` says whether
a gate fits every pull request, needs a path filter, or belongs on a schedule.
"""

from __future__ import annotations

from linkgate.cost.compute import (
    COUNTED_VERDICTS,
    DEFAULT_TIMEOUT_MINUTES,
    HEADROOM_FACTOR,
    HEADROOM_FIXED_MINUTES,
    CostEntry,
    Stats,
    compute,
    recommended_timeout,
)
from linkgate.cost.trigger import TriggerAdvice, recommend_trigger

__all__ = [
    "COUNTED_VERDICTS",
    "DEFAULT_TIMEOUT_MINUTES", "HEADROOM_FACTOR", "HEADROOM_FIXED_MINUTES", "CostEntry", "Stats",
    "TriggerAdvice", "compute", "recommend_trigger", "recommended_timeout",
]
