from __future__ import annotations

import pytest

from linkgate.audit.model import RawFinding
from linkgate.commands.audit import check_rule_names, settle
from linkgate.config import AuditConfig, AuditIgnore
from linkgate.errors import ConfigError

FINDINGS = [
    RawFinding("never-linked", "feature set `a,b` is compiled by ci/c", "ci.yml", 3, subject="a,b"),
    RawFinding("never-linked", "feature set `gpu` is compiled by ci/g", "ci.yml", 9, subject="gpu"),
    RawFinding("no-timeout", "self-hosted job ci/x links", "ci.yml", 12, subject="ci/x"),
]


def test_defaults() -> None:
    settled = settle(FINDINGS, AuditConfig())
    assert [(f.line, level) for f, level in settled.kept] == [(3, "error"), (9, "error"), (12, "warning")]


def test_severity_override_and_off() -> None:
    settled = settle(FINDINGS, AuditConfig(severity={"never-linked": "warning", "no-timeout": "off"}))
    assert [(f.line, level) for f, level in settled.kept] == [(3, "warning"), (9, "warning")]


def test_ignore_with_match_on_subject_and_unused_ignores() -> None:
    config = AuditConfig(ignore=(
        AuditIgnore("never-linked", reason="gpu is linked on the GPU farm", match="^gpu$"),
        AuditIgnore("shared-target-dir", reason="stale"),
    ))
    settled = settle(FINDINGS, config)
    assert [f.line for f, _ in settled.kept] == [3, 12]
    assert [(f.line, reason) for f, reason in settled.ignored] == [(9, "gpu is linked on the GPU farm")]
    assert [ig.finding for ig in settled.unused_ignores] == ["shared-target-dir"]


def test_misspelt_rule_names_are_configuration_errors() -> None:
    with pytest.raises(ConfigError) as info:
        check_rule_names(AuditConfig(severity={"never-link": "off"}), "linkgate.toml")
    assert "audit.severity.never-link" in info.value.message
    assert info.value.hint == "did you mean 'never-linked'?"
