"""Class: reads outside the repository. A workflow, script, Makefile, justfile,
package.json, Makefile.toml, ``.cargo/config.toml`` or filters file that a
repository reaches outside itself (a committed symlink, ``make -C ../x``,
``make -f /abs``, ``npm --prefix /abs``, ``bash $GITHUB_WORKSPACE/../x.sh``) is
never read: the audit exits 0 with an ``unresolved`` note at the workflow line,
and nothing of the outside files (a marker feature and a marker string) appears
in the JSON, SARIF or text report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import run

MARK = "leakedfeat"  # a feature named only in the outside files
SECRET = "SECRET-MARKER-42"
CARGO = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'


def outside_files(out: Path) -> None:
    """What an attacker hopes to read: each file runs cargo with the marker feature."""
    out.mkdir(exist_ok=True)
    run_line = f"cargo build --features {MARK}"
    (out / "x.sh").write_text(f"#!/bin/bash\n# {SECRET}\n{run_line}\n")
    (out / "Makefile").write_text(f"# {SECRET}\nall:\n\t{run_line}\n")
    (out / "justfile").write_text(f"# {SECRET}\ndefault:\n    {run_line}\n")
    (out / "Makefile.toml").write_text(f'# {SECRET}\n[tasks.default]\ncommand = "cargo"\n'
                                       f'args = ["build", "--features", "{MARK}"]\n')
    (out / "package.json").write_text(json.dumps({"x": SECRET, "scripts": {"build": run_line}}))
    (out / "config.toml").write_text(f'# {SECRET}\n[alias]\nxbuild = "build --features {MARK}"\n')
    (out / "filters.yml").write_text(f"gate:\n  - '{SECRET}/**'\n")
    (out / "pyproject.toml").write_text(f'# {SECRET}\n[build-system]\nbuild-backend = "maturin"\n'
                                        f'[tool.maturin]\nfeatures = ["{MARK}"]\n')
    (out / "wf.yml").write_text("on: [push]\njobs:\n  leak:\n    runs-on: ubuntu-latest\n    steps:\n"
                                f"      - run: {run_line}  # {SECRET}\n")


def link(repo: Path, rel: str, target: Path) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


# name: (the workflow's run line, symlinks to make: repo path -> file under the outside directory, or None)
CASES: dict[str, tuple[str, dict[str, str]]] = {
    "make -C ../out": ("make -C ../out", {}),
    "make -C /abs": ("make -C {out}", {}),
    "make -f /abs": ("make -f {out}/Makefile", {}),
    "make -f ../out": ("make -f ../out/Makefile", {}),
    "make --makefile /abs": ("make --makefile {out}/Makefile", {}),
    "make -C sub -f ../../out": ("make -C sub -f ../../out/Makefile", {}),
    "make -C ../out/.": ("make -C ../out/. all", {}),
    "just -f /abs": ("just -f {out}/justfile", {}),
    "just --justfile /abs": ("just --justfile {out}/justfile", {}),
    "cargo make --makefile /abs": ("cargo make --makefile {out}/Makefile.toml", {}),
    "makers --makefile /abs": ("makers --makefile {out}/Makefile.toml", {}),
    "npm --prefix /abs": ("npm --prefix {out} run build", {}),
    "npm --prefix ../out": ("npm --prefix ../out run build", {}),
    "yarn --cwd ../out": ("yarn --cwd ../out build", {}),
    "yarn --cwd /abs": ("yarn --cwd {out} build", {}),
    "pnpm -C ../out": ("pnpm -C ../out build", {}),
    "pnpm --dir /abs": ("pnpm --dir {out} build", {}),
    "bash $GITHUB_WORKSPACE/../x.sh": ("bash $GITHUB_WORKSPACE/../out/x.sh", {}),
    "bash $GITHUB_WORKSPACE/sub/../../x.sh": ("bash $GITHUB_WORKSPACE/sub/../../out/x.sh", {}),
    "bash ../out/x.sh": ("bash ../out/x.sh", {}),
    "source /abs": ("source {out}/x.sh", {}),
    ". ../out/x.sh": (". ../out/x.sh", {}),
    "cd ../out && make": ("cd ../out && make", {}),
    "a symlinked Makefile": ("make", {"Makefile": "Makefile"}),
    "a symlinked GNUmakefile": ("make", {"GNUmakefile": "Makefile"}),
    "a symlinked Makefile in sub": ("make -C sub", {"sub/Makefile": "Makefile"}),
    "a symlinked justfile": ("just", {"justfile": "justfile"}),
    "a symlinked package.json": ("npm run build", {"package.json": "package.json"}),
    "a symlinked Makefile.toml": ("cargo make", {"Makefile.toml": "Makefile.toml"}),
    "a symlinked ./x.sh": ("./x.sh", {"x.sh": "x.sh"}),
    "a symlinked bash x.sh": ("bash x.sh", {"x.sh": "x.sh"}),
    "a symlinked scripts directory": ("bash scripts/x.sh", {"scripts": "."}),
    "a symlinked workflow": ("echo hi", {".github/workflows/leak.yml": "wf.yml"}),
    "a symlinked .cargo/config.toml": ("cargo xbuild", {".cargo/config.toml": "config.toml"}),
    "a symlinked .cargo directory": ("cargo xbuild", {".cargo": "cargo-dir"}),
    "a symlinked pyproject.toml (maturin)": ("maturin develop", {"pyproject.toml": "pyproject.toml"}),
    "a symlinked pyproject.toml (pip install .)": ("pip install .", {"pyproject.toml": "pyproject.toml"}),
    "a symlinked pyproject.toml in sub (pip)": ("pip install -e ./sub", {"sub/pyproject.toml": "pyproject.toml"}),
}


def make_repo(outside: Path, repo: Path, line: str, links: dict[str, str]) -> None:
    out = outside / "out"
    outside_files(out)
    (out / "cargo-dir").mkdir(exist_ok=True)
    (out / "cargo-dir" / "config.toml").write_text((out / "config.toml").read_text())
    (repo / "Cargo.toml").write_text(CARGO)
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "sub").mkdir()
    (repo / ".git").mkdir()
    wf = repo / ".github" / "workflows"
    wf.mkdir(parents=True)
    (wf / "ci.yml").write_text("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                               "      - uses: actions/checkout@v4\n"
                               f"      - run: {line.format(out=out)}\n")
    for rel, target in links.items():
        link(repo, rel, out / target)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fmt", ["json", "sarif", "human"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_file_outside_the_repository_is_never_read(sandbox, case, fmt):
    outside, repo = sandbox
    line, links = CASES[case]
    make_repo(outside, repo, line, links)
    result = run(["audit", "--repo", str(repo), "--format", fmt], repo, outside=outside, repo=repo)
    for text in (result.out, result.err):
        assert MARK not in text and SECRET not in text, (case, text[:3000])
    assert result.code == 0, (case, result.err)
    if fmt != "json":
        return
    doc = json.loads(result.out)
    assert doc["invocations"] == [] or all(MARK not in inv["features"] for inv in doc["invocations"])
    unresolved = [f for f in doc["findings"] if f["rule"] == "unresolved"]
    assert unresolved, (case, doc["findings"])
    # The one rule's note: the file, and why it was not read.
    assert any("outside the repository" in f["message"] for f in unresolved), (case, unresolved)


OUTSIDE_CONFIG = f'[[gate]]\nname = "{SECRET}"\ncommand = ["true"]\npaths = ["{MARK}/**"]\n[{SECRET}]\n'
CONFIG_COMMANDS = {
    "audit": ["audit", "--format", "json"],
    "cost": ["cost"],
    "report html": ["report", "html"],
    "should-run": ["should-run", SECRET],
    "coverage": ["coverage"],
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", ["linkgate.toml", "Cargo.toml"])
@pytest.mark.parametrize("verb", sorted(CONFIG_COMMANDS))
def test_a_configuration_linked_outside_is_never_read(sandbox, verb, name):
    outside, repo = sandbox
    out = outside / "out"
    out.mkdir()
    text = OUTSIDE_CONFIG if name == "linkgate.toml" else CARGO + "[package.metadata.linkgate]\n" + \
        OUTSIDE_CONFIG.replace("[[gate]]", "[[package.metadata.linkgate.gate]]")
    (out / name).write_text(text)
    (repo / ".git").mkdir()
    if name == "linkgate.toml":
        (repo / "Cargo.toml").write_text(CARGO)
    (repo / name).symlink_to(out / name)
    result = run([*CONFIG_COMMANDS[verb], "--repo", str(repo)], repo, outside=outside, repo=repo)
    for text in (result.out, result.err):
        assert MARK not in text and SECRET not in text.replace(f"should-run {SECRET}", ""), text[:2000]
    assert not (out / ".linkgate").exists()
    if name == "linkgate.toml" or verb != "audit":
        assert result.code == 2, (result.code, result.err)
        assert result.err.count("linkgate: error:") == 1, result.err
        if name == "linkgate.toml":
            assert "linkgate.toml: it resolves to a path outside the repository; not read" in result.err


FILTER_WORKFLOW = """on: [pull_request]
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      gate: ${{ steps.filter.outputs.gate }}
    steps:
      - uses: actions/checkout@v4
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: .github/filters.yml
  build:
    needs: changes
    if: needs.changes.outputs.gate == 'true'
    runs-on: ubuntu-latest
    steps:
      - run: cargo build
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fmt", ["json", "sarif", "human"])
def test_a_filters_file_linked_outside_is_never_read(sandbox, fmt):
    outside, repo = sandbox
    make_repo(outside, repo, "echo hi", {".github/filters.yml": "filters.yml"})
    (repo / ".github" / "workflows" / "ci.yml").write_text(FILTER_WORKFLOW)
    result = run(["audit", "--repo", str(repo), "--format", fmt], repo, outside=outside, repo=repo)
    for text in (result.out, result.err):
        assert SECRET not in text and MARK not in text, text[:3000]
    assert result.code in (0, 1), result.err
    if fmt == "json":
        # The filter's rules are unknown: named, never guessed from the outside file.
        assert any(f["rule"] == "unresolved" and "filter" in f["message"] for f in json.loads(result.out)["findings"])
