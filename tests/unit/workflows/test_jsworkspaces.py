"""Workspace globs are expanded inside the repository only, whatever they or a symlink name."""

from __future__ import annotations

import json
from pathlib import Path

from linkgate.workflows.indirect import RepoHost
from linkgate.workflows.tasks import task_recipes


def _package(directory: Path, name: str, build: str, **extra: object) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "package.json").write_text(json.dumps({"name": name, "scripts": {"build": build}, **extra}))


def test_globs_and_symlinks_that_leave_the_repository_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    _package(outside / "pkg", "@x/evil", "cargo build --features evil")
    repo = tmp_path / "repo"
    _package(repo, "root", "true", workspaces=["packages/*", "../outside/*", "/etc/*"])
    _package(repo / "packages" / "a", "@x/a", "cargo build --features a")
    (repo / "packages" / "link").symlink_to(outside / "pkg")
    host = RepoHost(repo)
    recipes, problems = task_recipes(host.read_script, ("npm", "run", "build", "--workspaces"), "", {},
                                     host.workspace_dirs)
    assert [(r.file, r.text, r.cwd) for r in recipes] == [("packages/a/package.json", "cargo build --features a",
                                                            "packages/a")]
    assert problems == []


def test_a_workspace_without_the_script_is_skipped_by_yarn_and_named_by_npm(tmp_path: Path) -> None:
    _package(tmp_path, "root", "yarn workspaces foreach -A run build", workspaces=["packages/*"])
    _package(tmp_path / "packages" / "a", "@x/a", "cargo build")
    (tmp_path / "packages" / "b").mkdir()
    (tmp_path / "packages" / "b" / "package.json").write_text('{"name": "@x/b", "scripts": {}}')
    host = RepoHost(tmp_path)
    yarn, yarn_problems = task_recipes(host.read_script, ("yarn", "workspaces", "foreach", "-A", "run", "build"),
                                       "", {}, host.workspace_dirs)
    # -A takes the root too, but the root's own build is this foreach: not run into itself.
    assert [(r.file, r.text) for r in yarn] == [("packages/a/package.json", "cargo build")]
    assert yarn_problems == []
    npm, npm_problems = task_recipes(host.read_script, ("npm", "run", "build", "-ws"), "", {}, host.workspace_dirs)
    assert [r.file for r in npm] == ["packages/a/package.json"]
    assert npm_problems == [("packages/b/package.json: no script 'build'", False)]
