"""What to compare, from the GitHub event, as dorny/paths-filter decides it.

paths-filter (``src/main.ts``, ``getChangedFiles``/``getChangedFilesFromGit``):
  - pull_request (and _target, _review, _review_comment): the pull request's
    base commit; its default token lists the PR's files through the API,
    which is the merge-base diff, so linkgate diffs ``base.sha...head.sha``;
  - merge_group: ``merge_group.base_sha`` and ``head_sha``, compared
    directly (``..``);
  - push to the branch that is the base (by default the default branch): the
    event's ``before`` commit, directly; ``before`` all zeros (the branch was
    just created) lists every file as added;
  - any other push or event: the merge base with the default branch
    (``repository.default_branch`` in the payload), which for a new branch is
    the point it forked from.
linkgate departs in one place, on purpose: ``schedule`` and
``workflow_dispatch`` always run the gate (paths-filter would look at the last
commit), because nobody schedules a link job to have it skip itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.errors import RefusedFile, UndecidedChange, UsageError
from linkgate.trigger.gitnames import commit_id, ref_name, revision

NULL_SHA = "0" * 40
PR_EVENTS = ("pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment")
ALWAYS_EVENTS = ("schedule", "workflow_dispatch")


@dataclass(frozen=True)
class Comparison:
    """How to list the changed files; ``reason`` says why, for the log."""

    base: str | None
    head: str
    merge_base: bool = True  # base...head (True) or base..head (False)
    all_added: bool = False  # every tracked file counts as added
    always: bool = False  # run without looking at changes
    reason: str = ""


def _short(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/tags/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref


def _payload(env: Mapping[str, str], event: str) -> dict[str, Any]:
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        doc = json.loads(repofs.read_text(path, inside=None, limit=repofs.MAX_PAYLOAD))
    except (OSError, ValueError, RecursionError) as exc:
        # RecursionError: json nests by recursion; 100,000 nested arrays stop it.
        why = ("it nests too deeply" if isinstance(exc, RecursionError)
               else exc.reason if isinstance(exc, RefusedFile) else str(exc).splitlines()[0])
        raise UndecidedChange(f"cannot read the {event} event payload {path}: {why}; pass --base REF") from None
    return doc if isinstance(doc, dict) else {}


def _get(doc: Any, *keys: str) -> str | None:
    for key in keys:
        doc = doc.get(key) if isinstance(doc, dict) else None
    return doc if isinstance(doc, str) and doc else None


def _sha(doc: Any, *keys: str) -> str | None:
    """A commit id from the payload, checked: the payload is written by whoever pushed."""
    value = _get(doc, *keys)
    return None if value is None else commit_id(value, "the event's " + ".".join(keys))


def _ref(value: str | None, what: str) -> str | None:
    return None if value is None else ref_name(value, what)


def resolve(base: str | None, head: str | None, env: Mapping[str, str] | None = None,
            local_ref: Any = None) -> Comparison:
    """The comparison for ``should-run``/``changed``; *local_ref* maps a branch
    name to a ref git knows here (``origin/main`` in an Actions checkout).
    *head* None means the event's head commit where it names one (a pull
    request's, a merge group's), else ``HEAD``."""
    env = os.environ if env is None else env
    event = env.get("GITHUB_EVENT_NAME", "")
    doc: dict[str, Any] = {}
    if event in (*PR_EVENTS, "merge_group") and head is None:
        try:
            doc = _payload(env, event)
        except UsageError:
            if base is None:
                raise  # with --base the head falls back to HEAD
    if event in PR_EVENTS:
        # pull_request_target checks out the base branch by default; the
        # pull request's own head is what paths-filter lists (through the API).
        head = head or _sha(doc, "pull_request", "head", "sha")
    elif event == "merge_group":
        head = head or _sha(doc, "merge_group", "head_sha")
    head = revision(head, "--head") if head is not None else "HEAD"
    if base is not None:
        base = revision(base, "--base")
        return Comparison(base, head, reason=f"--base {base}: changes since the merge base with {head}")
    base_ref = _ref(env.get("GITHUB_BASE_REF") or None, "GITHUB_BASE_REF")
    if not event:
        if base_ref:
            ref = f"origin/{base_ref}"
            return Comparison(ref, head, reason=f"GITHUB_BASE_REF: changes since the merge base with {ref}")
        raise UsageError("no --base given and not running under GitHub Actions; pass --base REF (e.g. origin/main)")
    if event in ALWAYS_EVENTS:
        return Comparison(None, head, always=True,
                          reason=f"a {event} event: the gate always runs (there is no change to filter)")
    doc = doc or _payload(env, event)
    default = _ref(_get(doc, "repository", "default_branch"), "the event's repository.default_branch")
    if event in PR_EVENTS:
        sha = _sha(doc, "pull_request", "base", "sha")
        if sha:
            number = (doc.get("pull_request") or {}).get("number")
            which = f"pull request #{number}" if isinstance(number, int) and not isinstance(number, bool) else "pull request"
            return Comparison(sha, head, reason=f"{which}: changes since its base {sha[:12]}")
        if base_ref:
            ref = f"origin/{base_ref}"
            return Comparison(ref, head, reason=f"pull request: changes since the merge base with {ref}")
        raise UndecidedChange(f"the {event} event payload names no base commit; pass --base REF")
    if event == "merge_group":
        sha = _sha(doc, "merge_group", "base_sha")
        if not sha:
            raise UndecidedChange("the merge_group event payload has no merge_group.base_sha; pass --base REF")
        return Comparison(sha, head, merge_base=False, reason=f"merge queue: changes since its base {sha[:12]}")
    before = _sha(doc, "before") if event == "push" else None
    branch = _short(_ref(_get(doc, "ref") or env.get("GITHUB_REF") or None, "the event's ref") or "")
    if default is None or default == branch:
        # A push to the default branch (or a payload that names none): the
        # previously pushed commit is the base.
        if before == NULL_SHA:
            return Comparison(None, head, all_added=True,
                              reason=f"first push of {branch or 'the branch'}: every file counts as added")
        if before:
            return Comparison(before, head, merge_base=False,
                              reason=f"{event} to {branch or 'the branch'}: changes since {before[:12]}")
        if default is None:
            raise UndecidedChange(f"the {event} event names neither a previous commit nor a default branch; "
                             "pass --base REF")
        return Comparison(f"{head}^", head, merge_base=False,
                          reason=f"{event} on {branch}: the event has no 'before', so the last commit's changes")
    ref = local_ref(default) if local_ref is not None else default
    what = "first push of" if before == NULL_SHA else f"{event} to"
    return Comparison(ref, head, reason=f"{what} {branch or 'a branch'}: changes since the merge base with {ref}")


def changes(comparison: Comparison, cwd: str | Path) -> list[Any]:
    """The changed files the comparison names (not for ``always``)."""
    from linkgate.trigger.gitdiff import all_added, changed_files

    if comparison.all_added:
        return all_added(cwd)
    base = comparison.base
    assert base is not None
    try:
        return changed_files(base, comparison.head, cwd, merge_base=comparison.merge_base)
    except UndecidedChange:
        # A commit named by the event may be missing from a shallow checkout
        # (actions/checkout fetches one commit by default). paths-filter
        # fetches it too; without it the error stands, with its hint.
        if not _fetch_missing((base, comparison.head), cwd):
            raise
    return changed_files(base, comparison.head, cwd, merge_base=comparison.merge_base)


def _fetch_missing(refs: tuple[str, ...], cwd: str | Path) -> bool:
    from linkgate import proc
    from linkgate.trigger.gitnames import COMMIT_ID

    if os.environ.get("GITHUB_ACTIONS") != "true":
        return False
    missing = [
        r for r in refs
        if COMMIT_ID.fullmatch(r)
        and proc.run(["git", "cat-file", "-e", "--end-of-options", f"{r}^{{commit}}"], cwd=cwd,
                     check=False).returncode != 0
    ]
    if not missing:
        return False
    done = proc.run(["git", "fetch", "--no-tags", "--depth=1", "--end-of-options", "origin", *missing], cwd=cwd,
                    check=False)
    return done.returncode == 0


def for_repository(base: str | None, head: str | None, cwd: str | Path) -> Comparison:
    from linkgate.trigger.gitdiff import local_ref

    return resolve(base, head, local_ref=lambda branch: local_ref(branch, cwd))
