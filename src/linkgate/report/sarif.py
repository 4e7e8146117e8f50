"""SARIF 2.1.0, the format code-scanning tools (GitHub's among them) ingest."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from linkgate.report.model import Report

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(file: str) -> str:
    # Code scanning resolves relative URIs against the checkout; keep paths
    # inside the working directory relative, others as file: URIs.
    p = Path(file)
    if p.is_absolute():
        try:
            return p.relative_to(Path(os.getcwd())).as_posix()
        except ValueError:
            return p.as_uri()
    return p.as_posix()


def document(report: Report) -> dict[str, Any]:
    from linkgate import __version__

    rule_ids = list(dict.fromkeys(f.rule for f in report.findings))
    rules = [{"id": r, "name": r, "shortDescription": {"text": r.replace("-", " ")}} for r in rule_ids]
    results = []
    for f in report.findings:
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "ruleIndex": rule_ids.index(f.rule),
            "level": f.level,
            "message": {"text": f.message + (f"\nhint: {f.hint}" if f.hint else "")},
        }
        if f.file:
            location: dict[str, Any] = {"artifactLocation": {"uri": _uri(f.file)}}
            if f.line:
                location["region"] = {"startLine": f.line}
            result["locations"] = [{"physicalLocation": location}]
        results.append(result)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "linkgate",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


def render(report: Report, console: Any | None = None) -> str:
    return json.dumps(document(report), indent=2) + "\n"
