"""What a build-script condition selects on: environment variables, the target, features.

Reads the shapes build scripts use to pick a link recipe:
``env::var("X").is_ok()``, ``env::var_os("X").is_some()``, ``option_env!("X")``,
``if let Ok(home) = env::var("X")``, comparisons (``== "macos"``), ``matches!``,
``cfg!(target_os = "macos")``, ``#[cfg(...)]``, and the variables cargo sets
for build scripts (``CARGO_CFG_TARGET_OS``, ``TARGET``, ``CARGO_FEATURE_<X>``).
Anything else is not a selector and yields no atom.

A build script runs on the host, so its own ``cfg!(target_os)`` is the
*host's* OS; cargo passes the target's in ``CARGO_CFG_TARGET_OS``. Both are
read as target conditions here because that is what scripts mean by them
whenever host and target are the same, which is how gates run by default.
"""

from __future__ import annotations

from dataclasses import dataclass

from linkgate.rustlex import Token

# target_os / target_arch / ... value -> a glob on the target triple.
_OS_GLOBS = {
    "macos": "*-apple-darwin", "ios": "*-apple-ios*", "linux": "*-linux-*", "windows": "*-windows-*",
    "android": "*-linux-android*", "freebsd": "*-freebsd", "netbsd": "*-netbsd", "openbsd": "*-openbsd",
    "none": "*-none*", "wasi": "wasm32-wasi*",
}
_TARGET_KEYS = frozenset({"target_os", "target_arch", "target_env", "target_vendor", "target_family"})
_CFG_ENV_KEYS = {
    "CARGO_CFG_TARGET_OS": "target_os", "CARGO_CFG_TARGET_ARCH": "target_arch",
    "CARGO_CFG_TARGET_ENV": "target_env", "CARGO_CFG_TARGET_FAMILY": "target_family",
    "CARGO_CFG_TARGET_VENDOR": "target_vendor", "TARGET": "target",
}


# Variables cargo sets for every build script (besides CARGO_CFG_*, TARGET, CARGO_FEATURE_*).
_CARGO_SET = frozenset({
    "HOST", "PROFILE", "OPT_LEVEL", "DEBUG", "OUT_DIR", "NUM_JOBS", "RUSTC", "RUSTDOC", "RUSTC_LINKER",
    "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO", "CARGO_MANIFEST_DIR", "CARGO_MANIFEST_PATH",
    "CARGO_MANIFEST_LINKS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_MAKEFLAGS", "CARGO_PRIMARY_PACKAGE",
})


@dataclass(frozen=True, order=True)
class Atom:
    """One selector: ``env`` (name, or NAME=VALUE), ``target`` (a triple glob) or ``feature``."""

    kind: str
    value: str
    negated: bool = False

    def negate(self) -> Atom:
        return Atom(self.kind, self.value, not self.negated)

    def describe(self) -> str:
        text = {"env": f"${self.value}", "target": f"target {self.value}", "feature": f"feature {self.value}"}
        return ("not " if self.negated else "") + text[self.kind]


def target_glob(key: str, value: str) -> str:
    if key == "target_os":
        return _OS_GLOBS.get(value, f"*-{value}*")
    if key == "target_arch":
        return {"x86": "i?86-*", "arm": "arm*-*"}.get(value, f"{value}-*")
    if key == "target_env":
        return {"msvc": "*-msvc"}.get(value, f"*-{value}*")
    if key == "target_vendor":
        return f"*-{value}-*"
    if key == "target_family":
        return {"windows": "*-windows-*", "wasm": "wasm*"}.get(value, "*")
    return value   # TARGET: the triple itself


def cfg_atom(key: str, value: str | None) -> Atom | None:
    """One ``cfg`` predicate leaf: ``target_os = "macos"``, ``unix``, ``feature = "x"``."""
    if key == "feature" and value is not None:
        return Atom("feature", value)
    if key in ("unix", "windows") and value is None:
        # `unix` is every family but Windows and wasm; "not Windows" is the part a glob can hold.
        return Atom("target", "*-windows-*", negated=key == "unix")
    if key in _TARGET_KEYS and value is not None:
        if key == "target_family" and value == "unix":
            return Atom("target", "*-windows-*", negated=True)
        return Atom("target", target_glob(key, value))
    return None   # target_pointer_width, target_endian, panic, ...: no glob on the triple says them


class Reader:
    """Turn condition tokens into atoms; *notes* collects what could not be kept exactly."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def take(self) -> tuple[str, ...]:
        """The notes since the last take: they belong to the branch just read."""
        out, self.notes = tuple(dict.fromkeys(self.notes)), []
        return out

    def cfg_predicate(self, toks: list[Token]) -> list[Atom]:
        """``all(a, not(b))`` -> [a, not b]; ``any(..)`` keeps its first branch and says so."""
        if not toks:
            return []
        head = toks[0]
        if head.kind == "ident" and len(toks) > 1 and toks[1].is_("("):
            args = _split(toks[2:-1], ",")
            if head.text == "all":
                return [a for arg in args for a in self.cfg_predicate(arg)]
            if head.text == "any":
                if len(args) > 1:
                    self.notes.append("cfg(any(...)): only its first alternative is proposed")
                return self.cfg_predicate(args[0]) if args else []
            if head.text == "not":
                inner = self.cfg_predicate(toks[2:-1])
                if len(inner) == 1:
                    return [inner[0].negate()]
                if inner:
                    self.notes.append("cfg(not(all(...))) cannot be written as a recipe condition; dropped")
                return []
        if head.kind == "ident":
            value = toks[2].text if len(toks) >= 3 and toks[1].is_("=") and toks[2].kind == "str" else None
            atom = cfg_atom(head.text, value)
            return [atom] if atom else []
        return []

    def expr(self, toks: list[Token]) -> list[Atom]:
        """A boolean condition: conjuncts joined by ``&&``; ``||`` keeps the first alternative."""
        alternatives = _split(toks, "||")
        if len(alternatives) > 1 and any(self.expr(a) for a in alternatives[1:]):
            self.notes.append("a condition with || is proposed with its first alternative only")
        atoms: list[Atom] = []
        for conj in _split(alternatives[0], "&&"):
            atoms += self._conjunct(conj)
        return atoms

    def negation(self, toks: list[Token]) -> list[Atom]:
        """What holds when the condition is false: ``!(A || B)`` is ``!A && !B``; ``!(A && B)``
        has no conjunctive form, so that part is dropped (and noted)."""
        out: list[Atom] = []
        probe = Reader()
        for alternative in _split(toks, "||"):
            atoms = probe.expr(alternative)
            if len(atoms) == 1:
                out.append(atoms[0].negate())
            elif atoms:
                self.notes.append("a later branch after a compound condition does not carry its negation")
        return out

    def _conjunct(self, toks: list[Token]) -> list[Atom]:
        negate = False
        while toks and toks[0].is_("!"):
            negate, toks = not negate, toks[1:]
        while len(toks) >= 2 and toks[0].is_("(") and toks[-1].is_(")"):
            toks = toks[1:-1]
        if len(_split(toks, "||")) > 1 or len(_split(toks, "&&")) > 1:
            atoms = self.expr(toks)      # a parenthesised group: (A || B) && C
        elif toks and toks[0].is_("let"):
            eq = next((k for k, t in enumerate(toks) if t.is_("=")), None)
            atoms = self.pattern(toks[eq + 1:], toks[1:eq]) if eq is not None else []
        elif len(toks) > 2 and toks[0].is_("matches") and toks[1].is_("!"):
            parts = _split(toks[3:-1], ",")
            atoms = self.pattern(parts[0], parts[1]) if len(parts) >= 2 else []
        elif len(toks) > 2 and toks[0].is_("cfg") and toks[1].is_("!"):
            atoms = self.cfg_predicate(toks[3:-1])
        else:
            atoms = self._read_and_test(toks)
        if negate:
            if len(atoms) == 1:
                return [atoms[0].negate()]
            if atoms:
                self.notes.append("a negated compound condition cannot be written as a recipe condition; dropped")
            return []
        return atoms

    def _read_and_test(self, toks: list[Token]) -> list[Atom]:
        found = find_read(toks)
        if found is None:
            return []
        var, end = found
        rest = toks[end:]
        negated = False
        value: str | None = None
        method = _first_test(rest)
        if method in ("is_err", "is_none"):
            negated = True
        elif method in ("contains", "ends_with", "starts_with"):
            arg = _call_arg(rest, method)
            if arg is not None and _CFG_ENV_KEYS.get(var) == "target":
                glob = {"contains": f"*{arg}*", "ends_with": f"*{arg}", "starts_with": f"{arg}*"}[method]
                return [Atom("target", glob)]
            value = arg if method != "contains" else None
            if method != "contains" and arg is not None:
                self.notes.append(f"${var}.{method}({arg!r}) is proposed as an exact value")
        for k, tok in enumerate(rest):
            if tok.is_("==") or tok.is_("!="):
                negated = tok.is_("!=")
                lit = next((t for t in rest[k + 1:] if t.kind == "str"), None)
                unset = any(t.is_("None") or t.is_("Err") for t in rest[k + 1:k + 3])
                if unset:
                    negated = not negated
                elif lit is not None:
                    value = lit.text
                break
        return [a.negate() if negated else a for a in self.var_atoms(var, value)]

    def pattern(self, scrutinee: list[Token], pat: list[Token]) -> list[Atom]:
        """``Ok(_)``/``Some(x)`` -> set, ``Err``/``None`` -> unset, ``Ok("v")``/``"v"`` -> value."""
        found = find_read(scrutinee)
        if found is None:
            return []
        var = found[0]
        alts = _split(pat, "|")
        if len(alts) > 1:
            self.notes.append("a pattern with | is proposed with its first alternative only")
        first = alts[0]
        if first and first[0].text in ("Err", "None"):
            return [a.negate() for a in self.var_atoms(var, None)]
        lit = next((t for t in first if t.kind == "str"), None)
        if first and first[0].kind == "ident" and first[0].text not in ("Ok", "Some") and lit is None:
            return []   # `_` or a binding: the caller negates the earlier arms
        return self.var_atoms(var, lit.text if lit else None)

    def var_atoms(self, var: str, value: str | None) -> list[Atom]:
        key = _CFG_ENV_KEYS.get(var)
        if key is None and var.startswith("CARGO_CFG_"):
            key = var[len("CARGO_CFG_"):].lower()   # CARGO_CFG_UNIX is cfg(unix), and so on
        if key is not None:
            if value is None and key in _CFG_ENV_KEYS.values():
                return []   # cargo always sets these: presence selects nothing
            atom = cfg_atom(key, value) if key != "target" else Atom("target", value or "*")
            if atom is None:
                self.notes.append(f"${var} is set by cargo from the target and has no triple glob; dropped")
            return [atom] if atom else []
        if var.startswith("CARGO_FEATURE_") and value is None:
            return [Atom("feature", var[len("CARGO_FEATURE_"):].lower())]
        if var in _CARGO_SET or var.startswith(("CARGO_PKG_", "DEP_")):
            # Not the user's to choose: as a when-env it would never hold in linkgate's own environment.
            self.notes.append(f"${var} is set by cargo for the build script, not a recipe condition; dropped")
            return []
        return [Atom("env", var if value is None else f"{var}={value}")]


def find_read(toks: list[Token]) -> tuple[str, int] | None:
    """The first ``var("X")`` / ``var_os("X")`` / ``option_env!("X")``: (X, index after it)."""
    for k, tok in enumerate(toks):
        if tok.kind != "ident":
            continue
        if tok.text in ("var", "var_os") and _lit_call(toks, k + 1):
            return toks[k + 2].text, k + 4
        if tok.text == "option_env" and k + 1 < len(toks) and toks[k + 1].is_("!") and _lit_call(toks, k + 2):
            return toks[k + 3].text, k + 5
    return None


def _lit_call(toks: list[Token], k: int) -> bool:
    return (k + 2 < len(toks) and toks[k].is_("(") and toks[k + 1].kind == "str" and toks[k + 2].is_(")"))


def _first_test(rest: list[Token]) -> str | None:
    for k in range(len(rest) - 1):
        if rest[k].is_(".") and rest[k + 1].kind == "ident" and rest[k + 1].text in (
            "is_ok", "is_some", "is_err", "is_none", "contains", "ends_with", "starts_with"
        ):
            return rest[k + 1].text
    return None


def _call_arg(rest: list[Token], method: str) -> str | None:
    for k in range(len(rest) - 2):
        if rest[k].is_(method) and rest[k + 1].is_("(") and rest[k + 2].kind == "str":
            return rest[k + 2].text
    return None


def _split(toks: list[Token], sep: str) -> list[list[Token]]:
    """Split at *sep* outside brackets."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in toks:
        if tok.kind == "punct" and tok.text in "([{":
            depth += 1
        elif tok.kind == "punct" and tok.text in ")]}":
            depth -= 1
        if depth == 0 and tok.is_(sep):
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p] or [[]]
