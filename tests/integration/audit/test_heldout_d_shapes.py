"""Shapes the first run on heldout-d missed (bench/audit_truth/heldout-d/FIRST_RUN.md): a value
written to `$GITHUB_ENV` through `tee -a`, an action that writes its `args` into a bash script
(so `$CARGO_ARGS` is the job's variable), and make conditionals on a command-line variable."""

from __future__ import annotations

from pathlib import Path

from lgtest import PACKAGE, audit_files

FEATURES = '[features]\ndefault = ["a"]\na = []\nb = []\nstatic = []\ndynamic = []\n'

WORKFLOW = """\
on: pull_request
jobs:
  t:
    strategy:
      matrix:
        os: [linux, windows]
        include:
          - os: linux
            runner: ubuntu-latest
            target: aarch64-unknown-linux-gnu
          - os: windows
            runner: windows-latest
            target: x86_64-pc-windows-msvc
    runs-on: ${{ matrix.runner }}
    steps:
      - run: |
          features="--no-default-features --features b"
          echo CARGO_ARGS="--locked $features" | tee -a "$GITHUB_ENV"
        shell: bash
      - run: cargo build $CARGO_ARGS
        shell: bash
      - uses: houseabsolute/actions-rust-cross@v1
        with:
          command: build
          target: ${{ matrix.target }}
          args: $CARGO_ARGS
      - run: make build TARGET=${{ matrix.target }}
        shell: bash
"""

MAKEFILE = """\
TARGET ?= $(shell rustc -vV | sed -n 's/host: //p')
OPTS := --target $(TARGET)
ifneq (,$(findstring windows,$(TARGET)))
OPTS += --features static
else
OPTS += --features dynamic
endif
build:
\tcargo build $(OPTS)
"""


def test_env_through_tee_an_action_script_and_make_conditionals(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {"Cargo.toml": PACKAGE + FEATURES, "src/main.rs": "fn main() {}\n",
                                           "Makefile": MAKEFILE})
    got = sorted((i["file"], i["line"], i["matrix"]["os"], i["feature_sets"][0]) for i in doc["invocations"])
    assert got == [
        (".github/workflows/ci.yml", 20, "linux", "b (no default)"),
        (".github/workflows/ci.yml", 20, "windows", "b (no default)"),
        # The action's bash step on Linux reads $CARGO_ARGS; on Windows it is PowerShell's own
        # variable, not the environment: kept as written there.
        (".github/workflows/ci.yml", 22, "linux", "b (no default)"),
        (".github/workflows/ci.yml", 22, "windows", "default"),
        ("Makefile", 9, "linux", "dynamic"),
        ("Makefile", 9, "windows", "static"),
    ], got


RELEASE = """\
on: pull_request
defaults:
  run:
    working-directory: ./py
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: cargo check --features b
      - uses: taiki-e/upload-rust-binary-action@v1
        with:
          bin: p
          features: b
          target: aarch64-unknown-linux-gnu
      - uses: PyO3/maturin-action@v1
        with:
          args: --release
          working-directory: py
"""


def test_defaults_run_moves_run_steps_only_and_the_upload_action_builds_the_binaries(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, RELEASE, {
        "Cargo.toml": '[workspace]\nmembers = ["py"]\n[package]\nname = "p"\nversion = "0.1.0"\n' + FEATURES,
        "src/main.rs": "fn main() {}\n",
        "py/Cargo.toml": PACKAGE.replace('"p"', '"pyext"') + '[lib]\ncrate-type = ["cdylib"]\n[features]\npython = []\n',
        "py/src/lib.rs": "",
        "py/pyproject.toml": '[build-system]\nbuild-backend = "maturin"\n[tool.maturin]\nfeatures = ["python"]\n',
    })
    got = [(i["line"], i["argv"], i["cwd"], i["feature_sets"]) for i in doc["invocations"]]
    assert got == [
        (9, ["cargo", "check", "--features", "b"], "py", ["b"]),
        (10, ["cargo", "build", "--release", "--bin", "p", "--features", "b", "--target", "aarch64-unknown-linux-gnu"],
         "", ["b"]),
        # Its working-directory input, not the run default too (which would make py/py).
        (15, ["maturin", "build", "--release", "--features", "python"], "py", ["python"]),
    ], got


def test_another_ci_system_that_runs_cargo_makes_an_absence_a_warning(tmp_path: Path) -> None:
    workflow = "on: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo check\n"
    files = {"Cargo.toml": PACKAGE, "src/main.rs": "fn main() {}\n",
             ".cirrus.yml": "freebsd_task:\n  freebsd_instance:\n    image_family: freebsd-14-0\n"
                            "  test_script:\n    - cargo test\n"}
    doc = audit_files(tmp_path, workflow, files)
    [never] = [f for f in doc["findings"] if f["rule"] == "never-linked"]
    assert never["level"] == "warning"
    assert never["unless"] == [".cirrus.yml:5 (a Cirrus CI configuration, another CI system's jobs, which linkgate "
                               "does not read)"]
    [note] = [f for f in doc["findings"] if f["rule"] == "unresolved"]
    assert (note["file"], note["line"], note["subject"]) == (".cirrus.yml", 5, "file .cirrus.yml")
    # Without it, the same absence is a fact.
    (tmp_path / "again").mkdir()
    del files[".cirrus.yml"]
    [never] = [f for f in audit_files(tmp_path / "again", workflow, files)["findings"] if f["rule"] == "never-linked"]
    assert never["level"] == "error"
