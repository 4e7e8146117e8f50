"""`linkgate ci github GATE`: write the gate's CI job into a workflow, and keep it true."""

from __future__ import annotations

import difflib
import os
import re
import sys
from pathlib import Path

import click

from linkgate.commands.options import config_option, repo_option
from linkgate.errors import EXIT_FINDING, EXIT_OK, UsageError


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
@config_option
@repo_option
def github(gate: str, workflow: str, trigger: str, repository: str | None, after: str | None,
           matrix: bool, mode: str | None, install: str | None, history: str | None,
           config_path: str | None, repo: str | None) -> int:
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
    if source.origin not in ("--install", "[ci] install"):
        sys.stderr.write(f"linkgate: note: the job installs linkgate from {source.spec}, as this linkgate was "
                         f"installed ({source.origin}); set [ci] install or pass --install to choose\n")
    opts = gh.Options(
        workflow=inside_repository(cfg.root, cfg.root / workflow, "--workflow"), trigger=kind, cron=cron,
        repository=repository or _remote_repository(cfg.root), after=after, install=source.spec,
        matrix=matrix, keep_measured=mode == "check" and history is None,
    )
    result = gh.plan(cfg, selected, facts_mod.gather(cfg, selected, history), opts)
    for note in result.notes:
        sys.stderr.write(f"linkgate: note: {note}\n")
    changed = result.changed()
    if mode is None:
        sys.stdout.write(result.preview)
        return EXIT_OK
    if mode == "check":
        for path, (old, new) in changed.items():
            rel = os.path.relpath(path, cfg.root)
            sys.stdout.writelines(difflib.unified_diff(
                (old or "").splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}"))
        if changed:
            sys.stderr.write(f"linkgate: {len(changed)} file(s) differ from what `linkgate ci github {gate} "
                             "--write` would write (diff above)\n")
            return EXIT_FINDING
        return EXIT_OK
    for path in changed:
        inside_repository(cfg.root, path, "the file to write")
    for path, (_old, new) in changed.items():
        _write_keeping_mode(path, new)
        sys.stderr.write(f"linkgate: wrote {os.path.relpath(path, cfg.root)}\n")
    if not changed:
        sys.stderr.write("linkgate: already up to date; nothing written\n")
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


def _write_keeping_mode(path: Path, text: str) -> None:
    import tempfile

    from linkgate.report import OutputError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:  # disk full, read-only: the workflow stays as it was
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
