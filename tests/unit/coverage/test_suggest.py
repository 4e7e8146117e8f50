"""Suggested stanzas: one per guard set, valid configuration, confirmed only unambiguously."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

from linkgate import config
from linkgate.config import Recipe
from linkgate.coverage import suggest as sg
from linkgate.coverage.branches import scan

SCRIPT = textwrap.dedent("""\
    use std::env;
    fn main() {
        println!("cargo:rustc-link-lib=c");
        if env::var("IREE_DIST").is_ok() {
            println!("cargo:rustc-link-search=native={}", env::var("IREE_DIST").unwrap());
            println!("cargo:rustc-link-lib=static=iree_runtime");
        } else if env::var_os("IREE_CUDA_HOME").is_some() {
            println!("cargo:rustc-link-lib=static=iree_cuda");
            println!("cargo:rustc-link-search=native={}", "x");
        }
        if cfg!(all(target_os = "macos", target_arch = "aarch64")) {
            println!("cargo:rustc-link-lib=framework=Metal");
        }
        if env::var("MODE").as_deref() == Ok("static") && cfg!(feature = "xla") {
            println!("cargo:rustc-link-lib=static=xla");
        }
    }
""")


def test_stanzas_load_back_as_recipes(tmp_path: Path) -> None:
    items = sg.suggestions(scan(SCRIPT), "crates/rt/build.rs", "rt", set())
    text = "\n".join(s.stanza() for s in items)
    assert text.splitlines()[:8] == [
        "# crates/rt/build.rs:5: rustc-link-search=native={}",
        "# crates/rt/build.rs:6: rustc-link-lib=static=iree_runtime",
        "[[recipe]]",
        'name = "iree-dist"',
        'when-env = ["IREE_DIST"]',
        'file = "crates/rt/build.rs"',
        "line = 4",
        "",
    ]
    cfg = tmp_path / "linkgate.toml"
    cfg.write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n\n' + text)
    assert [replace(r, config_line=None) for r in config.load(cfg).recipes] == [
        Recipe("iree-dist", when_env=("IREE_DIST",), file="crates/rt/build.rs", line=4),
        Recipe("iree-cuda-home", when_env=("IREE_CUDA_HOME",), unless_env=("IREE_DIST",),
               file="crates/rt/build.rs", line=7),
        Recipe("aarch64-apple-darwin", when_target="aarch64*-apple-darwin", file="crates/rt/build.rs", line=11),
        Recipe("mode-static-xla", when_env=("MODE=static",), when_features=("xla",), file="crates/rt/build.rs",
               line=14),
    ]


def test_an_else_branch_is_named_by_what_it_excludes() -> None:
    items = sg.suggestions(scan('fn main() {\n if std::env::var("A").is_ok() {\n'
                                '  println!("cargo:rustc-link-lib=a");\n } else {\n'
                                '  println!("cargo:rustc-link-lib=fallback");\n }\n}\n'), "build.rs", "p", set())
    assert [(s.name, s.when_env, s.unless_env, s.line) for s in items] == [
        ("a", ("A",), (), 2), ("without-a", (), ("A",), 4)]


def test_names_stay_unique_against_configured_ones() -> None:
    taken = {"iree-dist"}
    names = [s.name for s in sg.suggestions(scan(SCRIPT), "build.rs", "rt", taken)]
    assert names[0] == "iree-dist-2"
    assert "iree-dist-2" in taken


def test_recorded_output_confirms_only_an_unambiguous_branch() -> None:
    found = scan(SCRIPT)
    items = sg.suggestions(found, "build.rs", "rt", set())
    recorded = [
        ("g", "default", "rustc-link-lib=c", "out:1"),                     # unconditional
        ("g", "default", "rustc-link-search=native=/opt/iree", "out:2"),   # both env branches print one
        ("g", "default", "rustc-link-lib=static=iree_runtime", "out:3"),
        ("g", "bfd", "rustc-link-lib=static=iree_runtime", "out:3"),
        ("g", "bfd", "rustc-link-lib=static=iree_runtime_extra", "out:4"),  # a literal must match whole
    ]
    confirmed = sg.confirm(items, sg.common_directives(found), recorded)
    by = {s.name: [(c.gate, c.linker, c.directive) for c in s.confirmed_by] for s in confirmed}
    assert by["iree-dist"] == [("g", "default", "rustc-link-lib=static=iree_runtime"),
                               ("g", "bfd", "rustc-link-lib=static=iree_runtime")]
    assert by["iree-cuda-home"] == [] and by["aarch64-apple-darwin"] == []


def test_a_configured_branch_is_shown_commented_out() -> None:
    items = sg.suggestions(scan(SCRIPT), "build.rs", "rt", set())
    marked = sg.mark_configured(items, [Recipe("dist", when_env=("IREE_DIST",), file="build.rs", line=4)])
    assert [s.configured for s in marked] == ["dist", None, None, None]
    stanza = marked[0].stanza().splitlines()
    assert "# already configured as recipe 'dist'" in stanza
    assert all(line.startswith("#") for line in stanza)


def test_directive_patterns() -> None:
    p = sg.directive_pattern("rustc-link-search=native={dir}/lib (via link())")
    assert p.match("rustc-link-search=native=/opt/x/lib")
    assert not p.match("rustc-link-search=native=/opt/x/lib64")
    assert sg.directive_pattern("rustc-link-lib=a.b").match("rustc-link-lib=a.b")
    assert not sg.directive_pattern("rustc-link-lib=a.b").match("rustc-link-lib=axb")
