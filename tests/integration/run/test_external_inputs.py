"""A static archive linked from outside the repository is judged as it is now.

A -sys crate links ``static=extcalc`` from the directory ``$EXTCALC_DIR``
names, outside the repository. rustc bundles the archive into the crate's
rlib and nobody watches the file, so a warm build relinks the old copy. Real
cargo, cc, ar and rust-lld; the workspace is written here, the archive built
by cc and ar in a directory of its own.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main

BUILD_RS = """\
fn main() {
    println!("cargo:rerun-if-env-changed=EXTCALC_DIR");
    let dir = std::env::var("EXTCALC_DIR").expect("set EXTCALC_DIR");
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=static=extcalc");
}
"""


def _archive(where: Path, value: int) -> None:
    where.mkdir(parents=True, exist_ok=True)
    (where / "extcalc.c").write_text(f"int ext_value(void) {{ return {value}; }}\n")
    subprocess.run(["cc", "-c", "-fPIC", "extcalc.c", "-o", "extcalc.o"], cwd=where, check=True)
    (where / "libextcalc.a").unlink(missing_ok=True)
    subprocess.run(["ar", "crs", "libextcalc.a", "extcalc.o"], cwd=where, check=True)


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    root, outside = tmp_path / "repo", tmp_path / "vendor-sdk" / "lib"
    (root / "extsys/src").mkdir(parents=True)
    (root / "extapp/src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["extsys", "extapp"]\nresolver = "2"\n')
    (root / "extsys/Cargo.toml").write_text(
        '[package]\nname = "extsys"\nversion = "0.1.0"\nedition = "2021"\nlinks = "extcalc"\n')
    (root / "extsys/build.rs").write_text(BUILD_RS)
    (root / "extsys/src/lib.rs").write_text('extern "C" {\n    pub fn ext_value() -> i32;\n}\n')
    (root / "extapp/Cargo.toml").write_text(
        '[package]\nname = "extapp"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\nextsys = { path = "../extsys" }\n')
    (root / "extapp/src/main.rs").write_text('fn main() {\n    println!("{}", unsafe { extsys::ext_value() });\n}\n')
    (root / "linkgate.toml").write_text('[[gate]]\nname = "app"\ncargo = ["build", "-p", "extapp", "--bin", "extapp"]\n')
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    git_repo(root)
    _archive(outside, 1)
    monkeypatch.setenv("EXTCALC_DIR", str(outside))
    monkeypatch.chdir(root)
    return root, outside


def _run(capsys: pytest.CaptureFixture[str]) -> dict:
    main(["run", "-q", "--no-history", "--format", "json"])
    (res,) = json.loads(capsys.readouterr().out)["results"]
    return res


def _output(res: dict) -> str:
    (exe,) = [a["path"] for a in res["linked"] if a["target"] == "extapp"]
    return subprocess.run([exe], capture_output=True, text=True, check=True).stdout.strip()


def test_a_replaced_outside_archive_links_its_new_code(ws, capsys):
    root, outside = ws
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "1"
    # The surface lists it as an outside input, with the variable that chose its directory.
    assert main(["surface", "app", "--format", "json"]) == 0
    paths = {p["path"]: p["why"] for p in json.loads(capsys.readouterr().out)["paths"]}
    why = paths[f"{outside}/libextcalc.a"]
    assert why.startswith("outside input") and "$EXTCALC_DIR" in why
    _archive(outside, 2)
    res = _run(capsys)
    assert res["verdict"] == "linked" and res["proven"]
    assert _output(res) == "2"
    assert any(f"{outside}/libextcalc.a changed since the last run" in w for w in res["warnings"]), res["warnings"]


def test_a_vanished_outside_archive_is_not_linked(ws, capsys, tmp_path):
    root, outside = ws
    assert _run(capsys)["verdict"] == "linked"
    shutil.move(str(outside / "libextcalc.a"), str(tmp_path / "moved-away.a"))
    res = _run(capsys)
    assert res["verdict"] != "linked", res
    assert any(f"{outside}/libextcalc.a vanished since the last run" in w for w in res["warnings"]), res["warnings"]
    assert [d["kind"] for d in res["diagnostics"]] == ["library-not-found"]


def _same_size_and_mtime(path: Path, value: int, tmp_path: Path) -> None:
    """Rebuild the archive with *value* and give it the old one's mtime (`touch -r`)."""
    before = path.stat()
    reference = tmp_path / "reference.a"
    shutil.copy2(path, reference)
    _archive(path.parent, value)
    subprocess.run(["touch", "-r", str(reference), str(path)], check=True)
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert path.read_bytes() != reference.read_bytes()


def test_a_replacement_of_the_same_size_and_mtime_is_caught_by_content(ws, capsys, tmp_path):
    root, outside = ws
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "1"
    _same_size_and_mtime(outside / "libextcalc.a", 2, tmp_path)
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "2"
    assert any(f"{outside}/libextcalc.a changed since the last run" in w for w in res["warnings"]), res["warnings"]


def _use_build_rs(root: Path, text: str) -> None:
    (root / "extsys/build.rs").write_text(text)
    git(root, "commit", "-qam", "build.rs")


@pytest.mark.parametrize("lib", ["static:+verbatim=libextcalc.a", "static:+whole-archive,+verbatim=libextcalc.a"])
def test_every_link_lib_modifier_is_recorded(ws, capsys, lib):
    root, outside = ws
    _use_build_rs(root, BUILD_RS.replace("static=extcalc", lib))
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "1"
    state = json.loads((Path(res["target_dir"]) / "linkgate-links/external-inputs.state").read_text())
    assert [list(files) for files in state.values()] == [[f"{outside}/libextcalc.a"]]
    _archive(outside, 2)
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "2"
    assert any(f"{outside}/libextcalc.a changed since the last run" in w for w in res["warnings"]), res["warnings"]


IN_REPO_BUILD_RS = """\
fn main() {
    println!("cargo:rerun-if-env-changed=EXTCALC_DIR");
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    println!("cargo:rustc-link-search=native={dir}/../prebuilt");
    println!("cargo:rustc-link-lib=static=extcalc");
}
"""


def test_a_tracked_archive_in_the_repository_outside_every_package_is_watched(ws, capsys):
    root, _ = ws
    _archive(root / "prebuilt", 1)
    (root / "prebuilt/extcalc.o").unlink()
    (root / "extsys/build.rs").write_text(IN_REPO_BUILD_RS)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "prebuilt archive")
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "1"
    assert main(["surface", "app", "--format", "json"]) == 0
    paths = {p["path"]: p["why"] for p in json.loads(capsys.readouterr().out)["paths"]}
    assert "compares it by content" in paths["prebuilt/libextcalc.a"]
    _archive(root / "prebuilt", 2)
    (root / "prebuilt/extcalc.o").unlink()
    git(root, "commit", "-qam", "new prebuilt archive")
    res = _run(capsys)
    assert res["verdict"] == "linked" and _output(res) == "2"
    assert any("prebuilt/libextcalc.a changed since the last run" in w for w in res["warnings"]), res["warnings"]


def test_a_replay_refuses_a_recording_whose_archive_was_replaced_in_place(ws, capsys, tmp_path):
    root, outside = ws
    assert _run(capsys)["verdict"] == "linked"
    _same_size_and_mtime(outside / "libextcalc.a", 2, tmp_path)
    rc = main(["replay", "app"])
    err = capsys.readouterr().err
    assert rc == 3 and f"{outside}/libextcalc.a changed (compared by content)" in err, err
