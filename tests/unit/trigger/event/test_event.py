"""Event -> comparison, for every event paths-filter distinguishes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.errors import UsageError
from linkgate.trigger.event import NULL_SHA, resolve

A, B = "a" * 40, "b" * 40


def env_for(tmp_path: Path, event: str, payload: object | None = None, **extra: str) -> dict[str, str]:
    env = {"GITHUB_EVENT_NAME": event, **extra}
    if payload is not None:
        path = tmp_path / "event.json"
        path.write_text(json.dumps(payload))
        env["GITHUB_EVENT_PATH"] = str(path)
    return env


def origin(branch: str) -> str:
    return f"origin/{branch}"


@pytest.mark.parametrize(
    ("event", "payload", "base", "merge_base", "all_added", "always"),
    [
        ("pull_request", {"pull_request": {"number": 1, "base": {"sha": A}}}, A, True, False, False),
        ("pull_request_target", {"pull_request": {"number": 1, "base": {"sha": A}}}, A, True, False, False),
        ("merge_group", {"merge_group": {"base_sha": A, "head_sha": B}}, A, False, False, False),
        ("push", {"ref": "refs/heads/main", "before": A, "repository": {"default_branch": "main"}}, A, False, False,
         False),
        ("push", {"ref": "refs/heads/main", "before": NULL_SHA, "repository": {"default_branch": "main"}}, None,
         True, True, False),
        ("push", {"ref": "refs/heads/topic", "before": NULL_SHA, "repository": {"default_branch": "main"}},
         "origin/main", True, False, False),
        ("push", {"ref": "refs/heads/topic", "before": A, "repository": {"default_branch": "main"}},
         "origin/main", True, False, False),
        ("push", {"ref": "refs/heads/topic", "before": A}, A, False, False, False),  # no default branch named
        ("push", {"ref": "refs/tags/v1", "before": NULL_SHA, "repository": {"default_branch": "main"}},
         "origin/main", True, False, False),
        ("release", {"ref": "refs/tags/v1", "repository": {"default_branch": "main"}}, "origin/main", True, False,
         False),
        ("push", {"ref": "refs/heads/main", "repository": {"default_branch": "main"}}, "HEAD^", False, False,
         False),
        ("schedule", None, None, True, False, True),
        ("workflow_dispatch", {"inputs": {}}, None, True, False, True),
    ],
)
def test_event_to_comparison(tmp_path, event, payload, base, merge_base, all_added, always):
    c = resolve(None, "HEAD", env_for(tmp_path, event, payload), local_ref=origin)
    assert (c.base, c.merge_base, c.all_added, c.always) == (base, merge_base, all_added, always)
    assert c.reason


def test_base_option_wins_over_every_event(tmp_path):
    for event in ("pull_request", "push", "merge_group", "schedule"):
        c = resolve("origin/dev", "HEAD", env_for(tmp_path, event, {"before": A}))
        assert (c.base, c.merge_base, c.always) == ("origin/dev", True, False)


def test_pull_request_without_payload_falls_back_to_github_base_ref(tmp_path):
    c = resolve(None, "HEAD", env_for(tmp_path, "pull_request", None, GITHUB_BASE_REF="main"))
    assert c.base == "origin/main" and c.merge_base


def test_outside_actions_github_base_ref_or_a_usage_error():
    assert resolve(None, "HEAD", {"GITHUB_BASE_REF": "dev"}).base == "origin/dev"
    with pytest.raises(UsageError, match="pass --base REF"):
        resolve(None, "HEAD", {})


@pytest.mark.parametrize(
    ("event", "payload", "needle"),
    [
        ("merge_group", {"merge_group": {}}, "no merge_group.base_sha"),
        ("pull_request", {"pull_request": {}}, "names no base commit"),
        ("push", {"ref": "refs/heads/x"}, "neither a previous commit nor a default branch"),
    ],
)
def test_payloads_missing_what_they_need_are_usage_errors(tmp_path, event, payload, needle):
    with pytest.raises(UsageError, match=needle):
        resolve(None, "HEAD", env_for(tmp_path, event, payload))


def test_unreadable_payload_is_a_usage_error(tmp_path):
    env = {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(tmp_path / "missing.json")}
    with pytest.raises(UsageError, match="cannot read the push event payload"):
        resolve(None, "HEAD", env)


def test_head_defaults_to_the_commit_the_event_names(tmp_path):
    pr = {"pull_request": {"number": 3, "base": {"sha": A}, "head": {"sha": B}}}
    assert resolve(None, None, env_for(tmp_path, "pull_request_target", pr)).head == B
    assert resolve(None, "HEAD", env_for(tmp_path, "pull_request_target", pr)).head == "HEAD"  # --head wins
    mg = {"merge_group": {"base_sha": A, "head_sha": B}}
    assert resolve(None, None, env_for(tmp_path, "merge_group", mg)).head == B
    assert resolve(None, None, env_for(tmp_path, "push", {"before": A, "ref": "refs/heads/x"})).head == "HEAD"
