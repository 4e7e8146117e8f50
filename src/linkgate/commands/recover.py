"""`linkgate recover`: restore files an interrupted `prove` left mutated."""

from __future__ import annotations

from pathlib import Path

import click

from linkgate.errors import EXIT_OK


@click.command("recover")
@click.option("--repo", type=click.Path(file_okay=False, exists=True), default=None,
              help="Repository root (default: found upwards from the current directory).")
@click.option("--force", is_flag=True, help="Restore even over edits made after the interruption.")
def command(repo: str | None, force: bool) -> int:
    """Restore every file recorded in the journal under .linkgate/, byte for byte."""
    from linkgate.prove.journal import find_root_with_journal, recover

    root = Path(repo).resolve() if repo else find_root_with_journal(Path.cwd())
    if root is None:
        click.echo("linkgate: nothing to recover (no journal found)")
        return EXIT_OK
    from linkgate.errors import LockHeld
    from linkgate.prove.journal import Repository

    state = Repository(root)
    if not state.lock_is_free():
        pids = ", ".join(str(pid) for pid, _ in state.holders()) or "?"
        raise LockHeld(
            f"a linkgate process (pid {pids}) is still running in {root} and holds the journal",
            hint="it restores its files itself when it ends; run recover again if it was killed",
        )
    restored = recover(root, force=force, announce=False, held_ok=False)
    click.echo("linkgate: restored " + (", ".join(restored) if restored else "nothing; files were intact"))
    return EXIT_OK
