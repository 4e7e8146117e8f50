"""The audit of a CI shaped like a large ML runtime (tests/fixtures/audit/mlruntime): 26 cargo
invocations in 7 workflows through every shape the audit reads (paths-filter outputs ORed in a
job `if:`, an optional CUDA -sys crate behind `dep:`, cargo aliases, xtask, just, cargo make,
npm scripts, maturin and its action, pwsh default shells on Windows, runs-on per matrix
combination, `git rev-parse --show-toplevel`, `sh -s`, trigger paths and paths-ignore, a
nightly that also runs on a feature-branch push). A registry dependency that cannot resolve
offline makes the audit read the workspace without a registry.

What it must say: no filter-misses-surface for the OR of filters, nothing about the CUDA crate
for the job that does not turn it on, and link-only-on-schedule for the set linked only
nightly and on the feature-branch push."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "mlruntime"


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    repo = tmp_path_factory.mktemp("mlruntime") / "repo"
    shutil.copytree(FIXTURE, repo)
    out = repo.parent / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    loaded: dict[str, Any] = json.loads(out.read_text())
    return loaded


def test_every_invocation_with_its_package_set(doc: dict[str, Any]) -> None:
    got = [(i["workflow"].rsplit("/", 1)[1], f"{i['file']}:{i['line']}", i["program"], i["subcommand"],
            i["feature_sets_by_package"], i["links"], i["matrix"]) for i in doc["invocations"]]
    ci, ubuntu, macos, windows = ".github/workflows/ci.yml", {"os": "ubuntu-latest"}, {"os": "macOS-latest"}, \
        {"os": "windows-latest"}
    py = ".github/workflows/python.yml"
    assert got == [
        ("ci.yml", f"{ci}:39", "cargo", "test", ["mlrt: cuda"], True, {}),
        ("ci.yml", f"{ci}:46", "cargo", "build", ["mlrt: default"], True, {}),
        # cd "$(git rev-parse --show-toplevel)/crates/core"
        ("ci.yml", f"{ci}:49", "cargo", "test", ["mlrt-core: default"], True, {}),
        # `sh -s -- -b /usr/local/bin` (line 57) runs no script; `cargo xla-test` is an alias.
        ("ci.yml", f"{ci}:58", "cargo", "test", ["mlrt: xla"], True, {}),
        ("ci.yml", f"{ci}:59", "cargo", "check", ["mlrt: xla"], False, {}),
        # `--features cuda,cpu`: cpu is a default feature.
        ("ci.yml", f"{ci}:64", "cargo", "clippy", ["mlrt: cuda"], False, {}),
        ("ci.yml", f"{ci}:65", "cargo", "run", ["xtask: default"], True, {}),
        # `just bench`: the parameter's default `cpu` is a default feature.
        ("ci.yml", "justfile:4", "cargo", "bench", ["mlrt: default"], True, ubuntu),
        ("ci.yml", "justfile:4", "cargo", "bench", ["mlrt: default"], True, macos),
        ("ci.yml", "justfile:7", "cargo", "test", ["mlrt: metal"], True, macos),
        ("docs.yml", ".github/workflows/docs.yml:11", "cargo", "doc", ["mlrt: default"], False, {}),
        ("docs.yml", "Makefile.toml:2", "cargo", "test", ["mlrt: default"], True, {}),
        ("nightly.yml", ".github/workflows/nightly.yml:13", "cargo", "test", ["mlrt: cuda,xla"], True, {}),
        ("nightly.yml", ".github/workflows/nightly.yml:14", "cargo", "build", ["mlrt: metal"], True, {}),
        # The action in crates/py with pyproject features, on every runner.
        ("python.yml", f"{py}:14", "maturin", "build", ["mlrt-py: python"], True, ubuntu),
        ("python.yml", f"{py}:20", "maturin", "build", ["mlrt-py: python"], True, ubuntu),  # pip install -e
        ("python.yml", f"{py}:14", "maturin", "build", ["mlrt-py: python"], True, windows),
        # pwsh (the Windows default) with a backtick continuation.
        ("python.yml", f"{py}:24", "maturin", "build", ["mlrt-py: cuda"], True, windows),
        ("python.yml", f"{py}:14", "maturin", "build", ["mlrt-py: python"], True, macos),
        ("release.yml", ".github/workflows/release.yml:13", "maturin", "build", ["mlrt-py: cuda"], True,
         {"target": "x86_64"}),
        ("release.yml", ".github/workflows/release.yml:13", "maturin", "build", ["mlrt-py: cuda"], True,
         {"target": "aarch64"}),
        ("release.yml", ".github/workflows/release.yml:26", "cargo-zigbuild", "zigbuild", ["mlrt: default"], True,
         {}),
        ("web.yml", "web/package.json:5", "wasm-pack", "build", ["mlrt-web: default"], True, {}),
        # foreach over a list set in the script; `if ($IsWindows)` decided on the Windows runner.
        ("windows.yml", ".github/workflows/windows.yml:14", "cargo", "test", ["mlrt: default"], True, {}),
        ("windows.yml", ".github/workflows/windows.yml:14", "cargo", "test", ["mlrt: default"], True, {}),
        ("windows.yml", ".github/workflows/windows.yml:16", "cargo", "build", ["mlrt: default"], True, {}),
    ]
    assert len({i["workflow"] for i in doc["invocations"]}) == 7


def test_findings_or_of_filters_optional_dependency_and_feature_branch_nightly(doc: dict[str, Any]) -> None:
    assert [(f["rule"], f"{f['file']}:{f['line']}", f["subject"]) for f in doc["findings"]] == [
        # Linked only by the nightly, which also runs on pushes to fix/xla-cuda-link: not on main.
        ("link-only-on-schedule", ".github/workflows/nightly.yml:13", "cuda,xla"),
        ("unresolved", ".github/workflows/ci.yml:65", "cargo xtask"),
    ]
    # No registry: the workspace was read without one, and said so once.
    assert len(doc["notes"]) == 1 and "--no-deps" in doc["notes"][0]
