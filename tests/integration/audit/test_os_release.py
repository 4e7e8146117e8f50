"""Sourcing the system's os-release file (os-release(5)) runs nothing: no unread script, and
the variables it sets are unknown, never empty."""

from __future__ import annotations

from pathlib import Path

from lgtest import audit_files

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


def test_sourcing_os_release_is_read_and_its_variables_are_unknown(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {
        "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/main.rs": "fn main() {}\n",
    })
    gaps = [g for wf in doc["coverage"]["workflows"] for job in wf["jobs"] for s in job["steps"] for g in s["gaps"]]
    assert not [g for g in gaps if "os-release" in g["what"] or "os-release" in g["why"]]
    argvs = [i["argv"] for i in doc["invocations"]]
    assert ["cargo", "test"] in argvs
    # $VERSION_CODENAME comes from the file: a value linkgate cannot know, never "".
    assert ["cargo", "build", "--features", ""] not in argvs
    assert not any("os-release" in f["message"] for f in doc["findings"])
