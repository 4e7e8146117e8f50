"""`linkgate surface` on the two-crate fixture, built by the real run engine."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "surface" / "ws"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture, committed to git, built once with `surface --build` (here, so that
    every test can run alone or on any worker)."""
    root = tmp_path_factory.mktemp("surface") / "ws"
    shutil.copytree(FIXTURE, root)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"}
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "linkgate", "surface", "top", "--build"], cwd=root,
                   check=False, capture_output=True)
    return root


def run_json(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    monkeypatch.chdir(root)
    rc = main(["surface", "top", "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def set_paths(root: Path, paths: list[str]) -> None:
    text = (FIXTURE / "linkgate.toml").read_text()
    (root / "linkgate.toml").write_text(text.replace('paths = ["top/build.rs"]', f"paths = {json.dumps(paths)}"))


def test_built_surface_and_filter_check(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_paths(workspace, ["top/build.rs"])
    rc, doc = run_json(workspace, monkeypatch, capsys, "--build", "--check-filter")
    assert (doc["schema"], doc["mode"], doc["approximate"]) == ("linkgate.surface/1", "built", False)
    paths = {p["path"]: p["why"] for p in doc["paths"]}
    assert paths["dep/build.rs"] == "build script of package dep emits rustc-link-lib=m"
    assert "vendor/pin.txt" in paths and "dep/native/**" in paths
    assert {"Cargo.lock", "Cargo.toml", "top/Cargo.toml", "dep/Cargo.toml"} <= set(paths)
    assert "top/build.rs" not in paths  # its script emits no link directive
    assert [e["var"] for e in doc["env"]] == ["DEP_MATH_DIR"]
    assert rc == 1
    messages = [f["message"] for f in doc["findings"]]
    assert "dep/build.rs: build script of package dep emits rustc-link-lib=m; not matched by filter top" in messages
    assert any(m.startswith("vendor/pin.txt: rerun-if-changed") and m.endswith("not matched by filter top")
               for m in messages)


def test_a_covering_filter_passes_and_dead_rules_are_named(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_paths(workspace, ["dep/**", "vendor/**", "**/Cargo.toml", "Cargo.lock", "scripts/iree/**"])
    rc, doc = run_json(workspace, monkeypatch, capsys, "--check-filter")
    assert rc == 0
    assert [f["message"] for f in doc["findings"]] == [
        "filter top: rule scripts/iree/** matches no file in the repository"
    ]


def test_static_finds_the_same_link_scripts(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_paths(workspace, ["top/build.rs"])
    _, built = run_json(workspace, monkeypatch, capsys)
    rc, static = run_json(workspace, monkeypatch, capsys, "--static")
    assert rc == 0
    assert (static["mode"], static["approximate"]) == ("static", True)

    def scripts(doc: dict) -> set[str]:  # type: ignore[type-arg]
        return {p["path"] for p in doc["paths"] if p["why"].startswith("build script of package")}

    assert scripts(static) == scripts(built) == {"dep/build.rs"}
    assert {p["path"] for p in static["paths"]} == {p["path"] for p in built["paths"]}


def test_human_output_names_missing_paths(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_paths(workspace, ["top/build.rs"])
    monkeypatch.chdir(workspace)
    assert main(["surface", "top", "--check-filter"]) == 1
    out = capsys.readouterr().out
    assert "vendor/pin.txt" in out and "not matched by filter top" in out
    # What dep's build script emits is said once, on its own row, not on every input's.
    rows = [ln for ln in out.splitlines() if ln.startswith("  ")]
    assert [ln for ln in rows if "emits rustc-link-lib=m" in ln] == [
        "  dep/build.rs  build script of package dep emits rustc-link-lib=m"]
    assert "  vendor/pin.txt  rerun-if-changed: reruns the build script of package dep" in rows
