from __future__ import annotations

import json
from typing import Any

from linkgate.report.model import Report


def render(report: Report, console: Any | None = None) -> str:
    return json.dumps(report.document, indent=2, sort_keys=False) + "\n"
