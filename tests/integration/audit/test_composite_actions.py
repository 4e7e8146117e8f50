"""Local composite actions (`uses: ./.github/actions/x`) read as the calling job runs them:
inputs from `with:` (the caller's matrix passed through) or their defaults, each `run:` step in
its `shell:` and `working-directory`, `if:` decided, `github.action_path` scripts followed, nested
actions followed with a depth limit and cycles named; the invocations are the calling step's,
with the action's file and line and a `via` hop naming the `uses:`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from linkgate.cli import main

WF = ".github/workflows/ci.yml"
ACT = ".github/actions/build/action.yml"
_CRATE = {"Cargo.toml": '[package]\nname = "engine"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\n'
                        'simd = []\nfast = []\ngpu = []\n',
          "src/main.rs": "fn main() {}\n"}


def _write(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)


def audit_dir(repo: Path, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def steps(doc: dict[str, Any]) -> list[tuple[str, int, str, list[tuple[str, str, bool]]]]:
    return [(job["job"], s["line"], s["status"], [(f"{g['file']}:{g['line']}", g["why"], g["may_run_cargo"])
                                                  for g in s["gaps"]])
            for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"]]


def _caller(uses: str = "./.github/actions/build", with_: str = "", matrix: str = "") -> str:
    return ("on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 9\n"
            + (f"    strategy:\n      matrix:\n{matrix}" if matrix else "")
            + "    steps:\n      - uses: actions/checkout@v4\n"
            + f"      - uses: {uses}\n" + with_)


def test_inputs_matrix_shells_directories_conditions_and_action_path_scripts(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, {**_CRATE,
                  WF: _caller(with_="        with:\n          features: ${{ matrix.f }}\n"
                                    "        env:\n          EXTRA: --locked\n",
                              matrix="        f: [simd, gpu]\n"),
                  ACT: "name: build\ninputs:\n  features:\n    required: true\n  profile:\n"
                       "    default: ${{ github.workspace == '' && 'x' || 'release' }}\n  docs:\n"
                       "    description: not given, no default\n"
                       "runs:\n  using: composite\n  steps:\n"
                       "    - run: cargo test --features ${{ inputs.features }} --profile ${{ inputs.profile }} $EXTRA\n"
                       "      shell: bash\n"
                       "    - run: cargo build --features fast\n      shell: pwsh\n      working-directory: sub\n"
                       "    - if: inputs.features == 'gpu'\n      run: cargo run --features gpu\n      shell: bash\n"
                       "    - if: inputs.docs != ''\n      run: cargo doc\n      shell: bash\n"
                       "    - run: ${{ github.action_path }}/check.sh\n      shell: bash\n"
                       "    - run: bash \"$GITHUB_ACTION_PATH/check.sh\"\n      shell: sh\n",
                  ".github/actions/build/check.sh": "#!/bin/bash\n\ncargo clippy --features simd\n",
                  "sub/Cargo.toml": '[package]\nname = "sub"\nversion = "0.1.0"\n\n[features]\nfast = []\n',
                  "sub/src/main.rs": "fn main() {}\n"})
    doc = audit_dir(repo, tmp_path)
    got = [(i["file"], i["line"], i["argv"][1:], i["cwd"], i["matrix"], i["step"], i["via"][:1])
           for i in doc["invocations"]]
    hop = [f"{WF}:11 uses: ./.github/actions/build"]
    script = ".github/actions/build/check.sh"
    assert got == [
        (ACT, 12, ["test", "--features", "simd", "--profile", "release", "--locked"], "", {"f": "simd"},
         "./.github/actions/build", hop),
        (ACT, 14, ["build", "--features", "fast"], "sub", {"f": "simd"}, "./.github/actions/build", hop),
        (script, 3, ["clippy", "--features", "simd"], "", {"f": "simd"}, "./.github/actions/build", hop),
        (script, 3, ["clippy", "--features", "simd"], "", {"f": "simd"}, "./.github/actions/build", hop),
        (ACT, 12, ["test", "--features", "gpu", "--profile", "release", "--locked"], "", {"f": "gpu"},
         "./.github/actions/build", hop),
        (ACT, 14, ["build", "--features", "fast"], "sub", {"f": "gpu"}, "./.github/actions/build", hop),
        # `if: inputs.features == 'gpu'` holds for this combination only.
        (ACT, 18, ["run", "--features", "gpu"], "", {"f": "gpu"}, "./.github/actions/build", hop),
        (script, 3, ["clippy", "--features", "simd"], "", {"f": "gpu"}, "./.github/actions/build", hop),
        (script, 3, ["clippy", "--features", "simd"], "", {"f": "gpu"}, "./.github/actions/build", hop),
    ]
    # The script's hops follow the action's: `uses:`, then the line that runs it.
    assert doc["invocations"][2]["via"] == [*hop, f"{ACT}:23 /github/workspace/{script}", f"{script}:3"]
    assert doc["invocations"][3]["via"][1] == f"{ACT}:25 bash /github/workspace/{script}"
    assert all(not i["conditional"] and i["job"] == "test" and i["trigger"]["events"] == ["pull_request"]
               for i in doc["invocations"])
    assert steps(doc) == [("test", 10, "read", []), ("test", 11, "read", [])]
    assert [(f["file"], f["kind"], f["status"]) for f in doc["coverage"]["files"]] == [
        (ACT, "action", "read"), (script, "script", "read")]
    # gpu is linked (by `cargo run`): no finding of it; nothing unread leaves a finding open.
    assert [f for f in doc["findings"] if f["rule"] in ("never-linked", "unresolved")] == []


def test_a_never_linked_set_linked_inside_a_composite_action_is_no_finding(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    caller = _caller().replace("    steps:\n", "    steps:\n      - run: cargo check --features gpu\n")
    _write(repo, {**_CRATE, WF: caller,
                  ACT: "runs:\n  using: composite\n  steps:\n    - run: cargo build --features gpu\n"
                       "      shell: bash\n"})
    doc = audit_dir(repo, tmp_path)
    assert [(i["file"], i["line"], i["subcommand"]) for i in doc["invocations"]] == [
        (WF, 7, "check"), (ACT, 4, "build")]
    assert [f["rule"] for f in doc["findings"] if f["subject"] == "gpu"] == []
    # Without the action's build, the set is checked and never linked: an error.
    (repo / ACT).write_text("runs:\n  using: composite\n  steps:\n    - run: echo hi\n      shell: bash\n")
    doc = audit_dir(repo, tmp_path)
    assert [(f["rule"], f["level"]) for f in doc["findings"] if f["subject"] == "gpu"] == [("never-linked", "error")]


def test_nested_actions_outputs_and_a_cycle(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    caller = _caller(with_="        id: b\n") + "      - run: cargo test --features ${{ steps.b.outputs.set }}\n"
    _write(repo, {**_CRATE, WF: caller,
                  ACT: "runs:\n  using: composite\n  steps:\n    - uses: ./.github/actions/inner\n"
                       "      id: in\n      with:\n        what: fast\n"
                       "outputs:\n  set:\n    value: ${{ steps.in.outputs.set }}\n",
                  ".github/actions/inner/action.yaml":
                      "inputs:\n  what: {}\noutputs:\n  set:\n    value: ${{ steps.pick.outputs.set }}\n"
                      "runs:\n  using: composite\n  steps:\n    - run: cargo build --features ${{ inputs.what }}\n"
                      "      shell: bash\n    - id: pick\n      run: echo \"set=simd\" >> \"$GITHUB_OUTPUT\"\n"
                      "      shell: bash\n    - uses: ./.github/actions/build\n"})
    doc = audit_dir(repo, tmp_path)
    assert [(i["file"], i["line"], i["argv"][1:], i["via"]) for i in doc["invocations"]] == [
        (".github/actions/inner/action.yaml", 9, ["build", "--features", "fast"],
         [f"{WF}:8 uses: ./.github/actions/build", f"{ACT}:4 uses: ./.github/actions/inner"]),
        # The output maps back through both actions to the caller's `steps.b.outputs.set`.
        (WF, 10, ["test", "--features", "simd"], []),
    ]
    cycle = (".github/actions/inner/action.yaml:14", "a cycle of local actions (.github/actions/build/action.yml "
             "-> .github/actions/inner/action.yaml -> .github/actions/build/action.yml), which never ends on GitHub",
             False)
    assert steps(doc) == [("test", 7, "read", []), ("test", 8, "partly read", [cycle]), ("test", 10, "read", [])]
    notes = [(f["file"], f["line"]) for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == [(".github/actions/inner/action.yaml", 14)]


def test_javascript_missing_and_symlinked_actions_stay_gaps(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "action.yml").write_text("runs:\n  using: composite\n  steps:\n"
                                        "    - run: cargo build --features gpu  # SECRET-OUTSIDE\n      shell: bash\n")
    caller = _caller("./.github/actions/js") + "      - uses: ./.github/actions/gone\n" \
        "      - uses: ./.github/actions/linked\n      - run: cargo check --features gpu\n"
    _write(repo, {**_CRATE, WF: caller,
                  ".github/actions/js/action.yml": "runs:\n  using: node20\n  main: index.js\n",
                  ".github/actions/js/index.js": "require('child_process').execSync('cargo build')\n"})
    os.symlink(outside, repo / ".github/actions/linked")
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    text = out.read_text()
    assert "SECRET-OUTSIDE" not in text
    doc = json.loads(text)
    assert [(i["file"], i["subcommand"]) for i in doc["invocations"]] == [(WF, "check")]
    got = steps(doc)
    assert got[1] == ("test", 8, "unread", [(f"{WF}:8", "a local JavaScript action linkgate does not read", True)])
    assert got[2] == ("test", 9, "unread", [
        (f"{WF}:9", "no action.yml or action.yaml in .github/actions/gone (made at run time, or GitHub fails "
                     "the step)", True)])
    assert got[3][:3] == ("test", 10, "unread") and "outside the repository" in got[3][3][0][1]
    never = next(f for f in doc["findings"] if f["rule"] == "never-linked")
    assert never["level"] == "warning" and [u.split(" ")[0] for u in never["unless"]] == [
        f"{WF}:8", f"{WF}:9", f"{WF}:10"]
