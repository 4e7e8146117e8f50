"""`ci github --trigger paths` with the gate's own `paths`: the filter it writes
passes `surface --check-filter`, or it says what it left out and why."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
PATHS = 'paths = ["build.rs", "native/**"]\n'


def with_paths(repo: Path, extra: str = "") -> None:
    cfg = (repo / "linkgate.toml").read_text()
    (repo / "linkgate.toml").write_text(cfg.replace("why = ", PATHS + extra + "why = ", 1))


def read_from_workflow(repo: Path) -> None:
    """The gate now takes its filter from the workflow, so `surface --check-filter`
    judges exactly the filter `ci github` wrote."""
    cfg = (repo / "linkgate.toml").read_text().replace(
        PATHS, 'paths-from = { workflow = ".github/workflows/ci.yml", filter = "xla-link" }\n')
    (repo / "linkgate.toml").write_text(cfg)


def test_written_filter_passes_check_filter_and_names_what_it_added(repo: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with_paths(repo)
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    err = capsys.readouterr().err
    assert "filter 'xla-link': added Cargo.toml to the gate's paths (workspace manifest)" in err
    assert "filter 'xla-link': added linkgate.toml to the gate's paths: it defines the gate" in err
    doc = yaml.safe_load((repo / WF).read_text())
    written = yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])["xla-link"]
    assert written[:2] == ["build.rs", "native/**"]
    assert {"Cargo.toml", "Cargo.lock", "linkgate.toml"} <= set(written)
    read_from_workflow(repo)
    assert main(["surface", "xla-link", "--static", "--check-filter"]) == 0
    assert "not matched by filter" not in capsys.readouterr().out


def test_under_every_nothing_is_added_and_the_notes_say_what_is_left_out(repo: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with_paths(repo, 'predicate-quantifier = "every"\n')
    assert main(["ci", "github", "xla-link", "--trigger", "paths"]) == 0
    captured = capsys.readouterr()
    assert "filter 'xla-link': left out Cargo.toml (workspace manifest): under predicate-quantifier = every" in captured.err
    assert "left out linkgate.toml" in captured.err
    assert "- 'Cargo.toml'" not in captured.out.split("filters: |")[-1].split("xla-link:")[-1]


def test_paths_that_cover_the_surface_get_no_note(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = (repo / "linkgate.toml").read_text()
    (repo / "linkgate.toml").write_text(cfg.replace("why = ", 'paths = ["**"]\n' + "why = ", 1))
    assert main(["ci", "github", "xla-link", "--trigger", "paths"]) == 0
    assert "filter 'xla-link'" not in capsys.readouterr().err
