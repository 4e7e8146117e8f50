"""Controls on a cc-style -sys crate: cargo watches none of its C sources.

The fixture's build script compiles vendor/zlite/*.c itself and prints only
rerun-if-env-changed lines, as the `cc` crate does, so a changed C source
never makes cargo rerun it. Both a control's mutated build and the first
build after an interruption must still see the file as it is on disk.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lgtest import git, git_repo, sha

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ccsys"
LINKGATE = [sys.executable, "-m", "linkgate"]
C_FILE = "zsys/vendor/zlite/checksum.c"
DEFINITION = b"unsigned long zl_checksum("

RENAME_CONTROL = """
[[gate.control]]
name = "rename-checksum"
file = "zsys/vendor/zlite/checksum.c"
replace = { pattern = '^unsigned long zl_checksum\\(', with = 'unsigned long zl_checksum_renamed(' }
expect-kind = "undefined-symbol"
expect-match = "zl_checksum"
"""


@pytest.fixture
def ccsys(tmp_path: Path) -> Path:
    root = tmp_path / "ccsys"
    shutil.copytree(FIXTURE, root)
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text() + RENAME_CONTROL)
    (root / ".gitignore").write_text("target/\nCargo.lock\n")  # deliberately no .linkgate/
    git_repo(root)
    return root


def rebuild_mode(root: Path) -> None:
    """A full build per linker (linker-matrix = "rebuild"): the interruption tests
    below check that *each* linker's own target directory is recovered."""
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]\n',
                                           'linkers = ["default", "bfd"]\nlinker-matrix = "rebuild"\n'))
    git(root, "commit", "-qam", "rebuild mode")


def _json(capsys: pytest.CaptureFixture[str]) -> dict:
    return json.loads(capsys.readouterr().out)


def archives(root: Path, linker: str) -> list[Path]:
    return sorted((root / "target/linkgate/calls" / linker).glob("release/build/zsys-*/out/libzlite.a"))


def test_c_source_control_is_caught_under_every_linker_on_a_warm_tree(ccsys, monkeypatch, capsys):
    monkeypatch.chdir(ccsys)
    assert main(["run", "-q", "--format", "json"]) == 0, capsys.readouterr()
    capsys.readouterr()
    # A committed change elsewhere makes cargo relink the test in the mutated
    # build anyway: "something linked" must not pass for "the C source was seen".
    lib = ccsys / "app/src/lib.rs"
    lib.write_text(lib.read_text() + "\n// touched\n")
    git(ccsys, "commit", "-qam", "touch app")
    before = sha(ccsys / C_FILE)
    rc = main(["prove", "-q", "--format", "json", "--control", "rename-checksum"])
    doc = _json(capsys)
    outcomes = {c["linker"]: c for c in doc["controls"]}
    assert set(outcomes) == {"default", "bfd"}
    for linker, c in outcomes.items():
        assert c["outcome"] == "caught", (linker, c["reason"], c["notes"])
        assert c["mutated"]["verdict"] == "link-failed"
        assert "undefined-symbol" in [d["kind"] for d in c["mutated"]["diagnostics"]]
        assert c["restored"]["verdict"] == "linked" and c["restored"]["linked"]
        assert any("outside every rerun-if-changed of the build script of package zsys," in n
                   for n in c["notes"]), c["notes"]
    assert rc == 0
    assert sha(ccsys / C_FILE) == before
    # Every archive the builds left behind is the pristine one.
    for linker in ("default", "bfd"):
        for a in archives(ccsys, linker):
            assert b"zl_checksum_renamed" not in a.read_bytes(), a


def _pausing_cargo(tmp_path: Path, root: Path) -> tuple[dict[str, str], Path]:
    """A `cargo` on PATH that runs the real one, then, after the mutated build
    of the last linker, says so and sleeps: the moment to kill -9 prove.
    The seam is PATH; cargo, cc and the linkers are real."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    marker = tmp_path / "mutated-build-done"
    wrapper = bindir / "cargo"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'"{shutil.which("cargo")}" "$@"\n'
        "rc=$?\n"
        'case "$CARGO_TARGET_DIR" in */bfd)\n'
        f"  if ! grep -q '^unsigned long zl_checksum(' '{root / C_FILE}'; then\n"
        f"    echo $$ > '{marker}.tmp' && mv '{marker}.tmp' '{marker}'; sleep 120\n"
        "  fi;;\nesac\nexit $rc\n"
    )
    wrapper.chmod(0o755)
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    return env, marker


def test_kill_9_after_the_mutated_build_then_run_links_under_every_linker(ccsys, tmp_path):
    rebuild_mode(ccsys)
    c_file = ccsys / C_FILE
    original, mode = sha(c_file), c_file.stat().st_mode
    warm = subprocess.run([*LINKGATE, "run", "-q"], cwd=ccsys, capture_output=True, text=True)
    assert warm.returncode == 0, warm.stderr
    env, marker = _pausing_cargo(tmp_path, ccsys)
    prove = subprocess.Popen(
        [*LINKGATE, "prove", "-q", "--control", "rename-checksum"], cwd=ccsys, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    deadline = time.monotonic() + 300
    while not marker.exists():
        assert prove.poll() is None, prove.stderr.read() if prove.stderr else ""
        assert time.monotonic() < deadline, "the mutated build never finished"
        time.sleep(0.05)
    os.killpg(prove.pid, signal.SIGKILL)
    prove.wait()
    os.kill(int(marker.read_text()), signal.SIGKILL)  # the paused wrapper, in cargo's own session
    # The scene the issue describes: file mutated, journal present, and both
    # target dirs caching an archive built from the mutated source.
    assert sha(c_file) != original
    assert (ccsys / ".linkgate/journal.json").exists()
    for linker in ("default", "bfd"):
        assert any(b"zl_checksum_renamed" in a.read_bytes() for a in archives(ccsys, linker)), linker

    done = subprocess.run([*LINKGATE, "run", "-q", "--format", "json"], cwd=ccsys, capture_output=True, text=True)
    assert "restored: " + C_FILE in done.stderr
    doc = json.loads(done.stdout)
    verdicts = {r["linker"]: r for r in doc["results"]}
    assert {ln: r["verdict"] for ln, r in verdicts.items()} == {"default": "linked", "bfd": "linked"}, done.stdout
    for r in verdicts.values():
        assert [a["target"] for a in r["linked"]] == ["calls"]
        assert r["units_compiled"] >= 2, "zsys must have been rebuilt from the pristine source"
    assert done.returncode == 0
    assert sha(c_file) == original and c_file.stat().st_mode == mode
    assert not (ccsys / ".linkgate/journal.json").exists()
    assert git(ccsys, "status", "--porcelain") == ""


def test_kill_9_during_the_mutated_build_leaves_cargo_running_and_run_still_links(ccsys):
    """Builds run in their own session, so kill -9 of linkgate can orphan a
    cargo building the mutated tree (it usually dies soon on its closed stdout).
    Whatever it leaves, the next run must link the pristine tree; recovery
    waits for cargo's build-directory lock before invalidating."""
    rebuild_mode(ccsys)
    c_file = ccsys / C_FILE
    original = sha(c_file)
    warm = subprocess.run([*LINKGATE, "run", "-q"], cwd=ccsys, capture_output=True, text=True)
    assert warm.returncode == 0, warm.stderr
    prove = subprocess.Popen(
        [*LINKGATE, "prove", "--control", "rename-checksum"], cwd=ccsys,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    assert prove.stderr is not None
    for line in prove.stderr:  # plain progress lines: stderr is not a terminal
        if "[bfd]: building with the defect in place" in line:
            break
    else:
        pytest.fail("prove never reached the mutated bfd build")
    time.sleep(0.3)  # cargo is running: the build script is rerunning on the mutated source
    os.killpg(prove.pid, signal.SIGKILL)
    prove.wait()
    assert sha(c_file) != original
    done = subprocess.run([*LINKGATE, "run", "-q", "--format", "json"], cwd=ccsys, capture_output=True, text=True)
    doc = json.loads(done.stdout)
    assert {r["linker"]: r["verdict"] for r in doc["results"]} == {"default": "linked", "bfd": "linked"}, (
        done.stderr, doc)
    assert done.returncode == 0
    assert sha(c_file) == original
    for linker in ("default", "bfd"):
        for a in archives(ccsys, linker):
            assert b"zl_checksum_renamed" not in a.read_bytes(), a


def test_sigterm_during_the_mutated_build_restores_and_invalidates_before_exit(ccsys):
    rebuild_mode(ccsys)
    c_file = ccsys / C_FILE
    original = sha(c_file)
    warm = subprocess.run([*LINKGATE, "run", "-q"], cwd=ccsys, capture_output=True, text=True)
    assert warm.returncode == 0, warm.stderr
    prove = subprocess.Popen(
        [*LINKGATE, "prove", "--control", "rename-checksum"], cwd=ccsys,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert prove.stderr is not None
    for line in prove.stderr:
        if "[bfd]: building with the defect in place" in line:
            break
    else:
        pytest.fail("prove never reached the mutated bfd build")
    prove.send_signal(signal.SIGTERM)
    assert prove.wait(timeout=120) == 143
    # The signal handler restored the file and invalidated the caches itself:
    # no journal is left for the next run to act on.
    assert sha(c_file) == original
    assert not (ccsys / ".linkgate/journal.json").exists()
    done = subprocess.run([*LINKGATE, "run", "-q", "--format", "json"], cwd=ccsys, capture_output=True, text=True)
    assert "restored" not in done.stderr
    assert {r["linker"]: r["verdict"] for r in json.loads(done.stdout)["results"]} == {
        "default": "linked", "bfd": "linked"}, done.stdout
