"""`linkgate demo`: the whole story on an embedded workspace, offline, in under 40 lines."""

from __future__ import annotations

import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from linkgate.errors import EXIT_ERROR, EXIT_OK, UsageError

if TYPE_CHECKING:
    from linkgate.config import Config

# Two negative controls, in the spirit of the seed issue: drop a library that
# must follow the archives, and put two archives in the wrong order. rust-lld
# accepts archives in any order (FACTS.md), so the second names GNU ld alone.
CONTROLS = r"""
[[gate.control]]
name = "drop-deep-after-archives"
file = "build.rs"
delete = '^\s*"-ldeep",'
expect-match = "deep_value"

[[gate.control]]
name = "archive-order"
file = "build.rs"
replace = { pattern = '"-lcore",\n(\s*)"-lnutil",', with = '"-lnutil",\n\1"-lcore",' }
linkers = ["bfd"]
"""


def _copy_workspace(dest: Path, *, with_config: bool = True) -> None:
    src = resources.files("linkgate") / "data" / "demo"
    ignore = ("target", ".linkgate") + (() if with_config else ("linkgate.toml",))
    with resources.as_file(src) as path:
        shutil.copytree(path, dest, ignore=shutil.ignore_patterns(*ignore))
    if with_config:
        (dest / "linkgate.toml").write_text((dest / "linkgate.toml").read_text() + CONTROLS)
    (dest / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    from linkgate import proc

    proc.run(["git", "init", "-q", str(dest)])
    ident = ["-c", "user.name=linkgate demo", "-c", "user.email=demo@linkgate.invalid"]
    proc.run(["git", "-C", str(dest), "add", "-A"])
    proc.run(["git", "-C", str(dest), *ident, "commit", "-qm", "demo workspace"])


def _check_passes_on_defect(cfg: Config, ws: Path, out: Any) -> bool:
    """Show that cargo check is green on the first defect (journalled like prove)."""
    from linkgate import proc
    from linkgate.prove import controls
    from linkgate.prove.journal import Repository

    gate = cfg.gate("smoke")
    plan = controls.plan(cfg, gate, gate.controls[0])
    with Repository(ws).locked() as repo, repo.mutated(plan.rel_path, plan.mutated):
        check = proc.run(["cargo", "check", "--all-targets", "--quiet"], cwd=ws, check=False)
    out.print(f"  with -ldeep dropped, cargo check --all-targets: exit {check.returncode}")
    return check.returncode == 0


def _path_hint() -> str | None:
    """How to reach the linkgate this demo runs, when PATH does not (the README's walkthrough calls `linkgate`)."""
    here = Path(sys.executable).parent
    if not (here / "linkgate").exists():
        return None
    found = shutil.which("linkgate")
    if found is not None and Path(found).resolve() == (here / "linkgate").resolve():
        return None
    activate = here / "activate"
    how = f'. {activate}' if activate.exists() else f'export PATH="{here}:$PATH"'
    return f"linkgate is installed in {here}, which is not on PATH: run `{how}` before the README's walkthrough"


def _copy_only(dest: Path) -> int:
    """`demo --copy DIR`: the demo workspace without its configuration, as a git checkout, for the walkthrough."""
    from linkgate.console import stdout_console

    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UsageError(f"{dest} already exists and is not an empty directory: name a new directory for the copy")
    if dest.exists():
        dest.rmdir()
    try:
        _copy_workspace(dest, with_config=False)
    except OSError as exc:
        raise UsageError(f"cannot write the demo workspace to {dest}: {exc.strerror or exc}") from exc
    out = stdout_console()
    out.print(f"wrote the demo workspace to {dest} (a git checkout, no linkgate.toml yet)")
    out.print(f"next: cd {dest} && linkgate init")
    return EXIT_OK


@click.command("demo")
@click.option("--keep", is_flag=True, help="Keep the temporary workspace and print its path.")
@click.option("--copy", "copy_to", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Only write the demo workspace (without linkgate.toml, as a git checkout) to DIR, "
                   "for the README's walkthrough.")
def command(keep: bool, copy_to: Path | None) -> int:
    """Run linkgate on an embedded example workspace (needs cargo, cc, ar; no network)."""
    if copy_to is not None:
        return _copy_only(copy_to)
    from linkgate.console import escape

    from linkgate import config as config_mod
    from linkgate import proc
    from linkgate.console import stdout_console
    from linkgate.gate.run import run_gate
    from linkgate.prove.report import exit_code as prove_exit_code
    from linkgate.prove.run import prove

    out = stdout_console()
    tmp = Path(tempfile.mkdtemp(prefix="linkgate-demo-"))
    ws = tmp / "nativelink"
    ok = True
    try:
        _copy_workspace(ws)
        cfg = config_mod.load(ws / "linkgate.toml", root=ws)
        gate = cfg.gate("smoke")
        out.print("[bold]linkgate demo[/]: a crate whose build.rs links two C archives and two shared libraries")
        out.print(f"  workspace: {ws}")
        out.print("[bold]1. The healthy tree[/]")
        check = proc.run(["cargo", "check", "--all-targets", "--quiet"], cwd=ws, check=False)
        out.print(f"  cargo check --all-targets: exit {check.returncode} (it never runs the linker)")
        for linker in gate.linkers:
            res = run_gate(cfg, gate, linker)
            names = ", ".join(sorted({a.target for a in res.linked})) or "-"
            out.print(f"  linkgate run \\[{linker}]: {res.verdict} ({names}) in {res.duration_s:.1f} s")
            ok &= res.verdict == "linked"
        res = run_gate(cfg, gate, "default")
        out.print(f"  again, warm: {res.verdict}, forced relink of {res.linked[0].target if res.linked else '-'}: "
                  "a pass always rests on a real link")
        ok &= res.forced_relink and res.proven
        out.print("[bold]2. Negative controls[/]: reintroduce a defect, expect failure, restore, expect a pass")
        ok &= _check_passes_on_defect(cfg, ws, out)
        outcomes = prove(cfg, allow_dirty=False)
        for o in outcomes:
            key = ""
            if o.mutated is not None and o.mutated.diagnostics:
                key = str(o.mutated.diagnostics[0].message)
            elif o.mutated is not None and o.mutated.linker_lines:
                key = o.mutated.linker_lines[0]
            key = key.replace(str(ws) + "/", "")
            style = {"caught": "green", "skipped": "dim"}.get(o.outcome, "yellow")
            out.print(f"  {o.name} \\[{o.linker}]: [{style}]{o.outcome}[/]")
            if o.outcome == "skipped":
                out.print(f"      {escape(o.reason)}")
            elif key:
                # Whole: rich wraps it at word boundaries to the terminal's width.
                out.print(f"      linker: {escape(key.strip())}")
        expected = {
            ("drop-deep-after-archives", "default"): "caught",
            ("drop-deep-after-archives", "bfd"): "caught",
            ("archive-order", "default"): "skipped",
            ("archive-order", "bfd"): "caught",
        }
        got = {(o.name, o.linker): o.outcome for o in outcomes}
        ok &= got == expected
        out.print("  rust-lld accepts archives in any order; GNU ld does not: the archive-order control "
                  "names linkers = [\"bfd\"], and linkers = [\"default\", \"bfd\"] catches both defects.")
        ok &= prove_exit_code(outcomes) == EXIT_OK
        out.print(f"  linkgate prove: exit {prove_exit_code(outcomes)} (every control caught under its own linkers)")
        clean = proc.run(["git", "status", "--porcelain"], cwd=ws).stdout.strip()
        out.print(f"  working tree after the controls: {'clean, byte for byte' if not clean else clean}")
        ok &= not clean
        verdict = "[bold green]demo OK[/]" if ok else "[bold red]demo did not show what it should[/]"
        out.print(verdict)
        hint = _path_hint()
        if hint is not None:
            out.print(escape(hint))
    finally:
        if keep:
            out.print(f"kept: {ws}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return EXIT_OK if ok else EXIT_ERROR
