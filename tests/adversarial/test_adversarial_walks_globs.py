"""Class: walks and globs. `surface --static` on build scripts that glob over
symlink loops, over `/`, out of the repository, through deep or wide trees, print
100,000 rerun-if-changed lines, or fill a rerun-if-changed path in at run time:
each ends in bounded work with nothing outside read, every unknown path a note,
and `--check-filter` never passes a filter it cannot vouch for."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from harness import run

OUTSIDE = "outside the repository"


def surface(sandbox: tuple[Path, Path], build_rs: str, *, check: bool = False,
            setup: object = None) -> tuple[int, list[str], list[str], list[str]]:
    outside, repo = sandbox
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "csrc" / "sub").mkdir(parents=True, exist_ok=True)
    (repo / "csrc" / "a.c").write_text("int a;\n")
    (repo / "csrc" / "sub" / "b.c").write_text("int b;\n")
    (repo / "build.rs").write_text(build_rs)
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n'
                                        'paths = ["src/**", "csrc/**", "build.rs", "Cargo.*", "linkgate.toml"]\n')
    if callable(setup):
        setup(repo, outside)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "t"], check=True)
    argv = ["surface", "g", "--static", "--repo", str(repo), "--format", "json"] + (["--check-filter"] if check else [])
    result = run(argv, repo, outside=outside, repo=repo)
    doc = json.loads(result.out)
    return (result.code, [p["path"] for p in doc["paths"]], doc.get("notes", []),
            [f["rule"] for f in doc.get("findings", [])])


def cc(expr: str) -> str:
    return f'fn main() {{\n    cc::Build::new().files({expr}).compile("x");\n}}\n'


def walkdir(d: str) -> str:
    return cc(f'WalkDir::new("{d}").into_iter().filter_map(|e| e.ok()).map(|e| e.path().to_owned())')


def globbed(p: str) -> str:
    return cc(f'glob::glob("{p}").unwrap().map(|p| p.unwrap())')


def read_dir(d: str) -> str:
    return cc(f'std::fs::read_dir("{d}").unwrap().map(|e| e.unwrap().path())')


ESCAPES = {
    "WalkDir::new(\"/\")": walkdir("/"),
    "WalkDir::new(\"/etc\")": walkdir("/etc"),
    "WalkDir::new(\"..\")": walkdir(".."),
    "WalkDir::new(\"../..\")": walkdir("../.."),
    "WalkDir::new(\"csrc/../..\")": walkdir("csrc/../.."),
    "glob(\"/**/*.c\")": globbed("/**/*.c"),
    "glob(\"/etc/*\")": globbed("/etc/*"),
    "glob(\"../*\")": globbed("../*"),
    "glob(\"../**/*.txt\")": globbed("../**/*.txt"),
    "read_dir(\"/\")": read_dir("/"),
    "read_dir(\"..\")": read_dir(".."),
    "read_dir(\"/tmp\")": read_dir("/tmp"),
    "WalkDir::new(\"/proc\")": walkdir("/proc"),
    "WalkDir::new(\"//\")": walkdir("//"),
    "WalkDir::new(\"csrc/sub/../../..\")": walkdir("csrc/sub/../../.."),
    "glob(\"/*\")": globbed("/*"),
    "glob(\"../../../../*\")": globbed("../../../../*"),
    "glob(\"csrc/../../**\")": globbed("csrc/../../**"),
    "glob(\"/tmp/**/*.h\")": globbed("/tmp/**/*.h"),
    "read_dir(\"/dev\")": read_dir("/dev"),
    "read_dir(\"../../..\")": read_dir("../../.."),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_a_walk_out_of_the_repository_reads_nothing(sandbox, name):
    code, paths, notes, _ = surface(sandbox, ESCAPES[name])
    assert code == 0 and not any("sentinel" in p or p.startswith("/") for p in paths), paths
    assert any(OUTSIDE in n for n in notes), notes


def loops(repo: Path, outside: Path) -> None:
    os.symlink("..", repo / "csrc" / "sub" / "up")
    os.symlink(".", repo / "csrc" / "self")
    os.symlink(str(repo), repo / "csrc" / "root")


def to_outside(repo: Path, outside: Path) -> None:
    os.symlink(str(outside), repo / "csrc" / "out")


def to_root(repo: Path, outside: Path) -> None:
    os.symlink("/", repo / "csrc" / "slash")


def chain(repo: Path, outside: Path) -> None:
    for i in range(40):  # 40 links to the directory holding them: 40**depth paths to a walk that follows
        os.symlink(".", repo / "csrc" / f"l{i}")


def dangling(repo: Path, outside: Path) -> None:
    os.symlink("nowhere/at/all", repo / "csrc" / "gone.c")
    os.symlink(str(outside / "sentinel.txt"), repo / "csrc" / "linked.c")


def wide(repo: Path, outside: Path) -> None:
    for i in range(3000):
        (repo / "csrc" / f"w{i:04}.c").write_text("")


LOOPS = {
    "glob over symlink loops": (globbed("csrc/**/*.c"), loops),
    "WalkDir over symlink loops": (walkdir("csrc"), loops),
    "read_dir over symlink loops": (read_dir("csrc"), loops),
    "glob through a symlink out": (globbed("csrc/**/*"), to_outside),
    "WalkDir through a symlink out": (walkdir("csrc/out"), to_outside),
    "glob over 3,000 files": (globbed("csrc/*.c"), wide),
    "glob through a symlink to /": (globbed("csrc/**/*"), to_root),
    "WalkDir through a symlink to /": (walkdir("csrc"), to_root),
    "glob over 40 links to their own directory": (globbed("csrc/**/*.c"), chain),
    "WalkDir over dangling and outside links": (walkdir("csrc"), dangling),
    "glob with a backtracking pattern": (globbed("csrc/" + "*a" * 30 + "*b"), None),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(LOOPS))
def test_symlinks_and_wide_trees_are_walked_once(sandbox, name):
    build_rs, setup = LOOPS[name]
    code, paths, notes, _ = surface(sandbox, build_rs, setup=setup)
    assert code == 0 and len(paths) == len(set(paths)), paths
    assert not any("/up/" in p or "/self/" in p or "/root/" in p or "/slash/" in p or "/l1/" in p
                   or "sentinel" in p or p.startswith("/") for p in paths), paths
    if setup is wide:
        assert sum(p.startswith("csrc/w") for p in paths) == 3000
    if setup is dangling:
        assert any("csrc/linked.c, a link that resolves outside the repository" in n for n in notes), notes
        assert not any("sentinel" in n for n in notes), notes  # where it points is not said either
    elif name.endswith("loops") and not name.startswith("read_dir"):
        assert {"csrc/a.c", "csrc/sub/b.c"} <= set(paths)


RERUN = 'fn main() {\n    println!("cargo:rustc-link-lib=static=foo");\n%s}\n'


@pytest.mark.timeout(60)
@pytest.mark.parametrize("count", [10_000, 100_000])
def test_many_rerun_lines_are_linear(sandbox, count):
    lines = "".join(f'    println!("cargo:rerun-if-changed=csrc/f{i}.c");\n' for i in range(count))
    code, paths, _, _ = surface(sandbox, RERUN % lines)
    assert code == 0 and sum(p.startswith("csrc/f") for p in paths) == count


COMPUTED = {
    "{} beside a literal": '    println!("cargo:rerun-if-changed=build.rs");\n    println!("cargo:rerun-if-changed={}", lib);\n',
    "{name}": '    println!("cargo:rerun-if-changed=vendor/{name}.c");\n',
    "{0}": '    println!("cargo::rerun-if-changed={0}", lib);\n',
    "{:?}": '    println!("cargo:rerun-if-changed={:?}", lib);\n',
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(COMPUTED))
def test_a_computed_rerun_path_fails_the_filter_check(sandbox, name):
    code, _, notes, rules = surface(sandbox, RERUN % ('    let lib = "vendor/lib.c";\n' + COMPUTED[name]), check=True)
    assert code == 1 and "surface-path-unknown" in rules, rules
    assert any("names a path computed at build time" in n for n in notes), notes


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("literal", "path"), [("core/caf\\u{e9}.c", "core/café.c"), ("a\\x41b.c", "aAb.c"),
                                                ("bad\\u{110000}.c", "bad\ufffd.c"), ("{{braces}}.c", "{braces}.c"),
                                                ("tab\\tname.c", "tab\tname.c")])
def test_escapes_in_a_rerun_path_are_resolved(sandbox, literal, path):
    code, paths, _, _ = surface(sandbox, RERUN % f'    println!("cargo:rerun-if-changed={literal}");\n')
    assert code == 0 and path in paths, paths


@pytest.mark.timeout(60)
@pytest.mark.parametrize("opener", ['format!("{}", ', "vec!(", "concat!("])
def test_expressions_nested_thousands_deep_are_a_note(sandbox, opener):
    nested = opener * 6000 + '"csrc/a.c"' + ")" * 6000
    code, _, notes, _ = surface(sandbox, f'fn main() {{\n    cc::Build::new().file({nested}).compile("x");\n}}\n')
    assert code == 0 and any("nests expressions too deeply to read" in n for n in notes), notes
