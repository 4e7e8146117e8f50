"""cargo-codspeed and CodSpeedHQ/action: `cargo codspeed build` compiles and links the
benchmarks; the action's `run` input is a script run on the runner, in its `working-directory`."""

from __future__ import annotations

import json
from pathlib import Path

from lgtest import git_repo

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  bench:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: cargo codspeed build -p engine --features simd
      - uses: CodSpeedHQ/action@v3
        with:
          working-directory: crates/engine
          run: |
            cargo codspeed run
            cargo test --features gpu
"""


def test_codspeed_build_links_and_the_actions_run_input_is_read(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text('[workspace]\nmembers = ["crates/engine"]\nresolver = "2"\n')
    crate = tmp_path / "crates" / "engine"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "engine"\nversion = "0.1.0"\nedition = "2021"\n'
                                      '[features]\nsimd = []\ngpu = []\n')
    (crate / "src" / "lib.rs").write_text("")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    got = [(i["line"], i["subcommand"], i["exercise"], i["feature_sets_by_package"], i["cwd"]) for i in doc["invocations"]]
    assert got == [
        (7, "codspeed build", "linked", ["engine: simd"], ""),
        (12, "codspeed run", None, ["engine: default"], "crates/engine"),
        (13, "test", "tested", ["engine: gpu"], "crates/engine"),
    ], got
    steps = [s["status"] for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]]
    assert steps == ["read", "read", "read"]
