"""What each start-up imports, read from `python -X importtime` (start-up laziness).

`--version` imports nothing but the entry module and the error codes; `--help`
adds click and the group, never a verb; a warm `run` of one linker never
imports the linker matrix, the classifier (nothing to classify) or YAML.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"


def imported(*args: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "linkgate", *args],
                          capture_output=True, text=True, cwd=cwd)
    return {m.group(1) for m in re.finditer(r"^import time:.*\|\s+([\w.]+)$", done.stderr, re.M)}


def test_version_imports_only_the_entry_module():
    mods = imported("--version")
    assert {m for m in mods if m.startswith("linkgate")} <= {"linkgate", "linkgate.cli", "linkgate.errors"}
    assert not mods & {"click", "typing", "pathlib", "json", "subprocess"}


def test_help_imports_click_and_no_verb():
    mods = imported("--help")
    assert "click" in mods
    verbs = {m for m in mods if m.startswith("linkgate.commands.")} - {"linkgate.commands.group"}
    assert not verbs, verbs
    assert not mods & {"linkgate.config", "tomllib", "sqlite3", "rich", "yaml"}


def test_warm_run_of_one_linker_imports_no_matrix_classifier_or_yaml(tmp_path):
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(DEMO, ws, ignore=shutil.ignore_patterns("target"))
    first = subprocess.run([sys.executable, "-m", "linkgate", "run", "-q", "--no-history", "--linker", "default"],
                           cwd=ws, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    mods = imported("run", "-q", "--no-history", "--no-force-link", "--linker", "default", cwd=ws)
    assert "linkgate.gate.run" in mods
    assert not {m for m in mods if m.startswith(("linkgate.replay", "linkgate.diagnose", "linkgate.ci",
                                                  "linkgate.workflows", "yaml", "ruamel", "rich"))}
    # Nor what a configuration without recipes, a journal without caches, link
    # lines (none were linked), the host name and the packaged wrapper source
    # would otherwise pull in.
    assert not mods & {"linkgate.gate.recipes", "linkgate.cargo.cargoargs", "linkgate.cargo.frontends",
                       "linkgate.gate.linkinputs", "linkgate.prove.caches", "socket", "importlib.resources",
                       "zipfile", "tempfile"}
    # A clean replay of the recorded links classifies nothing either.
    replay = imported("replay", "smoke", "--linker", "default", cwd=ws)
    assert "linkgate.replay.run" in replay
    assert not {m for m in replay if m.startswith("linkgate.diagnose")}


def test_a_warm_no_op_run_describes_no_tree(tmp_path, monkeypatch, capsys):
    """A run that linked nothing leaves nothing to replay: no `git status` of the
    whole tree for a recording (only the run's own commit, branch and dirty flag)."""
    import shutil

    from lgtest import git_repo

    from linkgate.cli import main

    ws = tmp_path / "ws"
    shutil.copytree(DEMO, ws, ignore=shutil.ignore_patterns("target"))
    (ws / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    git_repo(ws)
    monkeypatch.chdir(ws)
    assert main(["run", "-q", "--no-history", "--linker", "default"]) == 0
    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def spy(self, args, *a, **k):  # type: ignore[no-untyped-def]
        started.append([str(x) for x in args])
        real(self, args, *a, **k)

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    assert main(["run", "-q", "--no-history", "--no-force-link", "--linker", "default"]) == 0
    capsys.readouterr()
    assert not [c for c in started if "--untracked-files=all" in c], started
    # Commit, branch and dirty flag come from one `git status`; the build's own inputs
    # (dirty is what the build read) are looked up by their paths, never by a scan of the
    # whole tree's untracked files.
    gits = [c[1:] for c in started if Path(c[0]).name == "git"]
    assert gits[0][:2] == ["status", "--porcelain=v2"], started
    others = [c for c in gits if c[:1] == ["ls-files"] and "--others" in c]
    assert all("--" in c and c.index("--") < len(c) - 1 for c in others), started
