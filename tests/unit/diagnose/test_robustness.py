"""The classifier never raises and stays bounded, whatever it is fed."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linkgate.diagnose import KINDS, classify_stream, classify_text
from linkgate.diagnose.classifier import MAX_GROUPS

CORPUS = Path(__file__).parents[2] / "fixtures" / "linker-output"
SAMPLES = [p.read_bytes() for p in sorted(CORPUS.glob("*/*")) if p.suffix in (".txt", ".jsonl")]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4096))
def test_random_bytes_never_raise(data: bytes) -> None:
    classify_stream(io.BytesIO(data))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SAMPLES),
    st.lists(st.tuples(st.integers(0, 100_000), st.binary(max_size=16)), max_size=8),
    st.booleans(),
)
def test_mutated_corpus_never_raises(sample: bytes, edits: list[tuple[int, bytes]], crlf: bool) -> None:
    data = bytearray(sample.replace(b"\n", b"\r\n") if crlf else sample)
    for pos, junk in edits:
        at = pos % (len(data) + 1)
        data[at:at + len(junk)] = junk
    classify_stream(io.BytesIO(bytes(data)))
    classify_text(bytes(data).decode("utf-8", errors="replace"))


def test_ansi_crlf_and_invalid_utf8() -> None:
    raw = (
        b"\x1b[1m\x1b[31merror\x1b[0m: noise \xff\xfe\r\n"
        b"\x1b[0;1;31mld.lld: error: \x1b[0mundefined symbol: missing_fn\r\n"
        b">>> referenced by main.c\r\n>>>               main.o:(main)\r\n"
    )
    (d,) = classify_stream(io.BytesIO(raw))
    assert (d.kind, d.symbol, d.referenced_from) == ("undefined-symbol", "missing_fn", "main.o:(main)")


def test_megabyte_lines_and_many_symbols_stay_bounded() -> None:
    long_line = b"x" * (3 << 20) + b"\n"
    many = b"".join(b"ld.lld: error: undefined symbol: sym_%d\n" % i for i in range(MAX_GROUPS * 3))
    tail = b"/usr/bin/ld: cannot find -lz: No such file or directory\n"
    diags = classify_stream(io.BytesIO(long_line + many + long_line + tail))
    assert len(diags) <= MAX_GROUPS + len(KINDS)
    assert sum(d.count for d in diags if d.kind == "undefined-symbol") == MAX_GROUPS * 3
    (lnf,) = [d for d in diags if d.kind == "library-not-found"]
    assert lnf.library == "z"
    assert lnf.line == 1 + MAX_GROUPS * 3 + 1 + 1
