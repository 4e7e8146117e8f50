from __future__ import annotations

from pathlib import Path

from linkgate.workflows.invocations import scan_workflow
from linkgate.workflows.model import parse_workflow
from linkgate.workflows.yamlnodes import load_text

WORKFLOW = """\
on: push
env:
  LEVEL: workflow
  FEATS: from-workflow
defaults:
  run:
    working-directory: crates
jobs:
  build:
    runs-on: ${{ matrix.runner }}
    env:
      FEATS: from-job,${{ matrix.extra }}
    strategy:
      matrix:
        runner: [ubuntu-latest, gpu-box]
        extra: [x]
    steps:
      - working-directory: app  # relative to the workspace, not to defaults
        env:
          TARGET: /t
        run: |
          cd ../lib
          cargo build --features "$FEATS" --target-dir $TARGET
      - run: make -C tools check
"""


def test_env_layers_working_directories_runners_and_make(tmp_path: Path) -> None:
    (tmp_path / "crates" / "tools").mkdir(parents=True)
    (tmp_path / "crates" / "tools" / "Makefile").write_text("check:\n\tcargo check\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(WORKFLOW))
    scan = scan_workflow(tmp_path, wf)
    got = [(i.file, i.line, i.argv, i.cwd, i.self_hosted, i.via) for i in scan.invocations]
    build = ("cargo", "build", "--features", "from-job,x", "--target-dir", "/t")
    via = ("w.yml:24 make -C tools check", "crates/tools/Makefile:2 (check)")
    assert got == [
        ("w.yml", 23, build, "lib", False, ()),
        ("crates/tools/Makefile", 2, ("cargo", "check"), "crates/tools", False, via),
        ("w.yml", 23, build, "lib", True, ()),
        ("crates/tools/Makefile", 2, ("cargo", "check"), "crates/tools", True, via),
    ]
    assert scan.invocations[0].env["LEVEL"] == "workflow"
    assert scan.problems == []
