"""Local reusable workflows (`jobs.X.uses: ./.github/workflows/y.yml`) followed through each
caller: y.yml's jobs run with X's `with:` inputs (under X's own matrix combinations), on X's
workflow's triggers, reported as GitHub shows them (`caller / called`); a workflow in another
repository, a cycle and a symlink out of the repository are named, never read, and keep a
finding resting on an absence from being stated as fact."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from lgtest import audit_shape

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
PR, NIGHTLY = ".github/workflows/pr.yml", ".github/workflows/nightly.yml"
TEST, BUILD = ".github/workflows/test.yml", ".github/workflows/build.yml"


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(i["job_label"], i["file"], i["line"], i["subcommand"], i["feature_sets"], i["matrix"],
             i["trigger"]["events"], i["conditional"]) for i in doc["invocations"]]


def audit_dir(repo: Path, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def test_each_caller_runs_the_reusable_workflow_with_its_own_inputs_and_triggers(tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "reusable")
    assert rows(doc) == [
        # build.yml's own `push` run: no caller, `inputs.target` is null, so the `||` default.
        ("build/build", BUILD, 18, "build", ["default"], {}, ["push"], False),
        # nightly.yml (schedule) calls test.yml with all-features: true: the matrix axis decided by
        # the boolean input has two values, and the `if: inputs.all-features` step runs in both.
        ("nightly/full / test", TEST, 20, "test", ["simd"], {"feature": "simd"}, ["schedule"], False),
        ("nightly/full / test", TEST, 22, "build", ["gpu"], {"feature": "simd"}, ["schedule"], False),
        ("nightly/full / test", TEST, 20, "test", ["gpu"], {"feature": "gpu"}, ["schedule"], False),
        ("nightly/full / test", TEST, 22, "build", ["gpu"], {"feature": "gpu"}, ["schedule"], False),
        ("pr/lint", PR, 10, "check", ["metrics"], {}, ["pull_request"], False),
        # pr.yml (pull_request) calls it with all-features: false: one value, and no build step.
        ("pr/tests / test", TEST, 20, "test", ["simd"], {"feature": "simd"}, ["pull_request"], False),
        # The caller's own matrix feeds `with: target`: one called run per combination.
        ("pr/cross / build", BUILD, 18, "build", ["default"], {}, ["pull_request"], False),
        ("pr/cross / build", BUILD, 18, "build", ["default"], {}, ["pull_request"], False),
        # `if: inputs.target == 'aarch64-…'` holds for one combination; its matrix comes from the
        # `plan` job's output literal inside the called workflow.
        ("pr/cross / package", BUILD, 35, "run", ["default"], {"bin": "pack"}, ["pull_request"], False),
        ("pr/cross / package", BUILD, 35, "run", ["default"], {"bin": "unpack"}, ["pull_request"], False),
    ]
    argv = [(i["job_label"], i["argv"][1:]) for i in doc["invocations"] if i["file"] != PR]
    assert argv[1] == ("nightly/full / test", ["test", "--profile", "release", "--features", "simd"])
    assert argv[5] == ("pr/tests / test", ["test", "--profile", "dev", "--features", "simd"])  # the default
    assert [a[1][-1] for a in argv if a[1][0] == "build" and "--release" in a[1]] == [
        "x86_64-unknown-linux-gnu", "x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"]
    called = [i["called_by"] for i in doc["invocations"] if i["job_label"] == "pr/cross / build"]
    assert called == [[{"workflow": PR, "job": "cross", "line": 20, "matrix": {"target": t}}]
                      for t in ("x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu")]
    assert {i["job"] for i in doc["invocations"] if i["file"] == TEST} == {"test"}  # the called job's id


def test_a_reusable_workflow_in_another_repository_is_unread_and_an_absence_is_not_stated_as_fact(
        tmp_path: Path) -> None:
    doc = audit_shape(tmp_path, "reusable")
    remote = f"{PR}:24 (uses: example-org/shared-ci/.github/workflows/rust.yml@v1, a reusable workflow in another " \
             "repository, which linkgate cannot read)"
    found = [(f["rule"], f["level"], f["file"], f["line"], f["subject"], f["unless"]) for f in doc["findings"]]
    assert found == [
        ("never-linked", "warning", PR, 10, "metrics", [remote]),
        # gpu is linked only by the schedule caller's run of test.yml; the pull_request one skips it.
        ("link-only-on-schedule", "warning", TEST, 20, "gpu", [remote]),
        ("unresolved", "note", PR, 24, "uses: example-org/shared-ci/.github/workflows/rust.yml@v1", []),
    ]
    assert f"unless {remote} links it" in doc["findings"][0]["message"]
    jobs = {(wf["workflow"], job["job"]): job["steps"] for wf in doc["coverage"]["workflows"] for job in wf["jobs"]}
    assert [(s["line"], s["kind"], s["status"], s["followed"]) for s in jobs[(PR, "shared")]] == [
        (24, "workflow", "unread", [])]
    assert [(s["line"], s["status"], s["followed"]) for s in jobs[(PR, "tests")]] == [(12, "read", [TEST])]
    assert [(f["file"], f["kind"], f["status"]) for f in doc["coverage"]["files"]] == [
        (BUILD, "reusable workflow", "read"), (TEST, "reusable workflow", "read")]


def test_with_the_remote_call_gone_the_absence_is_an_error(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(SHAPES / "reusable", repo)
    pr = repo / PR
    pr.write_text(pr.read_text().split("  shared:")[0])
    doc = audit_dir(repo, tmp_path)
    assert [(f["rule"], f["level"], f["unless"]) for f in doc["findings"]] == [
        ("never-linked", "error", []), ("link-only-on-schedule", "warning", [])]


def _write(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)


_CRATE = {"Cargo.toml": '[package]\nname = "engine"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\n'
                        'simd = []\nfast = []\n',
          "src/main.rs": "fn main() {}\n"}


def test_nested_calls_are_followed_and_a_cycle_is_named_not_followed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: pull_request\njobs:\n  go:\n"
                                              "    uses: ./.github/workflows/a.yml\n    with:\n      level: one\n",
                  ".github/workflows/a.yml": "on:\n  workflow_call:\n    inputs:\n      level:\n        type: string\n"
                                             "jobs:\n  deeper:\n    uses: ./.github/workflows/b.yml\n"
                                             "    with:\n      from: ${{ inputs.level }}\n",
                  ".github/workflows/b.yml": "on:\n  workflow_call:\n    inputs:\n      from:\n        type: string\n"
                                             "jobs:\n  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 9\n"
                                             "    steps:\n      - run: cargo test --features simd --bin ${{ inputs.from }}\n"
                                             "  again:\n    uses: ./.github/workflows/a.yml\n"
                                             "    with:\n      level: two\n"})
    doc = audit_dir(repo, tmp_path)
    # The input passes through two levels; the cycle back to a.yml is a note, never a loop.
    assert [(i["job_label"], i["file"], i["line"], i["argv"][1:], [c["job"] for c in i["called_by"]])
            for i in doc["invocations"]] == [
        ("ci/go / deeper / test", ".github/workflows/b.yml", 11, ["test", "--features", "simd", "--bin", "one"],
         ["go", "deeper"]),
    ]
    notes = [(f["rule"], f["file"], f["line"], f["message"]) for f in doc["findings"]]
    assert notes == [("unresolved", ".github/workflows/b.yml", 13,
                      "job 'again' calls .github/workflows/a.yml, a cycle of reusable workflows (.github/workflows/"
                      "ci.yml -> .github/workflows/a.yml -> .github/workflows/b.yml -> .github/workflows/a.yml), "
                      "which GitHub refuses; not followed")]


def test_a_called_workflow_that_is_a_symlink_out_of_the_repository_is_refused_and_named(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    outside = tmp_path / "elsewhere.yml"
    outside.write_text("on: workflow_call\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                       "      - run: cargo test --features fast  # SECRET-OUTSIDE\n")
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: pull_request\njobs:\n  lint:\n    runs-on: ubuntu-latest\n"
                                              "    timeout-minutes: 9\n    steps:\n"
                                              "      - run: cargo clippy --features fast\n"
                                              "  tests:\n    uses: ./.github/workflows/linked.yml\n"})
    os.symlink(outside, repo / ".github/workflows/linked.yml")
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    text = out.read_text()
    assert "SECRET-OUTSIDE" not in text
    doc = json.loads(text)
    assert [(i["job_label"], i["subcommand"]) for i in doc["invocations"]] == [("ci/lint", "clippy")]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert never["level"] == "warning"
    assert [u.split(" (")[0] for u in never["unless"]] == [".github/workflows/ci.yml:9"]
    assert "a workflow linkgate did not read" in never["unless"][0]
    assert "outside the repository" in never["unless"][0]
    notes = [(f["file"], f["line"]) for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == [(".github/workflows/ci.yml", 9), (".github/workflows/linked.yml", None)]


def test_an_input_that_cannot_be_computed_is_named_not_guessed(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: pull_request\njobs:\n  call:\n"
                                              "    uses: ./.github/workflows/t.yml\n"
                                              "    with:\n      features: ${{ github.event.pull_request.title }}\n",
                  ".github/workflows/t.yml": "on:\n  workflow_call:\n    inputs:\n      features:\n"
                                             "        type: string\n        default: simd\n"
                                             "      fast:\n        type: boolean\n"
                                             "jobs:\n  t:\n    runs-on: ubuntu-latest\n    timeout-minutes: 9\n"
                                             "    steps:\n      - run: cargo test --features ${{ inputs.features }}\n"
                                             "      - if: ${{ !inputs.fast }}\n        run: cargo build --features fast\n"})
    doc = audit_dir(repo, tmp_path)
    got = [(i["line"], i["argv"][1:], i["unknown"], i["conditional"]) for i in doc["invocations"]]
    # `fast` is not given and has no default: a boolean's is false, so the step runs.
    assert got == [(14, ["test", "--features", "${{ inputs.features }}"], ["${{ inputs.features }}"], False),
                   (16, ["build", "--features", "fast"], [], False)]
    notes = [(f["line"], f["subject"]) for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == [(14, "${{ inputs.features }}")]


def test_a_reusable_workflow_also_run_by_hand_is_audited_with_its_dispatch_defaults(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: pull_request\njobs:\n  call:\n"
                                              "    uses: ./.github/workflows/t.yml\n    with:\n      all: false\n",
                  ".github/workflows/t.yml": "on:\n  workflow_dispatch:\n    inputs:\n      all:\n"
                                             "        type: boolean\n        default: true\n"
                                             "  workflow_call:\n    inputs:\n      all:\n        type: boolean\n"
                                             "        required: true\n"
                                             "jobs:\n  t:\n    runs-on: ubuntu-latest\n    timeout-minutes: 9\n"
                                             "    strategy:\n      matrix:\n"
                                             "        f: ${{ inputs.all && fromJSON('[\"simd\", \"fast\"]') || "
                                             "fromJSON('[\"simd\"]') }}\n"
                                             "    steps:\n      - run: cargo test --features ${{ matrix.f }}\n"})
    doc = audit_dir(repo, tmp_path)
    assert [(i["job_label"], i["matrix"], i["trigger"]["events"]) for i in doc["invocations"]] == [
        ("ci/call / t", {"f": "simd"}, ["pull_request"]),
        # Its own trigger, without `workflow_call` (that run is the caller's).
        ("t/t", {"f": "simd"}, ["workflow_dispatch"]),
        ("t/t", {"f": "fast"}, ["workflow_dispatch"]),
    ]


def test_caller_matrices_that_multiply_through_nested_calls_stay_bounded(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    axis = "[" + ", ".join(str(n) for n in range(16)) + "]"
    files = {**_CRATE, ".github/workflows/ci.yml": "on: pull_request\njobs:\n  go:\n    strategy:\n      matrix:\n"
                                                   f"        a: {axis}\n        b: {axis}\n"
                                                   "    uses: ./.github/workflows/w1.yml\n"}
    for n in (1, 2):
        files[f".github/workflows/w{n}.yml"] = ("on: workflow_call\njobs:\n  go:\n    strategy:\n      matrix:\n"
                                                f"        a: {axis}\n        b: {axis}\n"
                                                f"    uses: ./.github/workflows/w{n + 1}.yml\n")
    files[".github/workflows/w3.yml"] = ("on: workflow_call\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                                         "    steps:\n      - run: cargo test\n")
    _write(repo, files)
    doc = audit_dir(repo, tmp_path)  # 256 x 256 x 256 called runs if nothing stopped it
    assert len(doc["invocations"]) < 1024
    notes = [f["message"] for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == ["the reusable workflows called from .github/workflows/ci.yml make more than 1,024 called runs "
                     "(caller matrices multiply); the rest were not audited"]


def test_a_call_of_a_missing_or_invalid_workflow_is_named_and_contradicts_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: pull_request\njobs:\n  lint:\n    runs-on: ubuntu-latest\n"
                                              "    timeout-minutes: 9\n    steps:\n"
                                              "      - run: cargo clippy --features fast\n"
                                              "  gone:\n    uses: ./.github/workflows/gone.yml\n"
                                              "  broken:\n    uses: ./.github/workflows/broken.yml\n",
                  ".github/workflows/broken.yml": "on: workflow_call\njobs: [\n"})
    doc = audit_dir(repo, tmp_path)
    # GitHub fails both runs: nothing they hold can link, so the absence stays a fact.
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert (never["level"], never["unless"]) == ("error", [])
    jobs = {job["job"]: job["steps"] for wf in doc["coverage"]["workflows"] for job in wf["jobs"]}
    assert [(s["status"], [g["why"] for g in s["gaps"]]) for s in jobs["gone"] + jobs["broken"]] == [
        ("unread", ["no workflow file of the repository (GitHub reads them only in .github/workflows)"]),
        ("unread", ["a workflow linkgate did not read (not valid: "
                    + jobs["broken"][0]["gaps"][0]["why"].split("(not valid: ", 1)[1]]),
    ]


def test_the_calling_jobs_if_narrows_the_events_and_an_undecided_one_is_a_condition(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  ".github/workflows/ci.yml": "on: [push, pull_request]\njobs:\n  call:\n"
                                              "    if: github.event_name == 'push' && github.actor != 'bot'\n"
                                              "    uses: ./.github/workflows/t.yml\n",
                  ".github/workflows/t.yml": "on: workflow_call\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                                             "    timeout-minutes: 9\n    steps:\n      - run: cargo test\n"})
    doc = audit_dir(repo, tmp_path)
    assert [(i["job_label"], i["trigger"]["events"], i["conditional"], i["conditions"]) for i in doc["invocations"]] == [
        ("ci/call / t", ["push"], True,
         [".github/workflows/ci.yml:3 job if: github.event_name == 'push' && github.actor != 'bot'"]),
    ]
