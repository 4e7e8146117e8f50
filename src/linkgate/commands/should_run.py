"""`linkgate should-run GATE`: would dorny/paths-filter trigger this gate?

Kept light on purpose (no rich, no ruamel): a workflow calls it on every
pull request before deciding whether to spend minutes on a link.
"""

from __future__ import annotations

import os
import re
import sys

import click

from linkgate.errors import UsageError


def output_key(gate: str) -> str:
    """A step-output name GitHub accepts: letters, digits, `-` and `_`, not starting with a digit."""
    key = re.sub(r"[^A-Za-z0-9_-]", "_", gate)
    return "_" + key if not key or key[0].isdigit() or key[0] == "-" else key


def _default_base() -> str:
    base_ref = os.environ.get("GITHUB_BASE_REF")
    if base_ref:
        return f"origin/{base_ref}"
    raise UsageError(
        "no --base given and GITHUB_BASE_REF is not set",
        hint="pass --base REF (e.g. --base origin/main)",
    )


@click.command("should-run")
@click.argument("gate")
@click.option("--base", default=None, help="Base ref (default: origin/$GITHUB_BASE_REF on a pull request).")
@click.option("--head", default="HEAD", show_default=True, help="Head ref.")
@click.option(
    "--config", "config_path", type=click.Path(dir_okay=False), default=None, help="Configuration file."
)
def command(gate: str, base: str | None, head: str, config_path: str | None) -> int:
    """Print true or false; under GitHub Actions also set the step output GATE.

    A gate with no paths and no paths-from always runs. Exit 0 either way.
    """
    from linkgate import config as config_mod
    from linkgate.trigger.gatefilter import gate_filter
    from linkgate.trigger.gitdiff import changed_files

    cfg = config_mod.load(config_path)
    selected = cfg.gate(gate)
    path_filter = gate_filter(cfg, selected)
    if path_filter is None:
        answer = True
    else:
        changes = changed_files(base or _default_base(), head, cwd=cfg.root)
        answer = path_filter.any_match((c.path, c.status) for c in changes)
    text = "true" if answer else "false"
    sys.stdout.write(text + "\n")
    if os.environ.get("GITHUB_ACTIONS") == "true" and os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as fh:
            fh.write(f"{output_key(selected.name)}={text}\n")
    return 0
