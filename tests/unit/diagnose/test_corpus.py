"""Every captured linker output is classified with the right kind, symbol and library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.diagnose import classify_stream, classify_text, linker_lines_from_cargo_message

CORPUS = Path(__file__).parents[2] / "fixtures" / "linker-output"

# file -> (kind, linker, symbol, library) of the first diagnostic
EXPECTED: dict[str, tuple[str, str | None, str | None, str | None]] = {}
for fam, linker in (("gnu-ld", "gnu-ld"), ("gold", "gold"), ("lld", "lld"), ("mold", "mold"), ("rust-lld", "lld")):
    EXPECTED[f"{fam}/undefined-symbol.txt"] = ("undefined-symbol", linker, "missing_fn", None)
    EXPECTED[f"{fam}/undefined-symbol-cxx.txt"] = ("undefined-symbol", linker, "ns::widget::draw(int)", None)
    EXPECTED[f"{fam}/undefined-symbol-cxx-mangled.txt"] = ("undefined-symbol", linker, "_ZN2ns6widget4drawEi", None)
    EXPECTED[f"{fam}/library-not-found.txt"] = ("library-not-found", linker, None, "nosuchlib")
    EXPECTED[f"{fam}/duplicate-symbol.txt"] = ("duplicate-symbol", linker, "dup_fn", None)
    EXPECTED[f"{fam}/incompatible-input.txt"] = ("incompatible-input", linker, None, "arch32.o")
    EXPECTED[f"{fam}/relocation-overflow.txt"] = ("relocation-overflow", linker, None, None)
    EXPECTED[f"{fam}/undefined-in-archive.txt"] = ("undefined-symbol", linker, "b_fn", None)
    EXPECTED[f"{fam}/undefined-two-in-function.txt"] = ("undefined-symbol", linker, "miss_one", None)
    # Only GNU ld knows the symbol came through another DSO; the others call it undefined.
    EXPECTED[f"{fam}/dso-missing.txt"] = (
        ("dso-missing", linker, "dep_fn", "./libdep.so") if fam == "gnu-ld" else ("undefined-symbol", linker, "dep_fn", None)
    )
EXPECTED.update(
    {
        "gnu-ld/archive-order.txt": ("undefined-symbol", "gnu-ld", "b_fn", None),
        "gold/archive-order.txt": ("undefined-symbol", "gold", "b_fn", None),
        "gnu-ld/linker-crashed.txt": ("linker-crashed", None, None, None),
        "cargo/dso-missing.gnu-ld.jsonl": ("dso-missing", "gnu-ld", "dep_fn", "/tmp/linkgate-corpus/libdep.so"),
        "cargo/dso-missing.gnu-ld.human.txt": ("dso-missing", "gnu-ld", "dep_fn", "/tmp/linkgate-corpus/libdep.so"),
        "cargo/undefined-symbol.gnu-ld.jsonl": ("undefined-symbol", "gnu-ld", "c_missing", None),
        "cargo/undefined-symbol.rust-lld.jsonl": ("undefined-symbol", "lld", "c_missing", None),
        "cargo/undefined-mangled.gnu-ld.human.txt": ("undefined-symbol", "gnu-ld", "_ZN5other6widget4draw17h0123456789abcdefE", None),
        "cargo/undefined-mangled.rust-lld.jsonl": ("undefined-symbol", "lld", "_ZN5other6widget4draw17h0123456789abcdefE", None),
        "cargo/relocation-overflow.gnu-ld.human.txt": ("relocation-overflow", "gnu-ld", "_RNvNtNtCsjrHSEGnQ3l9_3std9panicking11panic_count18GLOBAL_PANIC_COUNT", None),
        "cargo/relocation-overflow.rust-lld.human.txt": ("relocation-overflow", "lld", None, None),
        "cargo/relocation-overflow-v0.rust-lld.human.txt": ("relocation-overflow", "lld", None, None),
        "cargo/linker-not-found.human.txt": ("linker-not-found", None, None, "linkgate-no-such-cc"),
        # rustc reports a missing static library itself, while it bundles it into the rlib.
        "cargo/native-static-missing.jsonl": ("library-not-found", "rustc", None, "nothere"),
        "cargo/native-static-missing.human.txt": ("library-not-found", "rustc", None, "nothere"),
        "cargo/own-archive-source-missing.gnu-ld.human.txt": ("undefined-symbol", "gnu-ld", "b_fn", None),
        "cargo/own-archive-source-missing.rust-lld.jsonl": ("undefined-symbol", "lld", "b_fn", None),
        # rustc says the link failed; the linker's words match no family: still a failure.
        "cargo/linker-unrecognised.human.txt": ("unknown", None, None, None),
        "ld64/undefined-symbol.txt": ("undefined-symbol", "ld64", "_missing_fn", None),
        "ld64/undefined-symbol-ld-prime.txt": ("undefined-symbol", "ld64", "__ZN2ns6widget4drawEi", None),
        "ld64/library-not-found.txt": ("library-not-found", "ld64", None, "nosuchlib"),
        "ld64/duplicate-symbol.txt": ("duplicate-symbol", "ld64", "_dup_fn", None),
        "ld64/incompatible-input.txt": ("incompatible-input", "ld64", None, "libarch.a"),
        "link-exe/undefined-symbol.txt": ("undefined-symbol", "link.exe", "missing_fn", None),
        "link-exe/undefined-symbol-cxx.txt": ("undefined-symbol", "link.exe", "?draw@widget@ns@@SAHH@Z", None),
        "link-exe/undefined-symbol-rust.txt": ("undefined-symbol", "link.exe", "c_missing", None),
        "link-exe/library-not-found.txt": ("library-not-found", "link.exe", None, "nosuchlib.lib"),
        "link-exe/duplicate-symbol.txt": ("duplicate-symbol", "link.exe", "dup_fn", None),
        "link-exe/incompatible-input.txt": ("incompatible-input", "link.exe", None, "arch32.obj"),
    }
)


def corpus_files() -> list[str]:
    return sorted(
        str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*") if p.suffix in (".txt", ".jsonl")
    )


def test_every_corpus_file_has_an_expectation() -> None:
    assert set(corpus_files()) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_classified(name: str) -> None:
    path = CORPUS / name
    with path.open("rb") as fh:
        diags = classify_stream(fh)
    assert diags, name
    kind, linker, symbol, library = EXPECTED[name]
    first = diags[0]
    assert first.kind == kind
    assert first.linker == linker
    if symbol is not None or kind in ("undefined-symbol", "duplicate-symbol", "dso-missing"):
        assert first.symbol == symbol
    if library is not None or kind in ("library-not-found", "dso-missing"):
        assert first.library == library
    assert first.hint
    # The text API and the byte-stream API agree.
    assert [d.to_dict() for d in classify_text(path.read_text())] == [d.to_dict() for d in diags]


def test_dso_missing_is_exactly_one_diagnostic_with_library_hint() -> None:
    diags = classify_text((CORPUS / "gnu-ld/dso-missing.txt").read_text())
    assert len(diags) == 1
    d = diags[0]
    assert (d.kind, d.symbol, d.library) == ("dso-missing", "dep_fn", "./libdep.so")
    assert "`-ldep`" in (d.hint or "")
    assert "-lc" in (d.hint or "")


def test_relocation_overflow_collapses_into_one() -> None:
    diags = classify_text((CORPUS / "cargo/relocation-overflow.rust-lld.human.txt").read_text())
    assert [d.kind for d in diags] == ["relocation-overflow"]
    assert diags[0].count == 20
    assert len(diags[0].examples) == 5
    assert "code-model" in (diags[0].hint or "")


def test_demangling_rust_legacy_v0_and_cxx() -> None:
    diags = classify_text((CORPUS / "cargo/undefined-mangled.gnu-ld.human.txt").read_text())
    names = {d.symbol: d.demangled for d in diags}
    assert names["_ZN5other6widget4draw17h0123456789abcdefE"] == "other::widget::draw"
    assert names["_RNvNtCs1234_5other6widget4draw"].endswith("::widget::draw")
    cxx = classify_text((CORPUS / "lld/undefined-symbol-cxx-mangled.txt").read_text())
    assert cxx[0].demangled == "ns::widget::draw(int)"


def test_cargo_message_yields_only_linker_stderr() -> None:
    lines = (CORPUS / "cargo/dso-missing.gnu-ld.jsonl").read_text().splitlines()
    msg = next(json.loads(l) for l in lines if '"compiler-message"' in l)
    got = linker_lines_from_cargo_message(msg)
    assert got[0].startswith("/usr/bin/ld: ") and got[0].endswith("undefined reference to symbol 'dep_fn'")
    assert got[1] == "/usr/bin/ld: /tmp/linkgate-corpus/libdep.so: error adding symbols: DSO missing from command line"
    assert got[2] == "collect2: error: ld returned 1 exit status"
    assert len(got) == 3  # no command line, no rustc advice
    assert linker_lines_from_cargo_message({"reason": "compiler-artifact"}) == []


@pytest.mark.parametrize(
    ("name", "referenced_from"),
    [
        # lld names the member and then its archive; linkgate spells it as GNU ld does.
        ("lld/undefined-in-archive.txt", "./liba.a(a.o):(a_fn)"),
        ("rust-lld/undefined-in-archive.txt", "./liba.a(a.o):(a_fn)"),
        ("mold/undefined-in-archive.txt", "liba.a(a.o):(a_fn)"),
        ("gnu-ld/undefined-in-archive.txt", "./liba.a(a.o):(a_fn)"),
        ("gold/undefined-in-archive.txt", "./liba.a(a.o):(a_fn)"),
        (
            "cargo/own-archive-source-missing.rust-lld.jsonl",
            "/tmp/linkgate-corpus/recipedemo/target/debug/deps/librecipedemo-9f1adc74e1fc0103.rlib(a.o):(a_fn)",
        ),
    ],
)
def test_referencing_archive_member(name: str, referenced_from: str) -> None:
    with (CORPUS / name).open("rb") as fh:
        (d,) = classify_stream(fh)
    assert d.referenced_from == referenced_from


@pytest.mark.parametrize("fam", ["gnu-ld", "gold", "lld", "mold", "rust-lld"])
def test_every_reference_from_one_function_keeps_its_context(fam: str) -> None:
    # GNU ld prints "in function `main'" once, then both undefined references.
    diags = {d.symbol: d for d in classify_text((CORPUS / f"{fam}/undefined-two-in-function.txt").read_text())}
    assert set(diags) == {"miss_one", "miss_two"}
    for d in diags.values():
        assert d.referenced_from == "main_two.o:(main)", (fam, d)


def test_gnu_ld_continuation_in_a_cargo_log_keeps_the_rust_function() -> None:
    diags = {d.symbol: d for d in classify_text((CORPUS / "cargo/undefined-mangled.gnu-ld.human.txt").read_text())}
    second = diags["_RNvNtCs1234_5other6widget4draw"]
    assert second.referenced_from is not None
    assert second.referenced_from.endswith(":(_ZN8linkdemo4main17hffbf4e13af5e651fE)")


def test_a_failed_link_with_unrecognised_output_is_never_no_problem() -> None:
    (d,) = classify_text((CORPUS / "cargo/linker-unrecognised.human.txt").read_text())
    assert d.kind == "unknown"
    assert "linking with `/tmp/linkgate-corpus/fake/odd-linker` failed" in d.message
    # ... and a recognised failure does not get an extra unknown for rustc's header.
    kinds = [d.kind for d in classify_text((CORPUS / "cargo/dso-missing.gnu-ld.human.txt").read_text())]
    assert kinds == ["dso-missing"]
