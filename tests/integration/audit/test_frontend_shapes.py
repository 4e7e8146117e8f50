"""One hand-written fixture repository per program that runs cargo, per shell and per
runner shape (tests/fixtures/audit/shapes/), audited end to end: every invocation
written out by hand as (program, subcommand, arguments, feature sets, working
directory, file:line, links, conditional, matrix), and the findings it must raise."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lgtest import audit_shape

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def audit(tmp_path: Path, shape: str) -> dict[str, Any]:
    return audit_shape(tmp_path, shape)


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (i["program"], i["subcommand"], tuple(i["argv"][1:]), i["feature_sets"], i["cwd"],
         f"{i['file']}:{i['line']}", i["links"], i["conditional"], i["matrix"])
        for i in doc["invocations"]
    ]


def findings(doc: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f["rule"], f"{f['file']}:{f['line']}", f["message"]) for f in doc["findings"]]


def test_maturin_commands_and_the_action_build_the_extension_with_pyproject_features(tmp_path: Path) -> None:
    doc = audit(tmp_path, "maturin")
    w = ".github/workflows/wheels.yml"
    assert rows(doc) == [
        ("maturin", "build", ("build", "--release", "--features", "cuda"), ["cuda"], "", f"{w}:12", True, False, {}),
        # No --features: [tool.maturin] features of pyproject.toml.
        ("maturin", "build", ("develop", "--features", "python"), ["python"], "", f"{w}:13", True, False, {}),
        # -m names the crate; its pyproject (none in bindings/) gives nothing.
        ("maturin", "build", ("-m", "maturin", "build", "-m", "bindings/Cargo.toml", "-F", "metal"), ["metal"], "",
         f"{w}:14", True, False, {}),
        # `maturin sdist` (line 15) and the action's `command: sdist` (line 21) build nothing.
        ("maturin", "build", ("build", "--release", "--out", "dist"), ["default"], "bindings", f"{w}:16", True,
         False, {}),
        ("maturin", "build", ("build", "--target", "aarch64", "--release", "--features", "cuda"), ["cuda"], "",
         f"{w}:24", True, False, {}),
        # `pip install -e .` of a maturin project: a PEP 517 build, pyproject features.
        ("maturin", "build", ("build", "--release", "--features", "python"), ["python"], "", f"{w}:28", True,
         False, {}),
        # Run in the project's environment by poetry and uv (their own options skipped).
        ("maturin", "build", ("develop", "--release", "--features", "python"), ["python"], "", f"{w}:29", True,
         False, {}),
        ("maturin", "build", ("build", "-F", "cuda"), ["cuda"], "", f"{w}:30", True, False, {}),
    ]
    assert doc["invocations"][1]["via"] == [f"{w}:13 pyproject.toml [tool.maturin] adds --features python"]
    assert findings(doc) == []


def test_cargo_aliases_expand_from_the_working_directory_up_and_xtask_is_a_note(tmp_path: Path) -> None:
    doc = audit(tmp_path, "aliases")
    assert rows(doc) == [
        ("cargo", "run", ("run", "--example", "custom-ops", "--features", "custom"), ["custom"], "", f"{WF}:12",
         True, False, {}),
        ("cargo", "run", ("run", "--package", "xtask", "--", "dist", "--release"), ["default"], "", f"{WF}:13",
         True, False, {}),
        ("cargo", "run", ("run", "--package", "xtask", "--", "codegen"), ["default"], "", f"{WF}:14", True, False,
         {}),
        ("cargo", "clippy", ("clippy", "--package", "xtask"), ["default"], "", f"{WF}:15", False, False, {}),
        # crates/inner/.cargo/config.toml is nearer than the root's.
        ("cargo", "test", ("test", "--features", "fast"), ["fast"], "crates/inner", f"{WF}:16", True, False, {}),
    ]
    assert doc["invocations"][0]["via"] == [
        f"{WF}:12 alias example-custom-ops = 'run --example custom-ops --features custom' (.cargo/config.toml)"]
    # One note per (file, program), however many `cargo xtask` lines.
    assert findings(doc) == [
        ("unresolved", f"{WF}:13", "`cargo xtask` runs a Rust program (the xtask package) that may run cargo itself; "
         "the cargo commands it runs cannot be read and are not audited")]


def test_just_recipes_run_with_parameters_variables_and_dependencies(tmp_path: Path) -> None:
    doc = audit(tmp_path, "just")
    assert rows(doc) == [
        # `just test`: its dependency `build` first, with the parameter's default.
        ("cargo", "build", ("build", "--release", "--target", "x86_64-unknown-linux-gnu", "--features", "cuda"),
         ["cuda"], "", "justfile:7", True, False, {}),
        ("cargo", "test", ("test", "--features", "cuda"), ["cuda"], "", "justfile:11", True, False, {}),
        ("cargo", "build", ("build", "--release", "--target", "aarch64-unknown-linux-gnu", "--features", "cuda"),
         ["cuda"], "", "justfile:7", True, False, {}),
        ("cargo", "check", ("check", "--features", "metal"), ["metal"], "", "justfile:14", False, False, {}),
        # A shebang recipe is one script.
        ("cargo", "test", ("test", "--no-run", "--features", "cuda"), ["cuda"], "", "justfile:20", True, False, {}),
        ("cargo", "test", ("test", "--no-run", "--features", "metal"), ["metal"], "", "justfile:20", True, False, {}),
    ]
    assert doc["invocations"][0]["via"] == [f"{WF}:13 just test", "justfile:7 (build)"]
    assert findings(doc) == []


def test_cargo_make_runs_dependencies_then_command_args_or_script(tmp_path: Path) -> None:
    doc = audit(tmp_path, "cargo-make")
    assert rows(doc) == [
        ("cargo", "build", ("build", "--release", "--features", "cuda"), ["cuda"], "", "Makefile.toml:5", True,
         False, {}),
        ("cargo", "test", ("test", "--no-run"), ["default"], "", "Makefile.toml:11", True, False, {}),
    ]
    assert findings(doc) == []


def test_package_scripts_run_with_pre_scripts_and_in_their_directory(tmp_path: Path) -> None:
    doc = audit(tmp_path, "npm-scripts")
    assert rows(doc) == [
        ("cargo", "build", ("build", "--release"), ["default"], "", "package.json:5", True, False, {}),
        ("cargo", "test", ("test", "--features", "gen"), ["gen"], "", "package.json:6", True, False, {}),
        ("cargo", "test", ("test",), ["default"], "", "package.json:7", True, False, {}),
        # `npm run lint` runs eslint; `npm ci` runs no script.
        ("wasm-pack", "build", ("build", "--target", "web"), ["default"], "web", "web/package.json:4", True, False,
         {}),
        ("wasm-pack", "build", ("build", "--target", "web"), ["default"], "web", "web/package.json:4", True, False,
         {}),
        # A Node addon: `napi build` is the cargo build of a cdylib (`napi artifacts`, line 21, builds nothing).
        ("napi", "build", ("build", "--platform", "--release", "-F", "addon", "--target", "x86_64-unknown-linux-gnu"),
         ["addon"], "node", "node/package.json:5", True, False, {}),
    ]
    assert [i["via"][0] for i in doc["invocations"][3:]] == [f"{WF}:16 yarn --cwd web build",
                                                              f"{WF}:17 pnpm run build",
                                                              f"{WF}:19 yarn build --target x86_64-unknown-linux-gnu"]
    assert findings(doc) == []


def test_zigbuild_and_ndk_run_the_cargo_build_they_wrap(tmp_path: Path) -> None:
    doc = audit(tmp_path, "cargo-wrappers")
    assert rows(doc) == [
        ("cargo-zigbuild", "zigbuild", ("build", "--release", "--target", "aarch64-unknown-linux-gnu.2.17"),
         ["default"], "", f"{WF}:12", True, False, {}),
        ("cargo", "zigbuild", ("zigbuild", "--target", "x86_64-unknown-linux-musl"), ["default"], "", f"{WF}:13",
         True, False, {}),
        ("cargo", "build", ("ndk", "-t", "arm64-v8a", "-o", "./jniLibs", "build", "--release", "--features", "ndk"),
         ["ndk"], "", f"{WF}:14", True, False, {}),
        # cargo-c: a staticlib and a cdylib, with the package's `capi` feature turned on.
        ("cargo", "cbuild", ("cbuild", "--release"), ["capi"], "", f"{WF}:15", True, False, {}),
        ("cargo", "cinstall", ("cinstall", "--prefix=/usr", "--libdir=/usr/lib64", "--features", "ndk"),
         ["capi,ndk"], "", f"{WF}:16", True, False, {}),
        ("cargo", "ctest", ("ctest",), ["capi"], "", f"{WF}:17", True, False, {}),
        # cargo-fuzz: `build` links the fuzz targets; `list` builds nothing.
        ("cargo", "fuzz build", ("fuzz", "build", "--release"), ["default"], "", f"{WF}:18", True, False, {}),
        ("cargo", "fuzz list", ("fuzz", "list"), ["default"], "", f"{WF}:19", False, False, {}),
        # clechasseur/rs-clippy-check runs `cargo clippy ARGS`, at its `uses:` line.
        ("cargo", "clippy", ("clippy", "--features", "ndk", "--", "-D", "warnings"), ["ndk"], "", f"{WF}:20", False,
         False, {}),
    ]
    # cargo-fuzz builds the fuzz package, not the root one: its features are that package's.
    assert doc["invocations"][6]["feature_sets_by_package"] == ["mobile-fuzz: default"]


def test_powershell_steps_are_read_as_powershell(tmp_path: Path) -> None:
    doc = audit(tmp_path, "pwsh")
    w = ".github/workflows/windows.yml"
    assert rows(doc) == [
        # windows-latest: pwsh is the default shell. foreach over a list set in the script, a
        # backtick continuation (the command is at its first line).
        ("cargo", "test", ("test", "--release", "--features", "dx12"), ["dx12"], "", f"{w}:16", True, False, {}),
        ("cargo", "test", ("test", "--release", "--features", "vulkan"), ["vulkan"], "", f"{w}:16", True, False,
         {}),
        # `if ($IsWindows)` is decided on a Windows runner; `;` and `&`.
        ("cargo", "build", ("build", "--features", "static"), ["static"], "", f"{w}:19", True, False, {}),
        ("cargo", "check", ("check", "--all-targets"), ["default"], "", f"{w}:20", False, False, {}),
        # `shell: bash` on the Windows runner.
        ("cargo", "test", ("test", "--features", "vulkan"), ["vulkan"], "", f"{w}:25", True, False, {}),
        # defaults.run.shell: pwsh on Linux; an `if` on the event is undecided.
        ("cargo", "build", ("build", "--release", "--features", "vulkan"), ["vulkan"], "", f"{w}:38", True, True,
         {}),
        ("cargo", "test", ("test", "--features", "vulkan,static"), ["static,vulkan"], "", f"{w}:40", True, False,
         {}),
        ("cargo", "check", ("check",), ["default"], "", f"{w}:41", False, False, {}),
        # Quotes inside a word are removed, as PowerShell passes it to a native program.
        ("cargo", "test", ("test", "--features=dx12", "-Fstatic"), ["dx12,static"], "", f"{w}:43", True, False, {}),
        # A value a pwsh step wrote to $env:GITHUB_ENV; a script starting with a blank line; cargo
        # by its Windows path through `&`; Invoke-Expression.
        ("cargo", "build", ("build", "--features", "vulkan"), ["vulkan"], "", f"{w}:54", True, False, {}),
        ("cargo", "test", ("test", "--features", "dx12"), ["dx12"], "", f"{w}:55", True, False, {}),
        # PowerShell 7's pipeline chain: each command of `a && b && c`.
        ("cargo", "generate-lockfile", ("generate-lockfile",), ["default"], "", f"{w}:56", False, False, {}),
        ("cargo", "update", ("update", "-p", "libc", "--precise", "0.2.150"), ["default"], "", f"{w}:56", False,
         False, {}),
        ("cargo", "test", ("test", "--features", "vulkan"), ["vulkan"], "", f"{w}:56", True, False, {}),
    ]
    assert [f for f in findings(doc) if f[0] == "unresolved"] == [
        ("unresolved", f"{w}:22", "cannot read the PowerShell script block `cargo build --manifest-path "
         "\"$($_.FullName)\\Cargo.toml\"`; a cargo command in it is not audited")]
    assert not any("parse" in f[2] for f in findings(doc))
    # Nothing links the default set: checked at lines 20 and 41 only.
    assert [f[:2] for f in findings(doc) if f[0] != "unresolved"] == [("never-linked", f"{w}:20")]


def test_runs_on_is_resolved_per_combination_and_hosted_labels_are_known(tmp_path: Path) -> None:
    doc = audit(tmp_path, "runners")
    assert rows(doc) == [
        ("cargo", "test", ("test",), ["default"], "", f"{WF}:15", True, False, {"os": "ubuntu-latest"}),
        # macOS-latest is GitHub-hosted whatever its case: runner.os is decided.
        ("cargo", "test", ("test", "--features", "metal"), ["metal"], "", f"{WF}:17", True, False,
         {"os": "macOS-latest"}),
        # gpu-box is not GitHub-hosted: runner.os is unknown there.
        ("cargo", "test", ("test",), ["default"], "", f"{WF}:15", True, True, {"os": "gpu-box"}),
        ("cargo", "test", ("test", "--features", "metal"), ["metal"], "", f"{WF}:17", True, True, {"os": "gpu-box"}),
        ("cargo", "test", ("test", "--features", "cuda"), ["cuda"], "", f"{WF}:19", True, False, {"os": "gpu-box"}),
        ("cargo", "build", ("build",), ["default"], "", f"{WF}:25", True, False, {}),
        ("cargo", "test", ("test", "--features", "cuda"), ["cuda"], "", f"{WF}:32", True, False, {}),
    ]
    # no-timeout: only where a runner is not GitHub-hosted (gpu-box, the runner group).
    assert [(f[0], f[1]) for f in findings(doc)] == [("no-timeout", f"{WF}:7"), ("no-timeout", f"{WF}:26")]
    assert "`gpu-box`" in findings(doc)[0][2]


def test_the_workspace_root_and_stdin_scripts_are_known(tmp_path: Path) -> None:
    doc = audit(tmp_path, "runner-values")
    assert rows(doc) == [
        ("cargo", "test", ("test", "--features", "simd"), ["simd"], "crates/core", f"{WF}:16", True, False, {}),
        ("cargo", "build", ("build", "--release"), ["default"], "crates/core", f"{WF}:19", True, False, {}),
        ("cargo", "test", ("test",), ["default"], "crates/core", f"{WF}:20", True, False, {}),
        # `bash -s -- ARGS` reads the script from stdin with ARGS as $@.
        ("cargo", "test", ("test", "--features", "simd"), ["simd"], "", f"{WF}:24", True, False, {}),
    ]
    # `sh -s -- -b /usr/local/bin` names no script.
    assert findings(doc) == []


def test_filters_combine_as_the_if_writes_them_and_the_trigger_paths_are_a_filter(tmp_path: Path) -> None:
    doc = audit(tmp_path, "filters")
    found = [(f["rule"], f"{f['file']}:{f['line']}", f["subject"], f["paths"]) for f in doc["findings"]]
    assert found == [
        # `cuda || metal`: each input is covered by one of them, so link-either gets no finding.
        # `cuda && metal`: each input misses one of them; the finding is at the first filter's own line.
        ("filter-misses-surface", f"{WF}:18", "cuda and metal: accel",
         ["crates/accel/cuda/kernels.h", "crates/accel/metal/shaders.h"]),
        # on.pull_request.paths skips the whole workflow: a filter too, at its `paths:` line.
        ("filter-misses-surface", ".github/workflows/trigger-paths.yml:4", "on.pull_request.paths: accel",
         ["crates/accel/metal/shaders.h"]),
        # A push to fix/extra-link never runs on the default branch: `extra` is linked only nightly there.
        ("link-only-on-schedule", ".github/workflows/nightly.yml:13", "extra", []),
    ]
    both, trigger = doc["findings"][0], doc["findings"][1]
    assert "ci/link-both (.github/workflows/ci.yml:47)" in both["message"] and "link-either" not in both["message"]
    # The workflow's own filter gates both its jobs: one finding naming both.
    assert "trigger-paths/link (.github/workflows/trigger-paths.yml:17), trigger-paths/link-release " \
        "(.github/workflows/trigger-paths.yml:23)" in trigger["message"]
    assert "a required check stays pending" in trigger["message"]
    assert "required check" not in both["message"]
    assert "(on: push to branches other than the default, schedule)" in doc["findings"][2]["message"]


def test_feature_sets_are_compared_per_package_as_cargo_enables_them(tmp_path: Path) -> None:
    doc = audit(tmp_path, "feature-sets")
    # Labels stay as written; the comparison form is per package.
    assert [(i["feature_sets"], i["feature_sets_by_package"]) for i in doc["invocations"]] == [
        (["cuda"], ["a: cuda"]), (["cuda"], ["b: cuda"]),
        # webui is a default feature of app: `cuda,webui` is `cuda`.
        (["cuda"], ["app: cuda"]), (["cuda,webui"], ["app: cuda"]),
        # --all-features is c's whole table.
        (["all features"], ["c: x,y"]), (["x,y"], ["c: x,y"]),
        # d's default feature `ext` names b/cuda: both are on already. --all-features on a
        # package whose every feature is default is the default set.
        (["b/cuda,ext"], ["d: default"]), (["all features"], ["d: default"]),
        # --manifest-path is read from the working directory.
        (["webui"], ["app: default"]),
    ]
    # Linking b's cuda does not link a's; app's and c's checked sets are linked.
    assert findings(doc) == [
        ("never-linked", f"{WF}:12", "feature set `cuda` of a is compiled by ci/test (.github/workflows/ci.yml:12) "
         "but linked by no job: cargo check and clippy never run the linker")]
    assert doc["findings"][0]["hint"].startswith("link it in CI, e.g. `cargo test --no-run -p a --features cuda`")


def test_the_human_table_has_one_row_per_package_and_set(tmp_path: Path) -> None:
    repo = tmp_path / "feature-sets"
    shutil.copytree(SHAPES / "feature-sets", repo)
    out = tmp_path / "audit.md"
    main(["audit", "--repo", str(repo), "--format", "markdown", "--output", str(out)])
    rows = [line.split(" | ")[0] for line in out.read_text().splitlines() if line.startswith("| `")]
    assert rows == ["| `a: cuda`", "| `app: cuda`", "| `app: default`", "| `b: cuda`", "| `c: x,y`", "| `d: default`"]


def test_trunk_builds_the_crate_its_page_names_with_the_pages_features(tmp_path: Path) -> None:
    from lgtest import PACKAGE, audit_files

    workflow = """on: [push]
jobs:
  web:
    runs-on: ubuntu-latest
    steps:
      - run: cargo check -p viewer --features webgl --target wasm32-unknown-unknown
      - run: cargo check -p viewer --features webgpu --target wasm32-unknown-unknown
      - run: cd www && trunk build --release
      - run: trunk build www/gpu.html --features webgpu
      - run: trunk build missing.html
"""
    viewer = PACKAGE.replace('"p"', '"viewer"') + '\n[features]\nwebgl = []\nwebgpu = []\n'
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["viewer"]\n',
        "viewer/Cargo.toml": viewer, "viewer/src/main.rs": "fn main() {}\n",
        "www/index.html": '<html>\n<head>\n<link data-trunk rel="rust" href="../viewer" data-cargo-features="webgl"'
                          ' data-bin="viewer"/>\n</head>\n</html>\n',
        "www/gpu.html": '<link data-trunk rel="rust" href="../viewer/Cargo.toml" data-cargo-features="webgl">\n',
    }
    doc = audit_files(tmp_path, workflow, files)
    built = [(i["argv"], i["feature_sets"], i["cwd"], i["links"], i["line"]) for i in doc["invocations"]
             if i["subcommand"] == "build"]
    wasm = ["cargo", "build", "--target", "wasm32-unknown-unknown", "--manifest-path"]
    assert built == [
        # The page's attributes; the command line's --features wins over data-cargo-features.
        ([*wasm, "../viewer/Cargo.toml", "--release", "--bin", "viewer", "--features", "webgl"], ["webgl"], "www",
         True, 8),
        ([*wasm, "viewer/Cargo.toml", "--features", "webgpu"], ["webgpu"], "", True, 9),
    ]
    assert "www/index.html:3 <link data-trunk" in doc["invocations"][2]["via"][0]
    # Both sets are linked: no never-linked finding. The page that is not there is named.
    assert [f for f in doc["findings"] if f["rule"] == "never-linked"] == []
    [note] = [f for f in doc["findings"] if f["rule"] == "unresolved" and f["line"] == 10]
    assert note["subject"] == "file missing.html" and "what it links is not known" in note["message"]
