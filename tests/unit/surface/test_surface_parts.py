from __future__ import annotations

import json
from pathlib import Path

from linkgate.cargo.fingerprint import read_run_record
from linkgate.surface.filtercheck import DEAD_RULE, MISSES, OUTSIDE, check_filter
from linkgate.trigger.pathfilter import PathFilter
from linkgate.surface.static import scan_source
from linkgate.surface.built import Surface, relative


def test_fingerprint_record(tmp_path: Path) -> None:
    d = tmp_path / "debug" / ".fingerprint" / "dep-c29ed06d05ed14fb"
    d.mkdir(parents=True)
    f = d / "run-build-script-build-script-build.json"
    f.write_text(json.dumps({"local": [
        {"RerunIfChanged": {"output": "debug/build/dep-1/output", "paths": ["../vendor/pin.txt", "native"]}},
        {"RerunIfEnvChanged": {"var": "DEP_MATH_DIR", "val": None}},
    ]}))
    rec = read_run_record(f, tmp_path)
    assert rec is not None
    assert (rec.package, rec.changed_paths, rec.env_vars, rec.any_change) == (
        "dep", ("../vendor/pin.txt", "native"), ("DEP_MATH_DIR",), False)
    assert rec.output_file == tmp_path / "debug/build/dep-1/output"


def test_fingerprint_without_rerun_lines_means_any_change(tmp_path: Path) -> None:
    d = tmp_path / "debug" / ".fingerprint" / "foo-bar-0123456789abcdef"
    d.mkdir(parents=True)
    (d / "r.json").write_text(json.dumps({"local": [{"Precalculated": "1"}]}))
    rec = read_run_record(d / "r.json", tmp_path)
    assert rec is not None and rec.package == "foo-bar" and rec.any_change


def test_scan_source_literals() -> None:
    src = '''
        println!("cargo:rerun-if-changed=../vendor/pin.txt");
        println!("cargo::rerun-if-env-changed=CUDA_HOME");
        println!("cargo:rustc-link-lib=dylib=cusolver");
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:warning=hello");
    '''
    links, paths, env = scan_source(src)
    assert links == [("rustc-link-lib", "dylib=cusolver"), ("rustc-link-search", "native=")]
    assert (paths, env) == (["../vendor/pin.txt"], ["CUDA_HOME"])


def test_relative(tmp_path: Path) -> None:
    assert relative(tmp_path, tmp_path / "dep" / ".." / "vendor" / "pin.txt") == ("vendor/pin.txt", False)
    assert relative(tmp_path, tmp_path / "native", directory=True) == ("native/**", False)
    assert relative(tmp_path / "ws", tmp_path / "elsewhere") == ((tmp_path / "elsewhere").as_posix(), True)


def test_check_filter_findings() -> None:
    s = Surface("g", "built", False)
    s.add_path("src/lib/core/build.rs", "build script of package core emits rustc-link-lib=dylib=cusolver")
    s.add_path("third_party/**", "rerun-if-changed: ...")
    s.add_path("/opt/cuda/include", "rerun-if-changed: ...", outside=True)
    f = PathFilter(["build.rs", "third_party/a/**", "gone/**"], name="xla_link")
    files = ["src/lib/core/build.rs", "third_party/a/x", "third_party/b/y", "build.rs"]
    found = check_filter(s, f, files)
    assert [(x.rule, x.message) for x in found] == [
        (MISSES, "src/lib/core/build.rs: build script of package core emits rustc-link-lib=dylib=cusolver; "
                 "not matched by filter xla_link"),
        (MISSES, "third_party/** (1 of 2 tracked files, e.g. third_party/b/y): rerun-if-changed: ...; "
                 "not matched by filter xla_link"),
        (OUTSIDE, "/opt/cuda/include: rerun-if-changed: ...; outside the repository, no path filter sees it"),
        (DEAD_RULE, "filter xla_link: rule gone/** matches no file in the repository"),
    ]


def test_check_filter_with_config_root_below_repository_top() -> None:
    s = Surface("g", "built", False)
    s.add_path("dep/build.rs", "why")
    assert check_filter(s, PathFilter(["rust/dep/**"]), ["rust/dep/build.rs"], prefix="rust/") == []


def test_the_recorded_run_keeps_what_it_compiled_and_doubts_what_it_cannot_tell(tmp_path: Path) -> None:
    from linkgate.surface.compiles import ScriptInput
    from linkgate.surface.evidence import Verdicts, read_run

    out = tmp_path / "out"
    (out / "lib").mkdir(parents=True)
    for name in ("f0389296f42960e9-adler32.o", "f0389296f42960e9-gzread.o", "libz.a"):
        (out / "lib" / name).write_text("")
    inputs = [
        ScriptInput("src/zlib/adler32.c", False, "cc::Build::file", "compiled", 7),
        ScriptInput("src/zlib/gzread.c", False, "cc::Build::file", "compiled", 8),
        ScriptInput("src/zlib", True, "cc::Build::include", "headers", 9),
        ScriptInput("src/ng/adler32.c", False, "cc::Build::files", "compiled", 3, file="zng/cc.rs"),
        ScriptInput("src/ng/deflate_fast.c", False, "cc::Build::files", "compiled", 3, file="zng/cc.rs"),
        ScriptInput("src/ng", True, "cc::Build::include", "headers", 9, file="zng/cc.rs"),
        ScriptInput("src/ng", True, "cmake source dir (cmake::Config::new)", "built", 5, file="zng/cmake.rs"),
        ScriptInput("include", True, "bindgen clang arg -Iinclude", "headers", 2, file="bind.rs"),
    ]
    v = Verdicts.judge(inputs, read_run(out, (), ("rustc-link-lib=static=z",)))
    # src/ng/adler32.c has an object of its stem, but zng/cc.rs compiled nothing else it names.
    assert (v.unused, v.possible, v.not_run) == (frozenset({3, 4, 5, 6}), frozenset({7}), frozenset({"zng/cc.rs"}))
    # Objects named some other way tell nothing: everything stays.
    assert Verdicts.judge(inputs, read_run(tmp_path / "none", (), ())) == Verdicts(frozenset(), frozenset())


def test_a_possible_path_the_filter_misses_is_a_warning() -> None:
    s = Surface("g", "built", False)
    s.add_path("include/**", "possible: bindgen clang arg", possible=True)
    s.add_path("src/a.c", "cc::Build::file", possible=True)
    s.add_path("src/a.c", "cc::Build::file at build.rs:3")  # another rule vouches for it
    assert [(p.path, p.possible) for p in s.paths] == [("include/**", True), ("src/a.c", False)]
    assert s.to_dict()["paths"][0] == {"path": "include/**", "why": "possible: bindgen clang arg", "possible": True}
    levels = {f.message.split(":")[0]: f.level for f in check_filter(s, PathFilter(["x"], name="f"), ["include/h.h"])
              if f.rule == MISSES}
    assert levels == {"include/** (1 of 1 tracked files, e.g. include/h.h)": "warning", "src/a.c": "error"}


def test_the_file_defining_the_gate_is_not_asked_of_the_filter() -> None:
    s = Surface("g", "built", False)
    s.add_path("linkgate.toml", "defines gate g", config=True)
    assert [p.path for p in s.paths] == ["linkgate.toml"]
    assert check_filter(s, PathFilter(["src/**"], name="f"), ["linkgate.toml", "src/a.c"]) == []


def test_a_library_named_after_a_source_counts_only_beside_objects_named_after_sources(tmp_path: Path) -> None:
    from linkgate.surface.compiles import ScriptInput
    from linkgate.surface.evidence import Verdicts, read_run

    inputs = [
        ScriptInput("native/core.c", False, "compiled by build script (argument)", "compiled", 16),
        ScriptInput("native/deep.c", False, "compiled by build script (argument)", "compiled", 17),
        ScriptInput("native/gone.c", False, "compiled by build script (argument)", "compiled", 18),
    ]
    # core.o names its source; libdeep.so is deep.c compiled straight into a library; gone.c left nothing.
    built = tmp_path / "built"
    built.mkdir()
    for name in ("core.o", "libcore.a", "libdeep.so"):
        (built / name).write_text("")
    assert Verdicts.judge(inputs, read_run(built, (), ())).unused == frozenset({2})
    # Objects named some other way: a library that happens to share a source's stem is no
    # evidence that the other sources were not compiled.
    other = tmp_path / "other"
    other.mkdir()
    for name in ("obj1.o", "obj2.o", "libdeep.a"):
        (other / name).write_text("")
    assert Verdicts.judge(inputs, read_run(other, (), ())) == Verdicts(frozenset(), frozenset())
