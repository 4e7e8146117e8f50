"""A step's outputs read by later steps of its job: `echo "K=V" >> "$GITHUB_OUTPUT"` is
`steps.ID.outputs.K`, known when the script writes a known value on every path; a quoted
`"${a[*]}"` joins with IFS's first character, as bash does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  test:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    strategy:
      matrix:
        simd: [true, false]
    steps:
      - id: feats
        run: |
          FEATURES=()
          if [[ "${{ matrix.simd }}" == true ]]; then FEATURES+=(simd); fi
          FEATURES+=(fast)
          IFS=','
          echo "list=${FEATURES[*]}" >> "$GITHUB_OUTPUT"
      - env:
          LIST: ${{ steps.feats.outputs.list }}
        run: echo "FLAGS=--no-default-features --features $LIST" >> $GITHUB_ENV
      - id: maybe
        run: |
          if [[ -n "$RANDOM_THING" ]]; then echo "p=release" >> $GITHUB_OUTPUT; fi
      - run: cargo test $FLAGS --profile ${{ steps.maybe.outputs.p }}
      - run: cargo build --features ${{ steps.nowhere.outputs.x }}
"""


def test_step_outputs_feed_later_steps_and_an_output_written_on_some_paths_is_unknown(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    (repo / "Cargo.toml").write_text('[package]\nname = "e"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                     "[features]\nsimd = []\nfast = []\n")
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    out = tmp_path / "a.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    got = [(i["line"], i["argv"][1:], i["feature_sets"], i["unknown"]) for i in doc["invocations"]]
    p, x = "${{ steps.maybe.outputs.p }}", "${{ steps.nowhere.outputs.x }}"
    assert got == [
        (23, ["test", "--no-default-features", "--features", "simd,fast", "--profile", p],
         ["fast,simd"], [p]),
        (24, ["build", "--features", x], [x], [x]),
        (23, ["test", "--no-default-features", "--features", "fast", "--profile", p], ["fast"], [p]),
        (24, ["build", "--features", x], [x], [x]),
    ]
