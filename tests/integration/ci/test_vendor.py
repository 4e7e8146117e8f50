"""`linkgate vendor`: this linkgate's wheel kept in the repository, and the job that installs
exactly that file after checking its hash (real pip, real venvs, actionlint and zizmor)."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from lgtest import git_repo
from workflow_lint import actionlint, zizmor

from linkgate.ci import install as install_mod
from linkgate.cli import main

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = """name: ci
on: [pull_request]
permissions: {}
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with: { persist-credentials: false }
      - run: cargo check --all-targets
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "nativelink"
    assert main(["demo", "--copy", str(root)]) == 0
    assert main(["init", "--repo", str(root)]) == 0
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def test_vendor_writes_the_wheel_and_the_job_installs_exactly_it(repo: Path, capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    assert main(["vendor"]) == 0
    lock = tomllib.loads((repo / ".github" / "linkgate" / "linkgate.lock").read_text())
    wheel = repo / ".github" / "linkgate" / lock["wheel"]
    assert wheel.is_file() and lock["wheel"].startswith("linkgate-")
    assert main(["vendor", "--check"]) == 0
    capsys.readouterr()

    assert main(["ci", "github", "nativelink", "--write"]) == 0
    err = capsys.readouterr().err
    assert f"installs the vendored wheel .github/linkgate/{lock['wheel']}, checked by its sha256" in err
    wf = repo / ".github" / "workflows" / "ci.yml"
    steps = yaml.safe_load(wf.read_text())["jobs"]["nativelink"]["steps"]
    (install,) = [s for s in steps if s.get("name") == "Install linkgate"]
    assert install["run"].splitlines()[0] == (
        f'echo "{lock["sha256"]}  .github/linkgate/{lock["wheel"]}" | sha256sum --check --strict -')
    assert f"install --quiet ./.github/linkgate/{lock['wheel']}" in install["run"]
    assert actionlint(repo, wf) == []
    assert zizmor(wf) == []

    # The install step as the runner runs it: the hash check passes, then the wheel from the written path.
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", install["run"]], cwd=repo, capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "RUNNER_TEMP": str(runner_temp), "GITHUB_PATH": str(tmp_path / "path")})
    assert done.returncode == 0, done.stdout + done.stderr
    env_dir = runner_temp / "linkgate"
    version = subprocess.run([str(env_dir / "bin" / "linkgate"), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith(f"linkgate, version {lock['version']}")

    # A wheel that is not the one the lock names: --check fails, and the job's check would stop it.
    with wheel.open("ab") as fh:
        fh.write(b"tampered")
    assert main(["vendor", "--check"]) == 1
    assert "but .github/linkgate/linkgate.lock says" in capsys.readouterr().err
    tampered = subprocess.run(["bash", "-euo", "pipefail", "-c", install["run"].splitlines()[0]], cwd=repo,
                              capture_output=True, text=True)
    assert tampered.returncode != 0


def test_vendor_check_without_a_vendored_wheel(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vendor", "--check"]) == 1
    assert "no .github/linkgate/linkgate.lock: run `linkgate vendor`" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["../outside", "/abs", "a b"])
def test_vendor_refuses_a_directory_outside_or_odd(repo: Path, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    assert main(["vendor", "--dir", bad]) == 2
    assert "--dir" in capsys.readouterr().err
    assert not (repo.parent / "outside").exists()


def test_a_lock_naming_an_unsafe_file_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = repo / ".github" / "linkgate"
    d.mkdir(parents=True)
    (d / "linkgate.lock").write_text('wheel = "x; rm -rf ~.whl"\nsha256 = "' + "0" * 64 + '"\n')
    assert main(["ci", "github", "nativelink"]) == 2
    assert "is not a linkgate wheel's file name" in capsys.readouterr().err


def test_an_index_spec_that_cannot_be_this_linkgate_is_warned_and_refused_under_strict(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # This linkgate is an editable install, never an index release: linkgate==V names nothing known.
    assert install_mod.installed_distribution() is not None
    assert main(["ci", "github", "nativelink", "--install", "linkgate==0.1.0"]) == 0
    err = capsys.readouterr().err
    assert "warning: install spec 'linkgate==0.1.0': names a package index release that cannot be shown" in err
    assert main(["ci", "github", "nativelink", "--install", "linkgate>=0.1"]) == 0
    assert "not pinned to one version" in capsys.readouterr().err
    assert main(["ci", "github", "nativelink", "--install", "linkgate==0.1.0", "--strict"]) == 2
    assert "vendor this linkgate" in capsys.readouterr().err
    # A commit-pinned URL is no index spec: no warning.
    spec = "git+https://github.com/example/linkgate@0123456789abcdef0123456789abcdef01234567"
    assert main(["ci", "github", "nativelink", "--install", spec, "--strict"]) == 0
    assert "warning" not in capsys.readouterr().err
