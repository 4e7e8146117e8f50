"""What the jobs `ci github` writes pip-install linkgate from: `--install`, else
`[ci] install`, else how the running linkgate was installed (its PEP 610
direct_url.json), pinned; a source no CI runner can reach is refused."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from linkgate.ci import install
from linkgate.cli import main

WF = Path(".github/workflows/ci.yml")
COMMIT = "0123456789abcdef0123456789abcdef01234567"
SHA256 = hashlib.sha256(b"linkgate").hexdigest()


def drop_ci_table(repo: Path) -> None:
    cfg = repo / "linkgate.toml"
    text = cfg.read_text()
    cfg.write_text(text[:text.index("\n# What the generated jobs")] + "\n")


def install_args(repo: Path, path: Path = WF) -> list[list[str]]:
    """The `pip install` arguments of every install step in the workflow."""
    doc = yaml.safe_load((repo / path).read_text())
    found = []
    for job in doc["jobs"].values():
        for step in job.get("steps", []):
            if step.get("name") == "Install linkgate":
                pip = next(line for line in step["run"].splitlines() if "bin/pip" in line)
                found.append(shlex.split(pip)[1:])
    assert found, "no install step"
    return found


def fake_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, direct_url: dict[str, Any] | None,
                      version: str = "9.8.7") -> None:
    """A linkgate dist-info directory first on sys.path, as pip leaves one."""
    site = tmp_path / "site"
    info = site / f"linkgate-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: linkgate\nVersion: {version}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    monkeypatch.syspath_prepend(str(site))
    assert install.installed_distribution() == (
        None if direct_url is None else json.dumps(direct_url), version)


def test_an_editable_install_with_no_source_is_refused_naming_both_ways_to_give_one(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The suite runs from `make venv`'s editable install: a local directory, as a new user's clone is.
    installed = install.installed_distribution()
    assert installed is not None and installed[0] is not None and "dir_info" in json.loads(installed[0])
    drop_ci_table(repo)
    before = (repo / WF).read_bytes()
    assert main(["ci", "github", "xla-link", "--write"]) == 2
    err = capsys.readouterr().err
    assert "[ci] install" in err and "--install" in err and "local directory" in err
    assert len(err.strip().splitlines()) == 2  # the message and its hint, no traceback
    assert (repo / WF).read_bytes() == before


def test_install_option_is_exactly_what_every_install_step_installs(repo: Path) -> None:
    spec = f"git+https://github.com/example/linkgate@{COMMIT}"
    drop_ci_table(repo)
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--install", spec, "--write"]) == 0
    assert install_args(repo) == [["install", "--quiet", spec]]
    # plan, legs and merge each install it
    assert main(["ci", "github", "xla-link", "--matrix", "--install", spec, "--write"]) == 0
    assert install_args(repo) == [["install", "--quiet", spec]] * 3


def test_install_option_wins_over_the_configuration(repo: Path) -> None:
    spec = f"git+https://github.com/example/linkgate@{COMMIT}"
    assert main(["ci", "github", "xla-link", "--install", spec, "--write"]) == 0
    assert install_args(repo) == [["install", "--quiet", spec]]
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    configured = re.search(r'^install = "(.*)"$', (repo / "linkgate.toml").read_text(), re.M)
    assert configured and install_args(repo) == [["install", "--quiet", configured[1]]]


def test_check_compares_the_install_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    assert main(["ci", "github", "xla-link", "--check"]) == 0
    other = f"git+https://github.com/rtlab/linkgate@{'f' * 40}"
    capsys.readouterr()
    assert main(["ci", "github", "xla-link", "--install", other, "--check"]) == 1
    diff = capsys.readouterr().out
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert len(changed) == 2 and all("bin/pip\" install --quiet" in line for line in changed)
    assert changed[1].endswith(other)


@pytest.mark.parametrize(("direct_url", "spec"), [
    # a git install: the commit pip checked out, never the branch that was asked for
    ({"url": "https://github.com/rtlab/linkgate.git",
      "vcs_info": {"vcs": "git", "requested_revision": "main", "commit_id": COMMIT}},
     f"git+https://github.com/rtlab/linkgate.git@{COMMIT}"),
    ({"url": "ssh://git@github.com/rtlab/tools.git", "subdirectory": "linkgate",
      "vcs_info": {"vcs": "git", "requested_revision": "v1", "commit_id": COMMIT}},
     f"git+ssh://git@github.com/rtlab/tools.git@{COMMIT}#subdirectory=linkgate"),
    # an archive or wheel URL keeps its hash
    ({"url": "https://example.com/dl/linkgate-9.8.7.tar.gz",
      "archive_info": {"hash": f"sha256={SHA256}", "hashes": {"sha256": SHA256}}},
     f"https://example.com/dl/linkgate-9.8.7.tar.gz#sha256={SHA256}"),
    ({"url": "https://example.com/dl/linkgate-9.8.7-py3-none-any.whl", "archive_info": {"hash": f"sha256={SHA256}"}},
     f"https://example.com/dl/linkgate-9.8.7-py3-none-any.whl#sha256={SHA256}"),
    # no direct_url.json: installed from a package index
    (None, "linkgate==9.8.7"),
])
def test_the_source_follows_how_this_linkgate_was_installed(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        direct_url: dict[str, Any] | None, spec: str) -> None:
    fake_distribution(tmp_path, monkeypatch, direct_url)
    drop_ci_table(repo)
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    assert install_args(repo) == [["install", "--quiet", spec]]
    assert "main" not in (repo / WF).read_text().split("Install linkgate", 1)[1].split("\n")[2]
    assert f"installs linkgate from {spec}" in capsys.readouterr().err


@pytest.mark.parametrize(("direct_url", "says"), [
    ({"url": "file:///home/me/linkgate", "dir_info": {}}, "an install of the local directory /home/me/linkgate"),
    ({"url": "file:///home/me/linkgate", "dir_info": {"editable": True}}, "an editable install of the local"),
    ({"url": "file:///home/me/dist/linkgate-9.8.7-py3-none-any.whl", "archive_info": {"hashes": {"sha256": SHA256}}},
     "a file on this machine"),
    ({"url": "file:///home/me/linkgate", "vcs_info": {"vcs": "git", "commit_id": COMMIT}}, "a file on this machine"),
    ({"url": "https://example.com/linkgate.tar.gz", "archive_info": {}}, "no hash recorded"),
    ({"url": "https://github.com/rtlab/linkgate", "vcs_info": {"vcs": "git", "requested_revision": "main"}},
     "no commit id recorded"),
])
def test_a_source_no_runner_can_reach_is_refused(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        direct_url: dict[str, Any], says: str) -> None:
    fake_distribution(tmp_path, monkeypatch, direct_url)
    drop_ci_table(repo)
    before = (repo / WF).read_bytes()
    assert main(["ci", "github", "xla-link", "--write"]) == 2
    err = capsys.readouterr().err
    assert says in err and "[ci] install" in err and "--install" in err and "Traceback" not in err
    assert (repo / WF).read_bytes() == before


BAD_SPECS = [
    ("${{ github.event.pull_request.head.ref }}", "${{"),
    ("linkgate==1\necho pwned", "one line"),
    ("--index-url=https://evil.example/simple", "start with '-'"),
    ("-e git+https://github.com/rtlab/linkgate@main", "start with '-'"),
    ("file:///tmp/linkgate-0.1.0-py3-none-any.whl", "a file on this machine"),
    ("linkgate @ file:///tmp/linkgate", "a file on this machine"),
    ("ftp://example.com/linkgate.tar.gz", "scheme 'ftp'"),
    ("linkgate is great", "neither a URL nor a pip requirement"),
    ("", "must not be empty"),
]


@pytest.mark.parametrize(("spec", "says"), BAD_SPECS)
def test_a_bad_install_option_is_refused(repo: Path, capsys: pytest.CaptureFixture[str], spec: str, says: str) -> None:
    assert main(["ci", "github", "xla-link", "--install", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith("linkgate: error: --install") and says in err


@pytest.mark.parametrize(("spec", "says"), BAD_SPECS)
def test_a_bad_configured_install_is_refused_with_file_line_and_key(
        repo: Path, capsys: pytest.CaptureFixture[str], spec: str, says: str) -> None:
    cfg = repo / "linkgate.toml"
    text = cfg.read_text()
    cfg.write_text(re.sub(r'^install = ".*"$', lambda _: "install = " + json.dumps(spec), text, flags=re.M))
    line = cfg.read_text().splitlines().index("install = " + json.dumps(spec)) + 1
    assert main(["ci", "github", "xla-link"]) == 2
    err = capsys.readouterr().err
    assert f"linkgate.toml:{line}: ci.install: " in err and says in err


def test_an_unknown_ci_key_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace("\ninstall = ", "\ninstal = "))
    assert main(["ci", "github", "xla-link"]) == 2
    assert "ci.instal: unknown key 'instal'" in capsys.readouterr().err


@pytest.mark.parametrize("spec", [
    "https://example.com/l'x$(touch${IFS}pwned)`touch${IFS}pwned2`.whl#sha256=" + SHA256,
    'linkgate==1.0; python_version >= "3.11" and sys_platform != "win32"',
    "linkgate @ git+https://github.com/rtlab/linkgate@" + COMMIT,
])
def test_the_install_line_passes_the_spec_to_pip_as_one_argument(repo: Path, tmp_path: Path, spec: str) -> None:
    assert main(["ci", "github", "xla-link", "--install", spec, "--write"]) == 0
    step = next(s for s in yaml.safe_load((repo / WF).read_text())["jobs"]["xla-link"]["steps"]
                if s.get("name") == "Install linkgate")
    # Run the step as the runner's bash would, with pip and python3 as recorders.
    runner_temp, stubs = tmp_path / "runner", tmp_path / "stubs"
    (runner_temp / "linkgate" / "bin").mkdir(parents=True)
    stubs.mkdir()
    record = tmp_path / "pip-argv"
    pip = runner_temp / "linkgate" / "bin" / "pip"
    pip.write_text(f'#!/bin/bash\nprintf "%s\\0" "$@" > {shlex.quote(str(record))}\n')
    (stubs / "python3").write_text("#!/bin/bash\nexit 0\n")
    for stub in (pip, stubs / "python3"):
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}", "RUNNER_TEMP": str(runner_temp),
           "GITHUB_PATH": str(tmp_path / "github-path")}
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert record.read_text().split("\0")[:-1] == ["install", "--quiet", spec]
    assert not list(tmp_path.glob("pwned*"))


def test_the_ci_page_example_configures_the_install(repo: Path) -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "commands" / "ci.md").read_text()
    section = page[page.index("## What the job installs"):]
    found = re.search(r"```toml\n(.*?)```", section, re.S)
    assert found, "the section lost its toml block"
    drop_ci_table(repo)
    (repo / "linkgate.toml").write_text((repo / "linkgate.toml").read_text() + "\n" + found[1])
    assert main(["ci", "github", "xla-link", "--write"]) == 0
    spec = re.search(r'install = "(.*)"', found[1])
    assert spec and install_args(repo) == [["install", "--quiet", spec[1]]]
