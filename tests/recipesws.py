"""The -sys fixture with three link recipes, copied and committed to git (importable from tests/)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "recipes" / "ws"
SELECTORS = ("ACMERT_DIST", "ACMERT_HOME", "RUNNER_NAME", "LINKGATE_HISTORY", "CARGO_BUILD_TARGET")


def make_workspace(root: Path) -> Path:
    shutil.copytree(FIXTURE, root)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True, capture_output=True)
    return root


def head(root: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, check=True, capture_output=True,
                          text=True).stdout.strip()


def gate_only_config(root: Path) -> Path:
    """The fixture's configuration without its [[recipe]] entries, as before anyone wrote them."""
    text = (root / "linkgate.toml").read_text()
    path = root / "gate-only.toml"
    path.write_text(text[: text.index("[[recipe]]")])
    return path
