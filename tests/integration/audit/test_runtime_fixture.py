"""The audit on a repository shaped like a large native ML runtime (tests/fixtures/audit/runtime).

Root package with features and a registry dependency (`half`) that cannot
resolve offline; `crates/core` whose build script has 31 rerun-if-changed
inputs (the vendored MLX tree's CMake and sources, patches, native headers)
and emits static and CUDA link libs; an `xla` member; a library-only member;
a CI workflow with a paths-filter `changes` job whose `link` filter is narrow,
self-hosted check and link jobs behind a repository guard, a lib-only build,
a matrix job calling `ci/test.bash cargo ${{ matrix.target }}`, cargo hack;
and a nightly `make verify`. The repository is a real git repository with a
git-ignored Cargo.lock.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from linkgate import proc
from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "runtime"
CI = ".github/workflows/ci.yml"
LINK_FILTER_LINE = 18  # the filter's own line: `link:` in the step's filters
MLX = ["mlx/CMakeLists.txt", "mlx/cmake/blas.cmake", "mlx/cmake/cuda.cmake", "mlx/cmake/metal.cmake"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    dest = tmp_path_factory.mktemp("runtime") / "repo"
    shutil.copytree(FIXTURE, dest)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    proc.run([*git, "init", "-q"], cwd=dest)
    proc.run([*git, "add", "-A"], cwd=dest)
    proc.run([*git, "commit", "-qm", "runtime"], cwd=dest)
    return dest


@pytest.fixture(scope="module")
def audit(repo: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = repo.parent / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    return rc, json.loads(out.read_text())


def test_exit_1_with_few_findings(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    rc, doc = audit
    assert rc == 1
    assert len(doc["findings"]) < 15
    levels = [f["level"] for f in doc["findings"]]
    assert levels == sorted(levels, key=["error", "warning", "note"].index), "errors rank first"


def test_link_filter_gets_one_error_naming_build_script_and_cmake(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    _, doc = audit
    found = [f for f in doc["findings"] if f["subject"].startswith("link:") and f["level"] == "error"]
    assert [(f["rule"], f["level"], f["file"], f["line"], f["subject"]) for f in found] == [
        ("filter-misses-surface", "error", CI, LINK_FILTER_LINE, "link: runtime-core"),
    ]
    [f] = found
    assert doc["findings"][0] == f, "the link filter's finding ranks first"
    assert "crates/core/build.rs" in f["message"] and "mlx/CMakeLists.txt" in f["message"]
    assert "ci/link (.github/workflows/ci.yml:43)" in f["message"]
    src = [f"mlx/src/{name}.cpp" for name in (
        "allocator", "array", "backend", "compile", "device", "dtype", "einsum", "export", "fast", "fft",
        "graph", "io", "linalg", "ops", "primitives", "random", "scheduler", "transforms", "utils")]
    native = [f"crates/core/native/{n}" for n in ("ffi.h", "kernels.cu", "shim.cpp", "shim.h", "shim_cuda.h", "stream.h")]
    patches = ["patches/0001-static-link.patch", "patches/0002-cuda-arch.patch"]
    assert sorted(f["paths"]) == sorted(["crates/core/build.rs", *MLX, *src, *native, *patches])
    # One glob per tree: the core package, the vendored MLX tree, the patches.
    assert f["suggest"] == ["crates/core/**", "mlx/**", "patches/**"]
    assert f["hint"] == "add 'crates/core/**', 'mlx/**', 'patches/**' to filter link"


def test_suggested_patterns_cover_every_missed_path_and_nothing_of_other_packages(
    audit: tuple[int, dict], repo: Path  # type: ignore[type-arg]
) -> None:
    from linkgate.trigger.pathfilter import PathFilter

    _, doc = audit
    [f] = [f for f in doc["findings"] if f["rule"] == "filter-misses-surface"]
    suggested = PathFilter(f["suggest"])
    assert all(suggested.matches(p) for p in f["paths"])
    tracked = proc.run(["git", "ls-files"], cwd=repo).stdout.split()
    assert not [p for p in tracked if suggested.matches(p) and p.startswith(("crates/xla/", "crates/pure/", "src/"))]


def test_manifests_are_one_warning_and_the_ignored_lockfile_is_never_suggested(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    _, doc = audit
    manifest = [f for f in doc["findings"] if f["rule"] == "filter-misses-manifest"]
    assert [(f["level"], f["subject"]) for f in manifest] == [("warning", "link: manifests")]
    assert manifest[0]["paths"] == ["crates/core/Cargo.toml", "crates/pure/Cargo.toml"]
    assert manifest[0]["suggest"] == ["crates/core/Cargo.toml", "crates/pure/Cargo.toml"]
    everything = [p for f in doc["findings"] for p in f["paths"] + f["suggest"]]
    assert "Cargo.lock" not in everything


def test_no_metadata_failure_and_the_fallback_said_once(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    _, doc = audit
    assert not [f for f in doc["findings"] if "metadata" in f["message"]]
    assert doc["skipped_checks"] == []
    [note] = doc["notes"]
    assert "cargo metadata in . (the repository root) cannot resolve dependencies offline" in note
    assert "half" in note and "--no-deps" in note


def test_lib_only_build_does_not_link(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    _, doc = audit
    [pure] = [i for i in doc["invocations"] if i["job"] == "pure"]
    assert (pure["subcommand"], pure["packages"], pure["exercise"], pure["links"]) == (
        "build", ["runtime-pure"], "compiled", False
    )
    [link] = [i for i in doc["invocations"] if i["job"] == "link"]
    assert (link["exercise"], link["links"], link["self_hosted"]) == ("linked", True, True)


def test_human_output_is_grouped_and_at_most_four_lines_a_finding(repo: Path) -> None:
    out = repo.parent / "audit.txt"
    assert main(["audit", "--repo", str(repo), "--output", str(out)]) == 1
    lines = out.read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("filter-misses-surface ("))
    body = lines[start:]
    groups = [ln for ln in body if not ln.startswith(" ") and " (" in ln and not ln.startswith("note:")]
    assert groups[0] == "filter-misses-surface (1)"
    finding = body[1:3]
    assert finding[0].startswith(f"  error .github/workflows/ci.yml:{LINK_FILTER_LINE}: filter link misses 32 path(s)")
    assert finding[1] == "    hint: add 'crates/core/**', 'mlx/**', 'patches/**' to filter link"
    assert not body[3].startswith("    "), "without --verbose the paths are not listed"
    verbose = repo.parent / "audit-v.txt"
    main(["audit", "--repo", str(repo), "--verbose", "--output", str(verbose)])
    text = verbose.read_text()
    assert "    mlx/src/transforms.cpp\n" in text and "    crates/core/native/kernels.cu\n" in text


def test_script_cargo_test_appears_once_per_matrix_target_at_its_line(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    _, doc = audit
    got = [(i["file"], i["line"], i["subcommand"], i["links"], i["target_triples"], i["matrix"], i["via"])
           for i in doc["invocations"] if i["job"] == "cross"]
    targets = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "riscv64gc-unknown-linux-gnu"]
    assert got == [
        ("ci/test.bash", 8, "test", True, [t], {"target": t},
         [f".github/workflows/ci.yml:59 ci/test.bash cargo {t}", "ci/test.bash:8"])
        for t in targets
    ]


def test_every_finding_in_rank_order(audit: tuple[int, dict]) -> None:  # type: ignore[type-arg]
    """The whole list, so a new false positive on this repository shape shows here."""
    _, doc = audit
    hack = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert hack["message"].startswith("feature sets `no default features`, `cpu (no default)`, `cuda (no default)`, "
                                      "`xla (no default)` of runtime (one command line) are compiled by"), hack
    assert len(hack["sets"]) == 4
    assert [(f["level"], f["rule"], f["subject"]) for f in doc["findings"]] == [
        ("error", "filter-misses-surface", "link: runtime-core"),
        # `cargo hack check --each-feature`: one command line, one finding listing its sets.
        ("error", "never-linked", "no default features, cpu (no default), cuda (no default), xla (no default)"),
        ("warning", "filter-misses-manifest", "link: manifests"),
        # The nightly `--features cpu` is the default set (default = ["cpu"]), which
        # ci/test.bash links on every pull request: no link-only-on-schedule.
    ]
