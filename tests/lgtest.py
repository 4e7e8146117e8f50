"""Small helpers shared by tests (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True, capture_output=True, text=True,
    ).stdout


def git_repo(root: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")


# A shell command that links a tiny C program through the linker seam rustc uses:
# linkgate's recording wrapper, installed as CARGO_TARGET_<TRIPLE>_LINKER for every
# gate. A command gate passes only on a link the wrapper saw, and this one links in
# tens of milliseconds (the journal and lock tests run it many times).
LINK_SH = (
    'printf "int main(void) { return 0; }\\n" > "$CARGO_TARGET_DIR/fastlink.c" && '
    '"$(env | sed -n "s/^CARGO_TARGET_[A-Z0-9_]*_LINKER=//p" | head -n 1)" '
    '"$CARGO_TARGET_DIR/fastlink.c" -o "$CARGO_TARGET_DIR/fastlink"'
)


def toml_str(text: str) -> str:
    """*text* as a TOML basic string (JSON's escapes are all valid TOML)."""
    import json

    return json.dumps(text)


AUDIT_SHAPES = Path(__file__).resolve().parent / "fixtures" / "audit" / "shapes"


def audit_shape(tmp_path: Path, shape: str) -> dict[str, Any]:
    """`linkgate audit -f json` on a copy of tests/fixtures/audit/shapes/SHAPE, in-process."""
    import json
    import shutil

    from linkgate.cli import main

    repo = tmp_path / shape
    shutil.copytree(AUDIT_SHAPES / shape, repo)
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


PACKAGE = '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n'


def audit_files(tmp_path: Path, workflow: str, files: dict[str, str]) -> dict[str, Any]:
    """`linkgate audit -f json`, in-process, on a git repository of *files* (paths relative to
    the repository) with *workflow* as .github/workflows/ci.yml."""
    import json

    from linkgate.cli import main

    repo = tmp_path / "repo"
    for rel, text in {**files, ".github/workflows/ci.yml": workflow}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git_repo(repo)
    out = tmp_path / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc
