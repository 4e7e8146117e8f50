"""`linkgate run` steps are links: the audit reads the gates they run from linkgate.toml
(tests/fixtures/audit/gates: a clippy job on `--features static` and a job running
`linkgate run bz-link`, whose gate is `cargo test --release --features static --test link --no-run`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "gates"
WF = ".github/workflows/ci.yml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURE, dest)
    return dest


def audit_json(repo: Path) -> tuple[int, dict[str, Any]]:
    out = repo.parent / "audit.json"
    rc = main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    return rc, json.loads(out.read_text())


def test_a_linkgate_run_step_links_its_gates_feature_set(repo: Path) -> None:
    rc, doc = audit_json(repo)
    assert [f["rule"] for f in doc["findings"]] == []
    assert rc == 0
    gate = [i for i in doc["invocations"] if i["job"] == "link"]
    assert [(i["file"], i["line"], i["argv"], i["exercise"], i["feature_sets"], i["cwd"]) for i in gate] == [
        (WF, 17, ["cargo", "test", "--release", "--features", "static", "--test", "link", "--no-run"],
         "linked", ["static"], ""),
    ]
    assert gate[0]["via"] == [
        f"{WF}:17 linkgate run bz-link --format json --output linkgate-bz-link.json", "linkgate.toml:1 gate bz-link"]
    # Its own directory, as `linkgate run` builds (gate/layout.py), not the job's target/.
    assert gate[0]["target_dir"] == "target/linkgate/bz-link"


def test_the_table_shows_the_set_linked_by_the_gate_job(repo: Path) -> None:
    out = repo.parent / "audit.txt"
    assert main(["audit", "--repo", str(repo), "--output", str(out)]) == 0
    row = next(line for line in out.read_text().splitlines() if " static " in line)
    cells = [c.strip() for c in row.strip("│ \n").split("│")]
    # Rows are per package: the set is bz's.
    assert cells == ["bz: static", "-", "ci/clippy", "-", "ci/link", "-"]
    md = repo.parent / "audit.md"
    main(["audit", "--repo", str(repo), "--format", "markdown", "--output", str(md)])
    assert "| `bz: static` | - | ci/clippy | - | ci/link | - |" in md.read_text().splitlines()


def test_without_the_gate_job_the_set_is_never_linked(repo: Path) -> None:
    wf = repo / WF
    wf.write_text(wf.read_text().split("\n  link:\n")[0] + "\n")
    rc, doc = audit_json(repo)
    assert [(f["rule"], f["line"], f["subject"]) for f in doc["findings"]] == [("never-linked", 9, "static")]
    assert rc == 1


def test_a_missing_configuration_is_a_note_and_the_rest_is_audited(repo: Path) -> None:
    (repo / "linkgate.toml").unlink()
    rc, doc = audit_json(repo)
    assert [(f["rule"], f["level"], f["file"], f["line"]) for f in doc["findings"]] == [
        ("never-linked", "error", WF, 9), ("unresolved", "note", WF, 17)]
    assert doc["findings"][1]["message"] == (
        "`linkgate run` reads no usable linkgate configuration (no linkgate.toml, nor a linkgate table in "
        "Cargo.toml metadata); the gates it runs are not audited")
    assert rc == 1


def test_an_invalid_configuration_named_by_config_is_a_note(repo: Path) -> None:
    (repo / "linkgate.toml").rename(repo / "ci-linkgate.toml")
    (repo / "ci-linkgate.toml").write_text((repo / "ci-linkgate.toml").read_text().replace('"bfd"', '"bdf"'))
    wf = repo / WF
    wf.write_text(wf.read_text().replace("linkgate run bz-link", "linkgate run --config ci-linkgate.toml bz-link"))
    _, doc = audit_json(repo)
    notes = [f["message"] for f in doc["findings"] if f["rule"] == "unresolved"]
    assert notes == ["`linkgate run` reads no usable linkgate configuration (ci-linkgate.toml:4: gate.bz-link.linkers: "
                     "unknown linker 'bdf'); the gates it runs are not audited"]
