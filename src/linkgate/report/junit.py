"""JUnit XML: one test case per Case, so CI test reporters show link failures.

Commands that have no cases (a plain log explanation) get one case per
finding, or a single passing case.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from typing import Any

from linkgate.report.model import Case, Report


def _cases(report: Report) -> list[Case]:
    if report.cases:
        return list(report.cases)
    suite = f"linkgate {report.command}"
    if not report.findings:
        return [Case(suite, report.command, ok=True)]
    return [
        Case(suite, f"{f.rule}: {f.message.splitlines()[0][:120]}", ok=f.level != "error",
             message=f.message, details="\n".join(x for x in (f.message, f.hint and "hint: " + f.hint) if x))
        for f in report.findings
    ]


def render(report: Report, console: Any | None = None) -> str:
    by_suite: dict[str, list[Case]] = defaultdict(list)
    for case in _cases(report):
        by_suite[case.suite].append(case)
    root = ET.Element("testsuites", name=f"linkgate {report.command}")
    total = failures = skipped = 0
    for suite_name, cases in by_suite.items():
        s_fail = sum(1 for c in cases if not c.ok and not c.skipped)
        s_skip = sum(1 for c in cases if c.skipped)
        suite = ET.SubElement(
            root, "testsuite", name=suite_name, tests=str(len(cases)),
            failures=str(s_fail), errors="0", skipped=str(s_skip),
            time=f"{sum(c.duration_s for c in cases):.3f}",
        )
        for c in cases:
            tc = ET.SubElement(suite, "testcase", classname=suite_name, name=c.name, time=f"{c.duration_s:.3f}")
            if c.skipped:
                ET.SubElement(tc, "skipped", message=c.message)
            elif not c.ok:
                failure = ET.SubElement(tc, "failure", message=c.message.splitlines()[0] if c.message else "failed")
                failure.text = c.details or c.message
        total += len(cases)
        failures += s_fail
        skipped += s_skip
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("skipped", str(skipped))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
