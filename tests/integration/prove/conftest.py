from __future__ import annotations

from pathlib import Path

import pytest
from lgtest import LINK_SH, git_repo, toml_str

# A gate that needs no cargo: it links a tiny C program through linkgate's recording
# wrapper (lgtest.LINK_SH) while lib.txt still names NEEDED, and fails with a real
# GNU ld message when it does not. It keeps the journal/restore tests fast while
# exercising the same code as cargo gates.
_FAST_SH = ("sleep {sleep}; if grep -q NEEDED lib.txt; then " + LINK_SH + "; "
            "else echo '/usr/bin/ld: cannot find -lneeded: No such file or directory' >&2; exit 1; fi")
FAST_GATE = """
[[gate]]
name = "fast"
command = ["sh", "-c", """ + toml_str(_FAST_SH) + """]

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
