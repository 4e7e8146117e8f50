"""The README's walkthrough runs as written: every block marked `<!-- walkthrough: ... -->`,
in order, from an empty directory: the first block writes the demo workspace (real cargo, linkers, git).

Markers: `sh` runs the block with bash (linkgate on PATH, exit 0 required);
`toml >> FILE` appends the block to FILE; `yaml > FILE` writes it as FILE.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from workflow_lint import actionlint

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
BLOCK = re.compile(r"<!-- walkthrough: (?P<how>.*?) -->\n```(?P<lang>\w+)\n(?P<body>.*?)```", re.S)


def blocks() -> list[tuple[str, str, str]]:
    return [(m["how"].strip(), m["lang"], m["body"]) for m in BLOCK.finditer(README.read_text())]


def test_every_snippet_of_the_walkthrough_is_marked() -> None:
    """No shell or TOML block of the walkthrough escapes the test below."""
    text = README.read_text()
    section = text[text.index("## From nothing to a proven gate in CI"):text.index("## Documentation")]
    fenced = re.findall(r"```(\w+)\n", section)
    assert fenced and len(fenced) == len(BLOCK.findall(section))
    assert {lang for _, lang, _ in blocks()} == {"sh", "toml", "yaml"}


def test_readme_walkthrough_runs(tmp_path: Path) -> None:
    # From an empty directory, as a newcomer starts: the first block writes the demo copy and enters it.
    cwd = tmp_path
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    env.pop("LINKGATE_HISTORY", None)
    ran = []
    for how, lang, body in blocks():
        if how == "sh":
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{body}\n{done.stdout}\n{done.stderr}"
            ran.append(body.split()[0:2])
            # Blocks run one shell each; a top-level `cd DIR` carries on to the next, as in a terminal.
            for line in body.splitlines():
                if line.startswith("cd "):
                    cwd = cwd / line.split()[1]
        else:
            op, name = how.split()[1:3] if how.startswith(lang) else ("", "")
            assert op in (">", ">>") and name, f"unknown marker {how!r}"
            target = cwd / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a" if op == ">>" else "w") as fh:
                fh.write(("\n" if op == ">>" else "") + body)
    ws = tmp_path / "nativelink"
    assert cwd == ws

    # What the README says init writes for the demo.
    (gate,) = tomllib.loads((ws / "linkgate.toml").read_text())["gate"]
    assert gate["name"] == "nativelink"
    assert gate["cargo"] == ["test", "--release", "--test", "link_smoke", "--no-run"]
    assert gate["control"][0]["linkers"] == ["bfd"]
    # The job is in the workflow, installs exactly the pinned source, and lints clean.
    wf = ws / ".github" / "workflows" / "ci.yml"
    jobs = yaml.safe_load(wf.read_text())["jobs"]
    assert set(jobs) == {"check", "nativelink"}
    steps = " ".join(str(s.get("run", "")) for s in jobs["nativelink"]["steps"])
    # It installs the vendored wheel, after checking the sha256 the lock records.
    lock = tomllib.loads((ws / ".github" / "linkgate" / "linkgate.lock").read_text())
    assert f'echo "{lock["sha256"]}  .github/linkgate/{lock["wheel"]}" | sha256sum --check --strict -' in steps
    assert f"install --quiet ./.github/linkgate/{lock['wheel']}" in steps
    assert "linkgate run nativelink" in steps
    assert actionlint(ws, wf) == []
    assert [r[:2] for r in ran][:3] == [["linkgate", "demo"], ["linkgate", "init"], ["linkgate", "run"]]
