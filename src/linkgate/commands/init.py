"""`linkgate init`: write linkgate.toml from the workspace and its build scripts.

One gate per package whose build script links natively, each linking the
smallest target that exercises the script's directives (``cargo.targets``),
with ``paths`` from the static surface as ``ci github --trigger paths`` would
compute it. The file is checked by loading it like any configuration before
it takes its place, so ``init`` never writes what ``run`` would refuse.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import click

from linkgate import repofs
from linkgate.commands.options import repo_option
from linkgate.errors import EXIT_OK, UsageError

_KIND_WORDS = {"test": "integration test", "bin": "binary", "example": "example"}
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


@dataclass(frozen=True)
class PlannedGate:
    name: str
    cargo: tuple[str, ...]
    why: str
    heading: str  # what the package's build script links, above the gate
    working_directory: str | None = None
    paths: tuple[str, ...] = ()


def _toml_str(value: str) -> str:
    # JSON's string escapes (\" \\ \n \uXXXX) are all valid in a TOML basic string.
    return json.dumps(value, ensure_ascii=False)


def _toml_list(values: tuple[str, ...] | list[str]) -> str:
    return "[" + ", ".join(_toml_str(v) for v in values) + "]"


def _gate_name(package: str) -> str:
    # Package names are already letters, digits, '-' and '_' (cargo's rule); keep the guard cheap.
    name = "".join(c if c in _NAME_CHARS else "-" for c in package)
    return name if name[:1].isalnum() else "gate-" + name


def _existing_config(root: Path) -> Path | None:
    from linkgate.config import CONFIG_NAME, linkgate_table

    if (root / CONFIG_NAME).exists():
        return root / CONFIG_NAME
    manifest = root / "Cargo.toml"
    try:
        import tomllib

        data = tomllib.loads(repofs.read_text(manifest, inside=root))
    except (OSError, ValueError):
        return None
    return manifest if linkgate_table(data) is not None else None


def _why(choice_rule: str, target_kind: str, target_name: str, target_pkg: str, pkg: str, script: str,
         emits: str) -> str:
    recipe = f"the build script of {pkg} ({script}) emits {emits}"
    if choice_rule == "own":
        return (f"{target_name} is the smallest {_KIND_WORDS[target_kind]} of package {pkg}, and {recipe}; "
                "linked in release, the profile that ships")
    if choice_rule == "dependent":
        return (f"{target_name} is the smallest {_KIND_WORDS[target_kind]} of a workspace package "
                f"({target_pkg}) that links {pkg}, which has none of its own; {recipe}; "
                "linked in release, the profile that ships")
    return (f"the unit-test harness of {pkg}'s library: no test, binary or example in {pkg} or in a workspace "
            f"package that depends on it links it; {recipe}; linked in release, the profile that ships")


def plan(root: Path, cwd: Path) -> tuple[list[PlannedGate], list[str]]:
    """The gates to write, and the packages that link natively but have no target that links them."""
    from linkgate import proc
    from linkgate.cargo import graph as cargo_graph
    from linkgate.cargo import targets as cargo_targets
    from linkgate.errors import CommandFailed
    from linkgate.surface import native

    try:
        # --no-deps: the members, their targets and path dependencies, with no registry.
        meta = cargo_graph.no_deps_metadata(cwd, ())
    except CommandFailed as exc:
        raise UsageError(f"cargo metadata failed in {cwd}: {cargo_graph.first_error(exc.stderr)}",
                         hint="run linkgate init inside a Cargo workspace whose manifests cargo can read") from None
    ws = cargo_targets.from_metadata(meta)
    try:
        work_rel = ws.root.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise UsageError(f"the Cargo workspace {ws.root} is outside the repository {root}",
                         hint="run linkgate init inside the repository that holds the workspace") from None
    workdir = None if work_rel == "." else work_rel
    gates: list[PlannedGate] = []
    unlinked: list[str] = []
    linking = 0
    for member in ws.members:
        found = native.scan(member.name, member.manifest_dir)
        if found is None:
            continue
        linking += 1
        own, dependents = cargo_targets.reach(found.keys, found.helpers or found.unreadable is not None)
        choice = cargo_targets.choose(ws, member.name, own, dependents)
        script = os.path.relpath(found.script, root)
        if choice is None:
            unlinked.append(f"{member.name} ({script} emits {found.describe()}): no test, binary, example or "
                            "library links it; add one, then run linkgate init --force")
            continue
        t = choice.target
        gates.append(PlannedGate(
            name=_gate_name(member.name),
            cargo=tuple(choice.cargo_args(name_package=len(ws.members) > 1)),
            why=_why(choice.rule, t.kind, t.name, t.package, member.name, script, found.describe()),
            heading=f"{member.name}: {script} emits {found.describe()}",
            working_directory=workdir,
        ))
    if not linking:
        raise UsageError(
            f"no package of the workspace at {ws.root} has a build script that emits link directives "
            "(rustc-link-lib, rustc-link-arg, rustc-link-search) or builds a library with cc, cmake or cxx: "
            "the workspace has no link recipe of its own for init to gate",
            hint="init reads only the workspace's own build scripts; if a dependency (a registry -sys "
                 "crate, say) links native code, write a [[gate]] by hand that links a target using it "
                 "(docs/configuration.md)",
        )
    if not gates:
        raise UsageError("no target links the packages whose build scripts link natively: "
                         + "; ".join(unlinked), hint="add an integration test or a binary that uses the package")
    return [_with_paths(root, g) for g in gates], unlinked


def _with_paths(root: Path, gate: PlannedGate) -> PlannedGate:
    """``paths``: the gate's static surface, as ``ci github --trigger paths`` writes its filter."""
    from dataclasses import replace

    from linkgate.ci.github import filter_patterns
    from linkgate.config import CONFIG_NAME, Config, Gate

    provisional = Gate(name=gate.name, cargo=gate.cargo, working_directory=gate.working_directory,
                       linkers=("default", "bfd"))
    try:
        entry = filter_patterns(Config(path=root / CONFIG_NAME, root=root, gates=(provisional,)), provisional)
    except UsageError:
        return gate  # an empty surface: no paths, so should-run and a paths trigger always run the gate
    return replace(gate, paths=entry.patterns)


def render(gates: list[PlannedGate], unlinked: list[str], version: str) -> str:
    out = [
        f"# Written by `linkgate init` (linkgate {version}) from the workspace's manifests and build",
        "# scripts. Every key is described in docs/configuration.md; edit freely.",
    ]
    for g in gates:
        out += ["", f"# {g.heading}", "[[gate]]",
                "# The gate's name: `linkgate run " + g.name + "`, `linkgate ci github " + g.name + "`.",
                f"name = {_toml_str(g.name)}",
                "# What cargo builds: the smallest target that links this build script's recipe",
                "# (a test with --no-run is linked, never run).",
                f"cargo = {_toml_list(g.cargo)}"]
        if g.working_directory:
            out += ["# Where cargo runs, relative to the repository root: the Cargo workspace.",
                    f"working-directory = {_toml_str(g.working_directory)}"]
        out += ["# rustc's default linker (rust-lld on x86_64 Linux) and GNU ld, which is strict",
                "# about archive order: a link can pass under one and fail under the other.",
                'linkers = ["default", "bfd"]',
                "# Why this target; `ci github` states it in the job's comment.",
                f"why = {_toml_str(g.why)}"]
        if g.paths:
            out += ["# When the gate must run (`should-run`, `ci github --trigger paths`): the files that",
                    "# can change this link (manifests, lockfile, this file, build scripts, native sources).",
                    "paths = ["] + [f"  {_toml_str(p)}," for p in g.paths] + ["]"]
        else:
            out += ["# No `paths`: the static scan found no file to name, so the gate runs on every change."]
    if unlinked:
        out += ["", "# Packages that link natively but have no target that links them (no gate written):"]
        out += [f"#   {u}" for u in unlinked]
    return "\n".join(out) + "\n"


def _write(path: Path, text: str, force: bool) -> None:
    """Write *text* to *path* through a temporary file; without *force*, never over an existing file
    (``os.link`` fails if the name exists, so a file created meanwhile is not clobbered either)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), 0o666 & ~_umask())
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise UsageError(f"{path} already exists; linkgate init did not change it",
                                 hint="pass --force to overwrite it") from None
    finally:
        Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@click.command("init")
@click.option("--force", is_flag=True, help="Overwrite an existing configuration.")
@repo_option
def command(force: bool, repo: str | None = None) -> int:
    """Write linkgate.toml: one gate per package whose build script links natively."""
    from linkgate import __version__
    from linkgate import config as config_mod
    from linkgate.console import escape, stdout_console

    if repo is not None:
        cwd = root = Path(repo).resolve()
        if not root.is_dir():
            raise UsageError(f"--repo {repo}: not a directory", hint="pass the repository's top-level directory")
    else:
        cwd = Path.cwd()
        root = config_mod.repository_root(cwd) or cwd
    existing = _existing_config(root)
    if existing is not None and not force:
        raise UsageError(f"{existing} already holds a linkgate configuration; linkgate init did not change it",
                         hint="edit it, or pass --force to replace it with what init writes")
    gates, unlinked = plan(root, cwd)
    text = render(gates, unlinked, __version__)
    target = root / config_mod.CONFIG_NAME
    # Loaded like any configuration before it takes its place: init never writes what run refuses.
    fd, probe = tempfile.mkstemp(prefix=".linkgate-init.", suffix=".toml", dir=root)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        config_mod.load(probe, root=root)
    finally:
        Path(probe).unlink(missing_ok=True)
    _write(target, text, force)
    out = stdout_console()
    out.print(f"wrote {escape(str(target))}: {len(gates)} gate{'s' if len(gates) != 1 else ''}", highlight=False)
    for g in gates:
        out.print(f"  {escape(g.name)}: cargo {escape(' '.join(g.cargo))}", highlight=False)
    for u in unlinked:
        out.print(f"  [yellow]no gate[/] for {escape(u)}", highlight=False)
    if existing is not None and existing.name == "Cargo.toml":
        out.print(f"  note: {escape(str(target))} now takes precedence over the linkgate table in {escape(str(existing))}",
                  highlight=False)
    out.print("next: linkgate run", highlight=False)
    return EXIT_OK
