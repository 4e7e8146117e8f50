"""`linkgate env-from -- CMD...`: a provisioning script's exports into $GITHUB_ENV."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click


@click.command("env-from", context_settings={"ignore_unknown_options": True})
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Append to FILE (default: $GITHUB_ENV when set, else stdout).")
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def command(output: str | None, argv: tuple[str, ...]) -> int:
    """Run CMD (or read stdin when no CMD is given), parse the `export VAR=value`
    lines it prints as bash would, and write them in GitHub's $GITHUB_ENV format
    (the `NAME<<DELIMITER` form for values that span lines)."""
    from linkgate import proc
    from linkgate.ci import envfile
    from linkgate.errors import UsageError

    if argv:
        done = proc.run(list(argv), check=True)
        if done.stderr:
            sys.stderr.write(done.stderr)
        text, source = done.stdout, " ".join(argv)
    else:
        text, source = sys.stdin.read(), "stdin"
    try:
        assignments = envfile.parse(text, os.environ)
    except envfile.EnvSyntaxError as exc:
        raise UsageError(
            f"cannot read the environment printed by {source}: {exc}",
            hint="the command must print only `export NAME=value` or `NAME=value` lines",
        ) from None
    rendered = envfile.render(assignments)
    target = output or os.environ.get("GITHUB_ENV")
    if target:
        _append(Path(target), rendered)
        sys.stderr.write(f"linkgate: {len(assignments)} variable(s) from {source} written to {target}: "
                         + ", ".join(a.name for a in assignments) + "\n")
    else:
        sys.stdout.write(rendered)
    return 0


def _append(path: Path, text: str) -> None:
    """Append all of *text* or nothing: $GITHUB_ENV is read line by line, and half a
    heredoc block would swallow whatever a later step appends."""
    from linkgate.report import OutputError

    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as exc:
        raise OutputError(path, exc) from None
    try:
        start = os.fstat(fd).st_size
        data = text.encode("utf-8")
        written = 0
        try:
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError as exc:
            os.ftruncate(fd, start)
            raise OutputError(path, exc) from None
    finally:
        os.close(fd)
