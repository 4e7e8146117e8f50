"""A failed link is found whatever wraps it: UTF-16 without a byte-order mark (also
of non-ASCII text), NUL bytes inside words, the end of a line of a megabyte or more,
JSON-lines records, cargo's compiler-message carrying only `rendered`."""

from __future__ import annotations

import io
import json

import pytest

from linkgate.diagnose import classify, classify_stream
from linkgate.diagnose.reader import MAX_LINE

BLOCK = ("/usr/bin/ld: main.o: in function `main':\n"
         "main.c:(.text+0x5): undefined reference to `foo'\n"
         "collect2: error: ld returned 1 exit status\n")
PRE = "   Compiling x v0.1.0\nwarning: unused variable `y`\n"


def found(data: bytes) -> list[tuple[str, str | None]]:
    return [(d.kind, d.symbol) for d in classify_stream(io.BytesIO(data))]


UNDEFINED = [("undefined-symbol", "foo")]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("prefix", ["", PRE, "编译中 " * 900 + "\n", "Сборка проекта\n" * 50, "é" * 3000 + "\n"])
def test_utf16_without_a_bom(encoding: str, prefix: str) -> None:
    assert found((prefix + BLOCK).encode(encoding)) == UNDEFINED


def test_a_utf8_log_with_a_few_nuls_is_not_taken_for_utf16() -> None:
    assert found((PRE + BLOCK).encode() + b"\0\0\0" + "é".encode() * 10) == UNDEFINED


@pytest.mark.parametrize("text", [
    b"/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x5): undef\0ined refer\0ence to `foo'\n"
    b"coll\0ect2: error: ld returned 1 exit status\n",
    b"main.c:(.text+0x5): undefined reference to `f\0o\0o'\n",
    BLOCK.encode().replace(b" ", b" \0"),
])
def test_nuls_inside_words_are_stripped(text: bytes) -> None:
    assert found(text) == UNDEFINED


@pytest.mark.parametrize("length", [MAX_LINE - 30, MAX_LINE - 9, MAX_LINE - 1, MAX_LINE, 2 * MAX_LINE - 12,
                                    3 * MAX_LINE + 5])
def test_a_failure_ending_a_long_line(length: int) -> None:
    data = b"x" * length + b" main.c:(.text+0x5): undefined reference to `foo'\n"
    assert found(data) == UNDEFINED
    assert [(d.kind, d.symbol) for d in classify([data.decode()])] == UNDEFINED


@pytest.mark.parametrize("key", ["line", "message", "msg", "log"])
def test_json_lines_records_are_unwrapped(key: str) -> None:
    records = "".join(json.dumps({"ts": i, key: line}) + "\n" for i, line in enumerate((PRE + BLOCK).splitlines()))
    assert found(records.encode()) == UNDEFINED


def test_a_json_record_holding_the_whole_log() -> None:
    assert found((json.dumps({"level": "info", "message": PRE + BLOCK}) + "\n").encode()) == UNDEFINED


def test_cargo_compiler_message_with_only_rendered() -> None:
    msg = {"reason": "compiler-message", "message": {
        "level": "error", "message": "linking with `cc` failed: exit status: 1", "children": [], "spans": [],
        "rendered": "error: linking with `cc` failed: exit status: 1\n  = note: " + BLOCK}}
    assert found((json.dumps(msg) + "\n").encode()) == UNDEFINED


@pytest.mark.parametrize("line", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000,
                                  '{"line": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_json_nested_past_the_stack_is_text(line: str) -> None:
    assert found((line + " undefined reference to `foo'\n").encode()) == UNDEFINED


@pytest.mark.timeout(120)
def test_a_failure_among_a_million_identical_warnings() -> None:
    data = b"ld: warning: something odd here\n" * 1_000_000 + BLOCK.encode()
    (diag,) = classify_stream(io.BytesIO(data))
    assert (diag.kind, diag.symbol, diag.line) == ("undefined-symbol", "foo", 1_000_002)
