"""Seeded pattern/path pairs for comparing linkgate.picomatch with picomatch.

Patterns are built from pieces, each of which knows how to produce text it
should match, so about half the generated paths are expected matches and the
rest are near misses (siblings, dotfiles, parents, prefixes).
"""

from __future__ import annotations

import random
from collections.abc import Callable

Piece = tuple[str, Callable[[random.Random], str]]

NAMES = ["a", "b", "src", "lib", "core", "x.rs", "build.rs", "README.md", "foo-bar", "a.b.c", "_x", "1", "10"]
DOTNAMES = [".git", ".github", ".cargo", ".x", "..", "."]
ODD = ["a b", "a+b", "(a)", "a[b]", "{a}", "!a", "a$", "a^b", "@x", "a,b", "é"]


def _name(rng: random.Random) -> str:
    pool = NAMES if rng.random() < 0.75 else (DOTNAMES if rng.random() < 0.6 else ODD)
    return rng.choice(pool)


def _segments(rng: random.Random, lo: int, hi: int) -> str:
    return "/".join(_name(rng) for _ in range(rng.randint(lo, hi)))


def _const(text: str) -> Callable[[random.Random], str]:
    return lambda rng: text


def _pieces(rng: random.Random) -> list[Piece]:
    name = rng.choice(NAMES)
    return [
        (name, _const(name)),
        ("*", lambda r: r.choice(["", "a", "xy", ".h", "a.rs"])),
        ("*.rs", lambda r: r.choice(["", "a", "build", ".x"]) + ".rs"),
        ("?", lambda r: r.choice("abz._-1")),
        ("**", lambda r: _segments(r, 0, 3)),
        ("[abc]", lambda r: r.choice("abc")),
        ("[a-c]", lambda r: r.choice("abc")),
        ("[!a]", lambda r: r.choice(["!", "a", "[!a]"])),
        ("[^a]", lambda r: r.choice("bxa/")),
        ("[[:alpha:]]", lambda r: r.choice("aZ1")),
        ("[[:digit:]]x", lambda r: r.choice("09a") + "x"),
        ("{a,b}", lambda r: r.choice("ab")),
        ("{src,lib/core}", lambda r: r.choice(["src", "lib/core", "lib"])),
        ("{1..3}", lambda r: r.choice("1234")),
        ("{a..c}", lambda r: r.choice("abcd")),
        ("{1..10}", lambda r: r.choice(["1", "0", "5", "10"])),
        ("a.{1..2}", lambda r: r.choice(["a.1", ".1", "x2", "a.3"])),
        ("{x}", lambda r: r.choice(["x", "{x}"])),
        ("@(a|b)", lambda r: r.choice("abc")),
        ("!(a)", lambda r: r.choice(["a", "b", "ab", ""])),
        ("!(*.md)", lambda r: r.choice(["a.md", "a.rs", "md"])),
        ("*(a|b)", lambda r: r.choice(["", "ab", "ba", "c"])),
        ("+(a)", lambda r: r.choice(["a", "aa", ""])),
        ("?(a)", lambda r: r.choice(["a", "", "b"])),
        ("*.!(md)", lambda r: r.choice(["a.md", "a.rs", "a.mdx"])),
        ("\\*", lambda r: r.choice(["*", "a"])),
        ("\\[a]", lambda r: r.choice(["[a]", "a"])),
        ("a\\ b", lambda r: r.choice(["a b", "a\\ b"])),
        ("a\\.b", lambda r: r.choice(["a.b", "axb"])),
        ("(a|b)", lambda r: r.choice(["a", "b", "(a|b)"])),
        ("a+", lambda r: r.choice(["a+", "aa"])),
        ("$x^", lambda r: "$x^"),
        ('"a*"', lambda r: r.choice(["a*", "ab"])),
        ("[a", lambda r: "[a"),
        ("a]", lambda r: "a]"),
        ("{a", lambda r: "{a"),
        ("a}", lambda r: "a}"),
        (".", _const(".")),
        ("..", _const("..")),
        (".*", lambda r: r.choice([".git", ".", "..x"])),
        ("***", lambda r: r.choice(["a", "a/b"])),
    ]


PREFIXES = ["", "", "", "", "./", "!", "!./", "!!", "././", "**/", "*/", "!**/"]
SUFFIXES = ["", "", "", "/**", "/", "/*", "/**/*.rs", "/**/", "*", "/*.*", "/**/build.rs"]


def pattern(rng: random.Random) -> tuple[str, list[str]]:
    """A pattern and candidate paths (instantiations and near misses)."""
    pieces = _pieces(rng)
    chosen: list[Piece] = []
    for _ in range(rng.randint(1, 4)):
        chosen.append(rng.choice(pieces))
    seps = [rng.choice(["/", "/", "/", "", "/**/"]) for _ in chosen[1:]]
    prefix, suffix = rng.choice(PREFIXES), rng.choice(SUFFIXES)
    text = prefix + chosen[0][0] + "".join(s + p[0] for s, p in zip(seps, chosen[1:])) + suffix
    paths: list[str] = []
    for _ in range(4):
        parts = [chosen[0][1](rng)]
        for sep, piece in zip(seps, chosen[1:]):
            glue = "/" + _segments(rng, 0, 2) + "/" if sep == "/**/" else sep
            parts.append(glue.replace("//", "/") + piece[1](rng))
        path = "".join(parts)
        if suffix.startswith("/"):
            path += rng.choice(["", "/", "/" + _segments(rng, 1, 2), "/x.rs", "/.hidden"])
        if prefix.endswith("**/") or prefix == "*/":
            path = rng.choice(["", "a/", ".x/", "a/b/"]) + path
        paths.append(path)
    paths += [text, text.lstrip("!"), text.removeprefix("./"), _segments(rng, 1, 4), "." + _segments(rng, 1, 2)]
    return text, [p for p in dict.fromkeys(paths) if p]


def cases(seed: int = 20240521, count: int = 1600) -> tuple[list[str], list[tuple[int, str]]]:
    rng = random.Random(seed)
    patterns: list[str] = []
    pairs: list[tuple[int, str]] = []
    for _ in range(count):
        text, paths = pattern(rng)
        patterns.append(text)
        pairs.extend((len(patterns) - 1, p) for p in paths)
    return patterns, pairs
