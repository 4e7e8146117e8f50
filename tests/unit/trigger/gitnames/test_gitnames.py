"""Ref names and commit ids, checked against git check-ref-format itself."""

from __future__ import annotations

import subprocess

import pytest

from linkgate.errors import UndecidedChange
from linkgate.trigger.gitnames import commit_id, is_ref_name, revision

NAMES = [
    "main", "release/1.2", "refs/heads/main", "refs/pull/12/merge", "a.b", "feature/x-y_z", "日本",
    "", "-x", "--output=/tmp/x", "a..b", "a b", "a\nb", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a@{1}",
    "@", "a/", "/a", "a//b", "a.", ".a", "a/.b", "a.lock", "a/b.lock/c", "a\x7f", "a\tb", "x" * 2000,
]


@pytest.mark.parametrize("name", NAMES)
def test_ref_names_agree_with_git(name):
    if "\n" in name or "\x00" in name:
        assert not is_ref_name(name)
        return
    git = subprocess.run(["git", "check-ref-format", "--allow-onelevel", name], capture_output=True)
    # linkgate is stricter in one place only: a leading "-" (an option) and very long names.
    expected = git.returncode == 0 and not name.startswith("-") and len(name) <= 1024
    assert is_ref_name(name) == expected


@pytest.mark.parametrize("value", ["a" * 40, "A" * 40, "0123456789abcdef" * 4])
def test_commit_ids(value):
    assert commit_id(value, "x") == value


@pytest.mark.parametrize("value", ["a" * 39, "a" * 41, "g" * 40, "--output=/tmp/x", "HEAD", "a" * 63, " " + "a" * 40])
def test_not_commit_ids(value):
    with pytest.raises(UndecidedChange, match="not a commit id"):
        commit_id(value, "the event's before")


@pytest.mark.parametrize("value", ["-x", "--output=/x", "", "a\nb", "a\x00"])
def test_revisions_that_git_would_misread(value):
    with pytest.raises(UndecidedChange):
        revision(value, "--base")


def test_revisions_git_reads():
    assert [revision(v, "--base") for v in ("HEAD~1", "origin/main", "HEAD^")] == ["HEAD~1", "origin/main", "HEAD^"]
