"""An unknown toolchain (`cargo +${{ steps.toolchain.outputs.name }} build`) picks the compiler,
not what is compiled: the command is read, with no gap; an unknown feature list still is one."""

from __future__ import annotations

import json
from pathlib import Path

from lgtest import git_repo

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - id: toolchain
        uses: dtolnay/rust-toolchain@stable
      - run: cargo +${{ steps.toolchain.outputs.name }} build --features full
      - run: |
          cargo +$TOOLCHAIN test
      - run: cargo +stable build --features ${{ steps.toolchain.outputs.name }}
"""


def test_an_unknown_toolchain_is_no_gap_but_unknown_features_are(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[features]\nfull = []\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    status = {s["line"]: (s["status"], [g["why"] for g in s["gaps"]])
              for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]}
    assert status[8] == ("read", []) and status[9] == ("read", [])
    assert status[11][0] == "partly read" and status[11][1] == ["cannot evaluate ${{ steps.toolchain.outputs.name }}"]
    assert [(i["line"], i["feature_sets"]) for i in doc["invocations"]][:2] == [(8, ["full"]), (10, ["default"])]
