"""The Rust line that calls an undefined symbol, read from the sources when the link had no line table."""

from __future__ import annotations

from pathlib import Path

from linkgate.diagnose.rustref import find_call, referencing_function

MAIN = '''extern "C" {
    fn helper_fn() -> i32;
    fn gone_fn() -> i32;
}
// gone_fn() in a comment is not a call
fn other() -> i32 { unsafe { gone_fn() } }

fn main() {
    let s = "gone_fn()";
    let b = unsafe { gone_fn() };
    println!("{s}{b}");
}
'''


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


def test_the_call_inside_the_function_the_linker_named(tmp_path: Path) -> None:
    write(tmp_path, "src/main.rs", MAIN)
    assert find_call("gone_fn", [tmp_path], "main") == (str(tmp_path / "src/main.rs"), 10)


def test_without_a_function_the_first_call_not_a_comment_or_string(tmp_path: Path) -> None:
    write(tmp_path, "src/main.rs", MAIN)
    assert find_call("gone_fn", [tmp_path]) == (str(tmp_path / "src/main.rs"), 6)


def test_a_symbol_only_declared_points_at_its_declaration(tmp_path: Path) -> None:
    write(tmp_path, "src/main.rs", MAIN)
    assert find_call("helper_fn", [tmp_path]) == (str(tmp_path / "src/main.rs"), 2)
    assert find_call("nowhere_fn", [tmp_path]) is None


def test_build_output_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, "target/debug/build/x/out/gen.rs", "fn f() { gone_fn(); }\n")
    assert find_call("gone_fn", [tmp_path]) is None


def test_the_referencing_function_from_each_linkers_wording() -> None:
    gnu = "natapp.47fe98e7c6327c99-cgu.0:(.text._ZN6natapp4main17h4f9df767c4a0aee1E+0xf)"
    lld = "natapp-1.natapp.2-cgu.0.rcgu.o:(natapp::main::h4f9df767c4a0aee1)"
    assert referencing_function([gnu]) == "main"
    assert referencing_function([lld]) == "main"
    assert referencing_function(["core.o:(core_fn)"]) is None
