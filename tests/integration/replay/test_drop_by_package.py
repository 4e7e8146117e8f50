"""A `drop-directive` naming a package drops that package's copy, and only that one.

The fixture (tests/fixtures/bzpair): bzlink1 and bzlink2 both print
`rustc-link-lib=bz2`; the gate's test uses bzlink1 only, so its link line has
one `-lbz2`, bzlink1's. Copies used to be handed out in the order the build
scripts ran, which cargo does not fix: dropping bzlink2's copy was "caught" in
some cold runs (it took bzlink1's) and an error in others, and `prove
--replay` of the file control deleting bzlink2's line dropped both packages'
copies. A full build says bzlink2's line is not needed by this gate, under
every linker. Real cargo, the system's libbz2 and all five linkers.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "bzpair"
LINKERS = {"default", "bfd", "gold", "mold", "lld"}
TRUTH = {
    "drop-bz2-of-bzlink2": "not-reproduced", "delete-bzlink2-line": "not-reproduced",
    "drop-bz2-of-bzlink1": "caught", "delete-bzlink1-line": "caught",
}


@pytest.fixture
def bzpair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "bzpair"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def _prove(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    main(["prove", "-q", "--no-history", "--format", "json", *args])
    return json.loads(capsys.readouterr().out)["controls"]


def _outcomes(controls: list[dict]) -> dict[tuple[str, str], str]:
    return {(c["name"], c["linker"]): c["outcome"] for c in controls}


def _cold(root: Path) -> None:
    for d in ("target", ".linkgate"):
        shutil.rmtree(root / d, ignore_errors=True)


def test_the_same_drop_control_gives_the_same_outcome_in_every_cold_run(bzpair, capsys):
    by_replay = ["--control", "drop-bz2-of-bzlink2", "--control", "drop-bz2-of-bzlink1"]
    seen = []
    for _ in range(5):
        _cold(bzpair)  # each trial builds from nothing: cargo runs the build scripts in its own order
        seen.append(_outcomes(_prove(capsys, *by_replay)))
    want = {(n, ln): TRUTH[n] for n in ("drop-bz2-of-bzlink2", "drop-bz2-of-bzlink1") for ln in LINKERS}
    assert all(s == want for s in seen), seen


def test_replay_and_a_full_build_agree_under_every_linker(bzpair, capsys):
    replayed = _prove(capsys, "--control", "drop-bz2-of-bzlink2", "--control", "drop-bz2-of-bzlink1")
    for c in replayed:
        assert c["replayed"] and c["outcome"] == TRUTH[c["name"]], c
        if c["name"] == "drop-bz2-of-bzlink2":
            # The evidence: bzlink2 is not on the line, so nothing was dropped from it.
            assert "bzlink2's crate is not on the gate's link line (first)" in c["explanation"], c
            assert "bzlink2/build.rs:5" in c["mutation"], c
        else:
            assert c["mutated"]["verdict"] == "link-failed", c

    # The file controls, by a full build (mutate bzlink2/build.rs, rebuild, restore).
    full = _prove(capsys, "--control", "delete-bzlink2-line", "--control", "delete-bzlink1-line")
    assert _outcomes(full) == {(n, ln): TRUTH[n] for n in ("delete-bzlink2-line", "delete-bzlink1-line")
                               for ln in LINKERS}, [(c["name"], c["linker"], c["outcome"], c["reason"]) for c in full]
    assert not any(c["replayed"] for c in full)

    # The same file controls judged by replay (--replay): only the mutated script's copy goes.
    by_replay = _prove(capsys, "--replay", "--control", "delete-bzlink2-line", "--control", "delete-bzlink1-line")
    assert _outcomes(by_replay) == _outcomes(full), [(c["name"], c["linker"], c["outcome"], c["notes"]) for c in by_replay]
    assert all(c["replayed"] for c in by_replay)


def test_rebuild_mode_judges_the_drop_controls_the_same(bzpair, capsys):
    # Each linker builds on its own (its own target dir, its own build-script order).
    cfg = bzpair / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = [', 'linker-matrix = "rebuild"\nlinkers = [', 1))
    controls = _prove(capsys, "--control", "drop-bz2-of-bzlink2", "--control", "drop-bz2-of-bzlink1")
    assert _outcomes(controls) == {(n, ln): TRUTH[n] for n in ("drop-bz2-of-bzlink2", "drop-bz2-of-bzlink1")
                                   for ln in LINKERS}, [(c["name"], c["linker"], c["outcome"], c["reason"]) for c in controls]


def test_prove_replay_of_one_of_two_equal_lines_leaves_the_crates_copy(bzpair, capsys):
    # bzlink1 prints bz2 twice; deleting one line leaves bzlink1 linking bz2 (one copy per crate).
    script = bzpair / "bzlink1/build.rs"
    script.write_text(script.read_text().replace(
        '    println!("cargo:rustc-link-lib=bz2");\n',
        '    println!("cargo:rustc-link-lib=bz2");\n    println!("cargo:rustc-link-lib=bz2"); // again\n'))
    cfg = bzpair / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd", "gold", "mold", "lld"]', 'linkers = ["bfd"]')
                   + '\n[[gate.control]]\nname = "delete-one-of-two"\nfile = "bzlink1/build.rs"\ndelete = "// again"\n')
    from lgtest import git

    git(bzpair, "commit", "-qam", "print it twice")
    (c,) = _prove(capsys, "--replay", "--control", "delete-one-of-two")
    assert c["outcome"] == "not-reproduced" and not c["replayed"], c
    assert "removes one cargo:rustc-link-lib=bz2 of several the build script prints" in c["notes"][0], c["notes"]
