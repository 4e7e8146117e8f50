"""Sourcing the system's os-release file (os-release(5)) runs nothing: no unread script, and
the variables it sets are unknown, never empty."""

from __future__ import annotations

import json
from pathlib import Path

from lgtest import git_repo

from linkgate.cli import main

WORKFLOW = """\
on: pull_request
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: |
          . /etc/os-release
          source /usr/lib/os-release
          if [ "$ID" = ubuntu ]; then sudo apt-get install -y libfoo-dev; fi
          cargo test
          cargo build --features "$VERSION_CODENAME"
"""


def test_sourcing_os_release_is_read_and_its_variables_are_unknown(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(tmp_path)
    main(["audit", "--repo", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    gaps = [g for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"] for g in s["gaps"]]
    assert not [g for g in gaps if "os-release" in g["what"] or "os-release" in g["why"]]
    argvs = [i["argv"] for i in doc["invocations"]]
    assert ["cargo", "test"] in argvs
    # $VERSION_CODENAME comes from the file: a value linkgate cannot know, never "".
    assert ["cargo", "build", "--features", ""] not in argvs
    assert not any("os-release" in f["message"] for f in doc["findings"])
