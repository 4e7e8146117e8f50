"""`linkgate vendor`: keep this linkgate's wheel in the repository, for the CI job to install."""

from __future__ import annotations

import click

from linkgate.commands.options import repo_option
from linkgate.errors import EXIT_FINDING, EXIT_OK


@click.command("vendor")
@click.option("--dir", "directory", default=".github/linkgate", show_default=True,
              help="Where the wheel and linkgate.lock go, relative to the repository root.")
@click.option("--check", is_flag=True, help="Exit 1 when the vendored wheel and linkgate.lock disagree; build nothing.")
@repo_option
def command(directory: str, check: bool, repo: str | None) -> int:
    """Build this linkgate into a wheel under the repository, its sha256 in linkgate.lock.

    `ci github` then writes a job that checks the wheel's hash and installs
    exactly that file: nothing to publish, nothing that can move.
    """
    from pathlib import Path

    from linkgate.ci import vendor
    from linkgate.config import repository_root
    from linkgate.errors import UsageError

    start = Path(repo) if repo else Path.cwd()
    root = repository_root(start)
    if root is None:
        raise UsageError(f"{start} is not inside a git repository",
                         hint="run linkgate vendor in the repository whose CI installs linkgate, or pass --repo")
    if check:
        problems = vendor.problems(root, directory)
        for p in problems:
            click.echo(f"linkgate: {p}", err=True)
        if not problems:
            found = vendor.read_lock(root, directory)
            assert found is not None
            click.echo(f"{found.path}: sha256 {found.sha256} matches {directory}/{vendor.LOCK_NAME}")
        return EXIT_FINDING if problems else EXIT_OK
    from linkgate.ci.install import build_source

    source, said = build_source()
    click.echo(f"building this linkgate's wheel from {said} (pip wheel --no-deps) ...", err=True)
    done = vendor.write(root, source, said, directory)
    click.echo(f"wrote {done.path} (sha256 {done.sha256}) and {directory}/{vendor.LOCK_NAME}; "
               "commit both: `linkgate ci github GATE --write` installs that wheel")
    return EXIT_OK
