"""`filter-misses-surface`: a link job's paths filter against the static causal surface.

The fixture repository (tests/fixtures/audit/repo) gains tests/fixtures/audit/surface:
a crate whose build script emits rustc-link-lib and reruns on a header, and a
workflow whose xla_link filter guards the job linking it. Real cargo metadata runs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from linkgate.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audit"
WORKFLOW = ".github/workflows/xla.yml"
FILTER_LINE = 14  # the filter's own line: `xla_link:` in the step's filters


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "repo", dest)
    shutil.copytree(FIXTURES / "surface", dest, dirs_exist_ok=True)
    return dest


def surface_findings(repo: Path) -> tuple[int, list[dict]]:  # type: ignore[type-arg]
    out = repo.parent / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc = json.loads(out.read_text())
    assert doc["skipped_checks"] == []
    return rc, [f for f in doc["findings"] if f["rule"] == "filter-misses-surface" or f["subject"] == "xla_link"]


def test_filter_missing_a_rerun_if_changed_file_is_an_error_at_the_filter(repo: Path) -> None:
    rc, found = surface_findings(repo)
    assert rc == 1
    assert [(f["rule"], f["level"], f["file"], f["line"]) for f in found] == [
        ("filter-misses-surface", "error", WORKFLOW, FILTER_LINE)
    ]
    [f] = found
    assert f["message"].startswith(
        "filter xla_link misses 1 path(s) that change what package core links "
        "(its build script or the inputs that rerun it): crates/core/native/cusolver.h;"
    )
    assert f"xla/xla-link ({WORKFLOW}:24)" in f["message"]
    assert f["paths"] == ["crates/core/native/cusolver.h"]
    # A directory glob keeps covering new inputs; the missed file's own directory is the tightest one.
    assert f["suggest"] == ["crates/core/native/**"]
    assert f["hint"] == "add 'crates/core/native/**' to filter xla_link"


def test_build_script_outside_the_filter_is_the_same_finding(repo: Path) -> None:
    wf = repo / WORKFLOW
    wf.write_text(wf.read_text().replace("              - 'crates/core/build.rs'\n", ""))
    _, found = surface_findings(repo)
    assert [(f["rule"], f["subject"], f["paths"]) for f in found] == [
        ("filter-misses-surface", "xla_link: core", ["crates/core/build.rs", "crates/core/native/cusolver.h"])
    ]
    assert "crates/core/build.rs, crates/core/native/cusolver.h;" in found[0]["message"]


def test_filter_covering_the_surface_gives_no_finding(repo: Path) -> None:
    wf = repo / WORKFLOW
    wf.write_text(wf.read_text().replace("'crates/core/src/**'", "'crates/core/native/**'\n              - 'crates/core/src/**'"))
    _, found = surface_findings(repo)
    assert found == []


def test_tracked_files_come_from_git_when_it_is_a_repository(repo: Path) -> None:
    """A directory rerun-if-changed is checked file by file against what git tracks;
    files git does not track are neither missed nor suggested."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from linkgate import proc

    build = repo / "crates/core/build.rs"
    build.write_text(build.read_text().replace("native/cusolver.h", "native"))
    (repo / "crates/core/native/untracked.h").write_text("")
    wf = repo / WORKFLOW
    wf.write_text(wf.read_text().replace("'crates/core/src/**'", "'crates/core/native/*.h'\n              - 'crates/core/src/**'"))
    (repo / "crates/core/native/tracked.inc").write_text("")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    proc.run([*git, "init", "-q"], cwd=repo)
    proc.run([*git, "add", "crates", ".github", "Cargo.toml"], cwd=repo)
    proc.run(["git", "rm", "-q", "--cached", "crates/core/native/untracked.h"], cwd=repo)
    _, found = surface_findings(repo)
    assert [(f["rule"], f["paths"]) for f in found] == [
        ("filter-misses-surface", ["crates/core/native/tracked.inc"])
    ]
