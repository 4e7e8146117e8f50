from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from linkgate.cargo.buildscript import read_build_script_output
from linkgate.diagnose import attach_recipe, classify_text
from linkgate.diagnose.demangle import demangle_rust_legacy

CORPUS = Path(__file__).parents[2] / "fixtures" / "linker-output"


@pytest.mark.skipif(subprocess.run(["which", "ar"], capture_output=True).returncode, reason="needs binutils ar")
def test_archive_order_problem_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int b_fn(void);\nint a_fn(void) { return b_fn(); }\n")
    (tmp_path / "b.c").write_text("int b_fn(void) { return 2; }\n")
    subprocess.run(["gcc", "-c", "a.c", "b.c"], cwd=tmp_path, check=True)
    subprocess.run(["ar", "rcs", "liba.a", "a.o"], cwd=tmp_path, check=True)
    subprocess.run(["ar", "rcs", "libb.a", "b.o"], cwd=tmp_path, check=True)
    text = (CORPUS / "gnu-ld/archive-order.txt").read_text()
    (d,) = classify_text(text, command_line=["cc", "main.o", "-L.", "-lb", "-la"], cwd=tmp_path)
    # Archive order, never "nothing defines": libb.a is on the line and defines b_fn.
    assert d.kind == "archive-order"
    assert "Nothing" not in d.message + (d.hint or "")
    # The message names both archives in their order; the hint says which to move.
    assert "`-lb` (libb.a)" in d.message and "`-la` (liba.a)" in d.message
    assert d.message.index("`-lb` (libb.a) then") < d.message.index("then `-la`")
    assert "Move `-lb` after `-la`" in (d.hint or "") and "--start-group" in (d.hint or "")
    assert [Path(a).name for a in d.archives] == ["libb.a", "liba.a"]
    # In the right order there is no order problem to report.
    (d,) = classify_text(text, command_line=["cc", "main.o", "-L.", "-la", "-lb"], cwd=tmp_path)
    assert d.kind == "undefined-symbol"
    assert "--start-group" not in (d.hint or "")


def test_archive_order_from_rustc_command_line_in_the_log(tmp_path: Path) -> None:
    """explain: the link line is in the log (rustc's note), so the order is read from there."""
    (tmp_path / "a.c").write_text("int b_fn(void);\nint a_fn(void) { return b_fn(); }\n")
    (tmp_path / "b.c").write_text("int b_fn(void) { return 2; }\n")
    subprocess.run(["gcc", "-c", "a.c", "b.c"], cwd=tmp_path, check=True)
    subprocess.run(["ar", "rcs", "liba.a", "a.o"], cwd=tmp_path, check=True)
    subprocess.run(["ar", "rcs", "libb.a", "b.o"], cwd=tmp_path, check=True)
    log = (
        "error: linking with `cc` failed: exit status: 1\n"
        f'  = note:  "cc" "-m64" "<3 object files omitted>" "/t/deps/{{libapp-1,libsys-2}}.rlib" "-lb" "-la" "-L" "{tmp_path}" "-o" "/t/x"\n'
        "  = note: some arguments are omitted. use `--verbose` to show all linker arguments\n"
        f"  = note: /usr/bin/ld: {tmp_path}/liba.a(a.o): in function `a_fn':\n"
        "          a.c:(.text+0x5): undefined reference to `b_fn'\n"
    )
    (d,) = classify_text(log)
    assert d.kind == "archive-order"
    assert "Move `-lb` after `-la`" in (d.hint or "")
    # Without the command line, the same log is an undefined symbol and no more.
    (d,) = classify_text("\n".join(ln for ln in log.splitlines() if '"cc"' not in ln))
    assert d.kind == "undefined-symbol"


def test_library_not_found_lists_search_paths() -> None:
    text = (CORPUS / "gnu-ld/library-not-found.txt").read_text()
    (d,) = classify_text(text, command_line=["cc", "-L/opt/x/lib", "-lnosuchlib"])
    assert "/opt/x/lib" in (d.hint or "")
    verbose = "attempt to open /usr/lib/libnosuchlib.so failed\n" + text
    (d,) = classify_text(verbose)
    assert "/usr/lib/libnosuchlib.so" in (d.hint or "")


def test_attach_recipe_points_at_directives_and_script(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "Cargo.toml").write_text('[package]\nname = "pkg"\nversion = "0.1.0"\n')
    (pkg / "build.rs").write_text("fn main() {}\n")
    out_dir = tmp_path / "target/debug/build/pkg-0011/out"
    out_dir.mkdir(parents=True)
    (out_dir.parent / "output").write_text(
        "cargo:rerun-if-changed=build.rs\ncargo::rustc-link-search=native=/x\ncargo::rustc-link-lib=dylib=mid\n"
    )
    bso = read_build_script_output(out_dir, package_id=f"path+file://{pkg}#pkg@0.1.0")
    assert bso is not None
    diags = classify_text((CORPUS / "gnu-ld/dso-missing.txt").read_text())
    (d,) = attach_recipe(diags, [bso])
    assert [(r.key, r.value, r.line) for r in d.directives] == [("rustc-link-lib", "dylib=mid", 3)]
    assert d.directives[0].output_file == str(out_dir.parent / "output")
    assert d.build_script == str(pkg / "build.rs")
    # Kinds whose fix is not in the directives are left alone.
    crash = classify_text("collect2: fatal error: ld terminated with signal 9 [Killed]")
    assert attach_recipe(crash, [bso]) == crash


@pytest.mark.parametrize(
    ("mangled", "readable"),
    [
        ("_ZN4core3ptr13drop_in_place17h0123456789abcdefE", "core::ptr::drop_in_place"),
        ("_ZN60_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..Drop$GT$4drop17h0123456789abcdefE",
         "<alloc::vec::Vec<T> as core::ops::Drop>::drop"),
        ("_ZN2ns6widget4drawEi", None),  # C++: left to c++filt
        ("missing_fn", None),
    ],
)
def test_rust_legacy_demangler(mangled: str, readable: str | None) -> None:
    assert demangle_rust_legacy(mangled) == readable
