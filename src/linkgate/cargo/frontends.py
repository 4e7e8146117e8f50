"""Every front-end and action that runs cargo, in one table, each with the fact
that puts it there.

Programs are recognised in commands the shell evaluator finds; subcommands
are read by ``cargoargs``; actions are turned into the command lines they run
from their ``with:`` inputs (as their ``action.yml`` defines them). An action
not in the table is not looked into.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Inputs = Mapping[str, Any]


@dataclass(frozen=True)
class FrontEnd:
    name: str
    kind: str  # program | subcommand | action | gates (a program whose cargo commands are configured)
    why: str
    commands: Callable[[Inputs], list[list[str]]] | None = None


def _words(value: Any) -> list[str]:
    if not isinstance(value, str) or not value.strip():
        return []
    try:
        return shlex.split(value, comments=True)
    except ValueError:
        return value.split()


def _toolchain(inputs: Inputs) -> list[str]:
    tc = inputs.get("toolchain")
    return [f"+{tc}"] if isinstance(tc, str) and tc.strip() else []


def _cargo_action(inputs: Inputs) -> list[list[str]]:
    program = "cross" if str(inputs.get("use-cross", "")).lower() == "true" else "cargo"
    command = inputs.get("command")
    if not isinstance(command, str) or not command.strip():
        return []
    return [[program, *_toolchain(inputs), *_words(command), *_words(inputs.get("args"))]]


def _rust_cross(inputs: Inputs) -> list[list[str]]:
    command = str(inputs.get("command") or "build")
    target = inputs.get("target")
    extra = [*(["--target", target] if isinstance(target, str) else []), *_words(inputs.get("args"))]
    subs = ["build", "test"] if command == "both" else [command]
    return [["cargo", *_toolchain(inputs), sub, *extra] for sub in subs]


def _fixed(*argv: str) -> Callable[[Inputs], list[list[str]]]:
    return lambda inputs: [list(argv)] if argv else []


def _rust_lang_rustfmt(inputs: Inputs) -> list[list[str]]:
    manifest = inputs.get("manifest-path")
    return [["cargo", "fmt", "--all", *([f"--manifest-path={manifest}"] if isinstance(manifest, str) else []),
             "--", "--check"]]


FRONT_ENDS: tuple[FrontEnd, ...] = (
    FrontEnd("cargo", "program",
             "cargo itself: build, test, run, bench and install link; check, clippy and doc stop before the linker"),
    FrontEnd("cross", "program",
             "cross-rs/cross: a drop-in for cargo with the same arguments; it runs cargo in a container holding "
             "the target's toolchain, so `cross build`/`cross test` compile and link like cargo"),
    FrontEnd("xargo", "program",
             "japaric/xargo: a drop-in for cargo with the same arguments that first builds a sysroot for the "
             "target (no_std and custom targets), so `xargo build`/`xargo run` compile and link like cargo"),
    FrontEnd("wasm-pack", "program",
             "rustwasm/wasm-pack src/build/mod.rs: `build` runs `cargo build --lib [--release] --target "
             "wasm32-unknown-unknown EXTRA` (release by default) and links the cdylib; `test` runs `cargo build "
             "--tests --target wasm32-unknown-unknown EXTRA` (dev by default), then the tests"),
    FrontEnd("maturin", "program",
             "PyO3/maturin: `build`, `develop` and `publish` run `cargo rustc --lib` (or the bin for bin "
             "bindings) of the crate named by -m/--manifest-path (else pyproject's [tool.maturin] manifest-path, "
             "else ./Cargo.toml) and link the extension cdylib; features from -F/--features, else pyproject's "
             "[tool.maturin] features (read in workflows/frontcmd.py); `build` and `develop` are dev unless "
             "-r/--release, `publish` is release; `sdist` and `list-python` build nothing"),
    FrontEnd("napi", "program",
             "napi-rs/napi-rs cli: `napi build` runs `cargo build` of the Node addon (a cdylib, linked) with "
             "[--release] [--target T] [--features/-F X] [--no-default-features] [--all-features] "
             "[--manifest-path P] [-p PKG]; with --cross-compile or --zig the same build goes through "
             "cargo-zigbuild or cargo-xwin; arguments after `--` go to cargo; other subcommands build nothing"),
    FrontEnd("trunk", "program",
             "trunk-rs/trunk: `build` and `serve` run `cargo build --target wasm32-unknown-unknown` of the crate "
             "the page's `<link data-trunk rel=\"rust\">` names (a wasm binary, linked by rust-lld), with its "
             "data-bin and data-cargo-* attributes; --release, --features, --no-default-features and "
             "--all-features on the command line win (the page is read in workflows/frontcmd.py)"),
    FrontEnd("cargo-zigbuild", "program",
             "rust-cross/cargo-zigbuild: `cargo-zigbuild build ARGS` is `cargo zigbuild build ARGS`, a `cargo build` "
             "with zig as the linker"),
    FrontEnd("cargo ndk", "subcommand",
             "bbqsrc/cargo-ndk: `cargo ndk [-t ABI] [-o DIR] [--platform N] <cargo subcommand> ...` runs that "
             "subcommand with the NDK's linker for each ABI"),
    FrontEnd("just", "tasks",
             "casey/just: `just RECIPE ARGS` runs the recipe's lines from the nearest justfile upward, each "
             "line in its own shell (a shebang recipe as one script), parameters and `:=` variables "
             "interpolated with {{...}}, dependencies first (workflows/tasks.py)"),
    FrontEnd("cargo make", "tasks",
             "sagiegurari/cargo-make: `cargo make TASK` (also `makers TASK`) runs Makefile.toml's "
             "[tasks.TASK] `dependencies` first, then its `command` with `args`, or its `script` "
             "(workflows/tasks.py)"),
    FrontEnd("npm", "tasks",
             "`npm run X`, `npm test|start`, `yarn [run] X`, `pnpm [run] X`: package.json's scripts.X "
             "(with preX/postX for npm) run as shell in the package's directory, extra arguments appended "
             "(workflows/tasks.py)"),
    FrontEnd("cargo xtask", "unreadable",
             "matklad's xtask pattern: `cargo xtask` is an alias for `cargo run --package xtask --`, a Rust "
             "program that may run cargo itself; what it runs cannot be read, so each (file, program) gets one "
             "unresolved note"),
    FrontEnd("cargo hack", "subcommand",
             "taiki-e/cargo-hack: runs `cargo <sub>` once per feature set (--each-feature, --feature-powerset); "
             "the wrapped subcommand decides whether anything links"),
    FrontEnd("cargo nextest", "subcommand",
             "nextest-rs/nextest: `run` builds the test binaries as `cargo test --no-run` does and runs them; "
             "`archive` and `list` build them too"),
    FrontEnd("cargo llvm-cov", "subcommand",
             "taiki-e/cargo-llvm-cov: builds and runs the tests with -C instrument-coverage (links); `report` "
             "only reads existing profiles"),
    FrontEnd("cargo miri", "subcommand",
             "rust-lang/miri: interprets MIR, so the crate under test is checked but never linked natively"),
    FrontEnd("cargo tarpaulin", "subcommand", "xd009642/tarpaulin: builds the test binaries and runs them"),
    FrontEnd("cargo zigbuild", "subcommand", "rust-cross/cargo-zigbuild: `cargo build` with zig as the linker"),
    FrontEnd("cargo auditable", "subcommand", "rust-secure-code/cargo-auditable: wraps `cargo build`"),
    FrontEnd("cargo fuzz", "subcommand",
             "rust-fuzz/cargo-fuzz: `build` compiles and links the fuzz targets (with libFuzzer), `run` builds "
             "one and runs it; `list`, `fmt`, `add`, `init` build nothing"),
    FrontEnd("cargo cbuild", "subcommand",
             "lu-zero/cargo-c: `cbuild` and `cinstall` build the library as a staticlib and a cdylib (linked), "
             "`ctest` builds and runs the tests; each adds the package's `capi` feature when it has one "
             "(src/build.rs) to the features given"),
    FrontEnd("actions-rs/cargo", "action",
             "action.yml inputs command, args, toolchain, use-cross: runs `cargo|cross [+toolchain] command args`",
             _cargo_action),
    FrontEnd("clechasseur/rs-cargo", "action", "maintained fork of actions-rs/cargo, same inputs", _cargo_action),
    FrontEnd("actions-rs/clippy-check", "action", "runs `cargo [+toolchain] clippy args`",
             lambda i: [["cargo", *_toolchain(i), "clippy", *_words(i.get("args"))]]),
    FrontEnd("clechasseur/rs-clippy-check", "action",
             "maintained successor of actions-rs/clippy-check: runs `cargo [+toolchain] clippy args`",
             lambda i: [["cargo", *_toolchain(i), "clippy", *_words(i.get("args"))]]),
    FrontEnd("giraffate/clippy-action", "action", "runs `cargo clippy clippy_flags`",
             lambda i: [["cargo", "clippy", *_words(i.get("clippy_flags"))]]),
    FrontEnd("actions-rs/tarpaulin", "action", "runs `cargo tarpaulin args` (builds and runs the tests)",
             lambda i: [["cargo", "tarpaulin", *_words(i.get("args"))]]),
    FrontEnd("houseabsolute/actions-rust-cross", "action",
             "inputs command (build, test or both), target, args, toolchain: runs cross or cargo", _rust_cross),
    FrontEnd("actions-rust-lang/rustfmt", "action",
             "composite step: `cargo fmt --all --manifest-path=<manifest-path> -- --check`", _rust_lang_rustfmt),
    FrontEnd("actions-rust-lang/audit", "action",
             "installs its own cargo-audit, then runs `cargo audit` (reads Cargo.lock, builds nothing of yours)",
             _fixed("cargo", "audit")),
    FrontEnd("actions-rust-lang/setup-rust-toolchain", "action",
             "installs a toolchain and exports RUSTFLAGS; runs no cargo command", _fixed()),
    FrontEnd("actions-rust-lang/", "action", "the rest of the org's actions set up tools; none builds the project",
             _fixed()),
    FrontEnd("sfackler/actions/rustfmt", "action", "composite step: `cargo fmt --all -- --check`",
             _fixed("cargo", "fmt", "--all", "--", "--check")),
    FrontEnd("linkgate run", "gates",
             "linkgate's own `run [GATE ...] [--only GATE:LINKER]` runs each selected gate's `cargo = [...]` in the "
             "gate's working-directory with its env (every gate when none is named), so the audit reads the gates "
             "from the repository's configuration (workflows/gates.py); `should-run`, `matrix`, `ci` and `env-from` "
             "run no cargo; `prove` builds the gates with files mutated, not read as a link"),
    FrontEnd("*/linkgate", "action",
             "linkgate's composite action (action.yml): input `gates` (default every gate), runs `linkgate run` "
             "on those whose causal surface changed (`should-run`)",
             lambda i: [["linkgate", "run", *_words(i.get("gates"))]]),
    FrontEnd("pyo3/maturin-action", "action",
             "action.yml inputs command (default build), args, target, working-directory: runs `maturin COMMAND "
             "--target TARGET ARGS` in working-directory (in a manylinux container on Linux, same cargo)",
             lambda i: _maturin_action(i)),
    FrontEnd("taiki-e/upload-rust-binary-action", "action",
             "main.sh: `cargo build --release --bin B ... [--features F] [--no-default-features] "
             "[--manifest-path P] --target T` (profile input, default release; build-tool input cross or "
             "cargo-zigbuild; without one it picks cross for some cross targets, the same build), then "
             "archives and uploads the binaries", lambda i: _upload_rust_binary(i)),
    FrontEnd("taiki-e/install-action", "action",
             "downloads prebuilt tools (cargo-hack, nextest, cross, wasm-pack, ...) and builds nothing; the "
             "tool's later use in a run: step is the cargo run, read there", _fixed()),
)

def _input(inputs: Inputs, name: str) -> Any:
    """An input by its documented name or with underscores (actions accept both spellings)."""
    return inputs.get(name, inputs.get(name.replace("-", "_")))


def _upload_rust_binary(inputs: Inputs) -> list[list[str]]:
    bins = [b.strip() for b in str(inputs.get("bin") or "").split(",") if b.strip()]
    if not bins:
        return []
    tool = str(_input(inputs, "build-tool") or "cargo").strip()
    head = {"cross": ["cross", "build"], "cargo-zigbuild": ["cargo", "zigbuild"]}.get(tool, ["cargo", "build"])
    profile = str(inputs.get("profile") or "release").strip()
    argv = [*head, *(["--release"] if profile == "release" else ["--profile", profile])]
    for b in bins:
        argv += ["--bin", b]
    features = inputs.get("features")
    if isinstance(features, str) and features.strip():
        argv += ["--features", features.strip()]
    if str(_input(inputs, "no-default-features") or "").strip().lower() == "true":
        argv.append("--no-default-features")
    manifest = _input(inputs, "manifest-path")
    if isinstance(manifest, str) and manifest.strip():
        argv += ["--manifest-path", manifest.strip()]
    target = str(inputs.get("target") or "").strip()
    if target == "universal-apple-darwin":
        argv += ["--target", "aarch64-apple-darwin", "--target", "x86_64-apple-darwin"]
    elif target:
        argv += ["--target", target]
    return [argv]


def _maturin_action(inputs: Inputs) -> list[list[str]]:
    command = str(inputs.get("command") or "build").strip()
    target = inputs.get("target")
    extra = ["--target", target] if isinstance(target, str) and target.strip() else []
    return [["maturin", *_words(command), *extra, *_words(inputs.get("args"))]]


# Inputs of an action that set the directory its command runs in.
ACTION_DIRECTORY = {"pyo3/maturin-action": "working-directory",
                    "houseabsolute/actions-rust-cross": "working-directory"}
# Actions whose command is a bash `run:` with the inputs written into its text (on Linux and
# macOS runners; PowerShell on Windows): `args: $CARGO_ARGS` is the job's environment variable,
# split into words (houseabsolute/actions-rust-cross action.yml, its "Build binary (*nix)" step).
SHELL_ACTIONS = frozenset({"houseabsolute/actions-rust-cross"})

_PROGRAMS = {f.name for f in FRONT_ENDS if f.kind == "program"}
_ACTIONS = {f.name: f for f in FRONT_ENDS if f.kind == "action"}
# Words that follow `cargo` (or `+toolchain`) in a command that compiles; a
# command whose program is unknown but reads like this may be cargo.
CARGO_SUBCOMMANDS = {
    "build", "b", "check", "c", "test", "t", "run", "r", "bench", "doc", "d", "clippy", "rustc", "rustdoc",
    "install", "fix", "hack", "nextest", "llvm-cov", "miri", "tarpaulin", "zigbuild", "auditable",
    "cbuild", "cinstall", "ctest", "fuzz",
}
WASM_TARGET = "wasm32-unknown-unknown"
_WASM_VALUE = {"--target", "-t", "--out-dir", "-d", "--out-name", "--scope", "-s", "--mode", "-m", "--profile",
               "--chromedriver", "--geckodriver", "--safaridriver", "--log-level", "--pkg-dir"}
_CARGO_VALUE = {"--features", "-F", "-p", "--package", "--manifest-path", "--target-dir", "--bin", "--example",
                "--test", "--bench", "--config", "-Z", "--exclude", "-j", "--jobs"}


_PYTHON = re.compile(r"^(python|py)(\d+(\.\d+)?)?$")
# maturin subcommands that build the crate; `sdist`, `new`, `list-python` ... build nothing.
_MATURIN_BUILDS = {"build", "develop", "publish"}
_MATURIN_VALUE = {"-m", "--manifest-path", "-F", "--features", "--target", "-o", "--out", "--profile",
                  "--compatibility", "--manylinux", "-b", "--bindings", "-j", "--jobs", "--pip-path",
                  "-E", "--extras", "--repository-url", "-u", "--username", "-p", "--password", "--auditwheel",
                  "--color", "--config", "-Z", "--target-dir", "--rustc-args", "--cargo-args", "--lockfile-path"}


def program(argv: tuple[str, ...] | list[str]) -> str:
    # A Windows path (C:\tools\cargo.exe) names its program after its last backslash.
    name = re.split(r"[/\\]", argv[0])[-1] if argv else ""
    name = name[:-4] if name.endswith(".exe") else name
    if _PYTHON.match(name) and len(argv) > 2 and argv[1] == "-m" and argv[2] == "maturin":
        return "maturin"  # `python -m maturin develop`
    return name


def _maturin_words(argv: tuple[str, ...] | list[str]) -> list[str]:
    """maturin's own arguments, after `maturin` or `python -m maturin`."""
    head = argv[0].rsplit("/", 1)[-1]
    return list(argv[3:] if _PYTHON.match(head[:-4] if head.endswith(".exe") else head) else argv[1:])


def runs_cargo(argv: tuple[str, ...] | list[str]) -> bool:
    name = program(argv)
    if name == "napi":
        return len(argv) > 1 and argv[1] == "build"
    if name == "wasm-pack":
        return len(argv) > 1 and argv[1] in ("build", "test")
    if name == "maturin":
        words = _maturin_words(argv)
        return bool(words) and words[0] in _MATURIN_BUILDS
    if name == "trunk":
        return len(argv) > 1 and argv[1] in ("build", "serve")
    return name in _PROGRAMS


def may_be_cargo(argv: tuple[str, ...]) -> bool:
    """For a command whose program is unknown: do its arguments read like cargo's?"""
    rest = [a for a in argv[1:] if not a.startswith("+")]
    return bool(rest) and rest[0] in CARGO_SUBCOMMANDS


def cargo_argv(argv: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The cargo command line a front-end runs (the same line for cargo and cross)."""
    name = program(argv)
    if name == "maturin":
        return _maturin_cargo(_maturin_words(argv))
    if name == "cargo-zigbuild" and len(argv) > 1:
        return ("cargo", "zigbuild", *argv[2:]) if argv[1] == "build" else ("cargo", *argv[1:])
    if name == "cargo" and len(argv) > 2 and argv[1] == "ndk":
        return _ndk(argv)
    if name == "napi" and len(argv) > 1 and argv[1] == "build":
        return _napi_cargo(list(argv[2:]))
    if name == "trunk" and len(argv) > 1 and argv[1] in ("build", "serve"):
        # The page it builds was not read (workflows.frontcmd completes the line when it can):
        # the crate in the working directory, with the command line's own cargo options.
        keep = [w for w in argv[2:] if w in ("--release", "--all-features", "--no-default-features")
                or w.startswith("--features=")]
        return ("cargo", "build", "--target", WASM_TARGET, *keep)
    if name != "wasm-pack" or len(argv) < 2:
        return tuple(argv)
    sub = argv[1]
    release = sub == "build"
    path: str | None = None
    extra: list[str] = []
    rest = list(argv[2:])
    i = 0
    while i < len(rest):
        word = rest[i]
        i += 1
        if word == "--":
            extra += rest[i:]
            break
        if word in ("--release", "-r", "--profiling"):
            release = True
        elif word in ("--dev", "--debug"):
            release = False
        elif word in _WASM_VALUE:
            i += 1
        elif word.split("=", 1)[0] in _CARGO_VALUE:
            extra.append(word)
            if "=" not in word and i < len(rest):
                extra.append(rest[i])
                i += 1
        elif not word.startswith("-") and path is None:
            path = word
        elif word.startswith("--") and word not in _WASM_FLAGS:
            extra.append(word)
    head = ["cargo", "build", "--lib"] if sub == "build" else ["cargo", "test"]
    manifest = ["--manifest-path", f"{path.rstrip('/')}/Cargo.toml"] if path else []
    return (*head, *(["--release"] if release else []), "--target", WASM_TARGET, *manifest, *extra)


_CARGO_FLAGS = {f: f for f in ("--all-features", "--no-default-features", "--locked", "--frozen", "--offline")}
_RELEASE = {"-r": "--release", "--release": "--release"}


def _translate(words: Sequence[str], *, flags: Mapping[str, str], valued: Mapping[str, str],
               skip: Collection[str], several: Collection[str] = (), rest_to_cargo: bool = False) -> list[str]:
    """A front-end's own arguments as the cargo arguments it passes on: *flags* and
    *valued* options (with their value, `--x v` or `--x=v`) renamed to cargo's, the
    front-end's own valued options in *skip* dropped with their value, options in
    *several* dropped with every value up to the next option; after `--`, the rest
    goes to cargo when *rest_to_cargo*, else nowhere."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            out += list(words[i:]) if rest_to_cargo else []
            break
        name, eq, value = word.partition("=")
        if name in flags:
            out.append(flags[name])
        elif name in several:
            while i < len(words) and not words[i].startswith("-"):
                i += 1
        elif name in valued or name in skip:
            if not eq and i < len(words):
                value = words[i]
                i += 1
            if name in valued:
                out += [valued[name], value]
    return out


_MATURIN_TO_CARGO = {"-m": "--manifest-path", "--manifest-path": "--manifest-path", "-F": "--features",
                     "--features": "--features", "--target": "--target", "--profile": "--profile",
                     "--target-dir": "--target-dir"}


def _maturin_cargo(words: list[str]) -> tuple[str, ...]:
    """`maturin build|develop|publish ARGS` as the cargo build it runs (a linked cdylib)."""
    if not words or words[0] not in _MATURIN_BUILDS:
        return ("maturin", *words)
    out = _translate(words[1:], flags={**_RELEASE, **_CARGO_FLAGS}, valued=_MATURIN_TO_CARGO,
                     skip=_MATURIN_VALUE, several=("-i", "--interpreter"))
    release = words[0] == "publish" or "--release" in out  # publish is always release
    return ("cargo", "build", "--lib", *(["--release"] if release else []), *(w for w in out if w != "--release"))


# `napi build`'s options that take a value and are its own, not cargo's.
_NAPI_VALUE = {"--cwd", "--cargo-cwd", "--config", "-c", "--config-path", "--js", "--dts", "--cargo-name",
               "--cargo-flags", "--pipe", "--js-package-name", "--output-dir", "-o", "--dts-header",
               "--dts-header-file", "--const-enum", "--esm", "--target-dir"}
_NAPI_TO_CARGO = {"-t": "--target", "--target": "--target", "-F": "--features", "--features": "--features",
                  "-p": "--package", "--package": "--package", "--manifest-path": "--manifest-path",
                  "--profile": "--profile", "--bin": "--bin"}


def _napi_cargo(words: list[str]) -> tuple[str, ...]:
    """`napi build ARGS` as the `cargo build` it runs (the addon, a linked cdylib); `--cargo-flags
    "..."` are the words napi passes on to cargo (split at white space, as the CLI splits them)."""
    passed: list[str] = []
    kept: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--cargo-flags" and i + 1 < len(words):
            passed += words[i + 1].split()
            i += 2
            continue
        if word.startswith("--cargo-flags="):
            passed += word.split("=", 1)[1].split()
        else:
            kept.append(word)
        i += 1
    cut = kept.index("--") if "--" in kept else len(kept)
    kept[cut:cut] = passed
    return ("cargo", "build", *_translate(kept, flags={**_RELEASE, **_CARGO_FLAGS}, valued=_NAPI_TO_CARGO,
                                          skip=_NAPI_VALUE, rest_to_cargo=True))


def _ndk(argv: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    rest = list(argv[2:])
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if flag in ("-t", "--target", "-o", "--output-dir", "--platform", "--manifest-path") and "=" not in flag \
                and rest:
            rest.pop(0)
    return ("cargo", *rest)


_WASM_FLAGS = {"--no-typescript", "--weak-refs", "--reference-types", "--no-pack", "--no-opt", "--node",
               "--firefox", "--chrome", "--safari", "--headless", "--quiet", "--verbose"}


# Earlier names of known actions: GitHub redirects a renamed repository, and workflows still
# pin the old name by commit (`messense/maturin-action@<sha>` is PyO3/maturin-action).
EARLIER_NAMES = {"messense/maturin-action": "pyo3/maturin-action"}


def canonical_action(uses: str) -> str:
    """The action's name in the table: lower case, no ref, an earlier name replaced."""
    name = uses.split("@", 1)[0].strip().lower().rstrip("/")
    return EARLIER_NAMES.get(name, name)


def known_action(uses: str) -> bool:
    """Whether the table describes what the action runs."""
    name = canonical_action(uses)
    return name in _ACTIONS or name.startswith("actions-rust-lang/") or (
        name.count("/") == 1 and name.endswith("/linkgate"))


def action_commands(uses: str, inputs: Inputs) -> list[list[str]]:
    """The cargo command lines a ``uses:`` step runs, or [] for other actions."""
    name = canonical_action(uses)
    entry = _ACTIONS.get(name)
    if entry is None and name.startswith("actions-rust-lang/"):
        entry = _ACTIONS["actions-rust-lang/"]
    if entry is None and name.count("/") == 1 and name.endswith("/linkgate"):
        entry = _ACTIONS["*/linkgate"]
    if entry is None or entry.commands is None:
        return []
    return entry.commands(inputs)
