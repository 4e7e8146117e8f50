"""One link-relevant build script's share of the surface, whatever rerun-if-* lines it printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.cargo.fingerprint import read_run_record
from linkgate.surface.model import Surface
from linkgate.surface.scripts import add_link_script, read_script

SCRIPT = '''
fn main() {
    cc::Build::new().file("c/core.c").include("c").compile("core");
    println!("cargo:rerun-if-changed=build.rs");
}
'''


@pytest.fixture
def pkg(tmp_path: Path) -> Path:
    d = tmp_path / "sys"
    (d / "c").mkdir(parents=True)
    (d / "Cargo.toml").write_text('[package]\nname = "sys"\nversion = "0.1.0"\n')
    (d / "build.rs").write_text(SCRIPT)
    (d / "c" / "core.c").write_text("int core(void) { return 0; }\n")
    return d


def paths(surface: Surface) -> dict[str, str]:
    return {p.path: p.why for p in surface.paths}


def test_sources_stay_even_when_the_script_names_only_itself(pkg: Path) -> None:
    s = Surface("g", "built", False)
    add_link_script(s, pkg.parent, "sys", pkg, "rustc-link-lib=static=core", "emits", ["build.rs"], [], False)
    assert paths(s) == {
        "sys/build.rs": "build script of package sys emits rustc-link-lib=static=core",
        "sys/c/core.c": "cc::Build::file at sys/build.rs:3; the build script of package sys emits rustc-link-lib=static=core",
        "sys/c/**": "cc::Build::include at sys/build.rs:3; the build script of package sys emits rustc-link-lib=static=core",
    }
    assert s.notes == []


def test_no_rerun_lines_at_all_means_the_whole_package(pkg: Path) -> None:
    s = Surface("g", "built", False)
    add_link_script(s, pkg.parent, "sys", pkg, "rustc-link-lib=m", "emits", [], [], True)
    assert paths(s)["sys/**"].startswith("any change reruns the build script of package sys")
    assert {"sys/build.rs", "sys/c/core.c", "sys/c/**"} <= set(paths(s))


def test_env_only_keeps_sources_without_the_package_default(pkg: Path) -> None:
    s = Surface("g", "built", False)
    add_link_script(s, pkg.parent, "sys", pkg, "rustc-link-lib=m", "emits", [], ["CC"], False)
    assert "sys/**" not in paths(s)
    assert "sys/c/core.c" in paths(s)
    assert [e.var for e in s.env][0] == "CC"


def test_a_declared_script_that_is_missing_is_a_note(pkg: Path) -> None:
    (pkg / "Cargo.toml").write_text('[package]\nname = "sys"\nversion = "0.1.0"\nbuild = "tools/build.rs"\n')
    source = read_script(pkg)
    assert source.path == pkg / "tools" / "build.rs" and source.error is not None
    s = Surface("g", "built", False)
    add_link_script(s, pkg.parent, "sys", pkg, "rustc-link-lib=m", "emits", [], [], False, source)
    assert s.notes == [f"package sys emits rustc-link-lib=m, but cannot read {pkg}/tools/build.rs: "
                       "No such file or directory: what its build script compiles is not in the surface"]
    assert "sys/tools/build.rs" in paths(s)


def test_a_package_outside_the_repository_is_pinned_by_the_lock(pkg: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    s = Surface("g", "built", False)
    add_link_script(s, repo, "sys", pkg, "rustc-link-lib=m", "emits", [], ["CC"], False)
    assert [p.outside for p in s.paths] == [True]  # the script itself, absolute
    assert s.notes == [f"package sys is outside the repository ({pkg}): what its build script compiles "
                       "is pinned by Cargo.lock, which is in the surface"]


def test_module_files_of_the_script(pkg: Path) -> None:
    (pkg / "build.rs").write_text('mod gen;\nmod native { #[cfg_attr(unix, path = "posix.rs")] mod os; }\nfn main() {}\n')
    (pkg / "gen.rs").write_text('pub fn go() { cc::Build::new().file("c/core.c").compile("core"); }\n')
    (pkg / "native").mkdir()
    (pkg / "native" / "posix.rs").write_text("pub fn os() {}\n")
    source = read_script(pkg)
    assert [(name, p.relative_to(pkg).as_posix()) for name, p in source.modules] == [
        ("gen", "gen.rs"), ("os", "native/posix.rs")]
    s = Surface("g", "static", True)
    add_link_script(s, pkg.parent, "sys", pkg, "rustc-link-lib=static=core", "appears to emit", [], [], False, source)
    assert paths(s)["sys/c/core.c"].startswith("cc::Build::file at sys/gen.rs:1; ")
    assert paths(s)["sys/native/posix.rs"].startswith("mod os: part of the build script of package sys")


def test_fingerprint_without_rerun_if_changed_still_finds_the_output(tmp_path: Path) -> None:
    # cc-built crates print only rerun-if-env-changed: no entry names the output file.
    d = tmp_path / "release" / ".fingerprint" / "zsys-6e7a5cb88105acd2"
    d.mkdir(parents=True)
    f = d / "run-build-script-build-script-build.json"
    f.write_text(json.dumps({"local": [{"RerunIfEnvChanged": {"var": "CC", "val": None}}]}))
    rec = read_run_record(f, tmp_path)
    assert rec is not None and not rec.any_change
    assert rec.output_file == tmp_path / "release" / "build" / "zsys-6e7a5cb88105acd2" / "output"
