from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.errors import ConfigError
from linkgate.trigger.gatefilter import filter_from_workflow, load_yaml, parse_filters
from linkgate.trigger.pathfilter import Rule


def test_anchors_change_types_and_yaml_12_strings() -> None:
    doc = load_yaml("base: &b\n  - on\n  - Cargo.lock\nx:\n  - *b\n  - added|Modified: [a/**, b]\n", "f.yml")
    rules = parse_filters(doc, "f.yml")
    assert rules["x"] == [Rule.of("on"), Rule.of("Cargo.lock"), Rule(("a/**", "b"), frozenset({"added", "modified"}))]


def test_filters_input_naming_a_file(tmp_path: Path) -> None:
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "filters.yml").write_text("xla:\n  - 'scripts/iree/**'\n")
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(
        "on: push\njobs:\n  c:\n    steps:\n      - uses: dorny/paths-filter@de90cc6fb38fc0963ad72b210f1f284cd68cea36\n"
        "        with:\n          filters: .github/filters.yml\n          predicate-quantifier: every\n"
    )
    f = filter_from_workflow(tmp_path, ".github/workflows/ci.yml", "xla")
    assert f.quantifier == "every" and f.matches("scripts/iree")


def test_bad_rule_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unexpected rule"):
        parse_filters({"x": [3]}, "f.yml")
