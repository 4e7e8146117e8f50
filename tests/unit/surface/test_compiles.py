"""Reading what a build script compiles: the tokenizer, the path evaluator and the recognisers."""

from __future__ import annotations

from pathlib import Path

from linkgate.surface.compiles import pkg_config_env, scan_script
from linkgate.rustlex import tokenize


def inputs(text: str, pkg: Path) -> dict[str, str]:
    return {("/".join([i.path, "**"]) if i.directory else i.path): i.rule for i in scan_script(text, pkg).inputs}


def touch(pkg: Path, *names: str) -> None:
    for name in names:
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text("x\n")


def test_tokens_skip_comments_and_keep_strings_whole() -> None:
    toks = tokenize('/* a /* nested */ "x.c" */ let s = r#"a "quoted" // b"#; // "y.c"\n\'c\' \'a "z"')
    assert [(t.kind, t.text) for t in toks] == [
        ("ident", "let"), ("ident", "s"), ("punct", "="), ("str", 'a "quoted" // b'), ("punct", ";"),
        ("char", "c"), ("lifetime", "'a"), ("str", "z"),
    ]
    assert tokenize('"a\\\n    b\\t"')[0].text == "ab\t"
    assert [t.line for t in tokenize('a\n"b\nc"\nd')] == [1, 2, 4]


def test_cc_build_literals_loops_and_joins(tmp_path: Path) -> None:
    text = '''
        const NAMES: [&str; 2] = ["a.c", "b.c"];
        fn main() {
            let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor");
            let mut b = cc::Build::new();
            b.file("./src/x.c").include(base.join("include"));
            for n in NAMES.iter() { b.file(base.join(n)); }
            b.files(vec!["m/one.cpp", "m/two.cpp"]);
            b.file(format!("{}/gen.c", "extra"));
            // b.file("commented.c");
            b.compile("libdemo.a");
        }
    '''
    found = inputs(text, tmp_path)
    assert found == {
        "src/x.c": "cc::Build::file",
        "vendor/include/**": "cc::Build::include",
        "vendor/a.c": "cc::Build::file (const NAMES)",
        "vendor/b.c": "cc::Build::file (const NAMES)",
        "m/one.cpp": "cc::Build::files",
        "m/two.cpp": "cc::Build::files",
        "extra/gen.c": "cc::Build::file",
    }
    scan = scan_script(text, tmp_path)
    assert scan.emitters == ["rustc-link-lib=static=demo (cc::Build::compile)"]
    assert scan.notes == []


def test_a_loop_variable_ends_with_its_loop(tmp_path: Path) -> None:
    text = '''
        for src in ["a.c"] { b.file(src); }
        if let Ok(src) = env::var("EXTRA") { b.file(src); }
        b.file(src);
    '''
    scan = scan_script(text, tmp_path)
    assert [i.path for i in scan.inputs] == ["a.c"]
    assert [(line, msg) for _, line, msg in scan.notes] == [
        (3, "cc::Build::file: depends on $EXTRA"),
        (4, "cc::Build::file: src is not a literal"),
    ]


def test_sources_pushed_onto_a_vec(tmp_path: Path) -> None:
    text = '''
        let mut srcs = Vec::new();
        srcs.push("core.c");
        if simd { srcs.extend(["simd/a.c", "simd/b.c"]); }
        cc::Build::new().files(&srcs).compile("k");
    '''
    assert inputs(text, tmp_path) == {p: "cc::Build::files (let srcs)" for p in ("core.c", "simd/a.c", "simd/b.c")}


def test_unreadable_paths_are_notes(tmp_path: Path) -> None:
    text = '''
        let out = PathBuf::from(env::var("OUT_DIR").unwrap());
        cc::Build::new().file(out.join("gen.c")).file(helper()).include(env::var("DEP_Z_INCLUDE").unwrap());
    '''
    scan = scan_script(text, tmp_path)
    assert scan.inputs == []
    assert [msg for _, _, msg in scan.notes] == [
        "cc::Build::file: under OUT_DIR, generated at build time",
        "cc::Build::file: helper() is computed at build time",
        "cc::Build::include: depends on $DEP_Z_INCLUDE",
    ]


def test_globs_and_directory_walks(tmp_path: Path) -> None:
    touch(tmp_path, "src/a.c", "src/b.c", "src/b.h", "src/sub/c.c", "asm/x.S", "asm/y.txt", "deep/p/q.c")
    text = '''
        for f in glob::glob("src/*.c").unwrap() { build.file(f.unwrap()); }
        build.files(std::fs::read_dir("asm").unwrap().map(|e| e.unwrap().path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("S")));
        build.files(WalkDir::new("deep").into_iter().filter_map(|e| e.ok()).map(|e| e.path().to_owned()));
        build.files(glob("none/*.c").unwrap());
    '''
    scan = scan_script(text, tmp_path)
    assert {i.path: i.rule for i in scan.inputs} == {
        "src/a.c": 'cc::Build::file (glob("src/*.c"))',
        "src/b.c": 'cc::Build::file (glob("src/*.c"))',
        "asm/x.S": 'cc::Build::files (read_dir("asm"))',
        "deep/p/q.c": 'cc::Build::files (WalkDir::new("deep"))',
    }
    assert [msg for _, _, msg in scan.notes] == [f'cc::Build::files: glob("none/*.c") matches no file in {tmp_path}']


def test_cmake_cxx_and_bindgen(tmp_path: Path) -> None:
    text = '''
        use cmake::Config;
        let dst = Config::new("third/zstd/build/cmake").define("X", "1").build();
        let lib = cmake::build(Path::new("lib").join("core"));
        cxx_build::bridges(["src/a.rs", "src/b.rs"]).file("src/a.cc").compile("ab");
        bindgen::Builder::default().header("wrapper.h").clang_arg("-Iinclude/api").generate();
        pkg_config::Config::new().probe("gtk+-3.0").unwrap();
    '''
    assert inputs(text, tmp_path) == {
        "third/zstd/build/cmake/**": "cmake source dir (Config::new)",
        "lib/core/**": "cmake source dir (cmake::build)",
        "src/a.rs": "cxx_build::bridges",
        "src/b.rs": "cxx_build::bridges",
        "src/a.cc": "cc::Build::file",
        "wrapper.h": "bindgen::Builder::header",
        "include/api/**": "bindgen::Builder::clang_arg -Iinclude/api",
    }
    scan = scan_script(text, tmp_path)
    assert [(lib.name, lib.rule) for lib in scan.libraries] == [("gtk+-3.0", "pkg_config::Config::probe")]
    assert scan.libraries[0].env[:3] == ("GTK+_3.0_NO_PKG_CONFIG", "GTK+_3.0_STATIC", "GTK+_3.0_DYNAMIC")


def test_pkg_config_env_names() -> None:
    assert pkg_config_env("libsodium")[:3] == ("LIBSODIUM_NO_PKG_CONFIG", "LIBSODIUM_STATIC", "LIBSODIUM_DYNAMIC")
    assert pkg_config_env("x-y")[0] == "X_Y_NO_PKG_CONFIG"
    assert "PKG_CONFIG_PATH" in pkg_config_env("z")


def test_a_compiler_called_directly(tmp_path: Path) -> None:
    text = '''
        static OBJS: &[&str] = &["k/one.c", "k/two.S", "k/readme.md"];
        fn main() {
            let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
            for s in OBJS {
                Command::new(&cc).arg("-c").arg(s).arg(format!("-I{}", "k/inc")).status().unwrap();
            }
            Command::new("git").args(["-C", "other/x.c"]).status().unwrap();
            Command::new("make").current_dir("third/lua").status().unwrap();
        }
    '''
    assert inputs(text, tmp_path) == {
        "k/one.c": "compiled by build script (static OBJS)",
        "k/two.S": "compiled by build script (static OBJS)",
        "k/inc/**": "compiler include flag -Ik/inc",
        "third/lua/**": 'Command::new("make").current_dir',
    }


def test_no_compiler_call_no_guessing(tmp_path: Path) -> None:
    # Source-like strings count only when the script runs a compiler.
    text = 'const DOCS: &[&str] = &["a.c"]; fn main() { println!("cargo:rustc-link-lib=m"); }'
    assert scan_script(text, tmp_path).inputs == []


def test_the_scripts_own_functions_are_walked_with_their_arguments(tmp_path: Path) -> None:
    touch(tmp_path, "vendor/lib/a.c", "vendor/lib/b.c", "vendor/net/c.c")
    text = '''
        fn add_c_files(build: &mut cc::Build, dir: impl AsRef<Path>) {
            for e in dir.as_ref().read_dir().unwrap() { build.file(e.unwrap().path()); }
        }
        struct Lib { cfg: cc::Build }
        impl Lib {
            fn sources(&mut self, base: &str, names: &[&str]) {
                for n in names { self.cfg.file(Path::new(base).join(n)); }
            }
        }
        fn never_called(x: &str) { cc::Build::new().file(x); }
        fn main() {
            let mut cfg = cc::Build::new();
            add_c_files(&mut cfg, "vendor/lib");
            add_c_files(&mut cfg, Path::new("vendor").join("net"));
            let mut lib = Lib { cfg };
            lib.sources("vendor/extra", &["x.c", "y.c"]);
        }
    '''
    scan = scan_script(text, tmp_path)
    assert {i.path: (i.rule, i.line) for i in scan.inputs} == {
        "vendor/lib/a.c": ('cc::Build::file (read_dir("vendor/lib"))', 3),
        "vendor/lib/b.c": ('cc::Build::file (read_dir("vendor/lib"))', 3),
        "vendor/net/c.c": ('cc::Build::file (read_dir("vendor/net"))', 3),
        "vendor/extra/x.c": ("cc::Build::file", 8),
        "vendor/extra/y.c": ("cc::Build::file", 8),
    }
    # A function no call reaches is still read: its unreadable parameter is a note.
    assert [(line, msg) for _, line, msg in scan.notes] == [(11, "cc::Build::file: x is not a literal")]


def test_a_source_list_kept_in_a_text_file(tmp_path: Path) -> None:
    (tmp_path / "sources.txt").write_text("# kept in sync with upstream\nlib/a.cc\n  lib/b.cc  \n\n")
    (tmp_path / "more.txt").write_text("x.c,y.c")
    text = '''
        let list = include_str!("sources.txt").trim().split('\\n').map(str::trim).collect::<Vec<_>>();
        for f in list { cfg.file(format!("vendor/{f}")); }
        cfg.files(std::fs::read_to_string("more.txt").unwrap().split(",").map(|s| "extra/".to_string() + s));
        cfg.file(include_str!("missing.txt"));
    '''
    scan = scan_script(text, tmp_path)
    assert {i.path: i.rule for i in scan.inputs} == {
        "vendor/lib/a.cc": 'cc::Build::file (include_str!("sources.txt"))',
        "vendor/lib/b.cc": 'cc::Build::file (include_str!("sources.txt"))',
        "extra/x.c": 'cc::Build::files (read_to_string("more.txt"))',
        "extra/y.c": 'cc::Build::files (read_to_string("more.txt"))',
    }
    assert [msg for _, _, msg in scan.notes] == ['cc::Build::file: include_str!("missing.txt"): cannot read it']


def test_a_directory_passed_as_an_option_keeps_its_slash(tmp_path: Path) -> None:
    # libz-sys's zng/cc.rs: `root` is "" or "arch/x86/", built by map_or from an Option.
    touch(tmp_path, "src/ng/adler32.c", "src/ng/arch/generic/adler32_c.c", "src/ng/arch/x86/crc_avx.c")
    text = '''
        struct Build { cfg: cc::Build }
        impl Build {
            fn append(&mut self, root: Option<&str>, files: &[&str]) {
                let root = root.map_or(String::new(), |s| {
                    assert!(!s.ends_with('/'), "remove trailing slash");
                    format!("{s}/")
                });
                self.cfg.files(files.into_iter().map(|fname| format!("src/ng/{root}{fname}.c")));
            }
        }
        fn main() {
            let mut cfg = Build { cfg: cc::Build::new() };
            cfg.append(None, &["adler32"]);
            cfg.append(Some("arch/generic"), &["adler32_c"]);
            cfg.append(Some("arch/x86"), &["crc_avx"]);
        }
    '''
    scan = scan_script(text, tmp_path)
    assert set(inputs(text, tmp_path)) == {"src/ng/adler32.c", "src/ng/arch/generic/adler32_c.c",
                                           "src/ng/arch/x86/crc_avx.c"}
    assert scan.notes == []


def test_an_unknown_piece_of_a_path_widens_it_to_the_directory_before_it(tmp_path: Path) -> None:
    text = '''
        fn main() {
            let arch = env::var("ZNG_ARCH").unwrap();
            let flavour = "generic".to_uppercase();
            cc::Build::new()
                .file(format!("src/ng/{arch}/crc.c"))
                .file("lib/".to_string() + &flavour + "/x.c")
                .file(Path::new("vendor").join(flavour).join("y.c"))
                .file(format!("{arch}.c"));
        }
    '''
    scan = scan_script(text, tmp_path)
    assert inputs(text, tmp_path) == {
        "src/ng/**": "cc::Build::file (under src/ng: depends on $ZNG_ARCH)",
        "lib/**": "cc::Build::file (under lib: .to_uppercase(...) is computed at build time)",
        "vendor/**": "cc::Build::file (under vendor: .to_uppercase(...) is computed at build time)",
    }
    # Nothing but the package itself is known about the last one: a note, not `**`.
    assert [msg for _, _, msg in scan.notes] == ["cc::Build::file: depends on $ZNG_ARCH"]


def test_cargo_metadata_false_prints_no_directive(tmp_path: Path) -> None:
    # cc's compile prints rustc-link-lib only with cargo metadata on; off, the script links
    # (or not) by its own printlns, so no static=base is claimed for it.
    quiet = 'fn main() { cc::Build::new().file("b.c").cargo_metadata(false).compile("base"); }\n'
    assert scan_script(quiet, tmp_path).emitters == []
    # A second builder starts with metadata on again.
    both = ('fn main() {\n  let mut q = cc::Build::new(); q.cargo_metadata(false); q.file("b.c"); q.compile("base");\n'
            '  cc::Build::new().file("t.c").compile("top");\n}\n')
    assert scan_script(both, tmp_path).emitters == ["rustc-link-lib=static=top (cc::Build::compile)"]
    on = 'fn main() { cc::Build::new().file("b.c").cargo_metadata(true).compile("base"); }\n'
    assert scan_script(on, tmp_path).emitters == ["rustc-link-lib=static=base (cc::Build::compile)"]
