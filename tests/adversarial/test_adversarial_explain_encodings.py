"""Class: explain encodings. A failed link wrapped in UTF-16 without a byte-order
mark, NUL bytes, a line of a megabyte or more, JSON-lines records or a cargo record
carrying only `rendered` is found: exit 1 and the undefined symbol named, never
"no linker problem"."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from harness import run

BLOCK = ("/usr/bin/ld: main.o: in function `main':\n"
         "main.c:(.text+0x5): undefined reference to `foo'\n"
         "collect2: error: ld returned 1 exit status\n")
PRE = "   Compiling x v0.1.0\nwarning: unused variable `y`\n"
MIB = 1 << 20


def explain(sandbox: tuple[Path, Path], data: bytes) -> tuple[int, list[tuple[str, str | None]]]:
    outside, repo = sandbox
    (repo / "build.log").write_bytes(data)
    result = run(["explain", str(repo / "build.log"), "--format", "json"], repo, outside=outside, repo=repo)
    return result.code, [(d["kind"], d["symbol"]) for d in json.loads(result.out)["diagnostics"]]


def records(key: str, text: str) -> bytes:
    return "".join(json.dumps({"ts": i, key: line}) + "\n" for i, line in enumerate(text.splitlines())).encode()


CASES: dict[str, bytes] = {}
for enc in ("utf-16-le", "utf-16-be"):
    for label, prefix in {"ascii": PRE, "chinese": "编译中 " * 900 + "\n", "cyrillic": "Сборка проекта\n" * 50,
                          "accents": "é" * 3000 + "\n", "none": "", "crlf": PRE.replace("\n", "\r\n")}.items():
        CASES[f"{enc} without BOM, {label}"] = (prefix + BLOCK).encode(enc)
CASES["utf-32 with BOM"] = codecs.BOM_UTF32_LE + (PRE + BLOCK).encode("utf-32-le")
CASES["NUL inside undefined"] = BLOCK.encode().replace(b"undefined", b"undef\0ined")
CASES["NUL inside every word"] = BLOCK.encode().replace(b" ", b" \0")
CASES["NUL inside the symbol"] = BLOCK.encode().replace(b"`foo'", b"`f\0o\0o'")
CASES["NULs padding every line"] = BLOCK.encode().replace(b"\n", b"\0\0\0\0\n")
for length in (MIB - 30, MIB - 9, MIB - 1, MIB, 2 * MIB - 12, 3 * MIB + 5):
    CASES[f"failure ending a {length:,}-byte line"] = (b"x" * length + b" main.c:(.text+0x5): undefined reference"
                                                        b" to `foo'\n")
for key in ("line", "message", "msg", "log"):
    CASES[f'JSON lines {{"{key}": ...}}'] = records(key, PRE + BLOCK)
CASES["JSON record holding the whole log"] = (json.dumps({"level": "info", "message": PRE + BLOCK}) + "\n").encode()
CASES["JSON record with rendered"] = (json.dumps({"message": {"rendered": PRE + BLOCK}}) + "\n").encode()
CASES["cargo compiler-message with only rendered"] = (json.dumps({"reason": "compiler-message", "message": {
    "level": "error", "message": "linking with `cc` failed: exit status: 1", "children": [], "spans": [],
    "rendered": "error: linking with `cc` failed: exit status: 1\n  = note: " + BLOCK}}) + "\n").encode()
CASES["JSON nested 100,000 deep, then the failure"] = ("[" * 100_000 + "]" * 100_000 + "\n" + BLOCK).encode()
CASES["a million identical warnings, then the failure"] = b"ld: warning: odd\n" * 1_000_000 + BLOCK.encode()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrapped_failure_is_found(sandbox, name):
    code, diags = explain(sandbox, CASES[name])
    assert (code, diags) == (1, [("undefined-symbol", "foo")]), name


@pytest.mark.timeout(60)
@pytest.mark.parametrize("data", [b"\0" * 4096, ("\0" * 100 + "warning: x\n").encode("utf-16-le"),
                                  (PRE * 100).encode("utf-16-le"), b"x" * (3 * MIB)])
def test_no_failure_stays_clean(sandbox, data):
    assert explain(sandbox, data) == (0, [])
