"""linkgate.picomatch against the real picomatch 2.3.1, over generated pairs."""

from __future__ import annotations

from picomatch_oracle import run_oracle
from picomatch_cases import cases

from linkgate import picomatch

SHOW = 15


def as_v8_source(src: str) -> str:
    """What V8's RegExp.prototype.source shows: `/` escaped outside classes."""
    out, i, in_class = [], 0, False
    while i < len(src):
        c = src[i]
        if c == "\\":
            out.append(src[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        out.append("\\/" if c == "/" and not in_class else {"\n": "\\n", "\r": "\\r"}.get(c, c))
        i += 1
    return "".join(out)


def test_generated_pairs_agree_with_picomatch() -> None:
    patterns, pairs = cases()
    assert len(pairs) >= 5000
    oracle = run_oracle(patterns, pairs)

    source_diffs = []
    for pattern, js in zip(patterns, oracle["sources"]):
        py = as_v8_source(picomatch.source(pattern))
        if isinstance(js, dict) or py != js:
            source_diffs.append(f"{pattern!r}\n    picomatch: {js}\n    linkgate:  {py}")
    match_diffs = []
    positives = 0
    for (index, path), expected in zip(pairs, oracle["results"]):
        got = picomatch.matches(patterns[index], path)
        positives += bool(expected)
        if got != expected:
            match_diffs.append(f"{patterns[index]!r} vs {path!r}: picomatch {expected}, linkgate {got}")

    report = [f"{len(match_diffs)} of {len(pairs)} pairs disagree"] + match_diffs[:SHOW]
    report += [f"{len(source_diffs)} of {len(patterns)} regex sources differ"] + source_diffs[:SHOW]
    assert not match_diffs and not source_diffs, "\n".join(report)
    # The generator must exercise both outcomes, or agreement proves little.
    assert 0.2 < positives / len(pairs) < 0.8, positives


def test_known_quirks() -> None:
    """The quirks FACTS.md lists, checked against the oracle, not assumed."""
    pairs = [
        ("src/**", "src"),
        ("./src/*.rs", "src/a.rs"),
        ("[!a]", "b"),  # not a negated class
        ("[!a]", "!"),
        ("[!a]", "[!a]"),
        ("[^a]", "b"),
        ("!(a).rs", "ab.rs"),
        ("!(a).rs", "b.rs"),
        ("*.md", "docs/a.md"),
        ("*.md", "a.md"),
        (".github/**", ".github/workflows/ci.yml"),
        ("a.{1..2}", "a.1"),
        ("a.{1..2}", "x1"),
    ]
    patterns = sorted({p for p, _ in pairs})
    oracle = run_oracle(patterns, [(patterns.index(p), path) for p, path in pairs])
    got = [picomatch.matches(p, path) for p, path in pairs]
    assert got == oracle["results"]
    assert got == [True, True, False, True, True, True, False, True, False, True, True, False, True]
