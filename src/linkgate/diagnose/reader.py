"""Reading a log of any size: only the lines that can matter reach the classifier.

A line matters when it holds a trigger word (``signatures.TRIGGERS``), or
when it follows ld64's list header. Lines come with their 1-based number and
whether they are a hit, so the classifier skips its own scans on context.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from linkgate.diagnose import signatures as sig

CHUNK = 1 << 20
# A line longer than this is cut into pieces, so a megabyte line of binary
# garbage costs no more memory than a chunk. A cut never splits a trigger word
# (``_safe_cut``), so a failure at the end of a long line is still seen.
MAX_LINE = 1 << 20
# Lines kept after a hit that announces a list on the lines below it: ld64's
# `"_x", referenced from:` then `_main in main.o`. Every other line that
# belongs to a problem (GNU ld's "in function" header, lld's and mold's ">>>")
# is a hit of its own, so no hit drags its neighbours through the
# classifier; on a log with an error block every 4 KB that halves the lines
# Python has to look at.
_AFTER = 3
FOLLOWED = "referenced from"
_FOLLOWED_BYTES = FOLLOWED.encode()

_TRIGGERS_STR = sig.TRIGGERS
_TRIGGERS_BYTES = tuple(t.encode() for t in sig.TRIGGERS)
_LONGEST = max(map(len, _TRIGGERS_BYTES))
_WINDOW = 1 << 18


def candidate_lines(lines: Iterable[str]) -> Iterator[tuple[int, str, bool]]:
    """Lines with a trigger word, plus a few after an ld64 list header, with whether each is a hit."""
    follow = 0
    for number, line in enumerate(lines, start=1):
        if "\0" in line:
            line = line.replace("\0", "")
        if len(line) > MAX_LINE:
            # Keep a megabyte from the first trigger word on: a failure that ends a
            # long line is what matters in it.
            # (and what leads up to it: a trigger is often the middle of its message).
            first = min((i for i in (line.find(t) for t in _TRIGGERS_STR) if i >= 0), default=0)
            start = max(0, first - (1 << 16))
            line = line[start:start + MAX_LINE]
        if any(t in line for t in _TRIGGERS_STR):
            yield number, line, True
            follow = max(follow - 1, _AFTER if FOLLOWED in line else 0)
        elif follow:
            yield number, line, False
            follow -= 1


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),  # before UTF-16: FF FE 00 00
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF8, "utf-8"),
)


class _Transcoded:
    """A byte stream in another encoding, read back as UTF-8 chunk by chunk
    (an incremental decoder: a character split across chunks survives)."""

    def __init__(self, fh: BinaryIO, first: bytes, encoding: str) -> None:
        self._fh, self._first = fh, first
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")

    def read(self, size: int) -> bytes:
        while True:
            data, self._first = (self._first, b"") if self._first else (self._fh.read(size), b"")
            text = self._decoder.decode(data, final=not data)
            if text or not data:
                return text.encode("utf-8")


class _Prefixed:
    """*first* (already read to sniff the encoding), then the rest of *fh*, without
    NUL bytes: a log written through a tool that pads or a terminal capture can hold
    them inside words (``undef\\0ined``), where they would hide a trigger word."""

    def __init__(self, fh: BinaryIO, first: bytes) -> None:
        self._fh, self._first = fh, first

    def read(self, size: int) -> bytes:
        if self._first:
            data, self._first = self._first, b""
        else:
            data = self._fh.read(size)
        return data.replace(b"\0", b"") if b"\0" in data else data


def as_utf8(fh: BinaryIO) -> Any:
    """*fh* as UTF-8 bytes: a log with a byte-order mark (PowerShell writes UTF-16
    with one), or UTF-16 without one (NUL in every other byte), is decoded."""
    first = fh.read(CHUNK)
    for bom, encoding in _BOMS:
        if first.startswith(bom):
            return _Transcoded(fh, first[len(bom):], encoding)
    utf16 = _utf16_without_bom(first[:_SAMPLE])
    return _Transcoded(fh, first, utf16) if utf16 else _Prefixed(fh, first)


# How much of a log decides its encoding: enough to get past a long first line.
_SAMPLE = 1 << 16


def _utf16_without_bom(sample: bytes) -> str | None:
    """UTF-16 by its NUL pattern: every ASCII character has a NUL on one side (odd
    offsets for little-endian, even for big-endian). Non-ASCII UTF-16 (CJK, Cyrillic)
    has few NULs, but the spaces, digits and newlines between its words still put
    theirs on one side only; a UTF-8 log with stray NULs has few, on both sides.
    So: NULs at least 2% of the sample (and 8), and 95% of them on one side."""
    if len(sample) < 16:
        return None
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    nuls = odd + even
    if nuls < max(8, len(sample) // 50):
        return None
    if odd >= nuls * 0.95:
        return "utf-16-le"
    if even >= nuls * 0.95:
        return "utf-16-be"
    return None


def candidate_lines_binary(fh: BinaryIO) -> Iterator[tuple[int, str, bool]]:
    """The same selection from a byte stream: each line once, in order.

    Trigger lines are found over a whole chunk at a time (see _hit_lines);
    only the lines around hits are decoded, and context carries across
    chunk boundaries, so the result does not depend on where chunks fall.
    """
    fh = as_utf8(fh)
    ctx = _Context()
    carry = b""
    while True:
        data = fh.read(CHUNK)
        buf = carry + data if carry else data
        if not buf:
            return
        if not data:  # end of input: the last line needs no newline
            carry = b""
            yield from _scan(buf, 0, len(buf), ctx)
            return
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            # No newline yet: pass a megabyte line on in pieces of about MAX_LINE,
            # each cut before a trigger word that would straddle it.
            at = 0
            while len(buf) - at >= MAX_LINE + _LONGEST:  # the window around the cut is all here
                stop = _safe_cut(buf, at + MAX_LINE)
                stop = at + MAX_LINE if stop <= at else stop
                yield from _scan(buf, at, stop, ctx)
                at = stop
            carry = buf[at:]
            continue
        carry = buf[cut:]
        yield from _scan(buf, 0, cut, ctx)


@dataclass
class _Context:
    number: int = 1  # number of the line the next piece starts with
    follow: int = 0  # lines still wanted after the last hit


def _scan(buf: bytes, start: int, end: int, ctx: _Context) -> Iterator[tuple[int, str, bool]]:
    """Yield the wanted lines of buf[start:end], which ends at a line break or a cut."""
    pos, number = start, ctx.number
    for hit, stop in _hit_lines(buf, start, end):
        while ctx.follow and pos < hit:
            after = _line_end(buf, pos, end)
            yield number, _text(buf, pos, after), False
            ctx.follow -= 1
            number, pos = number + 1, after + 1
        if pos < hit:
            number += buf.count(b"\n", pos, hit)
        yield number, _text(buf, hit, stop), True
        # A hit inside an earlier hit's after-lines uses one of them up.
        ctx.follow = max(ctx.follow - 1, _AFTER if buf.find(_FOLLOWED_BYTES, hit, stop) != -1 else 0)
        number, pos = number + 1, stop + 1
    while ctx.follow and pos < end:
        stop = _line_end(buf, pos, end)
        yield number, _text(buf, pos, stop), False
        ctx.follow -= 1
        number, pos = number + 1, stop + 1
    if pos > end:  # a cut piece's last line ended at the cut, not at a newline
        number -= 1
    ctx.number = number + buf.count(b"\n", pos, end)


def _safe_cut(buf: bytes, cut: int) -> int:
    """*cut*, moved back to the start of any trigger word that spans it, so the
    piece after it holds the whole word (a failure that ends a long line is seen)."""
    for trig in _TRIGGERS_BYTES:
        i = buf.find(trig, max(0, cut - len(trig) + 1), cut + len(trig) - 1)
        if i != -1 and i < cut:
            cut = i
    return cut


def _line_end(buf: bytes, pos: int, end: int) -> int:
    stop = buf.find(b"\n", pos, end)
    return end if stop == -1 else stop


def _text(buf: bytes, start: int, stop: int) -> str:
    return buf[start:stop].decode("utf-8", errors="replace")


def _hit_lines_find(buf: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the lines in buf[start:end] holding a trigger: one bytes.find pass per trigger."""
    lines: dict[int, int] = {}
    for trig in _TRIGGERS_BYTES:
        i = buf.find(trig, start, end)
        while i != -1:
            stop = _line_end(buf, i, end)
            lines[buf.rfind(b"\n", start, i) + 1 or start] = stop
            if stop == end:
                break
            i = buf.find(trig, stop, end)
    return sorted(lines.items())


def _hit_lines_automaton(buf: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The same, in one pass of an Aho-Corasick automaton (Rust, SIMD prefilter)."""
    assert _AUTOMATON is not None
    lines: list[tuple[int, int]] = []
    line_stop = -1
    # Windows overlap by a trigger's length; each match list stays small even
    # on a log of nothing but trigger words.
    for first in range(start, end, _WINDOW):
        last = min(end, first + _WINDOW + _LONGEST - 1)
        with memoryview(buf) as whole, whole[first:last] as window:
            matches = _AUTOMATON.find_matches_as_indexes(window)
        for _, at, _ in matches:  # in order; a trigger never spans a newline
            at += first
            if at < line_stop:
                continue
            line_stop = _line_end(buf, at, end)
            lines.append((buf.rfind(b"\n", start, at) + 1 or start, line_stop))
    return lines


def _automaton() -> Any:
    # Fourteen bytes.find passes cap pure Python near 150 MB/s, well under a
    # third of grep -E (bench/explain_throughput.py); one automaton pass runs
    # near grep's speed. Without the wheel the reader still works, slower.
    try:
        import ahocorasick_rs
    except ImportError:
        return None
    # Leftmost-first, not the default "standard" semantics: only then does the
    # automaton get aho-corasick's SIMD (Teddy) prefilter, which scanned a log
    # with an error block every 4 KB at ~1.2 GB/s instead of ~250 MB/s here.
    # Any match per line will do, so which of two overlapping triggers wins is moot.
    return ahocorasick_rs.BytesAhoCorasick(_TRIGGERS_BYTES, matchkind=ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST)


_AUTOMATON = _automaton()
_hit_lines = _hit_lines_find if _AUTOMATON is None else _hit_lines_automaton
