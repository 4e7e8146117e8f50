from __future__ import annotations

from pathlib import Path

import pytest
from lgtest import git_repo

# A gate that needs no compiler: it "links" when lib.txt still names NEEDED,
# and fails with a real GNU ld message when it does not. It keeps the
# journal/restore tests fast while exercising the same code as cargo gates.
FAST_GATE = """
[[gate]]
name = "fast"
command = ["sh", "-c", "sleep {sleep}; if grep -q NEEDED lib.txt; then echo linked; else echo '/usr/bin/ld: cannot find -lneeded: No such file or directory' >&2; exit 1; fi"]

[[gate.control]]
name = "drop-needed"
file = "lib.txt"
delete = "NEEDED"
"""

@pytest.fixture
def fast_repo(tmp_path: Path):
    def make(sleep: float = 0.02) -> Path:
        root = tmp_path / "repo"
        root.mkdir()
        (root / "linkgate.toml").write_text(FAST_GATE.replace("{sleep}", str(sleep)))
        (root / "lib.txt").write_bytes(b"first line\r\nNEEDED -lneeded\nlast line, no newline")
        (root / ".gitignore").write_text(".linkgate/\n")
        git_repo(root)
        return root

    return make
