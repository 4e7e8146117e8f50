"""Human output states each distinct hint once, then the linkers it applies to."""

from __future__ import annotations

from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

# GNU ld's wording for two distinct problems (FACTS.md, "Linker wording").
FAIL = ("echo '/usr/bin/ld: cannot find -lfoo: No such file or directory' >&2\n"
        "echo \"/usr/bin/ld: main.o: undefined reference to \\`bar_init'\" >&2\nexit 1\n")


def gate(name: str, linkers: str) -> str:
    return f'[[gate]]\nname = "{name}"\ncommand = ["sh", "fail.sh"]\nlinkers = {linkers}\n\n'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_human(root: Path, config: str, capsys: pytest.CaptureFixture[str]) -> str:
    (root / "linkgate.toml").write_text(config)
    (root / "fail.sh").write_text(FAIL)
    git_repo(root)
    assert main(["run", "-q", "--no-history"]) == 1
    return capsys.readouterr().out


def test_one_hint_per_problem_for_five_linkers(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_human(repo, gate("app-link", '["default", "bfd", "gold", "lld", "mold"]'), capsys)
    hints = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("hint")]
    # Two problems (a missing library, an undefined symbol), each stated once.
    assert len(hints) == 2, out
    assert all(h.startswith("hint (default, bfd, gold, lld, mold): ") for h in hints), hints
    assert len(set(hints)) == 2
    # Every linker's failure is still shown.
    assert out.count("link-failed") == 5


def test_across_gates_the_hint_names_gate_and_linker(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_human(repo, gate("app-link", '["default", "bfd"]') + gate("tool-link", '["mold"]'), capsys)
    hints = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("hint")]
    assert len(hints) == 2, out
    assert all(h.startswith("hint (app-link [default], app-link [bfd], tool-link [mold]): ") for h in hints)


def test_a_hint_for_one_linker_has_no_list(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_human(repo, gate("app-link", '["bfd"]'), capsys)
    hints = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("hint")]
    assert len(hints) == 2 and all(h.startswith("hint: ") for h in hints), out
