"""`linkgate should-run GATE`: would dorny/paths-filter trigger this gate?

Kept light on purpose (no rich, no ruamel): a workflow calls it on every
pull request before deciding whether to spend minutes on a link.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from linkgate.commands.options import repo_option
from linkgate.errors import CommandFailed, LinkgateError

if TYPE_CHECKING:
    from linkgate.config import Config, Gate
    from linkgate.trigger.pathfilter import PathFilter


def output_key(gate: str) -> str:
    """A step-output name GitHub accepts: letters, digits, `-` and `_`, not starting with a digit."""
    key = re.sub(r"[^A-Za-z0-9_-]", "_", gate)
    return "_" + key if not key or key[0].isdigit() or key[0] == "-" else key


@click.command("should-run")
@click.argument("gate")
@click.option(
    "--base", default=None,
    help="Base ref, diffed against the merge base (default: from the GitHub event, as dorny/paths-filter does).",
)
@click.option(
    "--head", default=None,
    help="Head ref (default: the event's head commit for a pull request or merge group, else HEAD).",
)
@click.option(
    "--config", "config_path", type=click.Path(dir_okay=False), default=None, help="Configuration file."
)
@repo_option
def command(gate: str, base: str | None, head: str | None, config_path: str | None, repo: str | None) -> int:
    """Print true or false; under GitHub Actions also set the step output GATE.

    Without --base the comparison follows the event in $GITHUB_EVENT_NAME and
    $GITHUB_EVENT_PATH: a pull request's base, a push's previous commit (or the
    merge base with the default branch), a merge group's base; schedule and
    workflow_dispatch always run. The reason goes to stderr.
    A gate with no paths and no paths-from always runs. When the change cannot
    be told (an event value that is not a commit or ref, a commit git does not
    know, git failing) it prints true and says why: exit 0 either way; exit 2
    only for a bad configuration or an unknown gate.
    """
    from linkgate import config as config_mod
    from linkgate.trigger.gatefilter import gate_filter

    cfg = config_mod.load(config_path, root=repo)
    selected = cfg.gate(gate)
    path_filter = gate_filter(cfg, selected)
    if path_filter is None:
        answer = True
        reason = f"gate {selected.name!r} has no paths filter, so it always runs"
    else:
        try:
            answer, reason = _decide(cfg, selected, path_filter, base, head)
        except LinkgateError as exc:
            # Fail closed: a value that is not a commit, a commit git does not
            # know, a git that fails: the gate runs, and the log says why in
            # one line. Never "false" on an error.
            answer = True
            reason = f"cannot tell what changed, so the gate runs: {_one_line(exc)}"
    sys.stderr.write(f"linkgate: should-run {selected.name}: {reason}\n")
    text = "true" if answer else "false"
    sys.stdout.write(text + "\n")
    if os.environ.get("GITHUB_ACTIONS") == "true" and os.environ.get("GITHUB_OUTPUT"):
        target = os.environ["GITHUB_OUTPUT"]
        try:
            with open(target, "a", encoding="utf-8") as fh:
                fh.write(f"{output_key(selected.name)}={text}\n")
        except OSError as exc:
            # Without the output the job's `if:` reads it as not true and skips the
            # gate: fail the step instead (exit 3), never skip silently.
            from linkgate.report import OutputError

            raise OutputError(Path(target), exc) from None
    return 0


def _decide(cfg: Config, selected: Gate, path_filter: PathFilter, base: str | None,
            head: str | None) -> tuple[bool, str]:
    from linkgate.trigger import event

    comparison = event.for_repository(base, head, cfg.root)
    reason = comparison.reason
    if comparison.always:
        return True, reason
    changes = event.changes(comparison, cfg.root)
    answer = path_filter.any_match((c.path, c.status) for c in changes)
    reason += "; " + _why(path_filter, [(c.path, c.status) for c in changes], answer)
    if not answer:
        from linkgate.trigger.gatedef import definition_change

        # The gate's own definition (its env, cargo arguments, linkers) decides what
        # links, and no filter is expected to name the configuration file.
        changed = definition_change(cfg, selected, comparison, (c.path for c in changes))
        if changed is not None:
            answer = True
            reason += f"; {changed}"
    return answer, reason


def _one_line(exc: LinkgateError) -> str:
    if isinstance(exc, CommandFailed):
        first = next((ln for ln in exc.stderr.splitlines() if ln.strip()), "")
        return f"{exc.argv[0]} {exc.argv[1] if len(exc.argv) > 1 else ''} exited {exc.returncode}: {first}"
    return " ".join(exc.message.split())


def _why(path_filter: PathFilter, changes: list[tuple[str, str | None]], answer: bool) -> str:
    """Which changed file decided it, by which rule; or how many files none matched."""
    if not answer:
        return f"none of {len(changes)} changed file(s) matches the filter"
    for path, status in changes:
        if path_filter.matches(path, status):
            rule = next((r for r in path_filter.rules if r.matches(path, status)), None)
            shown = f" (rule {rule})" if rule is not None and path_filter.quantifier == "some" else ""
            return f"{path} matches{shown}"
    return "a changed file matches the filter"
