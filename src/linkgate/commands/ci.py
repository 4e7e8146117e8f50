"""`linkgate ci github GATE`: write the gate's CI job into a workflow, and keep it true."""

from __future__ import annotations

import difflib
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from linkgate.commands.options import config_option, repo_option
from linkgate.errors import EXIT_FINDING, EXIT_OK, UsageError

if TYPE_CHECKING:
    from linkgate.ci.github import Plan


@click.group("ci")
def command() -> None:
    """Write linkgate's gates into CI workflows."""


@command.command("github", short_help="Print, --write or --check the GitHub Actions job for GATE.")
@click.argument("gate")
@click.option("--workflow", "workflow", default=".github/workflows/ci.yml", show_default=True,
              help="Workflow to edit, relative to the repository root.")
@click.option("--trigger", default="every-pr", show_default=True,
              help="every-pr | paths | schedule:CRON (a separate workflow file).")
@click.option("--repository", default=None, help="owner/name for the self-hosted fork guard (default: git remote).")
@click.option("--after", default=None, help="Insert the job after this job (default: after the last job).")
@click.option("--matrix", "matrix", is_flag=True, help="One job per linker (plan, legs, merge) instead of one job.")
@click.option("--write", "mode", flag_value="write", help="Insert or update the job in the workflow.")
@click.option("--check", "mode", flag_value="check", help="Exit 1 when the workflow differs from what --write would write.")
@click.option("--install", "install", default=None, metavar="SPEC",
              help="What the job pip-installs linkgate from, pinned (default: [ci] install in the configuration, "
              "else how this linkgate was installed: its git commit, archive hash or index version).")
@click.option("--history", "history", type=click.Path(dir_okay=False), default=None,
              help="History database for cost and controls (default: .linkgate/history.sqlite, or $LINKGATE_HISTORY); "
              "with --check, also compare the measured facts against it.")
@click.option("--strict", is_flag=True,
              help="Refuse an install spec from a package index that cannot be shown to be this linkgate.")
@config_option
@repo_option
def github(gate: str, workflow: str, trigger: str, repository: str | None, after: str | None,
           matrix: bool, mode: str | None, install: str | None, history: str | None,
           config_path: str | None, repo: str | None, strict: bool = False) -> int:
    """Print (default), --write or --check the GitHub Actions job for GATE."""
    from linkgate import config as config_mod
    from linkgate.ci import facts as facts_mod
    from linkgate.ci import github as gh
    from linkgate.ci import install as install_mod
    from linkgate.ci.untrusted import check_repository, inside_repository

    cfg = config_mod.load(config_path, root=repo)
    selected = cfg.gate(gate)
    kind, cron = gh.parse_trigger(trigger)
    if repository is not None:
        check_repository(repository, "--repository")
    source = install_mod.resolve(cfg, install)
    if source.origin == "vendored":
        sys.stderr.write(f"linkgate: note: the job installs the vendored wheel {source.spec}, checked by its sha256 "
                         "(`linkgate vendor --check` keeps the lock true)\n")
    elif source.origin not in ("--install", "[ci] install"):
        sys.stderr.write(f"linkgate: note: the job installs linkgate from {source.spec}, as this linkgate was "
                         f"installed ({source.origin}); set [ci] install or pass --install to choose\n")
    risk = install_mod.index_risk(source.spec)
    if risk is not None:
        if strict:
            raise UsageError(f"install spec {source.spec!r}: {risk}",
                             hint="vendor this linkgate (`linkgate vendor`) or pin a git commit with --install")
        sys.stderr.write(f"linkgate: warning: install spec {source.spec!r}: {risk}; `linkgate vendor` keeps the "
                         "exact wheel in the repository (--strict refuses this spec)\n")
    opts = gh.Options(
        workflow=inside_repository(cfg.root, cfg.root / workflow, "--workflow"), trigger=kind, cron=cron,
        repository=repository or _remote_repository(cfg.root), after=after, install=source.spec,
        install_sha256=source.sha256, setup_python=cfg.ci.setup_python,
        matrix=matrix, keep_measured=mode == "check" and history is None,
    )
    if mode != "write":
        return _show(cfg.root, gate, mode, gh.plan(cfg, selected, facts_mod.gather(cfg, selected, history), opts))
    from linkgate.ci import write

    # Plan under the lock too: the plan reads the workflow the write replaces.
    with write.writers_lock(cfg.root, lambda msg: sys.stderr.write(f"linkgate: {msg}\n")):
        result = gh.plan(cfg, selected, facts_mod.gather(cfg, selected, history), opts)
        _notes(result.notes)
        changed = result.changed()
        for path in changed:
            inside_repository(cfg.root, path, "the file to write")
        for path in result.edits:
            for stale in write.remove_stale_temps(path):
                sys.stderr.write(f"linkgate: removed {os.path.relpath(stale, cfg.root)}, left by an interrupted "
                                 "write\n")
        for path, (_old, new) in changed.items():
            write.write_keeping_mode(path, new)
            sys.stderr.write(f"linkgate: wrote {os.path.relpath(path, cfg.root)}\n")
    if not changed:
        sys.stderr.write("linkgate: already up to date; nothing written\n")
    return EXIT_OK


def _notes(notes: list[str]) -> None:
    for note in notes:
        sys.stderr.write(f"linkgate: note: {note}\n")


def _show(root: Path, gate: str, mode: str | None, result: Plan) -> int:
    """Print the job (no mode) or the diff against what --write would write (--check)."""
    _notes(result.notes)
    if mode is None:
        sys.stdout.write(result.preview)
        return EXIT_OK
    changed = result.changed()
    for path, (old, new) in changed.items():
        rel = os.path.relpath(path, root)
        sys.stdout.writelines(difflib.unified_diff(
            (old or "").splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}"))
    if changed:
        sys.stderr.write(f"linkgate: {len(changed)} file(s) differ from what `linkgate ci github {gate} "
                         "--write` would write (diff above)\n")
        return EXIT_FINDING
    return EXIT_OK


_REMOTE = re.compile(r"github\.com[:/](?P<repo>[^/\s]+/[^/\s]+?)(?:\.git)?/?$")


def _remote_repository(root: Path) -> str | None:
    from linkgate import proc
    from linkgate.errors import LinkgateError

    try:
        url = proc.run(["git", "-C", str(root), "remote", "get-url", "origin"], check=False).stdout.strip()
    except LinkgateError:
        return None
    m = _REMOTE.search(url)
    if m is None:
        return None
    from linkgate.ci.untrusted import check_repository

    try:
        return check_repository(m["repo"], "the origin remote")
    except UsageError:
        return None  # not GitHub's owner/name: as if unknown (a self-hosted gate then asks for --repository)
