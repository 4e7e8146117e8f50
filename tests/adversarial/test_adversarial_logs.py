"""Class: logs to explain. Whatever the bytes, explain exits 0 or 1 in bounded
work; a log that carries a driver's "the linker failed" line is never clean."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from harness import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAILED_LINK = ("collect2: error: ld returned 1 exit status",
               "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
               "error: linking with `cc` failed: exit status: 1")
PIECES = st.sampled_from([
    "   Compiling x v0.1.0", "warning: unused", "/usr/bin/ld: main.o: in function `main':",
    "main.c:(.text+0x5): undefined reference to `" + "x" * 9000 + "'",
    "rust-lld: error: undefined symbol: _RNv" + "Cs" * 5000, ">>> referenced by m.rs", ">>>   m.o:(main)",
    "/usr/bin/ld: cannot find -lz: No such file or directory", "mold: fatal: library not found: q",
    "ld.lld: error: duplicate symbol: f", "/usr/bin/ld: something nobody has seen before",
    "note: \"cc\" \"-m64\" \"-o\" \"x\"", '{"reason":"build-script-executed","linked_libs":5}',
    '{"reason":"compiler-message","message":{"rendered":5}}', '{"reason":"compiler-message","message":[]}',
    "{" * 500, "\x00\x01\x02", "\x1b[31merror\x1b[0m", "ü" * 100, "\r", "a" * 70000, "exit status", "defin" * 1000,
    *FAILED_LINK,
])
ENCODINGS = st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1"])


def explain(sandbox: tuple[Path, Path], data: bytes) -> tuple[int, list[dict[str, object]], str]:
    outside, repo = sandbox
    (repo / "build.log").write_bytes(data)
    result = run(["explain", str(repo / "build.log"), "--format", "json"], repo, outside=outside, repo=repo)
    return result.code, json.loads(result.out)["diagnostics"], result.err


@pytest.mark.timeout(600)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(lines=st.lists(PIECES, max_size=12), encoding=ENCODINGS, junk=st.binary(max_size=64))
def test_generated_logs_are_classified_and_a_failed_link_is_never_clean(tmp_path_factory, lines, encoding, junk):
    base = tmp_path_factory.mktemp("log")
    outside, repo = base / "outside", base / "outside" / "repo"
    repo.mkdir(parents=True)
    text = "\n".join(lines) + "\n"
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        encoding, data = "utf-8", text.encode()
    code, diags, err = explain((outside, repo), data + (junk if encoding in ("utf-8", "latin-1") else b""))
    assert code in (0, 1), err
    assert code == (1 if diags else 0)
    if encoding != "latin-1" and any(line in FAILED_LINK for line in lines):
        assert diags, (encoding, lines[:4])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("bom", [codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE])
def test_a_bom_and_nothing_else(sandbox, bom):
    code, diags, err = explain(sandbox, bom)
    assert (code, diags) == (0, [])


@pytest.mark.timeout(120)
def test_a_megabyte_line_without_a_newline(sandbox):
    code, _, err = explain(sandbox, b"ld: error: " + b"q" * (3 << 20))
    assert code in (0, 1), err
