"""`linkgate env-from -- CMD...`: a provisioning script's exports into $GITHUB_ENV."""

from __future__ import annotations

import os
import sys

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
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(rendered)
        sys.stderr.write(f"linkgate: {len(assignments)} variable(s) from {source} written to {target}: "
                         + ", ".join(a.name for a in assignments) + "\n")
    else:
        sys.stdout.write(rendered)
    return 0
