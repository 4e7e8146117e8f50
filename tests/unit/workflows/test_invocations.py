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


NOTES = """\
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        target: [a, b, c]
    steps:
      - run: ci/run.sh ${{ matrix.target }}
      - run: |
          $SUDO apt-get install -y cmake
          ./configure && make
          $CARGO_CMD test --target ${{ matrix.target }}
          echo "${{ secrets.TOKEN }}" | docker login
"""


def test_one_note_per_file_and_cause_and_only_where_cargo_may_hide(tmp_path: Path) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "run.sh").write_text(
        "#!/bin/bash\ncargo build --features \"$EXTRA\" --target $1\ncargo test --features \"$EXTRA\"\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(NOTES))
    scan = scan_workflow(tmp_path, wf)
    assert [(i.file, i.line, i.argv[-1]) for i in scan.invocations] == [
        ("ci/run.sh", 2, "a"), ("ci/run.sh", 3, "$EXTRA"),
        ("ci/run.sh", 2, "b"), ("ci/run.sh", 3, "$EXTRA"),
        ("ci/run.sh", 2, "c"), ("ci/run.sh", 3, "$EXTRA"),
    ]
    # Three combinations, two cargo lines, one cause: one note. `$SUDO apt-get`,
    # `./configure`, `make` without a Makefile after configure, and the unknown
    # secret in a docker command say nothing; `$CARGO_CMD test` may be cargo.
    assert scan.problems == [
        ("ci/run.sh", 2, "cannot evaluate $EXTRA in `cargo build --features $EXTRA --target a`; classified as written"),
        ("w.yml", 13, "cannot evaluate `$CARGO_CMD` in `$CARGO_CMD test --target a`; "
                      "if it runs cargo, this command is not audited"),
    ]


STEP_IF = """\
on: push
jobs:
  skip:
    if: false
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-22.04, windows-2022]
        features: ["", gpu]
    env:
      GPU: ${{ matrix.features == 'gpu' }}
    steps:
      - if: env.GPU == 'true' && runner.os != 'Windows'
        run: cargo test --features gpu
      - if: failure()
        run: cargo build --verbose
      - if: ${{ startsWith(matrix.os, 'windows') }}
        shell: pwsh
        run: cargo test --release
      - if: contains(fromJSON('["ubuntu-22.04"]'), matrix.os) || steps.x.outputs.go
        uses: actions-rs/cargo@v1
        with:
          command: check
"""


def test_if_conditions_per_combination(tmp_path: Path) -> None:
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(STEP_IF))
    got = [(i.argv, i.matrix, i.conditional) for i in scan_workflow(tmp_path, wf).invocations]
    assert got == [
        (("cargo", "check"), {"os": "ubuntu-22.04", "features": ""}, False),
        (("cargo", "test", "--features", "gpu"), {"os": "ubuntu-22.04", "features": "gpu"}, False),
        (("cargo", "check"), {"os": "ubuntu-22.04", "features": "gpu"}, False),
        (("cargo", "test", "--release"), {"os": "windows-2022", "features": ""}, False),
        (("cargo", "check"), {"os": "windows-2022", "features": ""}, True),
        (("cargo", "test", "--release"), {"os": "windows-2022", "features": "gpu"}, False),
        (("cargo", "check"), {"os": "windows-2022", "features": "gpu"}, True),
    ]


def test_workspace_paths_are_repository_paths(tmp_path: Path) -> None:
    text = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - working-directory: ${{ github.workspace }}/crates/a\n        run: cargo build\n"
            "      - run: cd $GITHUB_WORKSPACE/crates/b && cargo test\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    assert [(i.cwd, i.unknown) for i in scan_workflow(tmp_path, wf).invocations] == [("crates/a", ()), ("crates/b", ())]


def test_github_env_reaches_later_steps_of_the_same_combination(tmp_path: Path) -> None:
    text = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
            "        f: [a, b]\n    steps:\n"
            "      - run: |\n          echo \"FEATS=${{ matrix.f }},x\" >> $GITHUB_ENV\n          echo ok > log\n"
            "      - if: github.event_name == 'push'\n        run: echo \"FEATS=never\" >> \"$GITHUB_ENV\"\n"
            "      - run: cargo test --features $FEATS\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    scan = scan_workflow(tmp_path, wf)
    assert [i.argv for i in scan.invocations] == [
        ("cargo", "test", "--features", "a,x"), ("cargo", "test", "--features", "b,x")]
    assert scan.problems == []


def test_runner_env_is_known_and_unknown_expressions_in_env_stay_unknown(tmp_path: Path) -> None:
    # The runner sets CI for every step; a workflow_dispatch input is not known
    # until dispatch, so a branch on it is kept as a conditional alternative.
    text = ("on:\n  workflow_dispatch:\n    inputs:\n      publish: {type: boolean, default: true}\n"
            "jobs:\n  b:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
            "      - run: |\n          if [[ -z $CI ]]; then cargo test --features local; fi\n          cargo build\n"
            "      - env:\n          P: ${{ inputs.publish }}\n        run: |\n"
            "          if [ \"$P\" != \"true\" ]; then\n            exit 0\n          fi\n          cargo publish\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    scan = scan_workflow(tmp_path, wf)
    assert [(i.argv, i.conditional) for i in scan.invocations] == [
        (("cargo", "build"), False), (("cargo", "publish"), True)]


def test_a_program_under_an_unknown_directory_is_known_by_its_name(tmp_path: Path) -> None:
    # `$RUNNER_TEMP/venv/bin/pip install x` is pip; `$TOOLS/$RUNNER install` may be anything.
    text = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - run: $RUNNER_TEMP/venv/bin/pip install linkgate==1\n"
            "      - run: $TOOLS/$RUNNER install --locked\n")
    wf = parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text))
    scan = scan_workflow(tmp_path, wf)
    assert [p[0:2] for p in scan.problems] == [("w.yml", 7)]
