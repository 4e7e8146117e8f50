"""Read a cargo command line: subcommand, package selection, features, profile, targets.

Follows cargo's own CLI (1.95): global options before the subcommand,
one-letter aliases, ``-F`` for ``--features``, features separated by commas
or spaces and repeatable, everything after ``--`` passed through. Understands
the third-party subcommands that wrap a build: ``cargo hack <sub>``,
``cargo nextest run|archive|list``, ``cargo llvm-cov``, ``cargo zigbuild``,
and the programs that run cargo (``cross``, ``wasm-pack``), all listed with
their reasons in ``frontends.FRONT_ENDS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from linkgate.cargo import frontends

ALIASES = {"b": "build", "c": "check", "t": "test", "r": "run", "d": "doc", "rm": "remove"}
# Plugins' own aliases (nextest's `cargo nextest r`, its documented alias of `run`).
PLUGIN_ALIASES = {"nextest r": "nextest run"}

# Options whose value is the next word when not written as --opt=value.
_VALUE_OPTIONS = {
    "-p", "--package", "--exclude", "-F", "--features", "--profile", "--target", "--target-dir",
    "--manifest-path", "-j", "--jobs", "--bin", "--example", "--test", "--bench", "--color",
    "--message-format", "--config", "-Z", "-C", "--lockfile-path", "--artifact-dir", "--out-dir",
    # cargo-hack
    "--include-features", "--exclude-features", "--skip", "--depth", "--group-features",
    "--version-range", "--version-step", "--partition", "--mutually-exclusive-features",
    # cargo-fuzz
    "--fuzz-dir",
    "--at-least-one-of",
    # cargo-nextest
    "--cargo-profile", "-P", "--archive-file", "--archive-format", "-E", "--filterset",
    "--filter-expr", "--test-threads", "--retries", "--cargo-quiet", "--cargo-verbose",
    "--tool-config-file", "--workspace-remap",
}
_TARGET_FLAGS = {"--lib", "--bins", "--examples", "--tests", "--benches", "--all-targets", "--doc"}
_NAMED_TARGETS = {"--bin", "--example", "--test", "--bench"}
# An unresolved `${{ ... }}` stays one word so it can be reported as written.
_FEATURE_WORD = re.compile(r"\$\{\{.*?\}\}|[^,\s]+")
_GLOBAL_VALUE = {"--color", "--config", "-Z", "-C", "--manifest-path"}


@dataclass(frozen=True)
class CargoCall:
    program: str
    toolchain: str | None
    subcommand: str
    hack: str | None
    packages: tuple[str, ...]
    workspace: bool
    exclude: tuple[str, ...]
    features: tuple[str, ...]
    no_default_features: bool
    all_features: bool
    profile: str
    targets: tuple[str, ...]
    target_triples: tuple[str, ...]
    target_dir: str | None
    manifest_path: str | None
    no_run: bool
    args: tuple[str, ...]


def is_cargo(argv: tuple[str, ...] | list[str]) -> bool:
    return frontends.runs_cargo(argv)


def parse(argv: tuple[str, ...] | list[str]) -> CargoCall | None:
    """Parse ``cargo ...``; None when there is no subcommand (``cargo --version``).

    A front-end (``wasm-pack build``) is read as the cargo line it runs;
    ``program`` and ``args`` stay as written."""
    cargo = frontends.cargo_argv(argv)
    if cargo != tuple(argv):
        call = parse(cargo)
        return replace(call, program=frontends.program(argv), args=tuple(argv)) if call else None
    program = frontends.program(argv)
    rest = list(argv[1:])
    toolchain = None
    if rest and rest[0].startswith("+"):
        toolchain, rest = rest[0][1:], rest[1:]
    while rest and rest[0].startswith("-"):
        flag = rest[0].split("=", 1)[0]
        rest = rest[2:] if flag in _GLOBAL_VALUE and "=" not in rest[0] else rest[1:]
    if not rest:
        return None
    sub = ALIASES.get(rest[0], rest[0])
    rest = rest[1:]
    hack = None
    if sub == "hack":
        hack, sub, rest = _hack(rest)
    elif sub in _RUNS_SUBCOMMAND and rest and not rest[0].startswith("-") and \
            ALIASES.get(rest[0], rest[0]) in (_RUNS_SUBCOMMAND[sub] or (ALIASES.get(rest[0], rest[0]),)):
        # `cargo minimal-versions check --direct`, `cargo careful test`, `cargo xwin build`: the
        # cargo subcommand they run, with its options (each passes them on to cargo).
        sub, rest = ALIASES.get(rest[0], rest[0]), rest[1:]
    elif sub == "careful" and rest[:1] == ["setup"]:
        sub, rest = "careful setup", rest[1:]  # builds the sanitised standard library, nothing of yours
    elif sub == "deb" and "--no-build" not in rest:
        # cargo-deb builds the package's binaries in release (`cargo build --release`, the words
        # after `--` added), then packs them; its own options are not cargo's.
        sub, rest = "build", _deb_options(rest)
    elif sub in ("nextest", "llvm-cov", "auditable", "fuzz", "codspeed", "apk", "lambda",
                 "espflash", "cache") and rest and not rest[0].startswith("-"):
        if sub in ("nextest", "fuzz", "codspeed", "apk", "lambda", "espflash", "cache") or \
                rest[0] in ("test", "run", "build", "nextest", "report"):
            sub, rest = f"{sub} {rest[0]}", rest[1:]
            sub = PLUGIN_ALIASES.get(sub, sub)
    return _options(program, toolchain, sub, hack, rest, tuple(argv))


# Plugins that run the cargo subcommand after them (None: any), each passing its options on:
# cargo-minimal-versions, cargo-careful; cargo-xwin (the same commands with the MSVC
# toolchain's environment); cargo-component (cargo's commands for a wasm component);
# cargo-insta's `test` (`cargo test`, its snapshots reviewed after).
_BUILD_COMMANDS = frozenset({"build", "check", "clippy", "test", "run", "rustc", "bench", "doc"})
_RUNS_SUBCOMMAND: dict[str, frozenset[str] | None] = {
    "minimal-versions": None, "careful": _BUILD_COMMANDS | {"miri"}, "xwin": _BUILD_COMMANDS, "component": _BUILD_COMMANDS,
    "insta": frozenset({"test"}),
}
# cargo-deb's options that take a value (its own, or cargo's it passes on).
_DEB_VALUE = {"-o", "--output", "--deb-version", "--deb-revision", "--variant", "--target", "-p", "--package",
              "--manifest-path", "--profile", "--cargo-build", "--compress-type", "--compress-level", "--maintainer",
              "--section", "--priority", "--features", "-F", "--multiarch"}
_DEB_CARGO = {"--target", "-p", "--package", "--manifest-path", "--profile", "--features", "-F"}


def _deb_options(rest: list[str]) -> list[str]:
    out = ["--release"]
    i = 0
    while i < len(rest):
        word = rest[i]
        i += 1
        if word == "--":
            out += rest[i:]
            break
        name = word.split("=", 1)[0]
        if name in _DEB_VALUE and "=" not in word and i < len(rest):
            if name in _DEB_CARGO:
                out += [word, rest[i]]
            i += 1
        elif name in _DEB_CARGO or word in ("--no-default-features", "--all-features"):
            out.append(word)
    return out


def installs_crate(call: CargoCall) -> bool:
    """`cargo install NAME` (no `--path`): builds a crate from a registry or git, never this
    repository's packages, whatever precedes it (`cargo +1.80 install --locked cargo-make`)."""
    words = call.args[call.args.index("install") + 1:] if "install" in call.args else call.args
    return call.subcommand == "install" and not any(w == "--path" or w.startswith("--path=") for w in words)


def subcommand_word(argv: tuple[str, ...] | list[str]) -> str | None:
    """The word of a cargo command line that names its subcommand, as written (after the
    program, a `+toolchain` and global options), or None when there is none."""
    rest = list(argv[1:])
    if rest and rest[0].startswith("+"):
        rest = rest[1:]
    while rest and rest[0].startswith("-"):
        flag = rest[0].split("=", 1)[0]
        rest = rest[2:] if flag in _GLOBAL_VALUE and "=" not in rest[0] else rest[1:]
    return rest[0] if rest else None


def _hack(rest: list[str]) -> tuple[str, str, list[str]]:
    mode = "each-feature" if "--each-feature" in rest else "feature-powerset" if "--feature-powerset" in rest else ""
    for i, word in enumerate(rest):
        if word == "--":
            break
        if word.startswith("-"):
            continue
        if i > 0 and rest[i - 1] in _VALUE_OPTIONS:
            continue
        sub = ALIASES.get(word, word)
        return mode, sub, rest[:i] + rest[i + 1 :]
    return mode, "", rest


def _options(
    program: str, toolchain: str | None, sub: str, hack: str | None, rest: list[str], argv: tuple[str, ...]
) -> CargoCall:
    packages: list[str] = []
    exclude: list[str] = []
    features: set[str] = set()
    targets: list[str] = []
    triples: list[str] = []
    flags: set[str] = set()
    profile: str | None = None
    target_dir = manifest_path = None
    fuzz_dir = "fuzz"
    nextest = sub.startswith("nextest")
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--":
            break
        name, eq, inline = word.partition("=")
        value = None
        if name in _VALUE_OPTIONS:
            if eq:
                value = inline
            elif i + 1 < len(rest):
                value = rest[i + 1]
                i += 1
        elif name.startswith("-F") and len(name) > 2:
            name, value = "-F", word[2:]
        elif name.startswith("-p") and len(name) > 2:
            name, value = "-p", word[2:]
        i += 1
        if name in ("-p", "--package") and value is not None:
            packages.append(value)
        elif name == "--exclude" and value is not None:
            exclude.append(value)
        elif name in ("-F", "--features") and value is not None:
            features.update(_FEATURE_WORD.findall(value))
        elif name in ("--profile", "--cargo-profile") and value is not None:
            if name == "--cargo-profile" or not nextest:
                profile = value
        elif name == "--target" and value is not None:
            triples.append(value)
        elif name == "--target-dir":
            target_dir = value
        elif name == "--manifest-path":
            manifest_path = value
        elif name == "--fuzz-dir" and value is not None:
            fuzz_dir = value
        elif name in _NAMED_TARGETS and value is not None:
            targets.append(f"{name} {value}")
        elif name in _TARGET_FLAGS:
            targets.append(name)
        elif name in ("-r", "--release"):
            profile = profile or "release"
        elif word.startswith("-"):
            flags.add(name)
    if sub.startswith("fuzz ") and manifest_path is None:
        # cargo-fuzz builds the fuzz package (fuzz/ or --fuzz-dir), which reaches the crate
        # under test as a path dependency; its --features are that package's.
        manifest_path = f"{fuzz_dir.rstrip('/')}/Cargo.toml"
    return CargoCall(
        program=program,
        toolchain=toolchain,
        subcommand=sub,
        hack=hack,
        packages=tuple(packages),
        workspace="--workspace" in flags or "--all" in flags,
        exclude=tuple(exclude),
        features=tuple(sorted(features)),
        no_default_features="--no-default-features" in flags,
        all_features="--all-features" in flags,
        profile=profile or _default_profile(sub),
        targets=tuple(targets),
        target_triples=tuple(triples),
        target_dir=target_dir,
        manifest_path=manifest_path,
        no_run="--no-run" in flags,
        args=argv,
    )


def _default_profile(sub: str) -> str:
    # `cargo install` builds in release unless told otherwise; bench uses the bench profile,
    # which inherits release.
    return "release" if sub in ("install", "bench") else "dev"
