"""`linkgate matrix [GATE...]`: the (gate, linker, runs-on) legs for a GitHub Actions matrix."""

from __future__ import annotations

import json
import sys

import click

from linkgate.commands.options import config_option, repo_option


@click.command("matrix")
@click.argument("gates", nargs=-1)
@config_option
@repo_option
def command(gates: tuple[str, ...], config_path: str | None, repo: str | None = None) -> int:
    """Print {"include": [{"gate", "linker", "runs-on"}, ...]} for
    `strategy.matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}`."""
    from linkgate import config as config_mod
    from linkgate.ci.matrix import plan

    cfg = config_mod.load(config_path, root=repo)
    sys.stdout.write(json.dumps(plan(cfg.select(gates)), separators=(",", ":")) + "\n")
    return 0
