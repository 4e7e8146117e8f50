"""`linkgate ci github`: a generated job has the linkers its gate links with."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from workflow_lint import actionlint, zizmor

from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
SELF_HOSTED = 'runner = ["self-hosted", "gb10", "cuda"]\n'


def set_gate(repo: Path, linkers: str, runner: str | None) -> None:
    cfg = (repo / "linkgate.toml").read_text()
    cfg = cfg.replace('linkers = ["default", "bfd"]', f"linkers = {linkers}")
    cfg = cfg.replace(SELF_HOSTED, "" if runner is None else f"runner = {runner}\n")
    (repo / "linkgate.toml").write_text(cfg)


def steps(doc: dict, job: str) -> list[dict]:
    return list(doc["jobs"][job]["steps"])


def test_hosted_ubuntu_job_installs_mold_and_passes_the_linters(repo: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    set_gate(repo, '["default", "bfd", "mold"]', None)
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    assert "no install step" not in capsys.readouterr().err
    doc = yaml.safe_load((repo / WF).read_text())
    runs = [s.get("run", "") for s in steps(doc, "xla-link")]
    install = [r for r in runs if "apt-get install" in r]
    assert install == ["sudo apt-get update -qq\nsudo apt-get install -y --no-install-recommends mold\n"
                       "mold --version | head -n 1\n"]
    # Installed before the link runs.
    assert runs.index(install[0]) < next(i for i, r in enumerate(runs) if r.startswith("linkgate run"))
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
    # The step is real bash that installs what the linker check looks for.
    assert "bfd" not in install[0] and "binutils" not in install[0]


def test_hosted_gold_and_lld_install_their_packages(repo: Path) -> None:
    set_gate(repo, '["gold", "lld", "bfd"]', '["ubuntu-24.04"]')
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    doc = yaml.safe_load((repo / WF).read_text())
    install = [s["run"] for s in steps(doc, "xla-link") if "apt-get install" in s.get("run", "")]
    assert len(install) == 1 and "--no-install-recommends binutils lld\n" in install[0]


def test_self_hosted_job_checks_first_and_names_the_missing_linker(repo: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    set_gate(repo, '["default", "mold"]', '["self-hosted", "gb10", "cuda"]')
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    err = capsys.readouterr().err
    assert "linker 'mold' of gate 'xla-link' has no install step" in err
    assert "must have mold (apt package mold)" in err
    doc = yaml.safe_load((repo / WF).read_text())
    job = steps(doc, "xla-link")
    assert not any("sudo apt-get" in s.get("run", "") for s in job)
    check = next(s for s in job if s.get("name", "").startswith("Check the linkers"))
    names = [s.get("name") for s in job]
    assert names.index(check["name"]) < names.index("Link xla-link")
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
    # Run the check as the runner would: on a PATH without mold it fails, naming it.
    empty = tmp_path / "bin"
    empty.mkdir()
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run([bash, "-e", "-c", check["run"]], capture_output=True, text=True,
                          env={"PATH": str(empty)})
    assert done.returncode == 1
    assert "::error::linker 'mold' needs mold, which this runner does not have" in done.stdout
    # With mold on PATH it passes.
    done = subprocess.run([bash, "-e", "-c", check["run"]], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_macos_runner_warns_that_no_step_installs_the_linker(repo: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    set_gate(repo, '["default", "lld"]', '["macos-14"]')
    assert main(["ci", "github", "xla-link"]) == 0
    captured = capsys.readouterr()
    assert "linker 'lld' of gate 'xla-link' has no install step: macos-14 has no apt" in captured.err
    assert "apt-get" not in captured.out


def test_matrix_legs_install_their_own_linker_and_cache_per_linker(repo: Path) -> None:
    set_gate(repo, '["default", "bfd", "mold"]', None)
    assert main(["ci", "github", "xla-link", "--matrix", "--write"]) == 0
    doc = yaml.safe_load((repo / WF).read_text())
    leg = steps(doc, "xla-link")
    cache = next(s for s in leg if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["key"].startswith("linkgate-xla-link-${{ matrix.linker }}-${{ runner.os }}-")
    assert cache["with"]["restore-keys"] == "linkgate-xla-link-${{ matrix.linker }}-${{ runner.os }}-\n"
    assert cache["with"]["path"] == "target/linkgate/xla-link/${{ matrix.linker }}"
    install = [s for s in leg if "apt-get install" in s.get("run", "")]
    assert [s["if"] for s in install] == ["matrix.linker == 'mold'"]
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []


@pytest.mark.parametrize("mode", [[], ["--check"], ["--write"]])
@pytest.mark.parametrize("trigger", ["every-pr", "schedule:17 3 * * *"])
def test_after_naming_no_job_is_refused_in_every_mode(repo: Path, capsys: pytest.CaptureFixture[str],
                                                      mode: list[str], trigger: str) -> None:
    # Written once first: updating a job already there never looks at --after.
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--write"]) == 0
    before = (repo / WF).read_text()
    capsys.readouterr()
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--after", "nosuchjob", *mode]) == 2
    err = capsys.readouterr().err
    jobs = "jobs: xla-link" if trigger.startswith("schedule") else "jobs: changes, lint, test, xla-compile, xla-link"
    assert "no job 'nosuchjob' to insert after" in err and jobs in err
    assert (repo / WF).read_text() == before
    valid = "xla-link" if trigger.startswith("schedule") else "lint"
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--after", valid, *mode]) == 0


def test_after_on_a_new_scheduled_workflow_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ci", "github", "xla-link", "--trigger", "schedule:17 3 * * *", "--after", "lint"]) == 2
    assert "is a new workflow, with no job to insert after" in capsys.readouterr().err
