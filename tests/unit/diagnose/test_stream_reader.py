"""The byte-stream reader selects the same lines whatever the chunking or search engine."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from linkgate.diagnose import reader

CORPUS = Path(__file__).parents[2] / "fixtures" / "linker-output"
LOG = b"".join(p.read_bytes() for p in sorted(CORPUS.glob("*/*")) if p.suffix in (".txt", ".jsonl"))


def expected(data: bytes) -> list[tuple[int, str]]:
    """Each trigger line (and _AFTER lines after an ld64 list header), each once."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    wanted: set[int] = set()
    hits: set[int] = set()
    for i, line in enumerate(lines):
        if any(t.encode() in line for t in reader.sig.TRIGGERS):
            hits.add(i)
            after = reader._AFTER if reader.FOLLOWED.encode() in line else 0
            wanted.update(range(i, min(len(lines), i + 1 + after)))
    return [(i + 1, lines[i].decode("utf-8", errors="replace"), i in hits) for i in sorted(wanted)]


@pytest.mark.parametrize("chunk", [1, 7, 100, 4096, 1 << 20])
@pytest.mark.parametrize("engine", ["find", "automaton"])
def test_selection_independent_of_chunks_and_engine(
    monkeypatch: pytest.MonkeyPatch, chunk: int, engine: str
) -> None:
    if engine == "automaton" and reader._AUTOMATON is None:
        pytest.skip("ahocorasick-rs not installed")
    hit_lines = reader._hit_lines_find if engine == "find" else reader._hit_lines_automaton
    monkeypatch.setattr(reader, "_hit_lines", hit_lines)
    monkeypatch.setattr(reader, "CHUNK", chunk)
    data = LOG + b"noise\n" * 5 + b"tail without newline: ld: x"
    assert list(reader.candidate_lines_binary(io.BytesIO(data))) == expected(data)
