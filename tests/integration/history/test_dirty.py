"""Every verdict names the tree it judged: commit, branch, and whether tracked files differed.

Real git, cargo, GNU ld and SQLite on the ordersys fixture (its archives put
in the right order, so it links).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main
from linkgate.history.store import History

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ordersys"
WRONG = "static:-bundle=helper\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=shim"
RIGHT = "static:-bundle=shim\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=helper"
CONTROL = """
[[gate.control]]
name = "swap-archives"
file = "ordsys/build.rs"
replace = { pattern = 'bundle=shim("\\);\\n.*-)bundle=helper', with = 'bundle=helper\\1bundle=shim' }
linkers = ["bfd"]
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ordersys"
    shutil.copytree(FIXTURE, root)
    script = root / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["bfd", "default"]') + CONTROL)
    git_repo(root)
    git(root, "checkout", "-qb", "feature")
    monkeypatch.chdir(root)
    return root


def _run(capsys: pytest.CaptureFixture[str], history: Path) -> dict:
    """The bfd result; the default linker's (relinked from bfd's build) must say the same."""
    assert main(["run", "-q", "--format", "json", "--history", str(history)]) == 0
    bfd, other = json.loads(capsys.readouterr().out)["results"]
    assert (other["linker"], other["commit"], other["branch"], other["dirty"]) == (
        "default", bfd["commit"], bfd["branch"], bfd["dirty"])
    return bfd


def test_an_uncommitted_edit_is_dirty_in_the_json_and_the_history(repo, tmp_path, capsys):
    history = tmp_path / "h.sqlite"
    head = git(repo, "rev-parse", "HEAD").strip()
    clean = _run(capsys, history)
    assert (clean["commit"], clean["branch"], clean["dirty"]) == (head, "feature", False)

    lib = repo / "app/src/lib.rs"
    lib.write_text(lib.read_text() + "// an edit nobody committed\n")
    dirty = _run(capsys, history)
    assert (dirty["commit"], dirty["dirty"]) == (head, True)

    # A control's outcome is about the tree before its own mutation: clean here.
    git(repo, "checkout", "--", "app/src/lib.rs")
    assert main(["prove", "-q", "--format", "json", "--history", str(history)]) == 0
    capsys.readouterr()

    with History.open(history, readonly=True) as h:
        rows = {(r.kind, r.run_id): r for r in h.runs()}
    by_id = {rid: r for (_, rid), r in rows.items()}
    assert by_id[clean["run_id"]].dirty is False
    assert by_id[dirty["run_id"]].dirty is True
    (proved,) = [r for (kind, _), r in rows.items() if kind == "prove"]
    assert (proved.verdict, proved.commit, proved.branch, proved.dirty) == ("caught", head, "feature", False)

    # The HTML page and the CI comment say which commit (and tree) each outcome comes from.
    page = tmp_path / "r.html"
    assert main(["report", "html", "-o", str(page), "--history", str(history)]) == 0
    html = page.read_text()
    assert f"<code>{head[:12]}</code> feature" in html
    assert "+ uncommitted changes" in html
    controls = html[html.index('id="controls-table"'):]
    assert f"<code>{head[:12]}</code>" in controls
    capsys.readouterr()
    workflow = repo / ".github/workflows/ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("name: ci\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
                        "    steps:\n      - run: cargo test\n")
    spec = "git+https://github.com/example/linkgate@" + "0" * 40
    rc = main(["ci", "github", "calls", "--install", spec, "--history", str(history)])
    comment = capsys.readouterr()
    assert rc == 0, comment.err
    comment = comment.out
    assert f"swap-archives [bfd]: caught (commit {head[:12]} on feature)" in comment


def test_the_context_of_a_detached_head_an_unborn_branch_and_no_git(tmp_path, monkeypatch):
    """One `git status --porcelain=v2 --branch` names commit, branch and dirty flag;
    detached, the branch comes from GitHub's environment; before the first commit,
    or outside git, none of the three is known."""
    import os

    from linkgate.gate.measure import context

    for var in ("GITHUB_HEAD_REF", "GITHUB_REF_NAME", "GITHUB_SHA"):
        monkeypatch.delenv(var, raising=False)
    none = tmp_path / "none"
    none.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    ctx = context(none)
    assert (ctx.commit, ctx.branch, ctx.dirty, ctx.host) == (None, None, None, os.uname().nodename)

    unborn = tmp_path / "unborn"
    unborn.mkdir()
    git(unborn, "init", "-q")
    (unborn / "a").write_text("a\n")
    git(unborn, "add", "a")
    assert (context(unborn).commit, context(unborn).branch, context(unborn).dirty) == (None, None, None)

    git(unborn, "commit", "-qm", "a")
    head = git(unborn, "rev-parse", "HEAD").strip()
    git(unborn, "checkout", "-q", "--detach")
    (unborn / "a").write_text("b\n")
    ctx = context(unborn)
    assert (ctx.commit, ctx.branch, ctx.dirty) == (head, None, True)
    monkeypatch.setenv("GITHUB_HEAD_REF", "topic/x")
    assert context(unborn).branch == "topic/x"
