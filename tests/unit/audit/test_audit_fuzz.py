"""No input crashes the audit: random workflows through the whole command, 2,000 examples.

Workflows are assembled from fragments real CI uses (matrices with include
and exclude, `${{ }}` expressions, cargo hack, `--features ""`, scripts and
make targets called with arguments, anchors and aliases, paths filters) and,
now and then, broken: cut short, mis-indented, a tab, a stray quote. The
repository holds a small workspace with build scripts, so the paths-filter
check runs too. cargo and git are kept off PATH so every example reads the
manifests with tomllib: the same code path an offline pre-commit hook takes,
and cheap enough for 2,000 examples.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linkgate.cli import main

SUBCOMMANDS = ["check", "clippy", "build", "test", "run", "doc", "bench", "b", "t", "c", "nextest run",
               "llvm-cov", "hack check --each-feature", "hack test --feature-powerset --no-run",
               "hack build --each-feature --no-dev-deps", "fmt --all", "miri test", "metadata", "install --path ."]
FLAGS = ["--features a", '--features ""', "--features ''", "-F a,b", "--features 'a b'", "--no-default-features",
         "--all-features", "--release", "--no-run", "-p pure", "-p core", "-p missing", "--workspace",
         "--exclude core", "--all-targets", "--tests", "--lib", "--bins", "--example demo", "--target x86_64-unknown-linux-gnu",
         "--target ${{ matrix.target }}", "--features ${{ matrix.features }}", "--manifest-path crates/core/Cargo.toml",
         "--manifest-path nowhere/Cargo.toml", "--target-dir /cache/t", "--profile ci", "-- -D warnings",
         "--features $FEATS", '--features "${{ matrix.features }}"', "${{ matrix.extra }}", "--locked", "-j 4"]
PREFIXES = ["", "", "", "FOO=1 ", "env RUSTFLAGS=-Clink-arg=-fuse-ld=mold ", "+nightly ", "time "]
SHELL = [
    "cd crates/core", "cd ${{ matrix.dir }}", "ci/test.sh cargo ${{ matrix.target }}", "./ci/test.sh cross arm",
    "bash ci/test.sh", "make verify", "make -C crates/core", "make nope", "./configure && make", "echo done",
    "export FEATS=a,b", "FEATS=", "set -euxo pipefail", "for f in a b; do cargo check -F $f; done",
    'if [ "${{ matrix.os }}" = linux ]; then cargo build; fi', "( cd crates/pure && cargo build )",
    'case "$T" in x) cargo test ;; *) cargo check ;; esac', "f() { cargo \"$@\"; }", "f test --no-run",
    "cargo", "cargo --version", "cross test --target aarch64", "wasm-pack test --node", "$CARGO test", "'unclosed",
    "echo ${{ github.event_name }} | tee x", "\\", "cargo build \\\n  --release", "shift", "cargo ${{ matrix.cmd }}",
]
RUNNERS = ["ubuntu-latest", "[self-hosted, gpu]", "${{ matrix.os }}", "macos-14", "[self-hosted]", "windows-latest"]
IFS = ["", "github.event_name == 'schedule'", "needs.changes.outputs.link == 'true'", "matrix.os == 'linux'",
       "steps.f.outputs.link == 'true'", "github.repository == 'acme/x' && needs.changes.outputs.rust == 'true'",
       "${{ matrix.features != '' }}", "always()", "needs.changes.outputs.missing == 'true'"]
ON = ["pull_request", "push", "[push, pull_request]", "{schedule: [{cron: '0 0 * * *'}]}", "workflow_dispatch",
      "{push: {tags: ['v*']}}", "{pull_request: {paths: ['src/**']}}", "42", "[]", "{}"]
VALUES = ['""', "a", "a,b", "linux", "x86_64-unknown-linux-gnu", "crates/core", "--release", "null", "[1, 2]", "'${{ x }}'"]

words = st.sampled_from
cargo_line = st.builds(
    lambda pre, sub, flags: f"{pre}cargo {sub} {' '.join(flags)}".rstrip(),
    words(PREFIXES), words(SUBCOMMANDS), st.lists(words(FLAGS), max_size=4),
)
line = st.one_of(cargo_line, words(SHELL))
script = st.lists(line, min_size=1, max_size=4).map(lambda ls: " && ".join(ls) if len(ls) % 2 else "\n".join(ls))


@st.composite
def matrix(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return ""
    keys = draw(st.lists(words(["os", "features", "target", "extra", "dir", "cmd"]), min_size=1, max_size=3, unique=True))
    out = "    strategy:\n      fail-fast: false\n      matrix:\n"
    for key in keys:
        out += f"        {key}: [{', '.join(draw(st.lists(words(VALUES), min_size=0, max_size=3)))}]\n"
    for section in ("include", "exclude"):
        if draw(st.booleans()):
            out += f"        {section}:\n"
            for _ in range(draw(st.integers(1, 2))):
                key = draw(words([*keys, "extra", "os"]))
                out += f"          - {key}: {draw(words(VALUES))}\n"
    if draw(st.integers(0, 9)) == 0:
        out = "    strategy:\n      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}\n"
    return out


@st.composite
def job(draw: st.DrawFn, index: int) -> str:
    out = f"  j{index}:\n    runs-on: {draw(words(RUNNERS))}\n"
    condition = draw(words(IFS))
    if condition:
        out += f"    needs: changes\n    if: {condition}\n"
    if draw(st.booleans()):
        out += "    timeout-minutes: 30\n"
    out += draw(matrix())
    if draw(st.integers(0, 3)) == 0:
        out += "    env: *shared\n" if draw(st.booleans()) else "    env:\n      FEATS: a\n      CARGO_TARGET_DIR: /cache/t\n"
    out += "    steps:\n      - uses: actions/checkout@v4\n"
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            out += ("      - uses: actions-rs/cargo@v1\n        with:\n"
                    f"          command: {draw(words(['build', 'test', 'check', '${{ matrix.cmd }}']))}\n"
                    f"          args: {draw(words(FLAGS))}\n")
            continue
        body = draw(script)
        step_if = draw(words(IFS))
        out += f"      - if: {step_if}\n" if step_if else "      - name: step\n"
        out += "        run: |\n" + "".join(f"          {ln}\n" for ln in body.splitlines())
        if draw(st.integers(0, 4)) == 0:
            out += f"        working-directory: {draw(words(['crates/core', '${{ matrix.dir }}', '../x', '.']))}\n"
    return out


CHANGES = """\
  changes:
    runs-on: ubuntu-latest
    outputs:
      link: ${{ steps.f.outputs.link }}
      rust: ${{ steps.f.outputs.rust }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            link:
              - 'src/**'
              - '%s'
            rust:
              - '**/*.rs'
"""


@st.composite
def workflow(draw: st.DrawFn) -> str:
    text = f"name: w\non: {draw(words(ON))}\nenv: &shared\n  FEATS: a,b\njobs:\n"
    if draw(st.booleans()):
        text += CHANGES % draw(words(["crates/core/build.rs", "crates/**", "!**/*.md", "mlx/**", "[unclosed"]))
    for i in range(draw(st.integers(0, 3))):
        text += draw(job(i))
    breakage = draw(st.integers(0, 7))
    if breakage == 0 and text:
        text = text[: draw(st.integers(0, len(text)))]
    elif breakage == 1:
        text = text.replace("    steps:", "   steps:", 1)
    elif breakage == 2:
        text = text.replace("  ", "\t", 1)
    elif breakage == 3:
        text += "  bad: [unclosed\n"
    elif breakage == 4:
        text = text.replace("runs-on:", "runs-on: *missing_anchor #", 1)
    return text


REPO = {
    "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n[workspace]\nmembers = ["crates/*"]\n'
                  '[features]\ndefault = ["a"]\na = []\nb = []\n[dependencies]\ncore = { path = "crates/core" }\n'
                  'half = "2"\n',
    "src/main.rs": "fn main() {}\n",
    "crates/core/Cargo.toml": '[package]\nname = "core"\nversion = "0.1.0"\nlinks = "m"\n[features]\ncuda = []\n',
    "crates/core/build.rs": 'fn main() {\n    println!("cargo:rerun-if-changed=../../mlx/CMakeLists.txt");\n'
                            '    println!("cargo:rustc-link-lib=static=m");\n}\n',
    "crates/core/src/lib.rs": "",
    "crates/pure/Cargo.toml": '[package]\nname = "pure"\nversion = "0.1.0"\n',
    "crates/pure/src/lib.rs": "",
    "mlx/CMakeLists.txt": "project(m)\n",
    "ci/test.sh": '#!/bin/sh\nset -e\n$1 test --target "$2" --no-run\ncase "$2" in arm*) $1 build ;; esac\n',
    "Makefile": "verify:\n\tcargo test --no-run --features b\n\t$(MAKE) lint\nlint:\n\tcargo clippy $(FLAGS)\n",
}


@contextmanager
def repository() -> Iterator[Path]:
    """The workspace, with cargo and git off PATH; its workflows directory is emptied on entry."""
    global _REPO
    if _REPO is None:
        _REPO = Path(tempfile.mkdtemp(prefix="linkgate-fuzz-"))
        for rel, text in REPO.items():
            (_REPO / rel).parent.mkdir(parents=True, exist_ok=True)
            (_REPO / rel).write_text(text)
        (_REPO / ".github/workflows").mkdir(parents=True)
        (_REPO / ".bin").mkdir()
    for old in (_REPO / ".github/workflows").iterdir():
        old.unlink()
    path = os.environ["PATH"]
    os.environ["PATH"] = str(_REPO / ".bin")
    try:
        yield _REPO
    finally:
        os.environ["PATH"] = path


_REPO: Path | None = None


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(texts=st.lists(workflow(), min_size=1, max_size=3), fmt=words(["json", "human", "markdown", "sarif"]))
def test_no_workflow_crashes_the_audit(texts: list[str], fmt: str) -> None:
    with repository() as repo:
        for i, text in enumerate(texts):
            (repo / f".github/workflows/w{i}.yml").write_text(text)
        rc = main(["audit", "--repo", str(repo), "--format", fmt, "--output", str(repo / "out")])
        assert rc in (0, 1)
        assert (repo / "out").read_text()


def test_generated_workflows_reach_every_rule() -> None:
    """Guard against a vacuous fuzz: the fragments produce findings of many rules and invocations."""
    import json

    wf = (
        "on: pull_request\nenv: &shared\n  FEATS: a,b\njobs:\n" + CHANGES % "crates/core/build.rs"
        + "  link:\n    needs: changes\n    if: needs.changes.outputs.link == 'true'\n    runs-on: [self-hosted]\n"
        "    steps:\n      - run: cargo test --no-run --features b\n"
        "  hack:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo hack check --each-feature && cargo check\n"
    )
    with repository() as repo:
        (repo / ".github/workflows/w.yml").write_text(wf)
        (repo / ".github/workflows/broken.yml").write_text(wf[:40])
        assert main(["audit", "--repo", str(repo), "--format", "json", "--output", str(repo / "out")]) == 1
        doc = json.loads((repo / "out").read_text())
    assert {f["rule"] for f in doc["findings"]} >= {
        "filter-misses-surface", "never-linked", "no-timeout", "invalid-workflow"
    }


def teardown_module() -> None:
    import shutil

    if _REPO is not None:
        shutil.rmtree(_REPO, ignore_errors=True)
