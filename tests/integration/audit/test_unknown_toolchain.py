"""An unknown toolchain (`cargo +${{ steps.toolchain.outputs.name }} build`) picks the compiler,
not what is compiled: the command is read, with no gap; an unknown feature list still is one."""

from __future__ import annotations

from pathlib import Path

from lgtest import audit_files

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


def test_an_unknown_toolchain_is_no_gap_but_unknown_features_are(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {
        "Cargo.toml":  '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n[features]\nfull = []\n',
        "src/main.rs": "fn main() {}\n",
    })
    status = {s["line"]: (s["status"], [g["why"] for g in s["gaps"]])
              for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]}
    assert status[8] == ("read", []) and status[9] == ("read", [])
    assert status[11][0] == "partly read" and status[11][1] == ["cannot evaluate ${{ steps.toolchain.outputs.name }}"]
    assert [(i["line"], i["feature_sets"]) for i in doc["invocations"]][:2] == [(8, ["full"]), (10, ["default"])]
