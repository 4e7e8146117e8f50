"""Held-out ground truth for bench/audit_truth.py: what the CI of public native-linking crates runs.

HELD OUT. Written by hand on 2026-12-01 from each repository's workflows and
the scripts, justfiles, Makefile.toml tasks, package.json scripts and cargo
aliases they call, at the commits below, BEFORE linkgate was first run on any
of these repositories (no linkgate output was seen while writing it). Any
later change must be explained in a comment next to the change, and is
allowed only to fix an error in the truth itself (a misread workflow, a wrong
line), never to match what linkgate prints.

Same shape as ground_truth.py (COMMITS, inv(), INVOCATIONS, FINDINGS), so
bench/audit_truth.py can load either module with the same code. Each entry is
one cargo invocation of one matrix combination: job id, file and line of the
command, the cargo subcommand it really runs, whether it links, its feature
sets (labels as `linkgate audit` prints them: "default", "all features",
"no default features", "a,b (no default)", sorted and comma-joined), and the
matrix values telling the combination apart (always the full combination as
GitHub expands it). Shell conditions and `if:` were decided as on GitHub's
hosted runners (`CI` is set, `runner.os` follows `runs-on`); a step whose
`if:` cannot be decided from the repository (github.event_name, github.ref,
a cache hit) is listed: it runs on some event. Checkouts: CHECKOUTS.md.

Shapes: ML runtimes with cuda/metal/accelerate features (candle, ort,
tch-rs); maturin (candle-pyo3, cramjam; PyO3/maturin-action, `maturin
develop`, `pip install -e .`); Windows runners and pwsh default-shell steps
(cramjam, duckdb-rs, rust-ffmpeg, lz4-rs, rust-sdl2, diesel); npm scripts
(cramjam-js/package.json -> wasm-pack); cargo aliases (ort's example-*,
diesel's xtask); generated or very large workflows (diesel's cargo-dist
release.yml, cramjam's 107-leg matrix).

Conventions decided here for shapes linkgate may not read yet (a reviewer
can check each one against the rule stated):

- maturin (`maturin build`, `maturin develop`, `python -m maturin ...`,
  PyO3/maturin-action with command build/absent, and a PEP 517 build of a
  maturin project: `pip install .`/`pip install -e .`/`uv pip install -e .`)
  is one invocation, subcommand "build", links=True (the extension is a
  cdylib), at the line of the maturin (or pip) command word, or the `uses:`
  line of the action. Features: the command's own --features /
  --no-default-features / --all-features; when it gives no --features, the
  `[tool.maturin] features` of the pyproject.toml in its directory (maturin's
  merge_with_pyproject_toml takes those only when the command line has none).
  One entry per command even when maturin runs cargo more than once (one
  interpreter per run without abi3, or universal2). `maturin sdist` and
  `python -m build --sdist` run no cargo build: not listed. Cargo commands
  maturin issues itself (`cargo metadata`) are not listed.
- wasm-pack build: one "build" invocation, links=True (cdylib), as in
  ground_truth.py's reading of wasm-pack.
- package.json scripts (`npm run x`, `yarn x`): the invocation is at the
  line of the cargo/wasm-pack/napi command in package.json (where the command
  is written, as for a Makefile recipe), not at the workflow's `npm run` line.
- justfile recipes and cargo-make tasks likewise: the file and line of the
  cargo command inside the justfile / Makefile.toml. (No repository below
  runs cargo through just or cargo make: none suitable was found in the
  time given; npm scripts and cargo aliases cover the indirect shape.)
  Added 2026-12-01: sfu-db/connector-x and cberner/redb, which replace the
  two repositories moved to training, run cargo and `maturin develop`
  through justfile recipes (recipe dependencies, `+ARGS` parameters); their
  invocations sit at the justfile lines. No cargo-make repository with
  readable cargo tasks and native linking was found in the time given.
- A value that depends on the event (`github.ref == 'refs/heads/main' &&
  'a' || 'b'`) gives one invocation per value, as linkgate documents for
  an undecidable branch.
- `cargo <sub> --version` (`cargo clippy --version`) is listed under its
  subcommand; plain `cargo --version` has none and is not listed.
- cargo aliases (.cargo/config.toml `[alias]`): the line of `cargo <alias>`
  in the workflow, the subcommand the alias expands to, with the alias's
  arguments taken into account (e.g. `--example` makes `run` link).
- Third-party wrappers are read as the cargo subcommand they run: `cargo
  docs-rs` -> "rustdoc" with the `[package.metadata.docs.rs]` features.
  `cargo install <tool>` is listed as "install", links=True, features
  "default" (it compiles and links the tool, not this repository).
- Rust programs (xtask) are not read: the `cargo xtask` line itself is the
  invocation ("run", links=True); the cargo commands the xtask binary spawns
  are not listed.
"""

from __future__ import annotations

import itertools
from typing import Any

# Repositories whose held-out results led to a fix: measured with the training set from then on
# (their truth below is unchanged). Each with the fix it led to.
MOVED_TO_TRAINING = {
    # 2026-12-01, issue 19: its three maturin.yml jobs each got the same filter-misses-manifest finding
    # for the workflow's on.pull_request.paths (the trigger's filter was keyed by job); now one
    # finding per workflow filter (tests/fixtures/audit/shapes/filters, trigger-paths.yml).
    "huggingface/candle": "one finding per workflow-level paths filter, not one per job",
    # 2026-12-01, issue 19: a Windows (pwsh) step's `--features="x"` kept its quotes in the feature
    # name; the PowerShell reader now removes quotes inside a word (shapes/pwsh, windows.yml:43).
    "duckdb/duckdb-rs": "quotes inside a PowerShell word are removed",
    # 2026-12-01, issue 19: `poetry run maturin develop --release` in a justfile recipe was not read, so
    # two links of connectorx-python's default set were missed and a false link-only-on-schedule followed;
    # commands run through poetry/uv/pipenv/pdm/hatch/rye/conda `run` are now read (shapes/maturin, wheels.yml:29).
    "sfu-db/connector-x": "commands run by `poetry run`, `uv run` and the like are read",
    # 2026-12-01, issue 19: `napi build` (package.json scripts of Node addons) was not read (15 links missed,
    # a false never-linked for the addon); a `dep/feature` that a default feature names, and --all-features
    # on a package whose features are all default, were not folded into `default`; --manifest-path was taken
    # from the repository root instead of the working directory (shapes/npm-scripts, shapes/feature-sets).
    # bench/audit_truth.py now also matches the comparison form the audit's tables print.
    "huggingface/tokenizers": "napi build; default-enabled dep/features; --manifest-path from the working directory",
    # 2026-12-01, issue 19: a pwsh step's `cargo generate-lockfile && cargo update ... && ...` (PowerShell 7's
    # pipeline chain) was one command; the PowerShell reader now reads `&&` and `||` (shapes/pwsh, windows.yml:56).
    "KyleMayes/clang-sys": "PowerShell pipeline chains (`&&`, `||`) are read",
    # 2026-12-01, issue 19: every cargo line of test-all goes through `run() { ...; "$@"; }`; the audit gave
    # them all the line of "$@" (test-all:8) instead of the line where cargo is written (shapes/function).
    "tensorflow/rust": "a command run through a wrapper function's \"$@\" is at its call's line",
    # 2026-12-01, issue 19: cargo-c (`cargo cbuild|cinstall`) was an unknown subcommand that links nothing,
    # `cargo fuzz build` was not read as linking, clechasseur/rs-clippy-check was not read, and a pwsh
    # `cargo --version > Cargo.version` gave an invocation of subcommand `>` (redirections are now dropped;
    # shapes/cargo-wrappers, tests/unit/workflows/test_pwsh.py).
    "xiph/rav1e": "cargo-c, cargo fuzz, rs-clippy-check; PowerShell redirections",
    # 2026-12-01, issue 19: `if: ${{ matrix.runClippy }}` with `runClippy: false` ran the step: the workflow's
    # scalars were all strings, and "false" is truthy; a plain true/false is now the boolean GitHub reads
    # in expressions (shapes/step-if, ci.yml:38).
    "rust-skia/rust-skia": "a matrix's plain true/false are booleans in expressions",
}

COMMITS = {
    "huggingface/candle": "2a13b0f3ff62f7e67013597f2996f764c5735e21",
    "pykeio/ort": "78de6d9d5a1c6c37825851fdb23a166a65f6490e",
    "milesgranger/cramjam": "9c15ea47570f57be70477cd3464b58fe306fe25b",
    "duckdb/duckdb-rs": "49523b0ef8d36f43b1f30ee64ee7351737717d1d",
    "LaurentMazare/tch-rs": "a1dc7ecec800afb99fff031bf1febe876ecf1572",
    "diesel-rs/diesel": "04cc1b0bc6578021db542464e6cd1a21e0d39235",
    "zmwangx/rust-ffmpeg": "3751e2800d5d2f0215d69031285aadebac5db8fc",
    "purpleprotocol/mimalloc_rust": "a35cc759c071fd7bd586685048367839002b95dd",
    "10XGenomics/lz4-rs": "287dbd063a53738917f1078192185839215d10a0",
    "Rust-SDL2/rust-sdl2": "de686d00ef91fe7db2df3144e716c0735fda3771",
    # Added 2026-12-01 to replace the two repositories moved to training (written before linkgate ran on them).
    "sfu-db/connector-x": "6ec222942fd0fc92b0ee300cb0d2d0529e3dc3bf",
    "cberner/redb": "599626be21ad8f58f9b737c9caaba7d6454e8333",
    # Added 2026-12-01 (second session) to replace sfu-db/connector-x, moved to training; written by hand by
    # engineers who never ran linkgate, before it was first run on them.
    "huggingface/tokenizers": "3ba8ad0061a885baf052bbb7bbd22857e73e0c4e",
    "mlua-rs/mlua": "dc24217320680635e1563e91818bc5aff9bf3ecd",
    # Added 2026-12-01 (second session) to replace huggingface/tokenizers, moved to training; written the same way.
    "KyleMayes/clang-sys": "0b404336abbacc5d34df70af981ff5a338206bfe",
    # Added 2026-12-01 (second session) to replace KyleMayes/clang-sys, moved to training; written the same way.
    "tensorflow/rust": "1ddf5a348037402f87d67c076bf3019857eae05f",
    # Added 2026-12-01 (second session) to replace tensorflow/rust, moved to training; written the same way.
    "xiph/rav1e": "564ae3b0007ae2b06893fd7166bf88c5a84c5b63",
    # Added 2026-12-01 (second session) to replace xiph/rav1e, moved to training; written the same way.
    "rust-skia/rust-skia": "259b9cf9a023e44acf7a88b8c55a9971ba2efaa6",
    # Added 2026-12-01 (second session) to replace rust-skia/rust-skia, moved to training; written the same way.
    "Brooooooklyn/canvas": "a7878df008fbf0200928bc43ac01823537b08c3b",
}


def inv(job: str, file: str, line: int, sub: str, links: bool, features: list[str],
        matrix: dict[str, Any] | None = None, count: int = 1) -> dict[str, Any]:
    return {"job": job, "file": file, "line": line, "subcommand": sub, "links": links,
            "features": features, "matrix": matrix or {}, "count": count}


def expand(axes: dict[str, list[Any]], exclude: list[dict[str, Any]] = (), include: list[dict[str, Any]] = ()):
    """GitHub's matrix expansion (product, exclude on the keys named, include extends or appends)."""
    names = list(axes)
    combos = [dict(zip(names, v)) for v in itertools.product(*(axes[n] for n in names))]

    def sub(p, v):
        if isinstance(p, dict) and isinstance(v, dict):
            return all(k in v and sub(x, v[k]) for k, x in p.items())
        return p == v
    combos = [c for c in combos if not any(all(k in c and sub(x, c[k]) for k, x in e.items()) for e in exclude)]
    originals = [dict(c) for c in combos]
    added = []
    for entry in include:
        fitted = False
        for c, o in zip(combos, originals):
            if all(k not in o or o[k] == v for k, v in entry.items()):
                c.update(entry)
                fitted = True
        if not fitted:
            added.append(dict(entry))
    return combos + added


# ---- huggingface/candle (ML runtime: cuda, metal features; candle-pyo3 built with maturin)
# The root is a virtual workspace; `--features x` applies to the selected members.
CI, CU, PY, MA = (".github/workflows/" + n for n in ("rust-ci.yml", "ci_cuda.yaml", "python.yml", "maturin.yml"))
ca = []
for os in ["ubuntu-latest", "ubuntu-24.04", "windows-latest", "macOS-latest", "ubuntu-24.04-arm"]:
    m = {"os": os}
    if os == "macOS-latest":
        ca.append(inv("check", CI, 29, "check", False, ["metal"], m))
    if os in ("ubuntu-latest", "windows-latest"):
        ca.append(inv("check", CI, 33, "check", False, ["default"], m))
    if os == "ubuntu-24.04":
        ca.append(inv("check", CI, 39, "check", False, ["default"], m))
    if os == "ubuntu-24.04-arm":
        ca.append(inv("check", CI, 45, "check", False, ["default"], m))
for os in ["ubuntu-latest", "windows-latest", "macOS-latest"]:
    ca.append(inv("test", CI, 77 if os == "ubuntu-latest" else 80, "test", True, ["default"], {"os": os}))
ca += [inv("fmt", CI, 90, "fmt", False, ["default"]),
       inv("clippy", CI, 100, "clippy", False, ["default"]),
       # job if: on the pull request's repositories (undecidable); self-hosted GPU runner group
       inv("test-cuda", CU, 35, "test", True, ["cuda"]),
       # `python -m maturin develop -r --features onnx` in candle-pyo3 (a cdylib)
       inv("build_and_test", PY, 53, "build", True, ["onnx"], {"os": "ubuntu-latest"})]
for t in ["x86_64", "x86", "aarch64", "s390x", "ppc64le"]:
    # no --features in args: candle-pyo3/pyproject.toml [tool.maturin] features = ["pyo3/extension-module"]
    ca.append(inv("linux", MA, 36, "build", True, ["pyo3/extension-module"], {"target": t}))
for t in ["x64", "x86"]:
    ca.append(inv("windows", MA, 66, "build", True, ["onnx"], {"target": t}))  # env.FEATURES_FLAG = --features onnx
for t in ["x86_64", "aarch64"]:
    ca.append(inv("macos", MA, 94, "build", True, ["onnx"], {"target": t}))
# sdist job (MA:116): maturin sdist, no cargo build.

# ---- pykeio/ort (ONNX Runtime bindings: cuda/tensorrt/coreml/... features; cargo aliases in .cargo/config.toml)
BK, CQ, SL, OC, TE = (".github/workflows/" + n for n in
                      ("backends.yml", "code-quality.yml", "custom-static-link.yml", "other-checks.yml", "test.yml"))
DOCSRS = ",".join(sorted([
    "std", "ndarray", "half", "num-complex", "training", "fetch-models", "load-dynamic", "copy-dylibs",
    "cuda", "tensorrt", "openvino", "onednn", "directml", "nnapi", "coreml", "xnnpack", "rocm", "acl",
    "armnn", "tvm", "migraphx", "rknpu", "vitis", "cann", "qnn", "webgpu", "azure", "nvrtx", "vsinpu"]))
ort = []
for os in ["ubuntu-latest", "macos-15"]:
    ort.append(inv("candle", BK, 51, "test", True, ["default"], {"platform": {"os": os}}))
for os in ["ubuntu-latest", "windows-latest", "macos-15"]:
    ort.append(inv("tract", BK, 71, "test", True, ["default"], {"platform": {"os": os}}))
ort += [inv("web", BK, 85, "check", False, ["default"]),
        inv("lint-and-fmt", CQ, 45, "fmt", False, ["default"]),
        inv("lint-and-fmt", CQ, 47, "clippy", False, ["fetch-models"]),
        # CQ:62 `$(cargo --version ...)` has no subcommand. CQ:71 runs when the tarpaulin cache misses.
        inv("coverage", CQ, 71, "install", True, ["default"]),
        inv("coverage", CQ, 74, "tarpaulin", True, ["fetch-models,tls-rustls"]),
        # `cargo docs-rs` runs rustdoc with ort's [package.metadata.docs.rs] features (default features kept)
        inv("docs-rs", CQ, 93, "rustdoc", False, [DOCSRS]),
        # alias example-custom-ops = run --manifest-path examples/custom-ops/Cargo.toml --example custom-ops
        inv("static-link-linux", SL, 42, "run", True, ["default"]),
        inv("no-default-features", OC, 39, "check", False, ["no default features"]),
        inv("no-default-features", OC, 40, "check", False, ["api-28 (no default)"]),
        inv("msrv", OC, 51, "check", False, ["default"]),
        inv("msrv", OC, 52, "check", False, ["load-dynamic"])]
for i, api in enumerate(range(17, 29)):
    ort.append(inv("multiversion", OC, 63 + i, "check", False, [f"api-{api},ndarray,std,tracing (no default)"]))
for os in ["ubuntu-latest", "ubuntu-24.04-arm", "windows-latest", "macos-15"]:
    ort.append(inv("test", TE, 48, "test", True, ["fetch-models,tls-rustls"], {"platform": {"os": os}}))

# ---- milesgranger/cramjam (maturin wheels, a pwsh step on Windows runners, npm scripts running wasm-pack)
CJ = ".github/workflows/CI.yml"
PJ = "cramjam-js/package.json"


def conf(os, target, triple, **extra):
    return {"os": os, "target": target, "target-triple": triple, **extra}


CONFS = [conf("ubuntu-latest", "x86_64", "x86_64-unknown-linux-gnu", manylinux="auto"),
         conf("ubuntu-latest", "x86_64", "x86_64-unknown-linux-musl", manylinux="musllinux_1_1"),
         conf("ubuntu-latest", "i686", "i686-unknown-linux-gnu", manylinux="auto"),
         conf("ubuntu-latest", "i686", "i686-unknown-linux-musl", manylinux="musllinux_1_1"),
         conf("ubuntu-latest", "aarch64", "aarch64-unknown-linux-gnu", manylinux="auto"),
         conf("ubuntu-latest", "aarch64", "aarch64-unknown-linux-musl", manylinux="musllinux_1_1"),
         conf("ubuntu-latest", "armv7", "armv7-unknown-linux-gnueabihf", manylinux="auto"),
         conf("ubuntu-latest", "armv7", "armv7-unknown-linux-musleabihf", manylinux="musllinux_1_1"),
         conf("ubuntu-latest", "s390x", "s390x-unknown-linux-gnu", manylinux="auto"),
         conf("ubuntu-latest", "ppc64le", "powerpc64le-unknown-linux-gnu", manylinux="auto"),
         conf("macos-15", "x86_64", "x86_64-apple-darwin"),
         conf("macos-15", "aarch64", "aarch64-apple-darwin"),
         conf("macos-15", "universal2", "x86_64-apple-darwin"),
         conf("windows-latest", "x86_64", "x86_64-pc-windows-msvc", **{"python-architecture": "x64"}),
         conf("windows-latest", "i686", "i686-pc-windows-msvc", **{"python-architecture": "x86"}),
         conf("windows-11-arm", "aarch64", "aarch64-pc-windows-msvc", **{"python-architecture": "arm64"})]
CJ_INCLUDE = [{"conf": c, "python-version": p} for c in [
    conf("windows-latest", "x86_64", "x86_64-pc-windows-msvc"),
    conf("ubuntu-latest", "x86_64", "x86_64-unknown-linux-gnu", manylinux="auto"),
    conf("ubuntu-latest", "aarch64", "aarch64-unknown-linux-gnu", manylinux="auto"),
    conf("macos-15", "x86_64", "x86_64-apple-darwin"),
    conf("macos-15", "universal2", "x86_64-apple-darwin"),
    conf("macos-15", "aarch64", "aarch64-apple-darwin")] for p in ["pypy3.10", "pypy3.11"]]
cj = [inv("cramjam-docs", CJ, 31, "build", True, ["default"]),  # `pip install -e .`: maturin (PEP 517); job if: tag
      inv("cramjam-js", PJ, 13, "build", True, ["default"])]  # `npm run build` (CJ:60): wasm-pack build in cramjam-js
for m in expand({"python-version": ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t"], "conf": CONFS},
                exclude=[{"python-version": "3.10", "conf": {"os": "windows-11-arm"}}], include=CJ_INCLUDE):
    c, py = m["conf"], m["python-version"]
    windows = c["os"].startswith("windows")
    if c["target"] == "x86_64" and not py.startswith("pypy") and py == "3.12":
        cj.append(inv("build-test", CJ, 163, "test", True, ["default"], m))
    if not windows:
        cj.append(inv("build-test", CJ, 167, "build", True, ["default"], m))  # maturin-action, no features
    else:
        cj.append(inv("build-test", CJ, 177, "build", True, ["default"], m))  # maturin build under pwsh (default shell)

# ---- duckdb/duckdb-rs (bundled C++ library; Windows legs run their steps under pwsh, the default shell)
DR, DN = ".github/workflows/rust.yaml", ".github/workflows/nightly.yaml"
DUP = "crates/libduckdb-sys/upgrade.sh"
dd = []
for m in [{"name": "Windows", "target": "x86_64-pc-windows-msvc", "os": "windows-latest",
           "duckdb": "libduckdb-windows-amd64.zip"},
          {"name": "Linux", "target": "x86_64-unknown-linux-gnu", "os": "ubuntu-latest",
           "duckdb": "libduckdb-linux-amd64.zip"}]:
    if m["os"] == "ubuntu-latest":
        dd += [inv("test", DR, 67, "fmt", False, ["default"], m),
               inv("test", DR, 77, "clippy", False, [
                   "buildtime_bindgen,extensions-full,loadable-extension,modern-full,vscalar,vscalar-arrow,vtab-full"], m),
               inv("test", DR, 84, "doc", False, ["modern-full,vscalar,vscalar-arrow,vtab-full"], m),
               inv("test", DR, 88, "publish", False, ["default"], m),
               inv("test", DR, 114, "build", True, ["loadable-extension"], m)]  # --example hello-ext (cdylib)
    else:
        dd += [inv("test", DR, 107, "test", True, ["modern-full,vscalar,vtab-full"], m),
               inv("test", DR, 118, "build", True, ["loadable-extension"], m)]
for m in [{"name": "Linux", "os": "ubuntu-latest"}, {"name": "macOS", "os": "macos-latest"},
          {"name": "Windows", "os": "windows-latest"}]:
    # three `cargo run ... --example repl` inside $( ) (shell: bash), then the ICU test (pwsh on Windows)
    dd += [inv("cmake", DR, line, "run", True, ["icu"], m) for line in (153, 157, 162)]
    dd.append(inv("cmake", DR, 171, "test", True, ["icu"], m))
# `cargo binstall` downloads a prebuilt cargo-msrv; `cargo msrv verify` runs `cargo check` in --path.
dd += [inv("msrv", DR, 184, "binstall", False, ["default"])]
dd += [inv("msrv", DR, line, "check", False, ["default"]) for line in (185, 186, 187)]
# ASAN_FEATURES depends on github.ref: both values are listed, each as its own invocation (one per event),
# as linkgate documents for an undecidable branch.
dd += [inv("sanitizer", DR, 218, "test", True, ["polars,r2d2,serde_json,url,uuid,vscalar,vscalar-arrow"]),
       inv("sanitizer", DR, 218, "test", True, ["extensions-full,polars,r2d2,serde_json,url,uuid,vscalar,vscalar-arrow"])]
# nightly (workflow_dispatch): ./upgrade.sh --sha X execs crates/libduckdb-sys/upgrade.sh --sha X, whose
# regenerate_bindings runs `cargo check -p libduckdb-sys --no-default-features --features "$FEATURES"` twice.
dd += [inv("nightly", DUP, 45, "check", False, ["buildtime_bindgen (no default)"]),
       inv("nightly", DUP, 45, "check", False, ["buildtime_bindgen,loadable-extension (no default)"]),
       inv("nightly", DN, 62, "test", True, ["bundled"]), inv("nightly", DN, 66, "test", True, ["bundled-cmake"]),
       inv("nightly", DN, 90, "test", True, ["buildtime_bindgen"]), inv("nightly", DN, 92, "test", True, ["buildtime_bindgen"]),
       inv("nightly", DN, 96, "test", True, ["buildtime_bindgen"])]

# ---- LaurentMazare/tch-rs (libtorch bindings; every cargo run goes through actions-rs/cargo: the `uses:` line)
TC = ".github/workflows/rust-ci.yml"
tc = []
for rust in ["stable", "nightly"]:
    m = {"os": "ubuntu-latest", "rust": rust}
    tc += [inv("check", TC, 20, "check", False, ["download-libtorch"], m),
           inv("test", TC, 39, "test", True, ["download-libtorch"], m)]
tc += [inv("fmt", TC, 55, "fmt", False, ["default"]), inv("clippy", TC, 71, "clippy", False, ["all features"])]

# ---- diesel-rs/diesel (libpq, libmysqlclient, sqlite; `cargo xtask` alias = run --package xtask --;
# a cargo-dist generated release.yml; Windows legs)
D = ".github/workflows/ci.yml"
DA, DD, DM, DB, DL = (".github/workflows/" + n for n in ("audit.yml", "doc.yml", "metrics.yml", "run_benches.yml", "release.yml"))
di = []
for m in expand({"rust": ["stable"], "backend": ["postgres", "sqlite", "mysql", "mariadb"],
                 "os": ["ubuntu-latest", "macos-15-intel", "macos-26", "windows-2025", "ubuntu-24.04-arm"]},
                include=[{"rust": r, "backend": b, "os": "ubuntu-latest"}
                         for r in ["beta", "nightly"] for b in ["postgres", "sqlite", "mysql", "mariadb"]]):
    di.append(inv("check_and_test", D, 342, "run", True, ["default"], m))  # xtask alias; xtask's own cargo runs not read
    if m["os"].startswith("ubuntu"):
        # diesel_bench's default is empty: --no-default-features changes nothing
        di.append(inv("check_and_test", D, 350, "test", True, [m["backend"]], m))
di += [inv("compile_tests", D, 378, "test", True, ["default"]),
       # `cargo fmt --version` / `cargo clippy --version` name a subcommand but compile nothing
       inv("rustfmt_and_clippy", D, 404, "fmt", False, ["default"]),
       inv("rustfmt_and_clippy", D, 405, "clippy", False, ["default"]),
       inv("rustfmt_and_clippy", D, 421, "run", True, ["default"]),  # cargo xtask tidy
       inv("sqlite_wasm", D, 453, "run", True, ["default"]),  # cargo xtask run-tests --wasm sqlite
       inv("sqlite_wasm", D, 458, "test", True, ["default"]),  # in examples/sqlite/wasm
       inv("sqlite_bundled", D, 480, "test", True, ["sqlite-bundled (no default)"]),
       inv("sqlite_bundled", D, 487, "test", True, ["libsqlite3-sys,libsqlite3-sys/bundled,libsqlite3-sys/with-asan,sqlite"]),
       inv("sqlite_bundled", D, 495, "test", True, ["__with_asan_tests,extras,sqlite (no default)"]),
       inv("postgres_bundled", D, 528, "test", True, ["postgres-bundled (no default)"]),
       inv("postgres_bundled", D, 535, "test", True, ["postgres,pq-src/with-asan,pq-sys,pq-sys/bundled"]),
       inv("postgres_bundled", D, 543, "test", True, ["__with_asan_tests,extras,postgres (no default)"]),
       inv("mysql_bundled", D, 577, "test", True, ["mysql-bundled (no default)"]),
       inv("mysql_bundled", D, 589, "test", True, ["mysql,mysqlclient-src/with-asan,mysqlclient-sys,mysqlclient-sys/bundled"]),
       inv("mysql_bundled", D, 602, "test", True, ["__with_asan_tests,extras,mysql (no default)"]),
       # cargo-minimal-versions runs `cargo hack check` with minimal versions: read as "check"
       inv("minimal_rust_version", D, 628, "check", False, [
           "128-column-tables,32-column-tables,64-column-tables,mariadb,mysql,postgres,r2d2,sqlite,with-deprecated,without-deprecated"]),
       inv("minimal_rust_version", D, 630, "check", False, ["extras,mariadb,mysql,postgres,sqlite"]),
       inv("minimal_rust_version", D, 632, "check", False, ["all features"]),
       inv("minimal_rust_version", D, 634, "check", False, ["all features"]),
       inv("minimal_rust_version", D, 636, "check", False, ["default,sqlite-bundled"]),
       inv("Semver-Checks", D, 655, "run", True, ["default"]),  # cargo xtask semver-checks
       inv("Sqlite-no-std", D, 677, "build", True, ["default"]),  # examples/sqlite/embedded has src/main.rs
       inv("Miri", D, 693, "miri", False, ["postgres"]), inv("Miri", D, 696, "miri", False, ["postgres"]),
       inv("security_audit", DA, 26, "deny", False, ["default"]),
       inv("build_docs", DD, 42, "doc", False,
           ["extras,i-implement-a-third-party-backend-and-opt-into-breaking-changes,mysql,postgres,sqlite"])]
METRICS = {
    "postgres": (78, "postgres sqlx-bench sqlx/postgres rand_chacha rust_postgres tokio_postgres futures futures-util "
                     "sea-orm sea-orm/sqlx-postgres criterion/async_tokio serde diesel-async diesel-async/postgres wtx "
                     "wtx/postgres zero-postgres"),
    "sqlite": (81, "sqlite sqlx-bench sqlx/sqlite tokio rusqlite futures sea-orm sea-orm/sqlx-sqlite criterion/async_tokio "
                   "diesel-async diesel-async/sqlite"),
    "mysql": (84, "mysql sqlx-bench sqlx/mysql tokio rustorm rustorm/with-mysql rand_chacha rustorm_dao rust_mysql futures "
                  "sea-orm sea-orm/sqlx-mysql criterion/async_tokio serde diesel-async diesel-async/mysql zero-mysql")}
for backend, (line, fs) in METRICS.items():
    m = {"backend": backend}
    di.append(inv("metrics", DM, line, "bench", True, [",".join(sorted(fs.split()))], m))
    # run_benchmarks: job if needs a pull_request label (undecidable)
    di += [inv("run_benchmarks", DB, 70, "install", True, ["default"], m),
           inv("run_benchmarks", DB, 75, "bench", True, [backend], m),
           inv("run_benchmarks", DB, 102, "bench", True, [backend], m)]
# release.yml is generated by cargo-dist 0.32.0. Its build matrix is dist's plan (fromJson at run time): one leg
# per target of dist-workspace.toml, on tag pushes (pr-run-mode = "plan" skips the build on pull requests).
# Each leg's `dist build` (line 151) runs `cargo auditable build` (cargo-auditable = true) of diesel_cli, whose
# binary links. Only the `targets` matrix key is given (the rest is dist's JSON). `dist plan`/`dist host` and
# the global-artifacts `dist build` run no cargo build.
for t in ["aarch64-apple-darwin", "aarch64-unknown-linux-gnu", "x86_64-apple-darwin", "x86_64-unknown-linux-gnu",
          "x86_64-pc-windows-msvc"]:
    di.append(inv("build-local-artifacts", DL, 151, "auditable build", True, ["default"], {"targets": [t]}))
di.append(inv("build-global-artifacts", DL, 226, "cyclonedx", False, ["default"]))


# ---- zmwangx/rust-ffmpeg (FFmpeg bindings; a Windows job whose steps run under pwsh, the default shell there)
FF = ".github/workflows/build.yml"
ff = []


def ffmpeg_steps(job, lines, m=None):
    build, test, lint, fmt = lines  # ffmpeg-next is a library: `--examples` makes the build link
    return [inv(job, FF, build, "build", True, ["default"], m), inv(job, FF, test, "test", True, ["default"], m),
            inv(job, FF, lint, "clippy", False, ["default"], m), inv(job, FF, fmt, "fmt", False, ["default"], m)]


for v in ["3.4", "4.0", "4.1", "4.2", "4.3", "4.4", "5.0", "5.1", "6.0"]:
    ff += ffmpeg_steps("build-test-lint-linux", (30, 33, 36, 39), {"ffmpeg_version": v})
ff += ffmpeg_steps("build-test-lint-macos", (57, 60, 63, 66))
ff += ffmpeg_steps("build-test-lint-windows", (99, 102, 105, 108), {
    "ffmpeg_version": "latest",
    "ffmpeg_download_url": "https://www.gyan.dev/ffmpeg/builds/ffmpeg-release-full-shared.7z"})
for v in ["6.1", "7.0", "7.1", "8.0", "8.1", "9.0"]:
    ff += ffmpeg_steps("build-test-lint-8-0", (136, 139, 142, 145), {"ffmpeg_version": v})

# ---- purpleprotocol/mimalloc_rust (mimalloc C library; the root package `mimalloc` is a library:
# `cargo build` there links nothing, while sys-test and test-override-with-dylib are binaries)
MI = ".github/workflows/ci.yml"
mi = []
ST = "libmimalloc-sys-test/"
for os in ["ubuntu-latest", "macos-latest", "windows-latest"]:
    m = {"os": os, "toolchain": "stable"}
    for base, fs, run_fs in [(37, "secure", ST + "secure"), (46, "default", "default"), (55, "extended", ST + "extended"),
                             (64, "secure,v2", f"{ST}secure,{ST}v2"), (73, "v2", ST + "v2"),
                             (82, "extended,v2", f"{ST}extended,{ST}v2")]:
        mi += [inv("rust", MI, base, "build", False, [fs], m), inv("rust", MI, base + 3, "test", True, [fs], m),
               inv("rust", MI, base + 6, "run", True, [run_fs], m)]
    if os != "windows-latest":
        mi.append(inv("rust", MI, 92, "run", True, ["override"], m))
mi += [inv("lint", MI, 108, "fmt", False, ["default"]),
       inv("doc", MI, 130, "rustdoc", False, ["default"]), inv("doc", MI, 133, "rustdoc", False, ["default"])]

# ---- 10XGenomics/lz4-rs (liblz4; the root package has a [[bin]] lz4, so every `cargo build` links)
LZ = ".github/workflows/test.yaml"
lz = []
for p in ["ubuntu-latest", "macos-latest"]:
    m = {"platform": p}
    lz += [inv("test-nix", LZ, 32, "fmt", False, ["default"], m), inv("test-nix", LZ, 34, "build", True, ["default"], m),
           inv("test-nix", LZ, 36, "test", True, ["default"], m), inv("test-nix", LZ, 46, "build", True, ["default"], m),
           inv("test-nix", LZ, 48, "check", False, ["default"], m)]
lz += [inv("test-windows", LZ, 64, "fmt", False, ["default"])]
lz += [inv("test-windows", LZ, line, "build", True, ["default"]) for line in (66, 68, 73, 78)]  # pwsh steps
lz.append(inv("test-windows", LZ, 80, "test", True, ["default"]))

# ---- Rust-SDL2/rust-sdl2 (SDL2 through vcpkg, bundled or pkg-config; sdl2 is a library, `default = []`)
SD = ".github/workflows/CI.yml"
VC = "gfx,image,mixer,static-link,ttf,use-vcpkg"
sd = []
for os in ["macos-latest", "ubuntu-latest", "windows-latest"]:
    m = {"os": os}
    sd += [inv("build-vcpkg", SD, 18, "install", True, ["default"], m),  # cargo install cargo-vcpkg (pwsh on Windows)
           inv("build-vcpkg", SD, 25, "vcpkg", False, ["default"], m),  # cargo vcpkg builds C libraries, no crate
           inv("build-vcpkg", SD, 35, "build", False, [VC], m), inv("build-vcpkg", SD, 36, "build", True, [VC], m),
           inv("build-vcpkg", SD, 37, "test", True, [VC], m)]
for m in expand({"feature": ["", "static-link"], "build_mode": ["", "--release"],
                 "os": ["macos-latest", "ubuntu-latest", "windows-latest"]}):
    fs = "bundled,static-link" if m["feature"] else "bundled"
    sd += [inv("build-bundled", SD, 60, "build", False, [fs], m), inv("build-bundled", SD, 61, "build", True, [fs], m),
           inv("build-bundled", SD, 62, "test", True, [fs], m)]
sd += [inv("build-linux", SD, 83, "build", False, ["gfx,image,mixer,ttf"]),  # empty default: no "(no default)"
       inv("build-linux", SD, 84, "test", True, ["gfx,image,mixer,ttf"]),
       inv("fmt", ".github/workflows/fmt.yml", 18, "fmt", False, ["default"])]  # actions-rs/cargo: the uses: line

# ---- sfu-db/connector-x (database connectors: openssl (vendored), ODPI-C for Oracle, libsqlite3, gssapi;
# cargo and `maturin develop` run through Justfile recipes; maturin-action wheels; a self-hosted benchmark runner)
# Added 2026-12-01, written by hand before linkgate was run on it. The root is a workspace (connectorx,
# connectorx-cpp; default-members = connectorx, a cdylib+rlib); connectorx-python is its own workspace (a cdylib)
# whose pyproject.toml has no [tool.maturin] features. `just bootstrap-python` is `poetry install` in
# connectorx-python: Poetry installs the root project with its own editable builder (a .pth), not through the
# maturin backend, so it runs no cargo (the Justfile builds the extension with `maturin develop` in setup-python).
CX, CXB, CXD, CXR = (".github/workflows/" + n for n in ("ci.yml", "benchmark.yml", "docs.yml", "release.yml"))
CXJ = "Justfile"
cx = [inv("rust", CX, 47, "fmt", False, ["default"]),  # actions-rs/cargo: the uses: line
      inv("rust", CX, 53, "clippy", False, ["all"]),
      inv("rust", CX, 62, "clean", False, ["default"]),  # `cargo clean && just test-ci`
      # just test-ci (Justfile:18): `--test` selects a test target, so both link
      inv("rust", CXJ, 19, "test", True, ["dst_arrow,src_postgres"]),
      inv("rust", CXJ, 20, "test", True, ["dst_polars,src_dummy,src_postgres"]),
      inv("rust", CX, 65, "doc", False, ["all"])]
m = {"python-version": "3.14"}
cx += [inv("python", CX, 140, "clippy", False, ["all"], m),  # --features all --all (connectorx-cpp has no `all`)
       # just test-python: its dependency setup-python, `poetry run maturin develop --release` (Justfile:45)
       inv("python", CXJ, 45, "build", True, ["default"], m),
       # benchmark.yml: just benchmark-report -> setup-python; runs-on [self-hosted, linux, x64, connectorx-benchmark]
       inv("benchmark", CXJ, 45, "build", True, ["default"]),
       inv("docs", CXD, 37, "doc", False, ["all"])]  # docs.yml: push to main only
# release.yml (push to branches prerelease and release): PyO3/maturin-action, -m connectorx-python/Cargo.toml
PYV = ["3.10", "3.11", "3.12", "3.13", "3.14"]
for platform in [{"arch": "x86_64", "runs-on": "ubuntu-latest"}, {"arch": "aarch64", "runs-on": "ubuntu-22.04-arm"}]:
    for pv in [[310, "3.10"], [311, "3.11"], [312, "3.12"], [313, "3.13"], [314, "3.14"]]:
        cx.append(inv("linux", CXR, 51, "build", True, ["integrated-auth-gssapi"], {"platform": platform, "python-version": pv}))
for m in expand({"os": ["windows-latest", "macos-15-intel"], "python-version": PYV},
                include=[{"os": "macos-15-intel", "features": "--features integrated-auth-gssapi"}]):
    cx.append(inv("win-and-mac", CXR, 115, "build", True, ["integrated-auth-gssapi" if "features" in m else "default"], m))
for pv in PYV:
    cx.append(inv("apple-arm", CXR, 162, "build", True, ["integrated-auth-gssapi"], {"python-version": pv}))
# release.yml verify: `pip install *.whl` installs built wheels (no build). import-test.yml (workflow_dispatch)
# installs connectorx from an index: no cargo.

# ---- cberner/redb (embedded database; its bench crates link RocksDB (C++), LMDB and bundled SQLite (C), the fuzz
# target links libFuzzer (C++), redb-python is a cdylib built with `maturin develop`; cargo runs through justfile
# recipes and their dependencies; Windows legs run their steps under pwsh)
# Added 2026-12-01, written by hand before linkgate was run on it. One workflow, ci.yml, on pull_request and on
# pushes to master. The root package `redb` is also the workspace root (default-members: redb, redb-derive,
# redb-derive-rename-test, redb-python); fuzz/ is its own workspace. `just X` runs each recipe of its
# dependency tree once per `just` process: `_audit` (justfile:14-15) runs in each of the three `just` steps
# that reach it on a leg. Conventions added here:
# - a cargo command spelled in a variable (`command="cargo check ..."`, then `$command`) is at the line where
#   `$command` runs (as libz-sys's `$1 test` in ground_truth.py), one invocation per line; the `$(cargo pkgid)`
#   inside the assignment runs once, at the assignment's line ("pkgid"). `-p $(cargo pkgid)` selects redb.
# - `cargo fuzz run` (cargo-fuzz) builds the fuzz target in fuzz/ with cargo and runs it: "fuzz run", links=True.
# - `[ -f Cargo.lock ] || cargo generate-lockfile` (justfile:74) does not run: Cargo.lock is git-ignored, but
#   every leg's `cargo clippy` (ci.yml:148) writes it before `just test_wasi` (and `cargo build --frozen` in
#   test_all_no_sandbox needs it), so the test succeeds on GitHub.
# - `cargo install` steps under `if: steps.rust-cache.outputs.cache-hit != 'true'` are listed (they run when the
#   cache misses). `cargo deny --all-features` is listed as "deny" with "all features".
RB, RBJ = ".github/workflows/ci.yml", "justfile"
rb = []
for os in ["ubuntu-latest", "macos-latest", "windows-latest", "ubuntu-24.04-arm"]:
    m = {"os": os}
    windows, ubuntu_latest = os == "windows-latest", os == "ubuntu-latest"
    audits = 2 if windows else 3  # _audit via fuzz_ci (not on Windows), test_all_no_sandbox, test_py
    rb += [inv("ci", RB, 109, "install", True, ["default"], m),  # cargo-deny
           inv("ci", RB, 113, "install", True, ["default"], m),  # cargo-fuzz
           inv("ci", RB, 117, "install", True, ["default"], m),  # just
           inv("ci", RB, 120, "fmt", False, ["default"], m)]
    if ubuntu_latest:
        rb += [inv("ci", RB, 126, "generate-lockfile", False, ["default"], m),
               inv("ci", RB, 130, "pkgid", False, ["default"], m),
               # cargo check -p redb -p redb-derive --target wasm32-unknown-unknown
               inv("ci", RB, 131, "check", False, ["default"], m),
               inv("ci", RB, 132, "check", False, ["all features"], m),
               inv("ci", RB, 133, "check", False, ["no default features"], m),
               inv("ci", RB, 141, "pkgid", False, ["default"], m),
               inv("ci", RB, 141, "check", False, ["experimental-api-5 (no default)"], m),
               inv("ci", RB, 144, "pkgid", False, ["default"], m),
               inv("ci", RB, 144, "check", False, ["experimental-api-5,experimental_cursor,logging (no default)"], m)]
    rb.append(inv("ci", RB, 148, "clippy", False, ["default"], m))  # --all --all-targets
    rb += [inv("ci", RBJ, 14, "deny", False, ["all features"], m, count=audits),
           inv("ci", RBJ, 15, "fmt", False, ["default"], m, count=audits),
           # _checks_all_no_sandbox: via fuzz_ci (ci.yml:152, not on Windows) and test_all_no_sandbox (ci.yml:155)
           inv("ci", RBJ, 31, "clippy", False, ["all features"], m, count=1 if windows else 2)]
    if not windows:
        rb.append(inv("ci", RBJ, 106, "fuzz run", True, ["default"], m))  # just fuzz_ci (ci.yml:152)
    # just test_all_no_sandbox (ci.yml:155)
    rb += [inv("ci", RBJ, 55, "build", True, ["all features"], m),  # --all --all-targets: benches link RocksDB, LMDB
           inv("ci", RBJ, 56, "doc", False, ["default"], m),
           inv("ci", RBJ, 57, "test", True, ["all features"], m)]
    # just test_py (ci.yml:164, or :173 under pwsh on Windows): pre_no_sandbox, then install_py's maturin develop
    # of crates/redb-python (its pyproject.toml has no [tool.maturin] features)
    rb += [inv("ci", RBJ, 21, "clippy", False, ["all features"], m),  # default-members
           inv("ci", RBJ, 45, "build", True, ["default"], m)]
    if not windows:
        # RUSTFLAGS="" just test_wasi (ci.yml:178)
        rb += [inv("ci", RBJ, 76, "pkgid", False, ["default"], m),
               inv("ci", RBJ, 76, "test", True, ["default"], m),  # -p redb --target=wasm32-wasip1-threads
               inv("ci", RBJ, 77, "test", True, ["default"], m)]  # -p redb-derive
rb += [inv("coverage", RB, 190, "install", True, ["default"]),  # cargo-llvm-cov
       inv("coverage", RB, 192, "llvm-cov", True, ["all features"])]

# ==== end of repositories

# ---- huggingface/tokenizers (tokenizers links the Oniguruma C library (onig -> onig_sys, a default feature) and
# esaxx-rs's C++ suffix array (esaxx_fast, default); bindings/python is a pyo3 cdylib built with maturin (CI.yml and
# python-release.yml through PyO3/maturin-action, python.yml and benchmarks.yml with `maturin develop`, docs-check.yml
# with `pip install -e .`); bindings/node is a napi cdylib (build.rs: napi_build::setup) built by `yarn build`, the
# package.json script `napi build --platform --release`; Windows legs run their steps under pwsh; a self-hosted runner
# group (benchmarks.yml); Makefiles in tokenizers/ and bindings/python/ run cargo test / cargo run)
# Written by hand on 2026-12-01 before linkgate was run on it. There is no root Cargo.toml: tokenizers/,
# bindings/python/, bindings/python/tools/stub-gen/ and bindings/node/ are separate packages (each its own workspace
# root); the bindings depend on ../../tokenizers by path with its default features. Every Cargo.lock is git-ignored
# (`**/Cargo.lock`). tokenizers-python's features: default = [ext-module, abi3], ext-module = [pyo3/extension-module];
# its pyproject.toml [tool.maturin] features = ["pyo3/extension-module", "abi3"]. node and stub-gen have no features.
# Conventions decided here (each a rule a reviewer can check):
# - Feature labels in the comparison form: a feature the default set already enables, directly or through another
#   of its features, adds nothing. So a maturin build of bindings/python without --features (pyproject features
#   pyo3/extension-module, abi3: both enabled by default's ext-module and abi3) is "default", and `--all-features`
#   on tokenizers-python (its whole table is ext-module, abi3, default) or on node / stub-gen (no features) is
#   "default" too. tokenizers' own --all-features (http, rustls-tls, unstable_wasm are not default) is "all features".
# - python.yml:91/:121 branch on `python -c 'import sys; sys.exit(0 if sys._is_gil_enabled() else 1)'`: decided as on
#   GitHub per matrix.python (3.14 has the GIL: then-branch; 3.14t is free-threaded: else-branch), like the other
#   shell conditions of this file ("decided as on GitHub's hosted runners").
# - napi build (package.json:47, reached by `yarn build [--target T] [--cross-compile]`) is one "build" invocation,
#   links=True (node is a cdylib), at the package.json line, features of the node package ("default"). With
#   --cross-compile napi runs the same cargo build through cargo-zigbuild: still "build". The node-release leg with
#   `docker:` runs its `yarn build` inside addnab/docker-run-action's `run:` input: listed the same way.
# - obi1kenobi/cargo-semver-checks-action (rust.yml:108) runs `cargo semver-checks check-release --manifest-path
#   ./tokenizers/Cargo.toml`, which builds rustdoc JSON of tokenizers (no link): listed at the `uses:` line as
#   "semver-checks", links=False. With no feature input it uses cargo-semver-checks' default heuristic: every feature
#   except those named unstable/nightly/bench/no_std or prefixed _, unstable-, unstable_ (here unstable_wasm), the
#   implicit features of optional dependencies included; in comparison form "fancy-regex,hf-hub,http,rustls-tls".
# - `cargo audit` and `cargo readme` are listed under their own subcommand, links=False, "default" (as ground_truth.py
#   lists cargo audit); `cargo test --doc` links (each doctest is a linked executable).
# - python-release.yml's build job `needs: [lock_exists]`, whose `cat Cargo.lock` fails at this commit (Cargo.lock is
#   git-ignored), so the job cannot run; its invocations are listed anyway (the workflow as written; the audit reads
#   workflows, not run outcomes).
# - Not listed: maturin-action `command: sdist` (CI.yml:165, python-release.yml:178) and `command: upload`
#   (CI.yml:195), which build nothing; the reusable workflows of huggingface/doc-builder (build_documentation.yml,
#   build_pr_documentation.yml, docs_backfill.yml, ...), which live in another repository (docs_backfill's
#   `pre_command` input with `pip install -e .[dev]` runs inside that workflow, on a checkout of an older tag); the
#   `maturin develop --release` the stub-gen binary spawns itself (a Rust program, not read, as for xtask).
# (commit: COMMITS above)

TKW = ".github/workflows/"
TK_RS, TK_PY, TK_NO, TK_CI, TK_DC, TK_BE, TK_NR, TK_PR, TK_RR = (TKW + n for n in (
    "rust.yml", "python.yml", "node.yml", "CI.yml", "docs-check.yml", "benchmarks.yml", "node-release.yml",
    "python-release.yml", "rust-release.yml"))
TK_MK, TK_PYMK, TK_PJ = "tokenizers/Makefile", "bindings/python/Makefile", "bindings/node/package.json"
TK_SEMVER = "fancy-regex,hf-hub,http,rustls-tls"
tk = []

# rust.yml (push to main, pull_request): tokenizers/ (a library with tests, benches, examples)
for os in ["ubuntu-latest", "windows-latest", "macOS-latest"]:
    m = {"os": os}
    ubuntu, windows = os == "ubuntu-latest", os == "windows-latest"
    tk.append(inv("build", TK_RS, 47, "build", True, ["default"], m))  # --all-targets: tests, benches, examples link
    if ubuntu:
        tk += [inv("build", TK_RS, 54, "fmt", False, ["default"], m),
               inv("build", TK_RS, 58, "fmt", False, ["default"], m)]
    tk.append(inv("build", TK_RS, 61, "clippy", False, ["all features"], m))
    if not windows:
        # `make test HF=...` in ./tokenizers (rust.yml:85): the data files (hf download), then `cargo test`
        tk.append(inv("build", TK_MK, 31, "test", True, ["default"], m))
    else:
        tk += [inv("build", TK_RS, 90, "test", True, ["default"], m),  # --lib (pwsh)
               inv("build", TK_RS, 94, "test", True, ["default"], m)]  # --doc (pwsh)
    tk.append(inv("build", TK_RS, 97, "audit", False, ["default"], m))
    if ubuntu:
        tk += [inv("build", TK_RS, 104, "readme", False, ["default"], m),  # cargo-readme reads lib.rs, compiles nothing
               inv("build", TK_RS, 108, "semver-checks", False, [TK_SEMVER], m)]

# python.yml (push to main, pull_request; paths-ignore bindings/node/**): bindings/python
for py in ["3.14", "3.14t"]:
    # windows-latest, pwsh: cargo build --target i686-pc-windows-msvc of the cdylib
    tk.append(inv("build_win_32", TK_PY, 39, "build", True, ["default"], {"python": py}))
for os in ["ubuntu-latest", "macos-latest"]:
    for py in ["3.14", "3.14t"]:
        m = {"os": os, "python": py}
        canonical = os == "ubuntu-latest" and py == "3.14"
        if canonical:
            tk.append(inv("build_and_test", TK_PY, 75, "fmt", False, ["default"], m))
        tk.append(inv("build_and_test", TK_PY, 78, "clippy", False, ["default"], m))  # --all-features == default here
        if py == "3.14":
            tk += [inv("build_and_test", TK_PY, 92, "build", True, ["default"], m),  # maturin develop --release
                   # `make test` (python.yml:122): test-py (pytest), then test-rs's `cargo test --no-default-features`
                   inv("build_and_test", TK_PYMK, 54, "test", True, ["no default features"], m)]
        else:
            # maturin develop --release --no-default-features --features ext-module; then `make test-py` (no cargo)
            tk.append(inv("build_and_test", TK_PY, 94, "build", True, ["ext-module (no default)"], m))
        if canonical:
            # `make check-style` (python.yml:137): cargo run --manifest-path ./tools/stub-gen/Cargo.toml (a binary)
            tk.append(inv("build_and_test", TK_PYMK, 34, "run", True, ["default"], m))
tk += [inv("audit", TK_PY, 159, "generate-lockfile", False, ["default"]),
       inv("audit", TK_PY, 162, "audit", False, ["default"])]

# node.yml (push to main, pull_request; paths-ignore bindings/python/**): bindings/node on ubuntu-latest.
# `yarn install`, `yarn lint` (eslint) and `make test` (npm run test -> jest) run no cargo.
tk += [inv("build_and_test", TK_PJ, 47, "build", True, ["default"]),  # `yarn build` (node.yml:44): napi build
       inv("build_and_test", TK_NO, 47, "fmt", False, ["default"]),  # actions-rs/cargo: the uses: line
       inv("build_and_test", TK_NO, 53, "clippy", False, ["default"])]  # --all-features on a package without features

# CI.yml (maturin generate-ci; push to main/master and tags, pull_request, workflow_dispatch): PyO3/maturin-action,
# command build (default), args --release --out dist --manifest-path bindings/python/Cargo.toml, no --features:
# pyproject's pyo3/extension-module, abi3 ("default").
for arch, target in [("x86_64", "x86_64-unknown-linux-gnu"), ("x86", "i686-unknown-linux-gnu"),
                     ("aarch64", "aarch64-unknown-linux-gnu"), ("armv7", "armv7-unknown-linux-gnueabihf"),
                     ("s390x", "s390x-unknown-linux-gnu"), ("ppc64le", "powerpc64le-unknown-linux-gnu"),
                     ("riscv64", "riscv64gc-unknown-linux-gnu")]:
    tk.append(inv("linux", TK_CI, 54, "build", True, ["default"],
                  {"platform": {"runner": "ubuntu-latest", "arch": arch, "target": target}}))
for target in ["x86_64", "x86", "aarch64", "armv7"]:
    tk.append(inv("musllinux", TK_CI, 85, "build", True, ["default"],
                  {"platform": {"runner": "ubuntu-latest", "target": target}}))
for runner, target, arch in [("windows-latest", "x64", "x64"), ("windows-latest", "x86", "x86"),
                             ("windows-11-arm", "aarch64", "arm64")]:
    tk.append(inv("windows", TK_CI, 118, "build", True, ["default"],
                  {"platform": {"runner": runner, "target": target, "architecture": arch}}))
for runner, target in [("macos-15-intel", "x86_64"), ("macos-14", "aarch64")]:
    tk.append(inv("macos", TK_CI, 144, "build", True, ["default"], {"platform": {"runner": runner, "target": target}}))

# docs-check.yml (push to main, pull_request): `pip install -e .` in bindings/python, a maturin project (PEP 660
# build: `maturin build --release` there, pyproject features). `make clean && make html_all` runs sphinx only.
tk.append(inv("build", TK_DC, 29, "build", True, ["default"]))

# benchmarks.yml (push to main with on.push.paths tokenizers/**, bindings/python/**, the workflow; workflow_dispatch
# from benchmark-trigger.yml's /benchmark comment). Both jobs run on the runner group aws-general-8-plus.
tk += [inv("benchmark", TK_BE, 99, "bench", True, ["default"]),  # if: github.event_name == 'push'
       inv("benchmark", TK_BE, 106, "bench", True, ["default"]),  # if: github.event_name == 'workflow_dispatch'
       # maturin develop --release --manifest-path Cargo.toml in bindings/python (pyproject features)
       inv("benchmark-python", TK_BE, 269, "build", True, ["default"])]

# node-release.yml (tags v*): `${{ matrix.settings.build }}` (node-release.yml:107, or the docker leg's
# docker-run-action run: at :118) runs `yarn build --target T [--cross-compile]` -> package.json:47.
TK_NR_SETTINGS = [
    {"host": "macos-latest", "target": "x86_64-apple-darwin",
     "build": "yarn build --target x86_64-apple-darwin\nstrip -x *.node\n"},
    {"host": "macos-latest", "target": "aarch64-apple-darwin",
     "build": "yarn build --target aarch64-apple-darwin\nstrip -x *.node\n"},
    {"host": "windows-latest", "target": "x86_64-pc-windows-msvc", "build": "yarn build --target x86_64-pc-windows-msvc"},
    {"host": "windows-latest", "target": "i686-pc-windows-msvc", "build": "yarn build --target i686-pc-windows-msvc"},
    {"host": "windows-latest", "target": "aarch64-pc-windows-msvc",
     "build": "yarn build --target aarch64-pc-windows-msvc"},
    {"host": "ubuntu-latest", "target": "x86_64-unknown-linux-gnu",
     "docker": "ghcr.io/napi-rs/napi-rs/nodejs-rust:lts-debian@sha256:"
               "6f910fc8a723a1eeab2483d2302e8c1fabe36e54c51eb0da27fafd5c3083e08c",
     "build": "set -e\nyarn build --target x86_64-unknown-linux-gnu\nstrip *.node\n"},
    {"host": "ubuntu-latest", "target": "x86_64-unknown-linux-musl",
     "build": "yarn build --target x86_64-unknown-linux-musl --cross-compile"},
    {"host": "ubuntu-latest", "target": "aarch64-unknown-linux-gnu",
     "build": "yarn build --target aarch64-unknown-linux-gnu --cross-compile"},
    {"host": "ubuntu-latest", "target": "aarch64-unknown-linux-musl",
     "build": "yarn build --target aarch64-unknown-linux-musl --cross-compile"},
    {"host": "ubuntu-latest", "target": "armv7-unknown-linux-gnueabihf",
     "build": "yarn build --target armv7-unknown-linux-gnueabihf --cross-compile"},
    {"host": "ubuntu-latest", "target": "aarch64-linux-android", "build": "yarn build --target aarch64-linux-android"},
    {"host": "ubuntu-latest", "target": "armv7-linux-androideabi",
     "build": "yarn build --target armv7-linux-androideabi"}]
for s in TK_NR_SETTINGS:
    tk.append(inv("build", TK_PJ, 47, "build", True, ["default"], {"settings": s}))
# universal-macOS (lipo) and publish (napi create-npm-dirs, napi artifacts, npm publish) run no cargo.

# python-release.yml (tags v*): PyO3/maturin-action in ./bindings/python, args --release --out dist --interpreter X,
# plus `--no-default-features --features ext-module` when matrix.flavor == 'ft'; otherwise pyproject features.
TK_PR_INCLUDE = [
    {"os": "ubuntu", "platform": "linux"},
    {"os": "windows", "ls": "dir", "interpreter": "3.14"},
    {"os": "windows", "ls": "dir", "target": "x86_64", "python-architecture": "x64", "python-install": "3.14",
     "interpreter": "3.14"},
    {"os": "windows", "ls": "dir", "target": "i686", "python-architecture": "x86", "python-install": "3.14",
     "interpreter": "3.14"},
    {"os": "windows-11-arm", "ls": "dir", "target": "aarch64", "python-architecture": "arm64", "python-install": "3.14",
     "interpreter": "3.14"},
    {"os": "macos", "target": "aarch64", "interpreter": "3.14"},
    {"os": "ubuntu", "platform": "linux", "target": "i686"},
    {"os": "ubuntu", "platform": "linux", "target": "aarch64"},
    {"os": "ubuntu", "platform": "linux", "target": "armv7", "interpreter": "3.14"},
    {"os": "ubuntu", "platform": "linux", "target": "x86_64", "manylinux": "musllinux_1_1"},
    {"os": "ubuntu", "platform": "linux", "target": "aarch64", "manylinux": "musllinux_1_1"},
    {"os": "ubuntu", "platform": "linux", "target": "ppc64le", "interpreter": "3.14"},
    {"os": "ubuntu", "platform": "linux", "target": "s390x", "interpreter": "3.14"},
    {"os": "ubuntu", "platform": "linux", "target": "x86_64", "manylinux": "auto", "flavor": "ft"},
    {"os": "ubuntu", "platform": "linux", "target": "aarch64", "manylinux": "auto", "flavor": "ft"},
    {"os": "ubuntu", "platform": "linux", "target": "x86_64", "manylinux": "musllinux_1_1", "flavor": "ft"},
    {"os": "ubuntu", "platform": "linux", "target": "aarch64", "manylinux": "musllinux_1_1", "flavor": "ft"},
    {"os": "macos", "target": "x86_64", "manylinux": "auto", "flavor": "ft", "python-install": "3.14t"},
    {"os": "macos", "target": "aarch64", "manylinux": "auto", "flavor": "ft", "python-install": "3.14t"},
    {"os": "windows", "ls": "dir", "target": "x86_64", "manylinux": "auto", "python-architecture": "x64",
     "python-install": "3.14t", "flavor": "ft"}]
for m in expand({"os": ["ubuntu", "macos", "windows"], "target": ["x86_64", "aarch64"], "manylinux": ["auto"],
                 "flavor": ["abi3"]},
                exclude=[{"os": "windows", "target": "aarch64"}], include=TK_PR_INCLUDE):
    fs = "ext-module (no default)" if m.get("flavor") == "ft" else "default"
    tk.append(inv("build", TK_PR, 145, "build", True, [fs], m))  # 20 legs; job needs lock_exists (see above)

# rust-release.yml (tags v*): cargo publish in ./tokenizers (step if: the ref has no 'rc'); verifies a library build.
tk.append(inv("rust_publish", TK_RR, 30, "publish", False, ["default"]))

TOKENIZERS_INVOCATIONS = tk

TKFINDINGS = [
    # tokenizers' --all-features (http, rustls-tls, unstable_wasm with fancy-regex) is only linted by clippy
    # (rust.yml:61); every linking command builds tokenizers with its default set (the bindings depend on it by path
    # with default features).
    {"rule": "never-linked", "subject": "all features"},
    # The semver-checks action's heuristic set (rust.yml:108) is only documented (rustdoc JSON); no job links
    # tokenizers with http / rustls-tls / fancy-regex.
    {"rule": "never-linked", "subject": TK_SEMVER},
    # benchmarks.yml: both jobs link (cargo bench, maturin develop) on the runner group aws-general-8-plus (not
    # GitHub-hosted) and set no timeout-minutes.
    {"rule": "no-timeout", "subject": "benchmarks/benchmark"},
    {"rule": "no-timeout", "subject": "benchmarks/benchmark-python"},
]
# Judged false, not listed:
# - never-linked for tokenizers-python's `--all-features` (python.yml:78) and node's (node.yml:53): equal to their
#   default sets, which maturin / napi builds link; "no default features" and "ext-module (no default)" of
#   tokenizers-python are linked by `cargo test` (Makefile:54) and maturin develop (python.yml:94).
# - paths filters: python.yml ignores bindings/node/** and node.yml bindings/python/**, neither of which the other
#   binding builds read; benchmarks.yml's on.push.paths covers tokenizers/** and bindings/python/** (all manifests,
#   rust-toolchain files and bindings/python/.cargo/config.toml its builds read; no root Cargo.toml exists). The only
#   build script, bindings/node/build.rs, is built by node.yml and node-release.yml, whose filters do not miss it.
# - link-only-on-schedule: every set linked by a tag-only workflow (node-release, python-release) is also linked on
#   pull requests (node.yml, python.yml, CI.yml).

# ---- mlua-rs/mlua (Lua bindings; mlua-sys's build script compiles vendored Lua 5.1-5.5/LuaJIT/Luau C and C++ sources
# (lua-src, luajit-src, luau0-src, cc) or finds a system Lua with pkg-config; many feature sets per Lua version; Windows
# legs run under `shell: bash` and, in test_modules_windows, under `msys2 {0}`; cargo tarpaulin reads tarpaulin.toml)
# Added 2026-12-01, written by hand before linkgate was run on it, from main.yml, coverage.yml, docs.yml and typos.yml
# (no cargo), Cargo.toml, mlua-sys/Cargo.toml, tests/module/{,loader/}Cargo.toml and tarpaulin.toml. No script, justfile,
# Makefile or cargo alias is called; the only .cargo/config.toml files (tests/module/loader, examples/module) hold
# rustflags, no [alias]. The root package `mlua` (workspace root with members mlua_derive, mlua-sys; no default-members)
# is a library with no default features: `cargo build` there selects mlua alone and links nothing; `cargo test` links.
# tests/module is its own workspace (test_module, a cdylib, and member loader = module_loader, whose test links).
# Every runner is GitHub-hosted; no workflow has a paths filter. Conventions added here:
# - `cargo tarpaulin` with a tarpaulin.toml at the root and no --config/--ignore-config runs one tarpaulin run per
#   table of that file (tarpaulin's ConfigWrapper::from -> check_for_configs -> get_config_vec), each a `cargo test`
#   build with the table's `features` (the command line gives none to merge): one entry per distinct feature set at the
#   line of the `cargo` word, `count` = how many tables give that set (the *_with_memory_limit tables differ only in
#   rustflags), as redb's repeated recipes use count.
# - `shell: msys2 {0}` (the job's defaults.run.shell, setup-msys2's wrapper) runs the script with MSYS2's bash: read as
#   bash (subshells, `cd`), not as pwsh.
# - test_wasm32_emscripten installs the wasm32-unknown-emscripten target but its `cargo test` gives no --target and
#   no config sets build.target: host tests, listed as they are written.
MLUA_LUAS = ["lua55", "lua54", "lua53", "lua52", "lua51", "luajit", "luau", "luau-jit", "luau-vector4"]
MLUA_TARGETS = [{"os": "ubuntu-latest", "target": "x86_64-unknown-linux-gnu"},
                {"os": "macos-latest", "target": "aarch64-apple-darwin"},
                {"os": "windows-latest", "target": "x86_64-pc-windows-msvc"}]
ML, MLC, MLD = (".github/workflows/" + n for n in ("main.yml", "coverage.yml", "docs.yml"))
# (commit: COMMITS above)


def mlfs(*names):
    """A feature label as the audit prints it: sorted, comma-joined (mlua has no default features)."""
    return ",".join(sorted(",".join(names).split(",")))


MLUA_FULL = "vendored,async,serde,macros,anyhow,userdata-wrappers"  # + the Lua feature, + send where written
ml = []
# build (main.yml:5): os x rust x lua, include adds target per os; steps under `shell: bash` (Windows too)
for m in expand({"os": ["ubuntu-latest", "macos-latest", "windows-latest"], "rust": ["stable"], "lua": MLUA_LUAS},
                include=MLUA_TARGETS):
    lua = m["lua"]
    ml += [inv("build", ML, 29, "build", False, [mlfs(lua, "vendored")], m),
           inv("build", ML, 30, "build", False, [mlfs(lua, MLUA_FULL)], m),
           inv("build", ML, 31, "build", False, [mlfs(lua, MLUA_FULL, "send")], m)]
    if m["os"] == "ubuntu-latest" and lua != "lua55":  # pkg-config step, default shell bash on ubuntu
        ml.append(inv("build", ML, 38, "build", False, [lua], m))
for lua in ["lua55", "lua54", "lua53", "lua52", "lua51", "luajit"]:
    ml.append(inv("build_aarch64_cross_ubuntu", ML, 59, "build", False, [mlfs(lua, MLUA_FULL, "send")], {"lua": lua}))
for lua in ["lua55", "lua54", "lua53", "lua52", "lua51"]:
    ml.append(inv("build_armv7_cross_ubuntu", ML, 81, "build", False, [mlfs(lua, MLUA_FULL, "send")], {"lua": lua}))
# test (main.yml:84): 3 os x 2 rust x 10 lua (luajit52 added), include adds target
for m in expand({"os": ["ubuntu-latest", "macos-latest", "windows-latest"], "rust": ["stable", "nightly"],
                 "lua": ["lua55", "lua54", "lua53", "lua52", "lua51", "luajit", "luajit52", "luau", "luau-jit",
                         "luau-vector4"]}, include=MLUA_TARGETS):
    lua = m["lua"]
    ml += [inv("test", ML, 109, "test", True, [mlfs(lua, "vendored")], m),
           inv("test", ML, 110, "test", True, [mlfs(lua, MLUA_FULL)], m),
           inv("test", ML, 111, "test", True, [mlfs(lua, MLUA_FULL, "send")], m)]
    if m["os"] == "macos-latest" and lua == "lua55":  # `TRYBUILD=overwrite cargo test ...`: the cargo word's line
        ml += [inv("test", ML, 116, "test", True, [mlfs(lua, "vendored")], m),
               inv("test", ML, 117, "test", True, [mlfs(lua, "vendored,async,send,serde,macros")], m)]
for m in expand({"os": ["ubuntu-latest"], "rust": ["nightly"], "lua": MLUA_LUAS}, include=MLUA_TARGETS[:1]):
    lua = m["lua"]
    ml += [inv("test_with_sanitizer", ML, 141, "test", True, [mlfs(lua, "vendored,async,serde,macros,anyhow")], m),
           inv("test_with_sanitizer", ML, 142, "test", True, [mlfs(lua, MLUA_FULL, "send")], m)]
for m in expand({"os": ["ubuntu-latest"], "rust": ["nightly"], "lua": MLUA_LUAS}, include=MLUA_TARGETS[:1]):
    ml.append(inv("test_with_memory_limit", ML, 168, "test", True, [mlfs(m["lua"], MLUA_FULL, "send")], m))
# test_modules: `(cd tests/module && cargo build --release ...)` builds test_module (a cdylib: links) with its own
# feature lua (-> mlua/lua + mlua's `module`); `(cd tests/module/loader && cargo test ...)` tests module_loader.
for m in expand({"os": ["ubuntu-latest", "macos-latest"], "rust": ["stable"],
                 "lua": ["lua55", "lua54", "lua53", "lua52", "lua51", "luajit"]}, include=MLUA_TARGETS[:2]):
    ml += [inv("test_modules", ML, 196, "build", True, [m["lua"]], m),
           inv("test_modules", ML, 197, "test", True, [mlfs(m["lua"], "vendored")], m)]
# test_modules_windows (runs-on windows-latest, defaults.run.shell `msys2 {0}`): the loader without vendored links the
# MSYS2 system Lua (mlua reached with {lua} alone)
for lua in ["lua55", "lua54", "luajit"]:
    ml += [inv("test_modules_windows", ML, 218, "build", True, [lua], {"lua": lua}),
           inv("test_modules_windows", ML, 219, "test", True, [lua], {"lua": lua})]
for lua in ["lua55", "lua54", "lua53", "lua52", "lua51", "luau"]:
    ml += [inv("test_wasm32_emscripten", ML, 240, "test", True, [mlfs(lua, "vendored")], {"lua": lua}),
           inv("test_wasm32_emscripten", ML, 241, "test", True, [mlfs(lua, MLUA_FULL)], {"lua": lua})]
for lua in ["lua55", "lua54", "lua53", "lua52", "lua51"]:
    ml += [inv("test_wasm32_wasip2", ML, 275, "test", True, [mlfs(lua, "vendored")], {"lua": lua}),
           inv("test_wasm32_wasip2", ML, 276, "test", True,
               [mlfs(lua, "vendored,serde,macros,anyhow,userdata-wrappers")], {"lua": lua})]
ml.append(inv("rustfmt", ML, 286, "fmt", False, ["default"]))
for lua in MLUA_LUAS:  # giraffate/clippy-action: the uses: line; clippy_flags give the features
    ml.append(inv("clippy", ML, 300, "clippy", False, [mlfs(lua, MLUA_FULL, "send")], {"lua": lua}))
# coverage.yml (on: push, any branch; container xd009642/tarpaulin on ubuntu-latest): `cargo +nightly tarpaulin --tests`
# runs tarpaulin.toml's seven tables: lua55 and lua55_with_memory_limit, lua55_non_send, lua51 and
# lua51_with_memory_limit, luau and luau_with_memory_limit.
ml += [inv("test", MLC, 17, "tarpaulin", True, [mlfs("lua55", MLUA_FULL, "send")], count=2),
       inv("test", MLC, 17, "tarpaulin", True, [mlfs("lua55", MLUA_FULL)]),
       inv("test", MLC, 17, "tarpaulin", True, [mlfs("lua51,vendored,async,send,serde,macros")], count=2),
       inv("test", MLC, 17, "tarpaulin", True, [mlfs("luau,async,send,serde,macros")], count=2)]
# docs.yml (push to main, workflow_dispatch): `cargo +nightly doc --no-deps --features ...` (continued on line 33)
ml.append(inv("build", MLD, 32, "doc", False, [mlfs("lua55", MLUA_FULL, "send")]))

# Findings. Checked only: main.yml:38's pkg-config builds `cargo build --features "<lua>"` (ubuntu legs, lua != lua55)
# select mlua with the Lua feature alone. Every linking command of mlua adds `vendored` (test, sanitizer, memory limit,
# emscripten, wasip2, test_modules' loader), or more (tarpaulin's luau table: async,luau,macros,send,serde), or `module`
# (test_module's cdylib reaches mlua with {lua, module}), except test_modules_windows's loader (main.yml:219), which
# reaches mlua through its path dependency with {lua55}, {lua54} or {luajit} alone: those three are linked. So mlua's
# lua53, lua52, lua51, luau, luau-jit and luau-vector4 are never linked. (For luau, `vendored` changes only mlua-sys's
# build-dependencies, not the Luau build, but the set differs as cargo sees it, as redb's `std` note says.)
# lua51, lua52 and lua53 are also test_module's own feature names, and test_module's sets are linked (main.yml:196, a
# cdylib): those three findings carry the file and line of the check to tell mlua's set apart (as ort-web's `default`).
# Every other checked set is linked: the build, cross-compile, clippy and docs sets (lua,vendored; the six-feature set
# with and without send) are all tested by the test job for each Lua in them.
# Not findings: coverage.yml alone links async,lua51,macros,send,serde,vendored and async,luau,macros,send,serde, but
# it runs on every push, default branch included (no `branches`), so those links are not schedule-only. No paths
# filters (no filter-misses-*); every runner is GitHub-hosted (no no-timeout; coverage's container runs on
# ubuntu-latest); no shared target directory is configured.
ML_FINDINGS = [{"rule": "never-linked", "subject": s, "file": ML, "line": 38} for s in ["lua51", "lua52", "lua53"]] + [
    {"rule": "never-linked", "subject": s} for s in ["luau", "luau-jit", "luau-vector4"]]


# ---- KyleMayes/clang-sys (libclang bindings; build.rs (with build/dynamic.rs, build/static.rs) finds libclang with
# llvm-config or LIBCLANG_PATH and emits rustc-link-lib=dylib=clang, or static=clang* + LLVM libraries under `static`;
# under `runtime` it links nothing and libloading opens libclang at run time. `links = "clang"`. Windows legs run their
# steps under pwsh (GitHub's default shell there); a pwsh `&&` chain; a matrix value that is a list (matrix.clang[1]);
# a second, standalone package (bindgen-test, a binary) run with --manifest-path)
# Written by hand on 2026-12-01 before linkgate was run on it, from ci.yml and ssh.yml (workflow_dispatch; tmate only,
# no cargo), Cargo.toml and bindgen-test/Cargo.toml. No script, justfile, Makefile, package.json or .cargo/config.toml
# exists; no rust-toolchain file; Cargo.lock is git-ignored. The root package `clang-sys` (no [workspace], a library
# with tests) has no `default` feature: clang_3_5 .. clang_20_0 (each enabling the one before), runtime (libloading),
# static, libcpp. bindgen-test/ is its own workspace root (the root manifest has no [workspace]); a binary
# (src/main.rs) with no [features], whose build-dependency bindgen reaches clang-sys through `[patch.crates-io]
# clang-sys = { path = ".." }` (a registry dependency patched to the path, not a path dependency of the manifest).
# ci.yml runs on pushes and pull requests to master (the default branch), no paths filter; every runner GitHub-hosted.
# Conventions decided here (each a rule a reviewer can check):
# - Windows legs (windows-latest, no `shell:`) run ci.yml:36 under pwsh, where `&&` is PowerShell 7's pipeline-chain
#   operator: the four commands run as in bash, each listed at line 36.
# - `cargo update -p libc --precise X` is listed as "update", links=False, "default" (as ground_truth.py lists
#   `cargo update`): `-p` names a dependency to re-pin, not a package to build.
# - Feature labels as written and sorted: `--features "clang_14_0 runtime"` is "clang_14_0,runtime"; no default
#   feature exists, so no "(no default)" and nothing is folded into a default set (clang_14_0 implying clang_13_0 ..
#   clang_3_5 is not spelled out).
# - The matrix value `clang: [["14.0", "clang_14_0"]]` is one value, a list: the combination carries it as a list.
# (commit: COMMITS above)
CS = ".github/workflows/ci.yml"
cs = []
# test (ci.yml:12): os x clang (one list value) x rust (one value)
for m in expand({"os": ["macos-latest", "ubuntu-latest", "windows-latest"], "clang": [["14.0", "clang_14_0"]],
                 "rust": ["1.60.0"]}):
    # `cargo generate-lockfile && cargo update -p libc --precise 0.2.163 && cargo update -p glob --precise 0.3.2
    #  && cargo update -p libloading --precise 0.8.8`, one line
    cs += [inv("test", CS, 36, "generate-lockfile", False, ["default"], m),
           inv("test", CS, 36, "update", False, ["default"], m, count=3),
           # cargo test --verbose --features ${{ matrix.clang[1] }} -- --nocapture: links libclang (dynamic)
           inv("test", CS, 39, "test", True, ["clang_14_0"], m),
           # cargo test --verbose --features "${{ matrix.clang[1] }} runtime" -- --nocapture
           inv("test", CS, 41, "test", True, ["clang_14_0,runtime"], m)]
# test-bindgen (ci.yml:42, ubuntu-latest, no matrix): cargo run of the bindgen-test binary (its own package, no features)
cs.append(inv("test-bindgen", CS, 59, "run", True, ["default"]))

# Findings: none judged true.
# - never-linked: the only sets a compiling command gives clang-sys are clang_14_0 and clang_14_0,runtime, and both
#   are the sets of the `cargo test` commands that link them (ci.yml:39, :41), on every leg. bindgen-test's "default"
#   is linked by its own `cargo run` (ci.yml:59). `cargo generate-lockfile` and `cargo update` (ci.yml:36) resolve
#   the lockfile and compile nothing: they check no set, so clang-sys's "default" (built by no command) is no finding.
# - link-only-on-schedule: no schedule, no branch-limited push that misses master; ssh.yml runs no cargo.
# - filter-misses-surface / filter-misses-manifest: no paths, paths-ignore or paths-filter anywhere.
# - no-timeout: every runner (macos-latest, ubuntu-latest, windows-latest) is GitHub-hosted.
# - shared-target-dir: no CARGO_TARGET_DIR or --target-dir is set.
# - unresolved: every cargo word is plain and every value (matrix.clang[1]) is known.
CS_FINDINGS = []


# ---- tensorflow/rust (TensorFlow C API bindings; tensorflow-sys's build.rs (`links = "tensorflow"`) finds
# libtensorflow with pkg-config or on PATH (Windows), else downloads the prebuilt C library (or builds it from source
# with Bazel when TF_RUST_BUILD_FROM_SRC=true) and emits rustc-link-lib=dylib=tensorflow (+ tensorflow_framework);
# every cargo command runs in one bash script, test-all, through a shell function wrapper `run` ("$@"); the Windows
# leg runs that script under an explicit `shell: bash`; a package selected by `cd tensorflow-sys` in a subshell)
# Written by hand on 2026-12-01 before linkgate was run on it, from .github/workflows/ci.yml (the only workflow), the
# script it runs (test-all), Cargo.toml, tensorflow-sys/Cargo.toml, tensorflow-sys/build.rs and the READMEs and
# requirements.txt that test-all's guards read. No justfile, Makefile, package.json, pyproject.toml or
# .cargo/config.toml exists; no rust-toolchain file; Cargo.lock is git-ignored. run-valgrind, update-docs,
# create-virtualenv, check-disk-space and the generate_bindgen_rs.sh scripts are called by no workflow: not read.
# The root package `tensorflow` (a library; examples addition, expressions (required-features tensorflow_unstable),
# regression, regression_savedmodel, regression_checkpoint, xor, mobilenetv3 (required-features eager)) is the root
# of a workspace with an empty `[workspace]`: its path dependencies tensorflow-sys, tensorflow-sys-runtime (optional)
# and tensorflow-internal-macros (a proc-macro) are the other members; tensorflow-op-codegen and
# tensorflow-proto-codegen are their own workspaces, built by no job. tensorflow's features: default =
# [tensorflow-sys] (the optional dependency), eager, experimental, tensorflow_gpu, tensorflow_unstable,
# tensorflow_runtime_linking, examples_system_alloc, private-docs-rs, and the implicit ndarray; tensorflow-sys has no
# default feature (tensorflow_gpu, eager, experimental, examples_system_alloc, private-docs-rs).
# ci.yml runs on pushes and pull requests to master (the default branch); no paths filter, no schedule; one job,
# `tests`, matrix os: ubuntu-latest, macos-latest, windows-latest (all GitHub-hosted); step `./test-all` (ci.yml:41)
# with `shell: bash` on every leg. The commented-out clippy job (ci.yml:43-57) and test-all's commented lines (64,
# 87, 92-96) run nothing.
# Conventions decided here (each a rule a reviewer can check):
# - test-all runs every command as `run cargo ...`, where `run` is a shell function whose body executes "$@"
#   (test-all:8). Each invocation is at the line where its `cargo` word is written (the call `run cargo ...`, lines
#   65-90), not at test-all:8 where "$@" expands: the function is a prefix before the program word, as an env prefix
#   is, and every call site is its own invocation (as a function called once per call with its arguments).
# - test-all's three version guards (lines 25, 37, 49: `if [[ $(grep ...) != $(grep ...) ]]; then ... exit 1`) were
#   decided as on GitHub: at this commit the versions agree (tensorflow-sys/build.rs VERSION 2.18.0 ==
#   requirements.txt tensorflow 2.18.0; Cargo.toml 0.21.0 == both README.md patterns; tensorflow-sys 0.24.0 ==
#   tensorflow-sys/README.md), so no guard exits and every cargo line runs.
# - `(cd tensorflow-sys && run cargo ... && clean)`: the subshell's cd selects the package tensorflow-sys (a workspace
#   member found from its directory); its label is "default" (no default feature, no --features), as clang-sys's.
# - Labels as written and sorted; a --features list without --no-default-features keeps no "default" prefix and has
#   no "(no default)" (as ort's "load-dynamic"); tensorflow's default only turns on the tensorflow-sys dependency, so
#   nothing written folds into it.
# (commit: COMMITS above)
# (commit: COMMITS above)

TFR = "test-all"
TF_DOCS = "eager,experimental,ndarray,tensorflow_unstable"
TF_DOCS_PRIVATE = "eager,experimental,ndarray,private-docs-rs,tensorflow_unstable"
tfr = []
for os in ["ubuntu-latest", "macos-latest", "windows-latest"]:
    m = {"os": os}
    tfr += [inv("tests", TFR, 65, "fmt", False, ["default"], m),  # cargo fmt --all -- --check
            # cargo test -vv -j 2 [--features X] of the root package tensorflow: test targets link libtensorflow
            inv("tests", TFR, 67, "test", True, ["default"], m),
            inv("tests", TFR, 69, "test", True, ["eager"], m),
            inv("tests", TFR, 71, "test", True, ["tensorflow_unstable"], m),
            inv("tests", TFR, 73, "test", True, ["ndarray"], m),
            # cargo run [--features X] --example E: an example links
            inv("tests", TFR, 75, "run", True, ["default"], m),  # regression
            inv("tests", TFR, 77, "run", True, ["default"], m),  # xor
            inv("tests", TFR, 79, "run", True, ["tensorflow_unstable"], m),  # expressions
            inv("tests", TFR, 81, "run", True, ["eager"], m),  # mobilenetv3
            inv("tests", TFR, 83, "doc", False, [TF_DOCS], m),
            inv("tests", TFR, 85, "doc", False, [TF_DOCS_PRIVATE], m),
            # in tensorflow-sys (subshells): its examples multiplication and tf_version link; cargo doc -vv does not
            inv("tests", TFR, 88, "run", True, ["default"], m),
            inv("tests", TFR, 89, "run", True, ["default"], m),
            inv("tests", TFR, 90, "doc", False, ["default"], m)]

# Findings judged true:
# - never-linked: tensorflow's two documentation sets (test-all:83, :85; cargo doc compiles and documents, links
#   nothing) are built by no linking command: experimental (-> tensorflow-sys/experimental) and private-docs-rs
#   (-> tensorflow-sys/private-docs-rs, which makes tensorflow-sys's build.rs return before any link directive) appear
#   in no `cargo test` or `cargo run`; the linked sets of tensorflow are default, eager, tensorflow_unstable and ndarray
#   (each alone). The labels are unique to tensorflow, so the findings carry no file and line.
TFR_FINDINGS = [{"rule": "never-linked", "subject": s} for s in [TF_DOCS, TF_DOCS_PRIVATE]]
# Judged false, not listed:
# - never-linked for tensorflow-sys's "default" (cargo doc, test-all:90): linked by its own `cargo run --example`
#   (test-all:88, :89). tensorflow's default, eager, tensorflow_unstable and ndarray are each linked by `cargo test`
#   (test-all:67-73); `cargo fmt` checks no feature set.
# - link-only-on-schedule: no schedule; the push trigger is limited to master, the default branch, and pull requests
#   run the same job.
# - filter-misses-surface / filter-misses-manifest: ci.yml has `branches` filters only, no paths, paths-ignore or
#   paths-filter.
# - no-timeout: every runner (ubuntu-latest, macos-latest, windows-latest) is GitHub-hosted.
# - shared-target-dir: no CARGO_TARGET_DIR or --target-dir is set (the tensorflow-sys commands use the workspace's own
#   target/, as cargo does for any member).
# - debug-link-on-large-target: audit.md names the rule but gives no criterion; not judged (no finding listed).
# - unresolved: every cargo word is plain; `run` is a shell function defined in the script; no variable is unknown in
#   a cargo command.


# ---- xiph/rav1e (AV1 encoder; build.rs (`asm`, a default feature) assembles the x86_64 NASM sources with nasm-rs,
# or the aarch64 NEON sources with cc, into librav1easm / librav1e-aarch64 and emits rustc-link-lib=static=...; the
# decode_test / decode_test_dav1d features pull aom-sys / libdav1d-sys, which link the system libaom / libdav1d. cargo-c
# (`cargo cbuild`, `cargo cinstall`) builds the C API library (staticlib + cdylib); `cross build`, once through a custom
# Dockerfile whose entrypoint rewrites `build` to `cinstall`; `cargo fuzz build`; Windows legs run under pwsh (GitHub's
# default shell there) with a backtick-continued command; a matrix whose include entries extend every combination;
# include-only matrices; a weekly schedule + tag-push release workflow; a devcontainer workflow with a paths filter whose
# Docker image builds run `cargo install`)
# Written by hand on 2026-12-01 before linkgate was run on it, from .github/workflows/rav1e.yml, deploy.yml and
# devcontainer.yml, the files they use (cross/Dockerfile.libs, cross/entrypoint-build-libs.sh, .devcontainer/
# build-{amd64,arm64}.json and Dockerfile.{amd64,arm64}), Cargo.toml, ivf/Cargo.toml, fuzz/Cargo.toml and build.rs.
# No script, justfile, Makefile, Makefile.toml, package.json or .cargo/config.toml is called or exists; no rust-toolchain
# file; Cargo.lock is tracked. The root package `rav1e` is the root of a workspace (members ".", "ivf"; no
# default-members), so a plain `cargo X` at the root selects rav1e alone; rav1e has [[bin]] rav1e (required-features
# binaries) and rav1e-ch (binaries, channel-api, unstable), so `cargo build` there links. rav1e's default =
# [binaries, asm, threading, signal_support, git_version]; ivf has no features; fuzz/ is its own workspace (rav1e-fuzz,
# four [[bin]] fuzz targets, no default feature), depending on rav1e by path with features = [decode_test_dav1d].
# rav1e.yml runs on pushes and pull requests to master (the default branch) and 0.*; no paths filter. deploy.yml runs
# on a weekly schedule and on tag pushes (v*.*.*, p*) only. devcontainer.yml runs on pushes to master with on.push.paths
# (.github/workflows/devcontainer.yml, .devcontainer/**). Every runner is GitHub-hosted (ubuntu-24.04, ubuntu-latest,
# macos-latest, windows-latest).
# Conventions decided here (each a rule a reviewer can check):
# - clechasseur/rs-clippy-check (rav1e.yml:28, args `-- -D warnings`) runs `cargo clippy` in the repository root: one
#   "clippy" invocation, links=False, at the `uses:` line, as for the other clippy actions.
# - cargo-c: `cargo cbuild` and `cargo cinstall` are listed under their own subcommand ("cbuild", "cinstall", as
#   "auditable build" / "fuzz run" are), links=True (they build the library as staticlib + cdylib). Their feature set
#   is "capi": cargo-c adds the package's `capi` feature to the command line's features (cargo-c src/build.rs,
#   compile_options: cli_features.insert("capi")) and keeps the default features, so the label is written as a
#   --features list without --no-default-features ("capi", default kept, no "(no default)").
# - cross (deploy.yml:255, :270) is read as the cargo command it runs in its container. At :270 the env
#   CROSS_BUILD_DOCKERFILE=./cross/Dockerfile.libs sets the image's ENTRYPOINT to cross/entrypoint-build-libs.sh, which
#   rewrites the word `build` in its arguments to `cinstall --library-type staticlib --library-type cdylib --prefix
#   dist` and execs them (the workflow's own comment says so): the subcommand really run is "cinstall" (features
#   "capi"), listed at the line of the `cross` word in deploy.yml. At :255 (no custom Dockerfile) it is "build".
# - `cargo fuzz build --sanitizer none` (rav1e.yml:279) builds every fuzz target of fuzz/ (binaries): "fuzz build",
#   links=True, features of the selected package rav1e-fuzz ("default"); it reaches rav1e with default +
#   decode_test_dav1d, the same set as rav1e.yml:238's "decode_test_dav1d".
# - `cargo --version > Cargo.version` (rav1e.yml:204, :375, :457) has no subcommand: not listed. `cargo fetch`,
#   `cargo clean` and `cargo pkgid` (inside `$( )`) are listed under their subcommand, links=False, "default".
#   The pkgid steps' `if: startsWith(github.ref, 'refs/tags/v')` cannot be decided: listed (they run on some event),
#   as are all deploy.yml and devcontainer.yml jobs, whose `if: github.repository_owner == 'xiph'` the repository
#   cannot decide.
# - Docker image builds the workflow runs are read like scripts it calls: devcontainer.yml:33 and :35 run
#   `devcontainer build --config .devcontainer/build-{amd64,arm64}.json`, whose images build Dockerfile.amd64 and
#   Dockerfile.arm64; each RUN's `cargo install <tool>` is one "install" invocation (links=True, "default", as
#   `cargo install` of a tool is listed elsewhere) at the Dockerfile line of its cargo word. They compile no code of
#   this repository.
# - Matrices: build-unix's include entries each extend one `conf` value with its `toolchain` (13 combinations);
#   build-macos and build-windows have only `include` (each entry is one combination, written out, since expand()
#   with no axes would merge them); deploy.yml's matrices are expanded with expand() (windows-binaries: 6 legs,
#   linux-binaries: 10 legs after the excludes, macos-binaries: 4 legs).
# - `-F wasm` is `--features wasm`. `--workspace --features X` is labelled X (the features of rav1e; ivf has none).
# (commit: COMMITS above)
# (commit: COMMITS above)

RV, RVD, RVC = (".github/workflows/" + n for n in ("rav1e.yml", "deploy.yml", "devcontainer.yml"))
RV_EXTRA = "bench,capi,check_asm,dump_lookahead_data,serialize,tracing"
rv = []

# rav1e.yml rustfmt-clippy (ubuntu-24.04)
rv += [inv("rustfmt-clippy", RV, 26, "fmt", False, ["default"]),  # cargo fmt -- --check --verbose
       inv("rustfmt-clippy", RV, 28, "clippy", False, ["default"])]  # clechasseur/rs-clippy-check: the uses: line
# msrv (ubuntu-24.04, Rust 1.83.0): folded `>` scalars; the cargo word is on the first line of each
rv += [inv("msrv", RV, 59, "check", False, ["default"]),
       inv("msrv", RV, 63, "check", False, ["wasm (no default)"]),  # --target wasm32-unknown-unknown
       inv("msrv", RV, 70, "check", False, ["no default features"])]  # --target wasm32-wasip2
# wasi: tests for wasm32-wasip2 (run with wasmtime): test targets link
rv.append(inv("wasi", RV, 97, "test", True, ["no default features"]))

# build-unix (ubuntu-24.04): conf x its toolchain
RV_UNIX = {"beta-build": "beta", "msrv-tests": "1.83.0", "aom-tests": "stable", "dav1d-tests": "stable",
           "no-asm-tests": "stable", "grcov-codecov": "stable", "bench": "stable", "doc": "stable",
           "cargo-c": "stable", "check-no-default": "stable", "check-extra-feats": "stable",
           "check-unstable-feats": "stable", "fuzz": "stable"}
for m in expand({"conf": list(RV_UNIX)}, include=[{"conf": c, "toolchain": t} for c, t in RV_UNIX.items()]):
    conf = m["conf"]
    if conf == "msrv-tests":
        rv.append(inv("build-unix", RV, 227, "test", True, ["capi,decode_test,decode_test_dav1d,quick_test"], m))
    if conf == "aom-tests":
        rv.append(inv("build-unix", RV, 232, "test", True, ["decode_test"], m))  # --release ... --ignored
    if conf in ("dav1d-tests", "no-asm-tests"):
        rv.append(inv("build-unix", RV, 238, "test", True, ["decode_test_dav1d"], m))
    if conf == "beta-build":
        rv.append(inv("build-unix", RV, 244, "build", True, ["default"], m))  # [[bin]] rav1e
    if conf == "bench":
        rv.append(inv("build-unix", RV, 248, "bench", True, ["bench"], m))  # --no-run still builds and links
    if conf == "doc":
        rv.append(inv("build-unix", RV, 252, "doc", False, ["default"], m))
    if conf == "check-no-default":
        rv.append(inv("build-unix", RV, 256, "check", False, ["no default features"], m))
    if conf == "check-extra-feats":
        rv.append(inv("build-unix", RV, 260, "check", False, [RV_EXTRA], m))  # --all-targets: checked, not linked
    if conf == "check-unstable-feats":
        rv.append(inv("build-unix", RV, 264, "check", False, ["channel-api,unstable"], m))
    if conf == "cargo-c":
        rv += [inv("build-unix", RV, 270, "fetch", False, ["default"], m),
               inv("build-unix", RV, 271, "cbuild", True, ["capi"], m)]
    if conf == "fuzz":
        rv += [inv("build-unix", RV, 275, "install", True, ["default"], m),  # cargo install cargo-fuzz
               inv("build-unix", RV, 279, "fuzz build", True, ["default"], m)]
    if conf == "grcov-codecov":
        rv += [inv("build-unix", RV, 283, "clean", False, ["default"], m),
               inv("build-unix", RV, 299, "test", True, ["decode_test,decode_test_dav1d,quick_test"], m),  # --lib --test
               inv("build-unix", RV, 302, "test", True, ["decode_test,decode_test_dav1d,quick_test"], m)]  # --doc
    if conf == "no-asm-tests":
        rv.append(inv("build-unix", RV, 308, "test", True, ["default"], m))

# build-macos (macos-latest): include-only matrix, five combinations
for m in [{"name": "Cargo build (x64)", "conf": "cargo-build", "target": "x86_64-apple-darwin"},
          {"name": "Cargo test (x64)", "conf": "cargo-test", "target": "x86_64-apple-darwin"},
          {"name": "Cargo C-build (x64)", "conf": "cargo-c", "target": "x86_64-apple-darwin"},
          {"name": "Cargo build (Arm64)", "conf": "cargo-build", "target": "aarch64-apple-darwin"},
          {"name": "Cargo C-build (Arm64)", "conf": "cargo-c", "target": "aarch64-apple-darwin"}]:
    if m["conf"] == "cargo-build":
        rv.append(inv("build-macos", RV, 398, "build", True, ["default"], m))
    elif m["conf"] == "cargo-test":
        rv.append(inv("build-macos", RV, 402, "test", True, ["default"], m))
    else:
        rv += [inv("build-macos", RV, 408, "fetch", False, ["default"], m),
               inv("build-macos", RV, 409, "cbuild", True, ["capi"], m)]

# build-windows (windows-latest, pwsh): include-only matrix, three combinations
for m in [{"conf": "cargo-build", "target": "x86_64-pc-windows-msvc"},
          {"conf": "cargo-test", "target": "x86_64-pc-windows-msvc"},
          {"conf": "cargo-c", "target": "x86_64-pc-windows-gnu"}]:
    if m["conf"] == "cargo-build":
        rv.append(inv("build-windows", RV, 480, "build", True, ["default"], m))
    elif m["conf"] == "cargo-test":
        rv.append(inv("build-windows", RV, 484, "test", True, ["default"], m))
    else:
        rv += [inv("build-windows", RV, 490, "fetch", False, ["default"], m),
               inv("build-windows", RV, 491, "cbuild", True, ["capi"], m)]

# deploy.yml (schedule, tag pushes). windows-rav1e-ch-binary (windows-latest, pwsh): the rav1e-ch binary links
rv.append(inv("windows-rav1e-ch-binary", RVD, 28, "build", True, ["channel-api,unstable"]))
# windows-binaries (windows-latest, pwsh except the bash pkgid step)
for m in expand({"conf": ["msvc", "gnu"], "target_cpu": ["x86-64", "x86-64-v2", "x86-64-v3"]}, include=[
        {"conf": "msvc", "name": "msvc-generic", "toolchain": "stable", "profile": "release", "target_cpu": "x86-64"},
        {"conf": "msvc", "name": "msvc-sse4", "toolchain": "stable", "profile": "release", "target_cpu": "x86-64-v2"},
        {"conf": "msvc", "name": "msvc-avx2", "toolchain": "stable", "profile": "release", "target_cpu": "x86-64-v3"},
        {"conf": "gnu", "name": "gnu-generic", "toolchain": "stable-x86_64-pc-windows-gnu", "profile": "release-no-lto",
         "target_cpu": "x86-64"},
        {"conf": "gnu", "name": "gnu-sse4", "toolchain": "stable-x86_64-pc-windows-gnu", "profile": "release-no-lto",
         "target_cpu": "x86-64-v2"},
        {"conf": "gnu", "name": "gnu-avx2", "toolchain": "stable-x86_64-pc-windows-gnu", "profile": "release-no-lto",
         "target_cpu": "x86-64-v3"}]):
    rv += [inv("windows-binaries", RVD, 108, "build", True, ["default"], m),  # cargo build --profile P
           inv("windows-binaries", RVD, 116, "fetch", False, ["default"], m),
           inv("windows-binaries", RVD, 117, "cinstall", True, ["capi"], m),  # backtick-continued to :121
           inv("windows-binaries", RVD, 131, "pkgid", False, ["default"], m)]  # if: refs/tags/v (shell: bash)
# linux-binaries (ubuntu-latest)
for m in expand({"target": ["i686-unknown-linux-musl", "x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl"],
                 "target_cpu": ["default", "x86-64", "x86-64-v2", "x86-64-v3"], "build": ["binary", "sdk"]},
                exclude=[{"target": "x86_64-unknown-linux-musl", "target_cpu": "default"}]
                + [{"target": t, "target_cpu": c} for t in ["aarch64-unknown-linux-musl", "i686-unknown-linux-musl"]
                   for c in ["x86-64", "x86-64-v2", "x86-64-v3"]],
                include=[{"build": "binary", "pkgname": "rav1e"}, {"build": "sdk", "pkgname": "librav1e"},
                         {"target": "i686-unknown-linux-musl", "name": "linux-i686"},
                         {"target": "aarch64-unknown-linux-musl", "name": "linux-aarch64"},
                         {"target": "x86_64-unknown-linux-musl", "target_cpu": "x86-64", "name": "linux-generic"},
                         {"target": "x86_64-unknown-linux-musl", "target_cpu": "x86-64-v2", "name": "linux-sse4"},
                         {"target": "x86_64-unknown-linux-musl", "target_cpu": "x86-64-v3", "name": "linux-avx2"}]):
    native = m["target"] == "x86_64-unknown-linux-musl"
    if m["build"] == "binary":
        rv.append(inv("linux-binaries", RVD, 276 if native else 255, "build", True, ["default"], m))  # cargo / cross
    elif native:
        rv.append(inv("linux-binaries", RVD, 284, "cinstall", True, ["capi"], m))
    else:
        # `cross build` with CROSS_BUILD_DOCKERFILE=./cross/Dockerfile.libs: the entrypoint makes it cargo cinstall
        rv.append(inv("linux-binaries", RVD, 270, "cinstall", True, ["capi"], m))
    rv.append(inv("linux-binaries", RVD, 301, "pkgid", False, ["default"], m))  # if: refs/tags/v
# macos-binaries (macos-latest)
for m in expand({"target": ["x86_64-apple-darwin", "aarch64-apple-darwin"], "build": ["binary", "sdk"]},
                include=[{"target": "x86_64-apple-darwin", "name": "macos", "macosx_deployment_target": "10.10"},
                         {"target": "aarch64-apple-darwin", "name": "macos-aarch64", "macosx_deployment_target": "11.0"},
                         {"build": "binary", "pkgname": "rav1e", "ext": "zip"},
                         {"build": "sdk", "pkgname": "librav1e", "ext": "tar.gz"}]):
    if m["build"] == "binary":
        rv.append(inv("macos-binaries", RVD, 389, "build", True, ["default"], m))
    else:
        rv.append(inv("macos-binaries", RVD, 394, "cinstall", True, ["capi"], m))
    rv.append(inv("macos-binaries", RVD, 411, "pkgid", False, ["default"], m))  # if: refs/tags/v
# deploy (ubuntu-latest): only `cargo pkgid` (if: refs/tags/v)
rv.append(inv("deploy", RVD, 464, "pkgid", False, ["default"]))

# devcontainer.yml (push to master, on.push.paths): `devcontainer build` of the two images (lines 33, 35); each
# Dockerfile's RUN installs three cargo tools (Dockerfile.arm64's first stage cross-compiles them for aarch64)
for f, lines in [(".devcontainer/Dockerfile.amd64", (12, 13, 14)), (".devcontainer/Dockerfile.arm64", (16, 17, 18))]:
    rv += [inv("devcontainer", f, n, "install", True, ["default"]) for n in lines]

RAV1E_INVOCATIONS = rv

# Findings judged true:
# - never-linked "wasm (no default)": checked for wasm32-unknown-unknown (rav1e.yml:63); no linking command gives rav1e
#   --no-default-features with wasm.
# - never-linked "bench,capi,check_asm,dump_lookahead_data,serialize,tracing": `cargo check --all-targets`
#   (rav1e.yml:260) only; no test, bench or build links rav1e with that set (the bench job links "bench" alone).
# - link-only-on-schedule "channel-api,unstable": checked on pull requests (rav1e.yml:264), linked only by deploy.yml's
#   windows-rav1e-ch-binary (deploy.yml:28, `cargo build --bin=rav1e-ch`), and deploy.yml runs only on its weekly
#   schedule and on tag pushes (no push to master, no pull request).
# The labels are rav1e's alone (ivf has no features, rav1e-fuzz only check_asm), so the findings carry no file and line.
RAV1E_FINDINGS = [{"rule": "never-linked", "subject": s} for s in ["wasm (no default)", RV_EXTRA]] + [
    {"rule": "link-only-on-schedule", "subject": "channel-api,unstable"}]
# Judged false, not listed:
# - never-linked "no default features" (rav1e.yml:70 for wasm32-wasip2, :256 on the host): linked by the wasi job's
#   `cargo test --target wasm32-wasip2 --no-default-features` (rav1e.yml:97), on pull requests (feature sets are
#   compared without the target). rav1e's "default" (check :59, clippy :28, doc :252) is linked by cargo build / test
#   on every OS; "capi" (cargo-c) is linked on pull requests by cbuild (rav1e.yml:271, :409, :491); rav1e-fuzz's
#   "default" by `cargo fuzz build`; ivf (no features) by every `--workspace` test. `cargo fmt` checks no set.
# - link-only-on-schedule for "capi" or "default": both are linked by rav1e.yml on pull requests and pushes to master;
#   deploy.yml links nothing else besides channel-api,unstable.
# - filter-misses-surface / filter-misses-manifest: the only paths filter is devcontainer.yml's on.push.paths, and its
#   job builds no package of this repository (its `cargo install`s build registry crates inside the image build, which
#   read none of this repository's build scripts, manifests or lockfile). rav1e.yml and deploy.yml have no paths,
#   paths-ignore or paths-filter.
# - no-timeout: every runner (ubuntu-24.04, ubuntu-latest, macos-latest, windows-latest) is GitHub-hosted.
# - shared-target-dir: no CARGO_TARGET_DIR or --target-dir is set anywhere.
# - debug-link-on-large-target: audit.md names the rule but gives no criterion; not judged (no finding listed).
# - invalid-workflow: all three workflows parse; no key is given twice in a mapping.
# - unresolved: every value in a cargo command comes from the matrix or the workflow; cargo-c, cargo-fuzz and cross are
#   installed programs, not unknown variables. (Whether the audit notes that it cannot read the cross entrypoint or the
#   Dockerfiles is its own limitation, not a finding about this repository.)
RAV_FINDINGS = RAV1E_FINDINGS


# ---- rust-skia/rust-skia (Skia bindings; skia-bindings' build.rs (`links = "skia"`) downloads prebuilt Skia binaries
# (binary-cache) or builds Skia (C++) from the skia-bindings/skia submodule with gn/ninja, compiles its C++ glue
# (src/*.cpp) with cc, generates the bindings with bindgen and emits rustc-link-lib for skia and its companions; the
# CI is generated by mk-workflows: one "-qa" workflow per platform (push to branches other than release, pull
# requests, a nightly schedule) and one "-binaries" workflow per platform (push to the release branch only) with large
# feature x target matrices (exclude, include entries that extend a target and, on macOS, a feature value); a matrix
# value "" given as `--features ""`; cargo in a virtual workspace root (no default-members) where `cargo run` runs the
# one default-run binary; a Makefile recipe chain (`make test-local-build`); a separate workspace (wasm-example) whose
# default feature turns on skia-safe/gl; Windows legs under `shell: bash` and, in supplemental-builds.yaml, under pwsh
# (GitHub's default shell on Windows); every linux job runs in a container on a GitHub-hosted runner)
# Written by hand on 2026-12-01 before linkgate was run on it, from the twelve workflows of .github/workflows (qa.yaml,
# supplemental-builds.yaml, {linux,macos,wasm,windows,windows-arm}-{qa,binaries}.yaml), what they call (the root
# Makefile's test-local-build, the justfile's check-skia-submodule-tag, which runs only sed and git), Cargo.toml and
# the manifests of skia-safe, skia-bindings, skia-org, skia-svg-macros, mk-workflows, comment-converter and
# wasm-example. No .cargo/config.toml, package.json, Makefile.toml or rust-toolchain file exists; Cargo.lock is
# git-ignored (/Cargo.lock). The root Cargo.toml is a virtual workspace (resolver 3; members skia-safe,
# skia-svg-macros (a proc-macro), skia-bindings, skia-org, mk-workflows, comment-converter; no default-members), so a
# plain `cargo build`/`test` at the root selects every member, three of which are binaries (skia-org, mk-workflows,
# comment-converter): such a build links. skia-safe and skia-bindings are libraries (rlib only): `cargo build -p
# skia-safe` links nothing. skia-safe's default = [binary-cache, embed-icudtl, pdf, jpeg]; no feature list below
# names one of them, so nothing folds into "default". wasm-example/ is its own workspace (a binary, default =
# ["skia-safe/gl"]). Default branch: master. Every runner (ubuntu-22.04, ubuntu-24.04, macos-15, windows-2022,
# windows-11-arm) is GitHub-hosted; no workflow has a paths filter; no CARGO_TARGET_DIR or --target-dir.
# Conventions decided here (each a rule a reviewer can check):
# - `--features "${{ matrix.features }}"` with the matrix value "" is `--features ""`: no feature, the label "default".
#   Other labels as written, sorted and comma-joined (`--features gl,vulkan,d3d,textlayout,webp` is
#   "d3d,gl,textlayout,vulkan,webp"); at the virtual root they are the features of every selected member that has
#   them (resolver 2+), labelled once as written, as rav1e's `--workspace --features X` is labelled X.
# - `cargo run --release --features X --target T ...` at the virtual root (the "Generate skia-org example images"
#   steps): cargo's run command takes the only `default-run` among the selected members (skia-org's default-run =
#   "skia-org"), so it builds and runs the skia-org binary: "run", links=True, label X.
# - `cargo clean` is listed as "clean", links=False, "default" (as rav1e's). `cargo fmt` as "fmt", "default".
# - Step `if: ${{ matrix.runClippy }}` / `runTests` / `generateArtifacts` are decided per combination from the
#   include values; `if: true` / `if: false` steps use actions that run no cargo.
# - `make test-local-build` (supplemental-builds.yaml:43) runs its prerequisites prepare-local-build then
#   build-local-build: each cargo line is at its Makefile line, with local-build-features=gl,vulkan,webp,textlayout.
# - supplemental-builds.yaml's Windows steps without `shell:` run under pwsh; each is one plain cargo line (the `#`
#   lines before it are comments).
# (commit: COMMITS above)
# (commit: COMMITS above)

SKW = ".github/workflows/"
SK_QA, SK_SUP, SK_MK = SKW + "qa.yaml", SKW + "supplemental-builds.yaml", "Makefile"


def sklabel(fs):
    """The label of `--features "fs"` (no --no-default-features): "default" when empty, else sorted."""
    return ",".join(sorted(fs.split(","))) if fs else "default"


# Lines of the generated step template per workflow: cargo clean, cargo build -p skia-safe, cargo clippy, cargo test
# --all, cargo run (skia-org).
SK_LINES = {
    "linux-qa": (110, 111, 123, 129, 135), "linux-binaries": (132, 133, 145, 151, 157),
    "macos-qa": (104, 105, 117, 123, 129), "macos-binaries": (148, 149, 161, 167, 173),
    "wasm-qa": (76, 77, 89, 95, 101), "wasm-binaries": (71, 72, 84, 90, 96),
    "windows-qa": (80, 81, 93, 99, 105), "windows-binaries": (75, 76, 88, 94, 100),
    "windows-arm-qa": (82, 83, 95, 101, 107), "windows-arm-binaries": (77, 78, 90, 96, 102)}


def sk_leg(wf, job, m):
    clean, build, clippy, test, run = SK_LINES[wf]
    f = SKW + wf + ".yaml"
    fs = [sklabel(m["features"])]
    out = [inv(job, f, clean, "clean", False, ["default"], m),
           inv(job, f, build, "build", False, fs, m)]  # -p skia-safe: a library
    if m["runClippy"]:
        out.append(inv(job, f, clippy, "clippy", False, fs, m))  # --all-targets at the virtual root
    if m["runTests"]:
        out.append(inv(job, f, test, "test", True, fs, m))  # --all --all-targets
    if m["generateArtifacts"]:
        out.append(inv(job, f, run, "run", True, fs, m))  # skia-org (default-run)
    return out


def sk_target(target, android=False, emscripten=False, tests=False, example_args="", features=None):
    e = {"target": target, "androidEnv": android, "emscriptenEnv": emscripten, "runClippy": tests,
         "runTests": tests, "exampleArgs": example_args, "generateArtifacts": tests and bool(example_args)}
    if features is not None:
        e["features"] = features
    return e


SK_ART = "--driver cpu --driver pdf --driver svg"
SK_LQ = "egl,gl,skottie,svg,textlayout,ureq,vulkan,wayland,webp,x11"
SK_LA = "gl,skottie,svg,textlayout,ureq,vulkan,webp"
SK_MQ = "gl,metal,skottie,svg,textlayout,ureq,vulkan,webp"
SK_MI = "gl,metal,skottie,svg,textlayout,ureq,webp"
SK_WQ = "d3d,gl,skottie,svg,textlayout,ureq,vulkan,webp"
SK_WASM = "gl,skottie,svg,textlayout,webp"

sk = [inv("qa", SK_QA, 24, "fmt", False, ["default"])]  # qa.yaml (push, pull_request); `just ...` runs no cargo

# ---- the -qa workflows (push to branches other than release, pull_request, schedule): target axis, include per target
LINUX_T = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "aarch64-linux-android", "x86_64-linux-android",
           "i686-linux-android"]
MAC_T = ["aarch64-apple-darwin", "x86_64-apple-darwin", "aarch64-apple-ios", "aarch64-apple-ios-sim", "x86_64-apple-ios"]
for m in expand({"target": LINUX_T}, include=[
        sk_target(LINUX_T[0], tests=True, example_args=SK_ART, features=SK_LQ),
        sk_target(LINUX_T[1], features=SK_LQ)] + [sk_target(t, android=True, features=SK_LA) for t in LINUX_T[2:]]):
    sk += sk_leg("linux-qa", "linux-qa-stable-all-features", m)
for m in expand({"target": MAC_T}, include=[
        sk_target(MAC_T[0], tests=True, example_args=SK_ART, features=SK_MQ),
        sk_target(MAC_T[1], features=SK_MQ)] + [sk_target(t, features=SK_MI) for t in MAC_T[2:]]):
    sk += sk_leg("macos-qa", "macos-qa-stable-all-features", m)
for m in expand({"target": ["wasm32-unknown-emscripten"]},
                include=[sk_target("wasm32-unknown-emscripten", emscripten=True, features=SK_WASM)]):
    sk += sk_leg("wasm-qa", "wasm-qa-stable-all-features", m)
for m in expand({"target": ["x86_64-pc-windows-msvc"]},
                include=[sk_target("x86_64-pc-windows-msvc", tests=True, example_args=SK_ART, features=SK_WQ)]):
    sk += sk_leg("windows-qa", "windows-qa-stable-all-features", m)
for m in expand({"target": ["aarch64-pc-windows-msvc"]},
                include=[sk_target("aarch64-pc-windows-msvc", tests=True, example_args=SK_ART, features=SK_WQ)]):
    sk += sk_leg("windows-arm-qa", "windows-arm-qa-stable-all-features", m)

# ---- the -binaries workflows (push to the release branch only): features x target, exclude, include
SK_LB = ["", "gl", "textlayout", "vulkan", "gl,textlayout", "gl,x11", "textlayout,vulkan", "gl,textlayout,vulkan",
         "gl,textlayout,x11", "gl,svg,textlayout,x11", "svg,textlayout,vulkan,webp", "gl,svg,textlayout,wayland,x11",
         "egl,gl,skottie,svg,textlayout,vulkan,wayland,webp,x11"]
for m in expand({"features": SK_LB, "target": LINUX_T},
                exclude=[{"target": t, "features": f} for f in ["gl,x11", "gl,textlayout,x11", "gl,svg,textlayout,x11",
                                                               "gl,svg,textlayout,wayland,x11", SK_LB[-1]]
                         for t in LINUX_T[2:]],
                include=[sk_target(LINUX_T[0], tests=True), sk_target(LINUX_T[1])]
                + [sk_target(t, android=True) for t in LINUX_T[2:]]):
    sk += sk_leg("linux-binaries", "linux-binaries", m)
SK_MB = {"": "10.13", "gl": "10.13", "metal": "10.14", "textlayout": "10.13", "vulkan": "10.13",
         "gl,textlayout": "10.13", "metal,textlayout": "10.14", "textlayout,vulkan": "10.13",
         "gl,metal,textlayout": "10.14", "gl,textlayout,vulkan": "10.13", "svg,textlayout,webp": "10.13",
         "gl,metal,svg,textlayout": "10.14", "gl,svg,textlayout,vulkan": "10.13", "metal,svg,textlayout,webp": "10.14"}
for m in expand({"features": list(SK_MB), "target": MAC_T},
                exclude=[{"target": t, "features": f} for f in ["vulkan", "textlayout,vulkan", "gl,textlayout,vulkan",
                                                               "gl,svg,textlayout,vulkan"] for t in MAC_T[2:]],
                include=[sk_target(MAC_T[0], tests=True)] + [sk_target(t) for t in MAC_T[1:]]
                + [{"features": f, "macosxDeploymentTarget": d} for f, d in SK_MB.items()]):
    sk += sk_leg("macos-binaries", "macos-binaries", m)
SK_WB = ["", "gl", "textlayout", "gl,textlayout", "gl,svg,textlayout,webp"]
for m in expand({"features": SK_WB, "target": ["wasm32-unknown-emscripten"]},
                include=[sk_target("wasm32-unknown-emscripten", emscripten=True)]):
    sk += sk_leg("wasm-binaries", "wasm-binaries", m)  # runClippy/runTests false: build -p skia-safe only
SK_WINB = ["", "d3d", "gl", "textlayout", "vulkan", "d3d,textlayout", "gl,textlayout", "textlayout,vulkan",
           "d3d,gl,textlayout", "gl,svg,textlayout", "gl,textlayout,vulkan", "svg,textlayout,vulkan,webp",
           "d3d,gl,svg,textlayout,vulkan"]
for m in expand({"features": SK_WINB, "target": ["x86_64-pc-windows-msvc"]},
                include=[sk_target("x86_64-pc-windows-msvc", tests=True)]):
    sk += sk_leg("windows-binaries", "windows-binaries", m)
SK_ARMB = ["", "d3d", "gl", "textlayout", "vulkan", "d3d,textlayout", "gl,textlayout", "textlayout,vulkan",
           "d3d,gl,textlayout", "gl,textlayout,vulkan", "svg,textlayout,vulkan,webp"]
for m in expand({"features": SK_ARMB, "target": ["aarch64-pc-windows-msvc"]},
                include=[sk_target("aarch64-pc-windows-msvc", tests=True)]):
    sk += sk_leg("windows-arm-binaries", "windows-arm-binaries", m)

# ---- supplemental-builds.yaml (push to branches other than release, pull_request, schedule)
sk += [
    # linux-local-build: `make test-local-build` -> prepare-local-build, build-local-build (virtual root: links)
    inv("linux-local-build", SK_MK, 164, "clean", False, ["default"]),
    inv("linux-local-build", SK_MK, 165, "build", True, ["gl,textlayout,vulkan,webp"]),
    inv("linux-local-build", SK_MK, 179, "clean", False, ["default"]),
    inv("linux-local-build", SK_MK, 180, "build", True, ["gl,textlayout,vulkan,webp (no default)"]),  # env prefix
    # linux-wasm: `source /emsdk/emsdk_env.sh && cd wasm-example && cargo build --target wasm32-unknown-emscripten`
    # (wasm-example is a binary; its default set)
    inv("linux-wasm", SK_SUP, 74, "build", True, ["default"]),
    # Windows jobs (pwsh): builds at the virtual root link (skia-org, mk-workflows, comment-converter binaries)
    inv("windows-link-dead-code-gpu-textlayout", SK_SUP, 120, "build", True, ["d3d,gl,textlayout,vulkan,webp"]),
    inv("windows-link-dead-code", SK_SUP, 153, "build", True, ["default"]),
    inv("windows-x86", SK_SUP, 186, "build", True, ["d3d,gl,textlayout,vulkan,webp"]),
    inv("windows-skia-safe-no-default-features", SK_SUP, 215, "clippy", False, ["no default features"]),
    inv("windows-skia-safe-no-default-features", SK_SUP, 219, "test", True, ["no default features"]),
    # linux-beta and linux-msrv (bash, containers): virtual root, links
    inv("linux-beta", SK_SUP, 247, "build", True, ["egl,gl,svg,textlayout,vulkan,wayland,webp,x11"]),
    inv("linux-msrv", SK_SUP, 277, "build", True, ["egl,gl,svg,textlayout,vulkan,wayland,webp,x11"]),
]
# The commented-out linux-arm64-build job (supplemental-builds.yaml:77-89) runs nothing.

RUST_SKIA_INVOCATIONS = sk

# Findings judged true.
# never-linked (skia-safe's sets, built by `cargo build -p skia-safe` (a library) on legs that run no test or run):
# - "gl,skottie,svg,textlayout,ureq,vulkan,webp": linux-qa's Android legs (linux-qa.yaml:111); no linking command gives
#   skia-safe that set (the linux binaries never add ureq).
# - "gl,metal,skottie,svg,textlayout,ureq,webp": macos-qa's iOS legs (macos-qa.yaml:105); likewise.
# - "gl,skottie,svg,textlayout,webp": wasm-qa's only leg (wasm-qa.yaml:77: runClippy, runTests, generateArtifacts
#   false).
# - "gl,svg,textlayout,webp": wasm-binaries (wasm-binaries.yaml:72, release pushes), built by no linking command.
# link-only-on-schedule: every other -binaries feature value is linked by its workflow's `cargo test --all` on the
# runTests leg (x86_64-unknown-linux-gnu, aarch64-apple-darwin, x86_64-pc-windows-msvc, aarch64-pc-windows-msvc; no
# exclude removes a value there), and the -binaries workflows run only on pushes to the release branch (a push
# limited to `branches: [release]`, which cannot name master). Excepted: "" ("default", linked on pull requests by
# windows-link-dead-code (supplemental-builds.yaml:153) and the other root builds) and "gl": wasm-example's default
# feature is skia-safe/gl, so its linking build (supplemental-builds.yaml:74, pull requests) reaches skia-safe through
# its path dependency with default + gl, the set `--features gl` gives (sets are compared without the target).
# None of the remaining values equals a set linked on pull requests (the -qa sets all carry skottie and ureq; the
# supplemental sets are d3d,gl,textlayout,vulkan,webp; egl,gl,svg,textlayout,vulkan,wayland,webp,x11;
# gl,textlayout,vulkan,webp with and without default features; no default features).
# The labels belong to skia-safe (and, for the shared names, to skia-bindings and skia-org, which the same commands
# give the same features), so the findings carry no file and line.
SK_NEVER = [SK_LA, SK_MI, SK_WASM, "gl,svg,textlayout,webp"]
SK_SCHEDULE = sorted({sklabel(f) for f in SK_LB + list(SK_MB) + SK_WINB + SK_ARMB} - {"default", "gl"})
SK_FINDINGS = [{"rule": "never-linked", "subject": s} for s in SK_NEVER] + [
    {"rule": "link-only-on-schedule", "subject": s} for s in SK_SCHEDULE]
# Judged false, not listed:
# - never-linked for the -qa sets that the x86_64 / aarch64-apple-darwin / Windows legs test and run (SK_LQ, SK_MQ,
#   SK_WQ: built for the other targets too, linked on pull requests), "no default features" (clippy at :215, tested at
#   :219), and every -binaries value except "gl,svg,textlayout,webp" (each is tested on its workflow's runTests leg).
#   `cargo clean` and `cargo fmt` check no feature set.
# - filter-misses-surface / filter-misses-manifest: no workflow has paths, paths-ignore or a paths-filter action
#   (only branches / branches-ignore).
# - no-timeout: every runner is GitHub-hosted (ubuntu-22.04, ubuntu-24.04, macos-15, windows-2022, windows-11-arm);
#   the linux containers run on hosted runners.
# - shared-target-dir: no CARGO_TARGET_DIR or --target-dir anywhere (the Makefile copies from target/ only).
# - debug-link-on-large-target: audit.md names the rule but gives no criterion; not judged (no finding listed).
# - invalid-workflow: all twelve workflows parse; no key is given twice in a mapping.
# - unresolved: every value in a cargo command comes from the matrix, the workflow or the Makefile's variable. The
#   `source /emsdk/emsdk_env.sh` (wasm legs, linux-wasm) reads a file of the container image, not of the repository,
#   and sets the Emscripten environment (no cargo); whether the audit notes that it cannot read it is its own
#   limitation, not a finding about this repository (as rav1e's cross entrypoint).


# ---- Brooooooklyn/canvas (@napi-rs/canvas: a Node addon; the root package `canvas` is a cdylib (crate-type
# ["cdylib"], no binary, no [features]) whose build.rs compiles skia-c/skia_c.cpp with cc (clang / clang-cl) and links
# the prebuilt static Skia libraries (SKIA_LIB_DIR, default skia/out/Static) and the C++ runtime; built by `yarn build`,
# the package.json script `napi build --platform --release --js js-binding.js`; Windows legs run their steps under pwsh;
# two build legs run `yarn build` inside tj-actions/docker-run's `args:`; two jobs run in containers on hosted runners)
# Written by hand on 2026-12-01 before linkgate was run on it, from CI.yaml, skia.yaml, docker.yml, libcxxabi.yml, the
# local composite action .github/actions/setup-rust/action.yaml (rustup toolchain + actions/cache, no cargo),
# package.json (scripts build, bench, test:ci, artifacts, prepublishOnly), e2e/webpack/package.json, scripts/*.{js,mjs}
# (node scripts that download, build or upload Skia and libc++abi with gn/ninja/cmake: no cargo), the three Dockerfiles
# (docker.yml builds them: they install rustup, no cargo command), .cargo/config.toml (rustflags only, no [alias]),
# Cargo.toml and rust-toolchain.toml. No justfile, Makefile or Makefile.toml; no Cargo.lock is tracked.
# Shapes: napi build through a package.json script reached by `yarn build` from a matrix value (`run: ${{
# matrix.settings.build }}`, bash on Linux/macOS, pwsh on Windows), from tj-actions/docker-run's `args: sh -c "${{
# matrix.settings.build }}"`, and from a plain `yarn build`; `-x` (napi's --cross-compile) on the musl legs; a matrix
# of one list-of-mappings axis (`settings`) with step `if:`s on `matrix.settings.docker`; workflows without cargo
# (skia.yaml, docker.yml, libcxxabi.yml) and jobs that only run the built addon (yarn test:ci = ava).
# Conventions followed (as tokenizers' above, each a rule a reviewer can check):
# - napi build (package.json:62, reached by `yarn build [--target T] [-x]`) is one "build" invocation, links=True
#   (canvas is a cdylib), at the package.json line, features "default". With -x (--cross-compile) napi runs the same
#   build through cargo-zigbuild: still "build". The two `docker:` legs skip the `run:` step (`if: !matrix.settings.docker`)
#   and run the same `yarn build` inside tj-actions/docker-run (CI.yaml:207): listed the same way, at package.json:62.
# - `yarn build` with no --target (bench, CI.yaml:680) is the same script: listed once, at package.json:62.
# - The matrix value is the full `settings` mapping as GitHub expands it (block scalars `|` keep their final newline,
#   `>-` folds to one line without it).
# - Not listed: `rustc --print target-cpus`, `rustup install`, `rustup target add` (no cargo); `yarn test:ci` (ava),
#   `yarn bench` (node), `yarn lint` (oxlint), `yarn artifacts` (napi artifacts: moves files), `npm publish` (its
#   prepublishOnly runs pinst and `napi prepublish`: no build); the node scripts of skia.yaml/libcxxabi.yml; the
#   taiki-e/install-action of cargo-zigbuild (installs only; its use is napi's -x, listed as "build").
# (commit: COMMITS above)

CV, CV_PJ = ".github/workflows/CI.yaml", "package.json"
CV_SETTINGS = [
    {"host": "macos-latest", "target": "x86_64-apple-darwin",
     "build": "rustc --print target-cpus\nclang --version\nyarn build --target x86_64-apple-darwin\n",
     "downloadTarget": ""},
    {"host": "windows-latest", "setup": "choco upgrade llvm\n", "build": "yarn build --target x86_64-pc-windows-msvc",
     "target": "x86_64-pc-windows-msvc", "downloadTarget": ""},
    {"host": "windows-latest", "setup": "choco upgrade llvm\n", "build": "yarn build --target aarch64-pc-windows-msvc",
     "target": "aarch64-pc-windows-msvc", "downloadTarget": "aarch64-pc-windows-msvc"},
    {"host": "ubuntu-latest", "target": "x86_64-unknown-linux-gnu", "downloadTarget": "",
     "docker": "ghcr.io/brooooooklyn/canvas/ubuntu-builder:jammy",
     "build": "rustup install && rustup target add x86_64-unknown-linux-gnu && "
              "yarn build --target x86_64-unknown-linux-gnu"},
    {"host": "ubuntu-latest", "downloadTarget": "x86_64-unknown-linux-musl", "target": "x86_64-unknown-linux-musl",
     "build": "yarn build --target x86_64-unknown-linux-musl -x"},
    {"host": "macos-latest", "downloadTarget": "aarch64-apple-darwin", "target": "aarch64-apple-darwin",
     "build": "export MACOSX_DEPLOYMENT_TARGET='11.0'\nclang --version\nyarn build --target aarch64-apple-darwin\n"},
    {"host": "ubuntu-latest", "downloadTarget": "aarch64-unknown-linux-gnu", "target": "aarch64-unknown-linux-gnu",
     "docker": "ghcr.io/brooooooklyn/canvas/ubuntu-builder:jammy-aarch64",
     "build": "set -e && rustup install && rustup target add aarch64-unknown-linux-gnu && "
              "yarn build --target aarch64-unknown-linux-gnu"},
    {"host": "ubuntu-24.04-arm", "target": "aarch64-unknown-linux-musl", "downloadTarget": "aarch64-unknown-linux-musl",
     "build": "yarn build --target aarch64-unknown-linux-musl -x"},
    {"host": "ubuntu-latest", "target": "aarch64-linux-android", "downloadTarget": "aarch64-linux-android",
     "build": "export CLANG_VERSION=`ls ${ANDROID_NDK_LATEST_HOME}/toolchains/llvm/prebuilt/linux-x86_64/lib/clang"
              " | sed 's/ *$//g'`\n"
              "touch \"${ANDROID_NDK_LATEST_HOME}/toolchains/llvm/prebuilt/linux-x86_64/lib/clang/${CLANG_VERSION}"
              "/lib/linux/aarch64/libgcc.a\"\n"
              "chmod 777 \"${ANDROID_NDK_LATEST_HOME}/toolchains/llvm/prebuilt/linux-x86_64/lib/clang/${CLANG_VERSION}"
              "/lib/linux/aarch64/libgcc.a\"\n"
              "echo \"INPUT(-lunwind)\" > \"${ANDROID_NDK_LATEST_HOME}/toolchains/llvm/prebuilt/linux-x86_64/lib/clang/"
              "${CLANG_VERSION}/lib/linux/aarch64/libgcc.a\"\n"
              "export LDFLAGS=\"-fuse-ld=lld\"\n"
              "export CC=aarch64-linux-android24-clang\n"
              "export CXX=aarch64-linux-android24-clang++\n"
              "export CMAKE_TOOLCHAIN_FILE_aarch64_linux_android=\"$(pwd)/cmake/android-determine.cmake\"\n"
              "yarn build --target aarch64-linux-android\n"},
    {"host": "ubuntu-latest", "target": "riscv64gc-unknown-linux-gnu", "downloadTarget": "riscv64gc-unknown-linux-gnu",
     "build": "sudo apt-get update\nsudo apt-get install gcc-riscv64-linux-gnu g++-riscv64-linux-gnu -y\n"
              "export CC=riscv64-linux-gnu-gcc\nexport CXX=riscv64-linux-gnu-g++\n"
              "yarn build --target riscv64gc-unknown-linux-gnu\n"},
]

# CI.yaml (push to main, pull_request). lint: container ubuntu-builder:jammy on ubuntu-latest.
cv = [inv("lint", CV, 56, "fmt", False, ["default"]),  # cargo fmt -- --check
      inv("lint", CV, 59, "clippy", False, ["default"])]
# build: `${{ matrix.settings.build }}` (CI.yaml:204, non-docker legs; pwsh on windows-latest) or tj-actions/docker-run
# (CI.yaml:207, docker legs) runs `yarn build --target T [-x]` -> package.json:62 (napi build of the cdylib)
for s in CV_SETTINGS:
    cv.append(inv("build", CV_PJ, 62, "build", True, ["default"], {"settings": s}))
# build-armv7-linux-gnueabihf (container debian:11 on ubuntu-latest): `yarn build --target armv7-unknown-linux-gnueabihf`
cv.append(inv("build-armv7-linux-gnueabihf", CV_PJ, 62, "build", True, ["default"]))
# rust-test (macos-latest): `cargo test -- --nocapture` (the cdylib's unit-test harness links)
cv.append(inv("rust-test", CV, 647, "test", True, ["default"]))
# bench (container ubuntu-builder:jammy on ubuntu-latest): `yarn build` (CI.yaml:680) -> package.json:62; `yarn bench`
# then runs node only.
cv.append(inv("bench", CV_PJ, 62, "build", True, ["default"]))
# The seven test-*-binding jobs download the built .node and run `yarn test:ci` (ava): no cargo. publish: no cargo.
# skia.yaml (push to release), docker.yml (schedule, workflow_dispatch), libcxxabi.yml (push to release-libcxxabi):
# no cargo anywhere.

CANVAS_INVOCATIONS = cv

# Findings: none judged true.
# - never-linked: canvas has no [features]; its only set, "default", is checked by clippy (CI.yaml:59) and linked on
#   pull requests by rust-test (CI.yaml:647) and every napi build (package.json:62).
# - link-only-on-schedule: every link is in CI.yaml, which runs on pull requests and pushes to main.
# - filter-misses-surface / filter-misses-manifest: no workflow has paths, paths-ignore or a paths-filter action.
# - no-timeout: every runner is GitHub-hosted (ubuntu-latest, ubuntu-24.04-arm, macos-latest, windows-latest,
#   windows-11-arm); the `container:` jobs and the docker-run legs run on hosted runners.
# - shared-target-dir: no CARGO_TARGET_DIR or --target-dir anywhere.
# - debug-link-on-large-target: audit.md names the rule but gives no criterion; not judged (no finding listed).
# - invalid-workflow: the four workflows parse; no key is given twice in a mapping (checked with a strict loader).
# - unresolved: the matrix values are literal and the only script a cargo path goes through is package.json's; the node
#   scripts (scripts/*.js, *.mjs) are not shell scripts and run no cargo.
CV_FINDINGS = []


FINDINGS: dict[str, list[dict[str, Any]]] = {
    # metal is only checked (rust-ci.yml:29). The cuda job runs on the runner group aws-g5-4xlarge-cache
    # (self-hosted GPU machines) with no timeout-minutes.
    "huggingface/candle": [{"rule": "never-linked", "subject": "metal"},
                           {"rule": "no-timeout", "subject": "ci_cuda/test-cuda"}] + [
        # added 2026-12-01, after candle moved to training: the truth omitted them (no rule for workflow-level
        # paths filters existed when it was written); checked by hand: maturin.yml and python.yml trigger on
        # `candle-pyo3/**` only, while their maturin builds read the root Cargo.toml, .cargo/config.toml and
        # the manifests of the candle crates candle-pyo3 depends on by path.
        {"rule": "filter-misses-manifest", "subject": "on.pull_request.paths: manifests", "file": f, "line": n}
        for f, n in [(".github/workflows/maturin.yml", 12), (".github/workflows/python.yml", 11)]],
    "pykeio/ort": [{"rule": "never-linked", "subject": s} for s in [
        "fetch-models", "no default features", "api-28 (no default)", "load-dynamic", DOCSRS,
        *[f"api-{n},ndarray,std,tracing (no default)" for n in range(17, 29)]]] + [
        # added 2026-12-01 after the first run: the truth omitted it (a rule for workflow-level paths filters
        # did not exist when it was written); checked by hand against backends.yml, backends/candle/Cargo.toml,
        # backends/tract/Cargo.toml, Cargo.toml, ort-sys/Cargo.toml, ort-sys/build/main.rs: the candle and tract
        # jobs link (cargo test) ort-sys built by ort-sys/build/main.rs; on.pull_request.paths lets through only
        # src/**/*.rs, backends/**/*.rs, ort-sys/src/lib.rs, Cargo.toml and the workflow, so a change of the build
        # script alone skips the workflow. (Their ort-sys has disable-linking, through ort's alternative-backend:
        # main.rs returns at line 32 before any link directive, so main.rs, which holds that guard, is what can
        # change the link; the other build modules listed are reached only past it.)
        {"rule": "filter-misses-surface", "subject": "on.pull_request.paths: ort-sys", "file": BK, "line": 12},
        # added 2026-12-01 after the first run: the truth omitted it (ort-web's own `default` set, a set of another
        # package than ort's `default`, was overlooked when it was written; not a paths-filter rule); checked
        # by hand against backends.yml, backends/web/Cargo.toml (no [features], an rlib), examples/web-hands and
        # every workflow: ort-web is only `cargo check`ed (backends.yml:85), no job builds web-hands or links ort-web.
        {"rule": "never-linked", "subject": "default", "file": BK, "line": 85},
    ] + [
        # added 2026-12-01 after the first run: the truth omitted it (a rule for workflow-level paths filters
        # did not exist when it was written); checked by hand against the workflow named, .cargo/config.toml,
        # Cargo.toml, ort-sys/Cargo.toml, backends/*/Cargo.toml, examples/custom-ops/Cargo.toml and `git ls-files`
        # (no Cargo.lock or rust-toolchain file is tracked). Each on.pull_request.paths gates a linking job and
        # misses a manifest or cargo configuration file its build reads:
        # - backends.yml:12 (candle, tract: cargo test): backends/candle/Cargo.toml and backends/tract/Cargo.toml
        #   (the packages tested), their standalone/ members, ort-sys/Cargo.toml, .cargo/config.toml;
        # - code-quality.yml:15 (coverage: cargo tarpaulin -p ort): .cargo/config.toml (read from the root;
        #   Cargo.toml and ort-sys/Cargo.toml are listed in the filter);
        # - custom-static-link.yml:14 (cargo example-custom-ops): .cargo/config.toml, which defines that alias,
        #   Cargo.toml, examples/custom-ops/Cargo.toml, ort-sys/Cargo.toml;
        # - test.yml:13 (cargo test -p ort): ort-sys/Cargo.toml (links = "onnxruntime", the disable-linking and
        #   download-binaries features), .cargo/config.toml.
        {"rule": "filter-misses-manifest", "subject": "on.pull_request.paths: manifests", "file": f, "line": n}
        for f, n in [(BK, 12), (CQ, 15), (SL, 14), (TE, 13)]],
    # Judged false after the first run, not listed:
    # - filter-misses-surface custom-static-link.yml:14 'on.pull_request.paths: ort-sys' (ort-sys/src/internal/
    #   dirs.rs and one more; src/internal/ is compiled into the build script through main.rs's #[path] module
    #   under download-binaries): the only link job it gates, static-link-linux, runs with ORT_LIB_PATH set
    #   (custom-static-link.yml:42), so ort-sys/build/main.rs takes the ORT_LIB_PATH branch and returns at line 67;
    #   internal::dirs::cache_dir and internal::random_identifier are called only in the download branch after it
    #   (main.rs:120, 137). A change to those files cannot change what that job links; every file that can
    #   (ort-sys/build/**/*.rs) is in the filter.
    "milesgranger/cramjam": [],
    "duckdb/duckdb-rs": [{"rule": "never-linked", "subject": s} for s in [
        "buildtime_bindgen,extensions-full,loadable-extension,modern-full,vscalar,vscalar-arrow,vtab-full",
        "modern-full,vscalar,vscalar-arrow,vtab-full", "buildtime_bindgen (no default)",
        "buildtime_bindgen,loadable-extension (no default)",
        "default"]]  # `cargo msrv verify` checks the default set; no job links it
        # linked only by nightly.yaml, which runs on workflow_dispatch alone
        + [{"rule": "link-only-on-schedule", "subject": s} for s in ["bundled", "bundled-cmake", "buildtime_bindgen"]],
    "LaurentMazare/tch-rs": [{"rule": "never-linked", "subject": "all features"}],
    "diesel-rs/diesel": [{"rule": "never-linked", "subject": s} for s in [
        "128-column-tables,32-column-tables,64-column-tables,mariadb,mysql,postgres,r2d2,sqlite,with-deprecated,without-deprecated",
        "extras,mariadb,mysql,postgres,sqlite", "all features", "default,sqlite-bundled",
        "extras,i-implement-a-third-party-backend-and-opt-into-breaking-changes,mysql,postgres,sqlite"]]
        # metrics.yml (on: schedule, push to master) is the only job linking its three benchmark sets
        + [{"rule": "link-only-on-schedule", "subject": ",".join(sorted(fs.split()))} for _, fs in METRICS.values()],
    "zmwangx/rust-ffmpeg": [],
    "purpleprotocol/mimalloc_rust": [],
    "10XGenomics/lz4-rs": [],
    "Rust-SDL2/rust-sdl2": [],
    # connectorx's `all` is only linted and documented (ci.yml:53, :140, :65, docs.yml:37); the linking commands
    # build connectorx with other sets (test-ci's two, and connectorx-python's default, which lacks src_csv,
    # src_dummy, dst_polars). connectorx-cpp (a cdylib; its default set) is compiled only by ci.yml:140's
    # `clippy --all` and built by no job. integrated-auth-gssapi (tiberius -> libgssapi) is linked only by
    # release.yml, on pushes to the prerelease and release branches: no pull request links it.
    # benchmark.yml links (maturin develop) on a self-hosted runner with no timeout-minutes.
    "sfu-db/connector-x": [{"rule": "never-linked", "subject": "all"},
                           {"rule": "never-linked", "subject": "default", "file": CX, "line": 140},
                           {"rule": "link-only-on-schedule", "subject": "integrated-auth-gssapi"},
                           {"rule": "no-timeout", "subject": "benchmark/benchmark"}],
    # redb is only checked without its default features: for wasm32 (ci.yml:133, plain --no-default-features;
    # the `std` feature is read only by build.rs, so this set compiles the same code as the default one, but no
    # job links it) and for thumbv7em no_std (ci.yml:141, :144). Every other set is linked by
    # test_all_no_sandbox, maturin develop or the wasm tests. All runners are GitHub-hosted; no paths filters.
    "huggingface/tokenizers": TKFINDINGS,
    "mlua-rs/mlua": ML_FINDINGS,
    "KyleMayes/clang-sys": CS_FINDINGS,
    "tensorflow/rust": TFR_FINDINGS,
    "xiph/rav1e": RAV_FINDINGS,
    "rust-skia/rust-skia": SK_FINDINGS,
    "Brooooooklyn/canvas": CV_FINDINGS,
    "cberner/redb": [{"rule": "never-linked", "subject": s} for s in [
        "no default features", "experimental-api-5 (no default)",
        "experimental-api-5,experimental_cursor,logging (no default)"]],
}

INVOCATIONS: dict[str, list[dict[str, Any]]] = {
    "huggingface/candle": ca,
    "pykeio/ort": ort,
    "milesgranger/cramjam": cj,
    "duckdb/duckdb-rs": dd,
    "LaurentMazare/tch-rs": tc,
    "diesel-rs/diesel": di,
    "zmwangx/rust-ffmpeg": ff,
    "purpleprotocol/mimalloc_rust": mi,
    "10XGenomics/lz4-rs": lz,
    "Rust-SDL2/rust-sdl2": sd,
    "sfu-db/connector-x": cx,
    "cberner/redb": rb,
    "huggingface/tokenizers": tk,
    "mlua-rs/mlua": ml,
    "KyleMayes/clang-sys": cs,
    "tensorflow/rust": tfr,
    "xiph/rav1e": rv,
    "rust-skia/rust-skia": sk,
    "Brooooooklyn/canvas": cv,
}
