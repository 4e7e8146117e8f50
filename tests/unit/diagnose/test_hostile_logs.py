"""explain never calls a failed link clean: long symbols from real linkers,
driver exit lines with nothing classified, other encodings, JSON with the
wrong types."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from linkgate.cli import main
from linkgate.diagnose import classify_stream

LINKERS = {"gnu-ld": "bfd", "gold": "gold", "lld": "lld", "mold": "mold"}


PROBE = "linkgate_probe_symbol"


def real_log(tmp_path: Path, linker: str, length: int) -> bytes:
    """A real failed link's stderr, its undefined symbol then made *length*
    characters long (the linkers' wording is the same; lld takes minutes to
    report a 40,000-character symbol itself)."""
    src = tmp_path / "m.c"
    src.write_text(f"void {PROBE}(void);\nint main(void) {{ {PROBE}(); return 0; }}\n")
    done = subprocess.run(["cc", f"-fuse-ld={LINKERS[linker]}", str(src), "-o", str(tmp_path / "m")],
                          capture_output=True)
    assert done.returncode != 0 and b"collect2" in done.stderr and PROBE.encode() in done.stderr
    return done.stderr.replace(PROBE.encode(), b"f" + b"x" * (length - 1))


def kinds(data: bytes) -> list[tuple[str, int, str | None]]:
    return [(d.kind, len(d.symbol or ""), d.linker) for d in classify_stream(io.BytesIO(data))]


@pytest.mark.parametrize("length", [100, 8_000, 8_192, 9_000, 40_000, 1_000_000])
@pytest.mark.parametrize("linker", sorted(LINKERS))
def test_a_long_undefined_symbol_is_classified_whole(tmp_path, linker, length):
    assert kinds(real_log(tmp_path, linker, length)) == [("undefined-symbol", length, linker)]


def test_a_long_rust_lld_symbol(tmp_path):
    sym = "_RNv" + "Cs" * 6000 + "4main"
    log = f"  = note: rust-lld: error: undefined symbol: {sym}\n          >>> referenced by m.rs\n"
    assert kinds(log.encode()) == [("undefined-symbol", len(sym), "lld")]


@pytest.mark.parametrize("line", [
    "collect2: error: ld returned 1 exit status",
    "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
    "error: linking with `cc` failed: exit status: 1",
])
def test_a_failed_link_with_nothing_classified_is_unknown(tmp_path, capsys, line):
    log = tmp_path / "build.log"
    log.write_text(f"compiling\n/usr/bin/ld: some brand-new complaint: it is odd\n{line}\n")
    assert main(["explain", str(log), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [d["kind"] for d in diags] == ["unknown"]
    assert line.split(":")[0] in diags[0]["message"] or line in diags[0]["message"]


def test_the_unknown_carries_the_unclassified_lines_before_it():
    log = b"ld.bfd: warning: odd thing in format\ncollect2: error: ld returned 1 exit status\n"
    [d] = classify_stream(io.BytesIO(log))
    assert d.kind == "unknown" and "odd thing in format" in d.message and "collect2" in d.message


def test_a_classified_failure_adds_no_unknown(tmp_path):
    assert [k for k, _, _ in kinds(real_log(tmp_path, "gnu-ld", 20))] == ["undefined-symbol"]


def test_cargo_s_own_exit_status_is_not_a_link_failure():
    log = b"error: process didn't exit successfully: `target/debug/build/x/build-script-build` (exit status: 101)\n"
    assert kinds(log) == []


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_other_encodings_are_decoded(tmp_path, encoding):
    text = real_log(tmp_path, "lld", 50).decode()
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    assert kinds(data) == kinds(text.encode()) == [("undefined-symbol", 50, "lld")]


@pytest.mark.parametrize("record", [
    {"reason": "build-script-executed", "package_id": "x", "linked_libs": 5, "linked_paths": []},
    {"reason": "build-script-executed", "package_id": "x", "linked_libs": [1, None], "linked_paths": "p"},
    {"reason": "build-script-executed", "package_id": ["x"], "linked_libs": [], "linked_paths": [{}]},
    {"reason": "compiler-message", "message": 5},
    {"reason": "compiler-message", "message": {"rendered": 5, "children": 7}},
])
def test_cargo_json_with_the_wrong_types_does_not_crash(tmp_path, capsys, record):
    log = tmp_path / "log.json"
    log.write_text(json.dumps(record) + "\n" + "/usr/bin/ld: cannot find -lzz: No such file or directory\n")
    assert main(["explain", str(log)]) == 1
    out, err = capsys.readouterr()
    assert "library-not-found" in out and "Traceback" not in err
