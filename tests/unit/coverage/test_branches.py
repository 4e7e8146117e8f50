"""Guards over link directives, read from build-script source in the shapes real scripts use."""

from __future__ import annotations

import textwrap

import pytest

from linkgate.coverage.branches import scan
from linkgate.coverage.conditions import Atom
from linkgate.rustlex import tokenize

ENV, TARGET, FEATURE = "env", "target", "feature"


def guards(src: str) -> dict[str, tuple[set[Atom], int | None]]:
    """directive -> (atoms, branch line) for a script where each directive occurs once."""
    out = {}
    for occ in scan(textwrap.dedent(src)).occurrences:
        assert occ.directive not in out, occ.directive
        out[occ.directive] = (set(occ.atoms), occ.branch_line)
    return out


def a(kind: str, value: str, negated: bool = False) -> Atom:
    return Atom(kind, value, negated)


def test_an_if_else_if_else_chain_carries_the_earlier_negations() -> None:
    got = guards("""\
        use std::env;
        fn main() {
            if env::var("A").is_ok() {
                println!("cargo:rustc-link-lib=static=alpha");
            } else if env::var_os("B").is_some() {
                println!("cargo::rustc-link-lib=static=beta");
            } else {
                println!("cargo:rustc-link-lib=static=gamma");
            }
            println!("cargo:rustc-link-lib=c");
        }
    """)
    assert got == {
        "rustc-link-lib=static=alpha": ({a(ENV, "A")}, 3),
        "rustc-link-lib=static=beta": ({a(ENV, "A", True), a(ENV, "B")}, 5),
        "rustc-link-lib=static=gamma": ({a(ENV, "A", True), a(ENV, "B", True)}, 7),
        "rustc-link-lib=c": (set(), None),
    }


@pytest.mark.parametrize(
    ("cond", "atoms"),
    [
        ('env::var("A").is_err()', {a(ENV, "A", True)}),
        ('!env::var_os("A").is_some()', {a(ENV, "A", True)}),
        ('std::env::var("MODE").as_deref() == Ok("dist")', {a(ENV, "MODE=dist")}),
        ('env::var("MODE").unwrap_or_default() != "dev"', {a(ENV, "MODE=dev", True)}),
        ('let Ok(home) = env::var("IREE_CUDA_HOME")', {a(ENV, "IREE_CUDA_HOME")}),
        ('let Some(dist) = option_env!("IREE_DIST")', {a(ENV, "IREE_DIST")}),
        ('option_env!("X").is_none()', {a(ENV, "X", True)}),
        ('cfg!(target_os = "macos")', {a(TARGET, "*-apple-darwin")}),
        ('cfg!(all(target_os = "linux", target_arch = "aarch64"))', {a(TARGET, "*-linux-*"), a(TARGET, "aarch64-*")}),
        ('cfg!(not(windows))', {a(TARGET, "*-windows-*", True)}),
        ('cfg!(unix)', {a(TARGET, "*-windows-*", True)}),
        ('cfg!(feature = "cuda") && env::var("CUDA_HOME").is_ok()', {a(FEATURE, "cuda"), a(ENV, "CUDA_HOME")}),
        ('env::var("CARGO_CFG_TARGET_OS").unwrap() == "macos"', {a(TARGET, "*-apple-darwin")}),
        ('env::var("TARGET").unwrap().ends_with("-apple-darwin")', {a(TARGET, "*-apple-darwin")}),
        ('env::var("TARGET").unwrap().contains("musl")', {a(TARGET, "*musl*")}),
        ('env::var_os("CARGO_FEATURE_XLA_IREE").is_some()', {a(FEATURE, "xla_iree")}),
        ('matches!(env::var("CARGO_CFG_TARGET_ENV").as_deref(), Ok("msvc"))', {a(TARGET, "*-msvc")}),
        ('out_dir.join("x").exists()', set()),
        ('(env::var("A").is_ok() || env::var("B").is_ok()) && cfg!(unix)', {a(ENV, "A"), a(TARGET, "*-windows-*", True)}),
        ('!(env::var("A").is_ok() && env::var("B").is_ok())', set()),
    ],
)
def test_condition_shapes(cond: str, atoms: set[Atom]) -> None:
    got = guards(f'use std::env;\nfn main() {{\n    if {cond} {{\n        println!("cargo:rustc-link-lib=x");\n    }}\n}}\n')
    assert got["rustc-link-lib=x"][0] == atoms


def test_let_bound_flags_and_values_read_like_their_initializers() -> None:
    got = guards("""\
        fn main() {
            let cuda = std::env::var_os("IREE_CUDA_HOME").is_some();
            let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap();
            if cuda && target_os == "linux" {
                println!("cargo:rustc-link-lib=dylib=cuda");
            }
            if !cuda {
                println!("cargo:rustc-link-lib=static=cpu");
            }
        }
    """)
    assert got["rustc-link-lib=dylib=cuda"] == ({a(ENV, "IREE_CUDA_HOME"), a(TARGET, "*-linux-*")}, 4)
    assert got["rustc-link-lib=static=cpu"] == ({a(ENV, "IREE_CUDA_HOME", True)}, 7)


def test_match_arms_on_the_target_os_and_on_presence() -> None:
    got = guards("""\
        fn main() {
            match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
                Ok("macos") => println!("cargo:rustc-link-lib=framework=Metal"),
                Ok("windows") => {
                    println!("cargo:rustc-link-lib=ws2_32");
                }
                _ => println!("cargo:rustc-link-lib=dl"),
            }
            match std::env::var("IREE_DIST") {
                Ok(dir) => println!("cargo:rustc-link-search=native={dir}/lib"),
                Err(_) => println!("cargo:rustc-link-lib=static=iree_bundled"),
            }
        }
    """)
    assert got["rustc-link-lib=framework=Metal"] == ({a(TARGET, "*-apple-darwin")}, 3)
    assert got["rustc-link-lib=ws2_32"] == ({a(TARGET, "*-windows-*")}, 4)
    assert got["rustc-link-lib=dl"] == ({a(TARGET, "*-apple-darwin", True), a(TARGET, "*-windows-*", True)}, 7)
    assert got["rustc-link-search=native={dir}/lib"] == ({a(ENV, "IREE_DIST")}, 10)
    assert got["rustc-link-lib=static=iree_bundled"] == ({a(ENV, "IREE_DIST", True)}, 11)


def test_cfg_attributes_guard_the_next_item_or_statement() -> None:
    got = guards("""\
        #[cfg(target_os = "macos")]
        fn platform() {
            println!("cargo:rustc-link-lib=framework=Accelerate");
        }
        #[cfg(not(target_os = "macos"))]
        fn platform() {}
        fn main() {
            platform();
            #[cfg(feature = "mkl")]
            println!("cargo:rustc-link-lib=mkl_rt");
            println!("cargo:rustc-link-lib=m");
        }
    """)
    assert got["rustc-link-lib=framework=Accelerate"] == ({a(TARGET, "*-apple-darwin")}, 1)
    assert got["rustc-link-lib=mkl_rt"] == ({a(FEATURE, "mkl")}, 9)
    assert got["rustc-link-lib=m"] == (set(), None)


def test_a_helper_takes_the_guards_of_each_call_site() -> None:
    occs = scan(textwrap.dedent("""\
        fn link_runtime(kind: &str) {
            println!("cargo:rustc-link-lib=static=rt_{kind}");
        }
        fn main() {
            if std::env::var("A").is_ok() {
                link_runtime("a");
            } else if std::env::var("B").is_ok() {
                link_runtime("b");
            }
        }
    """)).occurrences
    assert [(set(o.atoms), o.branch_line, o.via, o.line) for o in occs] == [
        ({a(ENV, "A")}, 5, "link_runtime", 2),
        ({a(ENV, "A", True), a(ENV, "B")}, 7, "link_runtime", 2),
    ]


def test_an_early_return_guards_what_follows() -> None:
    got = guards("""\
        fn main() {
            if let Ok(dist) = std::env::var("IREE_DIST") {
                println!("cargo:rustc-link-search=native={dist}/lib");
                return;
            }
            if cfg!(target_os = "macos") {
                println!("cargo:rustc-link-lib=framework=Metal");
                std::process::exit(0)
            }
            println!("cargo:rustc-link-lib=static=iree_source_build");
            if std::env::var("VERBOSE").is_ok() {
                println!("cargo:warning=linking");
            }
            println!("cargo:rustc-link-lib=m");
        }
    """)
    assert got == {
        "rustc-link-search=native={dist}/lib": ({a(ENV, "IREE_DIST")}, 2),
        "rustc-link-lib=framework=Metal": ({a(ENV, "IREE_DIST", True), a(TARGET, "*-apple-darwin")}, 6),
        "rustc-link-lib=static=iree_source_build": ({a(ENV, "IREE_DIST", True), a(TARGET, "*-apple-darwin", True)}, 10),
        "rustc-link-lib=m": ({a(ENV, "IREE_DIST", True), a(TARGET, "*-apple-darwin", True)}, 10),
    }


def test_after_a_chain_every_alternative_is_false() -> None:
    got = guards("""\
        fn main() {
            let target = std::env::var("TARGET").unwrap();
            if target.contains("android") || std::env::var_os("SYSTEM_Z").is_some() {
                println!("cargo:rustc-link-lib=z");
            } else if std::env::var("A").is_ok() && std::env::var("B").is_ok() {
                println!("cargo:rustc-link-lib=ab");
            } else {
                println!("cargo:rustc-link-lib=static=z_bundled");
            }
        }
    """)
    assert got["rustc-link-lib=ab"][0] == {a(TARGET, "*android*", True), a(ENV, "SYSTEM_Z", True), a(ENV, "A"),
                                           a(ENV, "B")}
    # !(A && B) has no conjunctive form: the else branch keeps what it can and says so.
    assert got["rustc-link-lib=static=z_bundled"][0] == {a(TARGET, "*android*", True), a(ENV, "SYSTEM_Z", True)}
    (occ,) = [o for o in scan(textwrap.dedent(SRC_NOTE)).occurrences]
    assert occ.notes == ("a later branch after a compound condition does not carry its negation",)


SRC_NOTE = """\
    fn main() {
        if std::env::var("A").is_ok() && std::env::var("B").is_ok() {
        } else {
            println!("cargo:rustc-link-lib=static=z_bundled");
        }
    }
"""


def test_comments_and_non_link_strings_are_not_directives() -> None:
    got = guards("""\
        fn main() {
            // println!("cargo:rustc-link-lib=commented");
            /* if env::var("A").is_ok() { println!("cargo:rustc-link-lib=blocked"); } /* nested */ */
            println!("cargo:rerun-if-env-changed=A");
            println!("cargo:rustc-cfg=has_a");
            let _c = '{'; let _l: &'static str = "}";
            if std::env::var("A").is_ok() {
                println!(r#"cargo:rustc-link-arg=-Wl,--defsym="x=1""#);
            }
        }
    """)
    assert got == {'rustc-link-arg=-Wl,--defsym="x=1"': ({a(ENV, "A")}, 7)}


def test_notes_belong_to_the_branch_they_are_about() -> None:
    result = scan('fn main() {\n if std::env::var("A").is_ok() || std::env::var("B").is_ok() {\n'
                  '  println!("cargo:rustc-link-lib=x");\n }\n'
                  ' if std::env::var("C").is_ok() && std::env::var("PROFILE").unwrap() == "release" {\n'
                  '  println!("cargo:rustc-link-lib=y");\n }\n'
                  ' if std::env::var("D").is_ok() {\n  println!("cargo:rustc-link-lib=z");\n }\n}\n')
    assert [(o.directive, set(o.atoms), o.notes) for o in result.occurrences] == [
        ("rustc-link-lib=x", {a(ENV, "A")}, ("a condition with || is proposed with its first alternative only",)),
        ("rustc-link-lib=y", {a(ENV, "C")},
         ("$PROFILE is set by cargo for the build script, not a recipe condition; dropped",)),
        ("rustc-link-lib=z", {a(ENV, "D")}, ()),
    ]
    assert result.notes == []


@pytest.mark.parametrize(
    ("cond", "atoms", "note"),
    [
        ('env::var("CARGO_CFG_UNIX").is_ok()', {a(TARGET, "*-windows-*", True)}, None),
        ('env::var_os("CARGO_CFG_WINDOWS").is_some()', {a(TARGET, "*-windows-*")}, None),
        ('env::var("CARGO_CFG_TARGET_POINTER_WIDTH").unwrap() == "32"', set(),
         "$CARGO_CFG_TARGET_POINTER_WIDTH is set by cargo from the target and has no triple glob; dropped"),
        ('env::var("DEP_Z_INCLUDE").is_ok()', set(),
         "$DEP_Z_INCLUDE is set by cargo for the build script, not a recipe condition; dropped"),
        ('env::var("HOST").unwrap() == env::var("TARGET").unwrap()', set(),
         "$HOST is set by cargo for the build script, not a recipe condition; dropped"),
    ],
)
def test_variables_cargo_sets_are_not_env_conditions(cond: str, atoms: set[Atom], note: str | None) -> None:
    (occ,) = scan(f'use std::env;\nfn main() {{\n    if {cond} {{\n        println!("cargo:rustc-link-lib=x");\n'
                  '    }\n}\n').occurrences
    assert set(occ.atoms) == atoms
    assert occ.notes == ((note,) if note else ())


def test_a_call_argument_is_not_read_through_its_binding() -> None:
    (occ,) = scan(textwrap.dedent("""        fn other() {
            let mode = std::env::var("MODE").unwrap();   // another function's binding
        }
        fn main() {
            let target = std::env::var("TARGET").unwrap();
            let mode = determine_mode(&target);
            if mode == "static" {
                println!("cargo:rustc-link-lib=static=ssl");
            }
        }
    """)).occurrences
    assert set(occ.atoms) == set()


def test_tokens_keep_lines_across_multiline_strings_and_comments() -> None:
    toks = tokenize('let a = "x\ny";\n/* c\n */ b r#"q\n"# \'\\n\' \'a fn')
    assert [(t.kind, t.text, t.line) for t in toks if t.kind != "punct"] == [
        ("ident", "let", 1), ("ident", "a", 1), ("str", "x\ny", 1), ("ident", "b", 4), ("str", "q\n", 4),
        ("char", "\n", 5), ("lifetime", "'a", 5), ("ident", "fn", 5),
    ]
