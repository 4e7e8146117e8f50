"""linkgate as a user gets it: `python -m build` makes an sdist and a wheel, and
the wheel, installed into a fresh venv, runs the demo (package data, the
wrapper's C source and the schemas included); the composite action installs
its own checkout. Dependencies come from the package index pip is set up with,
as for `make venv`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from lgtest import git_repo

import linkgate

ROOT = Path(__file__).resolve().parents[3]
VERSION = linkgate.__version__
DATA = sorted(p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src" / "linkgate" / "data").rglob("*")
              if p.is_file() and "target" not in p.parts)
CI_FIXTURE = ROOT / "tests" / "fixtures" / "ci" / "repo"

pytestmark = pytest.mark.slow


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    return {**env, **extra}


def sh(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, env=env or clean_env(), capture_output=True, text=True, timeout=500)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def project_copy(dest: Path) -> Path:
    """The project's files as a clone has them (tracked, or new and not ignored)."""
    listed = sh(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT)
    for rel in filter(None, listed.stdout.split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def test_build_makes_an_sdist_and_a_wheel_and_the_wheel_runs_the_demo(tmp_path: Path) -> None:
    src = project_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    sh([sys.executable, "-m", "build", "--outdir", str(dist), str(src)], tmp_path)
    wheel, sdist = dist / f"linkgate-{VERSION}-py3-none-any.whl", dist / f"linkgate-{VERSION}.tar.gz"
    assert sorted(p.name for p in dist.iterdir()) == sorted([wheel.name, sdist.name])
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        entry_points = whl.read(f"linkgate-{VERSION}.dist-info/entry_points.txt").decode()
    assert "linkgate/data/wrapper/linkgate-link.c" in DATA and "linkgate/data/schemas/run-1.json" in DATA
    assert set(DATA) <= names
    assert "cargo-linkgate = linkgate.cli:cargo_entry" in entry_points
    with tarfile.open(sdist) as tar:
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {f"src/{d}" for d in DATA} <= in_sdist

    venv = tmp_path / "venv"
    sh([sys.executable, "-m", "venv", str(venv)], tmp_path)
    sh([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], tmp_path)
    where = sh([str(venv / "bin" / "python"), "-c", "import linkgate; print(linkgate.__file__)"], tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv)
    # From a directory that is no checkout: everything the demo reads comes from the wheel.
    away = tmp_path / "elsewhere"
    away.mkdir()
    demo = sh([str(venv / "bin" / "linkgate"), "demo"], away)
    assert "demo OK" in demo.stdout + demo.stderr
    on_path = clean_env(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    version = sh(["cargo", "linkgate", "--version"], away, on_path)
    assert version.stdout == f"linkgate, version {VERSION}\n"


def test_the_action_installs_its_own_checkout_which_ci_github_refuses_to_name(tmp_path: Path) -> None:
    action = project_copy(tmp_path / "action")
    step = next(s for s in yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["steps"]
                if s.get("name") == "Install linkgate")
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    sh(["bash", "-e", "-c", step["run"]], tmp_path,
       clean_env(RUNNER_TEMP=str(runner_temp), GITHUB_ACTION_PATH=str(action)))
    venv = runner_temp / "linkgate"
    info = next((venv / "lib").glob(f"python3.*/site-packages/linkgate-{VERSION}.dist-info"))
    assert json.loads((info / "direct_url.json").read_text()) == {"dir_info": {}, "url": action.as_uri()}

    # That venv was installed from a local directory: `ci github` cannot name it as the job's source.
    repo = tmp_path / "repo"
    shutil.copytree(CI_FIXTURE, repo)
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text().split("\n# What the generated jobs")[0] + "\n")
    git_repo(repo)
    linkgate_bin = str(venv / "bin" / "linkgate")
    args = [linkgate_bin, "ci", "github", "xla-link", "--repository", "rtlab/rtcore"]
    refused = subprocess.run(args, cwd=repo, env=clean_env(), capture_output=True, text=True)
    assert refused.returncode == 2
    assert f"an install of the local directory {action}" in refused.stderr
    assert "[ci] install" in refused.stderr and "--install" in refused.stderr
    spec = "git+https://github.com/example/linkgate@" + "a" * 40
    job = sh([*args, "--install", spec], repo)
    assert f'"$RUNNER_TEMP/linkgate/bin/pip" install --quiet {spec}\n' in job.stdout


def test_the_release_workflow_lints_clean_and_tests_the_wheel_it_publishes() -> None:
    from workflow_lint import actionlint, zizmor

    wf = ROOT / ".github" / "workflows" / "release.yml"
    assert actionlint(ROOT, wf) == []
    assert zizmor(wf, min_severity="low") == []
    import yaml

    jobs = yaml.safe_load(wf.read_text())["jobs"]
    build_steps = " ".join(str(s.get("run", "")) for s in jobs["build"]["steps"])
    assert "python -m build" in build_steps and "linkgate\" --version" in build_steps
    assert jobs["publish"]["permissions"] == {"id-token": "write"}  # trusted publishing, no token
    assert jobs["publish"]["needs"] == "build" and jobs["attach"]["needs"] == "publish"
