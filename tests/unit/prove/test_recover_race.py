"""`linkgate recover` while a prove holds the journal: never "files were intact" for a tree
that process holds mutated, even when the lock is taken between the check and the restore."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.cli import main
from linkgate.errors import LockHeld
from linkgate.prove.journal import Repository, recover


def mutated_by_a_live_prove(tmp_path: Path) -> tuple[Repository, Path]:
    (tmp_path / ".git").mkdir()
    src = tmp_path / "build.rs"
    src.write_text("fn main() {}\n")
    live = Repository(tmp_path)
    live.lock()  # the running prove's exclusive lock
    live.mutate("build.rs", b"fn main() { broken }\n")
    return live, src


def test_the_command_refuses_when_the_lock_is_taken_after_its_check(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    live, src = mutated_by_a_live_prove(tmp_path)
    # The gap: the command's own check saw a free lock, and prove took it just after
    # (every later look sees it held, as it is).
    real = Repository.lock_is_free
    calls: list[bool] = []

    def first_look_free(self: Repository) -> bool:
        calls.append(True)
        return True if len(calls) == 1 else real(self)

    monkeypatch.setattr(Repository, "lock_is_free", first_look_free)
    assert main(["recover", "--repo", str(tmp_path)]) == 4
    out, err = capsys.readouterr()
    assert "nothing; files were intact" not in out
    assert "holds" in err or "mutating" in err
    assert src.read_bytes() == b"fn main() { broken }\n"  # left to its owner, which restores it
    live.unlock()


def test_start_up_recovery_leaves_a_live_journal_to_its_owner(tmp_path: Path) -> None:
    live, src = mutated_by_a_live_prove(tmp_path)
    assert recover(tmp_path, announce=False) == []
    with pytest.raises(LockHeld):
        recover(tmp_path, announce=False, held_ok=False)
    live.unlock()
    assert recover(tmp_path, announce=False, held_ok=False) == ["build.rs"]
    assert src.read_bytes() == b"fn main() {}\n"
