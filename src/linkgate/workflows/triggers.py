"""When does a job run? Events from ``on:``, narrowed by ``if:``, and the
dorny/paths-filter output that gates it, if any.

A paths filter is found through every route GitHub users write:
- a job ``if:`` reading ``needs.<job>.outputs.<name>``, where that job maps
  the output to ``steps.<id>.outputs.<filter>`` of a dorny/paths-filter step;
- a step ``if:`` reading ``steps.<id>.outputs.<filter>`` in the same job;
- the workflow's own ``on.<event>.paths`` / ``paths-ignore`` for the pull request
  events (a push when there is none), which skip the whole workflow.
Filters given inline (``with.filters`` as YAML text) or as a file in the
repository are read; the ``predicate-quantifier`` input is kept. Several
filters in one ``if:`` combine as written (``||`` is a union, ``&&`` an
intersection): ``Trigger.runs_when_only`` evaluates the conditions with each
filter's output for one changed path. Each filter points at its own line: the
line of its name in the filters text, or of ``paths:`` in ``on:``.

A push limited to ``branches`` that cannot name the default branch (``main``,
``master``, the checkout's own branch or origin's HEAD) does not guard it: it counts as
``push-branches``, not as an event a pull request sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.trigger.pathfilter import PathFilter, Rule, matches
from linkgate.workflows import ghexpr
from linkgate.workflows.model import CallSite, Job, Step, Workflow

# Events after which someone looks at the result before (or right after) merging.
# workflow_call is counted too: a reusable workflow no local job calls may be called on any event
# (one a local job calls takes its caller's events: trigger_for).
PR_VISIBLE = {"pull_request", "pull_request_target", "merge_group", "push", "workflow_call"}
# A condition that holds on a tag push only: `startsWith(github.ref, 'refs/tags/...')` (a
# plain branch of an `||`), `github.ref_type == 'tag'`.
_TAG_REF = re.compile(r"^\s*\(?\s*(?:startsWith\(\s*github\.ref\s*,\s*'refs/tags/[^']*'\s*\)"
                      r"|github\.ref_type\s*==\s*'tag')\s*\)?\s*$")
_EVENT_EQ = re.compile(r"github\.event_name\s*(==|!=)\s*'([\w-]+)'")
# `outputs.name`, or index syntax `outputs['my.gate']` for a name that is no identifier.
_NEEDS_OUTPUT = re.compile(r"needs\.([\w-]+)\.outputs(?:\.([\w-]+)|\['((?:[^']|'')*)'\])")
_STEP_OUTPUT = re.compile(r"steps\.([\w-]+)\.outputs(?:\.([\w-]+)|\['((?:[^']|'')*)'\])")


def _refs(pattern: re.Pattern[str], text: str) -> list[tuple[str, str]]:
    """(job or step id, output name) of each reference, in order, once each."""
    found = ((m.group(1), m.group(2) or m.group(3).replace("''", "'")) for m in pattern.finditer(text))
    return list(dict.fromkeys(found))


# The kinds of filter: a dorny/paths-filter output, or the workflow trigger's own paths.
PATHS_FILTER, ON_PATHS, ON_PATHS_IGNORE = "paths-filter", "paths", "paths-ignore"
_PR_EVENTS = ("pull_request", "pull_request_target")


@dataclass(frozen=True)
class PathsFilter:
    job: str
    step: str
    filter: str
    file: str
    line: int
    rules: tuple[Rule, ...] | None
    quantifier: str
    # How the job's conditions name its output (`needs.changes.outputs.src`); "" for on.<event>.paths.
    ref: str = ""
    kind: str = PATHS_FILTER

    def lets_run(self, path: str) -> bool:
        """Does a change of *path* alone make this filter let the job run?"""
        patterns = [p for r in self.rules or () for p in r.patterns]
        if self.kind == ON_PATHS:
            # GitHub: patterns in order, a `!` pattern excludes what earlier ones included.
            result = False
            for pattern in patterns:
                if pattern.startswith("!"):
                    result = result and not matches(pattern[1:], path)
                elif matches(pattern, path):
                    result = True
            return result
        if self.kind == ON_PATHS_IGNORE:
            return not any(matches(p, path) for p in patterns)
        return PathFilter(self.rules or (), self.quantifier, name=self.filter).matches(path)

    def to_json(self) -> dict[str, Any]:
        return {
            "job": self.job, "step": self.step, "filter": self.filter, "file": self.file,
            "line": self.line, "rules": [str(r) for r in self.rules] if self.rules is not None else None,
            "predicate_quantifier": self.quantifier, "kind": self.kind,
        }


@dataclass(frozen=True)
class Trigger:
    events: tuple[str, ...]
    paths_filter: PathsFilter | None
    native_paths: tuple[str, ...]
    condition: str | None
    # Every filter that decides whether the job runs, and the `if:` texts that combine them.
    filters: tuple[PathsFilter, ...] = ()
    filter_conditions: tuple[str, ...] = ()

    @property
    def pr_visible(self) -> bool:
        return any(e in PR_VISIBLE for e in self.events)

    def runs_when_only(self, path: str) -> bool | None:
        """Does a pull request changing only *path* run the job? None when its conditions
        depend on more than the filters (then no filter is said to miss it)."""
        outputs: dict[str, str] = {}
        for f in self.filters:
            if f.kind != PATHS_FILTER:
                if not f.lets_run(path):
                    return False
            elif f.ref:
                outputs[f.ref] = "true" if f.lets_run(path) else "false"
        if not self.filter_conditions:
            return True
        contexts: dict[str, Any] = {"github": ghexpr.OpenMap(event_name="pull_request")}
        for ref, value in outputs.items():
            head, name, _, output = ref.split(".", 3)
            outer = contexts.setdefault(head, ghexpr.OpenMap())
            inner = outer.setdefault(name, ghexpr.OpenMap(outputs=ghexpr.OpenMap()))
            inner["outputs"][output] = value
        result: bool | None = True
        for condition in self.filter_conditions:
            verdict = ghexpr.truth(ghexpr.evaluate(_strip_expr(condition), contexts))
            if verdict is False:
                return False
            if verdict is None:
                result = None
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "events": list(self.events),
            "paths_filter": self.paths_filter.to_json() if self.paths_filter else None,
            "filters": [f.to_json() for f in self.filters],
            "paths": list(self.native_paths),
            "if": self.condition,
        }


def _strip_expr(condition: str) -> str:
    text = condition.strip()
    return text[3:-2].strip() if text.startswith("${{") and text.endswith("}}") else text


def trigger_for(repo: Path, wf: Workflow, job: Job, step: Step | None, callers: tuple[CallSite, ...] = ()) -> Trigger:
    """When *step* of *job* runs (*step* None: the job itself, a call of a reusable workflow).
    A reusable workflow run by *callers* (outermost first) has their events: the outermost
    workflow's `on:` and paths, narrowed by every caller job's `if:` and its own."""
    top = callers[0].workflow if callers else wf
    events = _events(repo, top)
    jobs = [(c.workflow, c.job) for c in callers] + [(wf, job)]
    conditions = [c for c in (*(j.if_ for _, j in jobs), step.if_ if step else None) if c]
    for condition in conditions:
        events = _narrow(events, condition)
    found: list[PathsFilter] = []
    filter_conditions: list[str] = []
    if step is not None and step.if_:
        step_filters = _step_filters(repo, wf, job, step.if_)
        found += step_filters
        filter_conditions += [step.if_] if step_filters else []
    for owner, each in reversed(jobs):
        if each.if_:
            job_filters = _needs_filters(repo, owner, each.if_)
            found += job_filters
            filter_conditions += [each.if_] if job_filters else []
    native: list[str] = []
    for cfg in top.on.values():
        if isinstance(cfg, dict) and isinstance(cfg.get("paths"), list):
            native.extend(str(p) for p in cfg["paths"])
    # GitHub does not evaluate paths filters for a tag push, a dispatch or a schedule: a job
    # narrowed to such events is not gated by the workflow's `on.*.paths`.
    on_filters = _on_filters(top) if any(e in ("push", *_PR_EVENTS) for e in events) else ()
    filters = tuple(found) + on_filters
    # The job's own filter names it best; the trigger's paths only when it has none.
    first = (found or list(on_filters))[0] if found or on_filters else None
    return Trigger(tuple(events), first, tuple(native), " && ".join(conditions) or None, filters,
                   tuple(filter_conditions))


def _on_filters(wf: Workflow) -> tuple[PathsFilter, ...]:
    """``on.<event>.paths`` / ``paths-ignore`` of the event a pull request runs (a push without one)."""
    events = [e for e in _PR_EVENTS if e in wf.on] or (["push"] if "push" in wf.on else [])
    out: list[PathsFilter] = []
    for event in events:
        cfg = wf.on.get(event)
        if not isinstance(cfg, dict):
            return ()  # one event without a filter runs the workflow on every change
        for kind in (ON_PATHS, ON_PATHS_IGNORE):
            value = cfg.get(kind)
            if isinstance(value, list):
                lines = getattr(cfg, "key_lines", {})
                rules = tuple(Rule.of(str(v)) for v in value if isinstance(v, str))
                # The workflow's own filter: the same for every job, so their findings are one.
                out.append(PathsFilter("", "", f"on.{event}.{kind}", wf.rel, lines.get(kind, 1), rules, "some",
                                       "", kind))
        if not any(f.step == "" and f.filter.startswith(f"on.{event}.") for f in out):
            return ()
    return tuple(out)


def _events(repo: Path, wf: Workflow) -> list[str]:
    events = []
    for name, cfg in wf.on.items():
        if name == "push" and isinstance(cfg, dict) and cfg.get("tags") is not None and cfg.get("branches") is None:
            # Pushing a tag is how releases are cut; no pull request sees it.
            events.append("push-tags")
        elif name == "push" and isinstance(cfg, dict) and not _may_push_default(repo, cfg):
            # `branches: [fix/x]`: runs on pushes there, never on the default branch.
            events.append("push-branches")
        else:
            events.append(name)
    return events


def _may_push_default(repo: Path, cfg: dict[str, Any]) -> bool:
    """Can this push filter run on a push to the default branch?"""
    defaults = {"main", "master", *_checkout_branch(repo)}
    branches = cfg.get("branches")
    if isinstance(branches, list):
        return any(_branch_matches(str(b), d) for b in branches for d in defaults)
    ignored = cfg.get("branches-ignore")
    if isinstance(ignored, list):
        return not all(any(_branch_matches(str(b), d) for b in ignored) for d in defaults)
    return True


def _branch_matches(pattern: str, branch: str) -> bool:
    # GitHub's branch filters: `*` does not cross `/`, `**` does; a `!` pattern excludes.
    if pattern.startswith("!"):
        return False
    regex = re.escape(pattern).replace(r"\*\*", ".*").replace(r"\*", "[^/]*").replace(r"\?", ".")
    return re.fullmatch(regex, branch) is not None


def _checkout_branch(repo: Path) -> tuple[str, ...]:
    """The checked-out branch and origin's default branch (``refs/remotes/origin/HEAD``, which
    ``git clone`` writes as a symbolic ref), read from the files git keeps: a repository whose
    default branch is ``dev`` pushes there."""
    found: list[str] = []
    for rel in ("HEAD", "refs/remotes/origin/HEAD"):
        try:
            text = repofs.read_text(repo / ".git" / rel, inside=repo).strip()
        except OSError:
            continue
        for prefix in ("ref: refs/heads/", "ref: refs/remotes/origin/"):
            if text.startswith(prefix) and text[len(prefix):]:
                found.append(text[len(prefix):])
    return tuple(dict.fromkeys(found))


def _narrow(events: list[str], condition: str) -> list[str]:
    """Apply ``github.event_name == 'x'`` / ``!= 'x'`` where they decide alone.

    ``a == 'x' || a == 'y'`` restricts to x and y; ``== 'x' || other`` does
    not restrict (``other`` may hold on any event); ``!=`` counts only
    without ``||``."""
    branches = condition.split("||")
    tag_only = [bool(_TAG_REF.search(b)) and not _EVENT_EQ.search(b) for b in branches]
    if all(t or any(op == "==" for op, _ in _EVENT_EQ.findall(b)) for t, b in zip(tag_only, branches)):
        wanted = {name for op, name in _EVENT_EQ.findall(condition) if op == "=="}
        if any(tag_only):
            wanted.add("push-tags")  # `startsWith(github.ref, 'refs/tags/')`: a tag push only
        return [("push-tags" if e == "push" and "push" not in wanted else e) for e in events
                if e in wanted or (e in ("push-tags", "push-branches") and "push" in wanted)
                or (e == "push" and "push-tags" in wanted)]
    if len(branches) == 1:
        unwanted = {name for op, name in _EVENT_EQ.findall(condition) if op == "!="}
        return [e for e in events if e not in unwanted]
    return events


def _needs_filters(repo: Path, wf: Workflow, condition: str) -> list[PathsFilter]:
    by_id = {j.id: j for j in wf.jobs}
    out: list[PathsFilter] = []
    for job_id, output in _refs(_NEEDS_OUTPUT, condition):
        source = by_id.get(job_id)
        if source is None:
            continue
        mapped = source.outputs.get(output)
        if not isinstance(mapped, str):
            continue
        refs = _refs(_STEP_OUTPUT, mapped)
        if refs:
            found = _filter_step(repo, wf, source, refs[0][0], refs[0][1], f"needs.{job_id}.outputs.{output}")
            if found:
                out.append(found)
    return out


def _step_filters(repo: Path, wf: Workflow, job: Job, condition: str) -> list[PathsFilter]:
    out: list[PathsFilter] = []
    for step_id, name in _refs(_STEP_OUTPUT, condition):
        found = _filter_step(repo, wf, job, step_id, name, f"steps.{step_id}.outputs.{name}")
        if found:
            out.append(found)
    return out


def _filter_step(repo: Path, wf: Workflow, job: Job, step_id: str, name: str, ref: str) -> PathsFilter | None:
    for step in job.steps:
        if step.id != step_id or not step.uses or not step.uses.lower().startswith("dorny/paths-filter"):
            continue
        value = step.with_.get("filters")
        filters = _read_filters(repo, value, wf.rel)
        rules = filters.get(name) if filters is not None else None
        quantifier = str(step.with_.get("predicate-quantifier") or "some")
        file, line = _filter_line(repo, wf, step, value, name)
        return PathsFilter(job.id, step_id, name, file, line, rules, quantifier, ref)
    return None


def _filter_line(repo: Path, wf: Workflow, step: Step, value: Any, name: str) -> tuple[str, int]:
    """Where filter *name* is written: its key in the inline text, or in the filters file."""
    key = re.compile(rf"^\s*['\"]?{re.escape(name)}['\"]?\s*:")
    if isinstance(value, str) and ("\n" in value or ":" in value):
        start = getattr(value, "content_line", None)
        if isinstance(start, int):
            for row, text in enumerate(str.__str__(value).split("\n")):
                if key.match(text):
                    return wf.rel, start + row
        return wf.rel, step.key_lines.get("with", step.line)
    if isinstance(value, str):
        rel = value.strip()
        try:
            lines = repofs.read_text(rel, inside=repo, errors="replace").split("\n")
        except OSError:
            return wf.rel, step.line
        for row, text in enumerate(lines):
            if key.match(text):
                return rel, row + 1
    return wf.rel, step.line


def _read_filters(repo: Path, value: Any, where: str) -> dict[str, tuple[Rule, ...]] | None:
    """The step's ``filters`` input, parsed as paths-filter does (``linkgate.trigger.gatefilter``);
    None when it cannot be read, so the filter is reported as unknown, not as empty."""
    if not isinstance(value, str):
        return None
    from linkgate.errors import ConfigError
    from linkgate.trigger.gatefilter import load_yaml, parse_filters

    text = str.__str__(value)  # libyaml wants an exact str, not a subclass
    # paths-filter treats an input with no newline and no colon as a file path.
    if "\n" not in text and ":" not in text:
        where = text.strip()
        try:
            text = repofs.read_text(where, inside=repo, errors="replace")
        except OSError:  # absent, or refused (outside the repository, not a regular file)
            return None
    try:
        return {name: tuple(rules) for name, rules in parse_filters(load_yaml(text, where), where).items()}
    except ConfigError:
        return None
