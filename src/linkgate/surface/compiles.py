"""What a build script compiles and links, read from its source.

The ``cc`` crate prints only ``rerun-if-env-changed`` lines, so cargo's
records name no C source of a cc-built ``-sys`` crate (FACTS.md, "Build
scripts in the wild"); yet a change to one of those sources changes the
archive the gate links. This module finds them where the script names them:

- ``cc::Build``: ``.file(p)``, ``.files(ps)``, ``.include(dir)``, ``.compile(name)``;
- ``cxx_build::bridge(rs)`` / ``bridges(rss)`` (then ``.file``, as cc);
- ``cmake::Config::new(dir)`` / ``cmake::build(dir)``: the whole source tree;
- ``pkg_config::probe_library(name)`` / ``Config::new()...probe(name)``: a
  system library, outside the repository, steered by environment variables;
- the compiler called directly (``Command::new("cc")``, or a program read
  from ``$CC``): its ``.arg``/``.args`` sources and ``-I`` directories, and
  every ``const``/``static``/``let`` list of C-family sources;
- a build tool run in a directory (``Command::new("make").current_dir(dir)``);
- ``bindgen``'s ``.header(h)`` and ``-I`` in ``.clang_arg``.

Paths are relative to the package directory, where cargo runs the script.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from linkgate.surface.rustlex import Token, closure_params, matching, split_top, tokenize
from linkgate.surface.scriptexpr import Evaluator, Value

SOURCE_EXTENSIONS = frozenset({"c", "cc", "cpp", "cxx", "c++", "C", "s", "S", "asm", "m", "mm", "cu",
                               "h", "hh", "hpp", "hxx", "inc"})
_COMPILERS = ("gcc", "clang", "cc", "c++", "g++", "clang++", "cl", "cl.exe", "nvcc", "icc", "tcc",
              "nasm", "yasm", "as")
_BUILD_TOOLS = frozenset({"make", "gmake", "cmake", "ninja", "meson", "sh", "bash", "configure",
                          "./configure", "autoreconf", "scons", "bazel", "msbuild"})
CC_ENV = ("CC", "CFLAGS", "CXX", "CXXFLAGS", "AR", "ARFLAGS", "CRATE_CC_NO_DEFAULTS")
PKG_CONFIG_ENV = ("PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR",
                  "PKG_CONFIG_ALL_STATIC", "PKG_CONFIG_ALL_DYNAMIC", "PKG_CONFIG_ALLOW_CROSS")


@dataclass(frozen=True)
class ScriptInput:
    path: str  # relative to the package directory (posix), or absolute
    directory: bool  # the whole tree under it counts
    rule: str  # e.g. "cc::Build::file (const SOURCES)"
    role: str  # "compiled", "headers", "built", "bridge", "bindings"
    line: int
    file: str = ""  # the module file that names it; "" for the build script itself


@dataclass(frozen=True)
class SystemLibrary:
    name: str
    rule: str
    line: int
    env: tuple[str, ...]
    file: str = ""


@dataclass
class ScriptScan:
    inputs: list[ScriptInput] = field(default_factory=list)
    libraries: list[SystemLibrary] = field(default_factory=list)
    env: list[tuple[str, str]] = field(default_factory=list)  # (variable, rule)
    emitters: list[str] = field(default_factory=list)  # link directives a helper crate prints
    notes: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, what could not be read)


def is_source(path: str) -> bool:
    ext = posixpath.splitext(path)[1][1:]
    return ext in SOURCE_EXTENSIONS


def pkg_config_env(name: str) -> tuple[str, ...]:
    # The pkg-config crate upper-cases the name and turns '-' into '_' for per-library variables.
    key = name.upper().replace("-", "_")
    return (f"{key}_NO_PKG_CONFIG", f"{key}_STATIC", f"{key}_DYNAMIC") + PKG_CONFIG_ENV


def _is_compiler(program: str) -> bool:
    base = posixpath.basename(program)
    return any(base == c or base.endswith("-" + c) for c in _COMPILERS)


@dataclass
class _Scanner:
    tokens: list[Token]
    ev: Evaluator
    scan: ScriptScan = field(default_factory=ScriptScan)
    uses: frozenset[str] = frozenset()
    command: str | None = None  # "compiler", "tool:<name>", "other": the last Command::new
    compiler_called: bool = False
    history: list[tuple[str, Value, int]] = field(default_factory=list)
    # Blocks: a `let` or loop variable inside one ends with it, so a later `extra`
    # is not read as the loop's `extra`. Mutation (`v.push(x)`) outlives the block.
    scopes: list[list[tuple[str, Value | None]]] = field(default_factory=lambda: [[]])
    pending: dict[int, list[tuple[str, Value, int]]] = field(default_factory=dict)

    def run(self) -> ScriptScan:
        t = self.tokens
        self._consts()
        self._consts()  # a const may name another declared below it
        for i, tok in enumerate(t):
            if tok.kind == "punct" and tok.text == "{":
                self.scopes.append([])
                for name, value, line in self.pending.pop(i, []):
                    self._bind(name, value, line)
            elif tok.kind == "punct" and tok.text == "}" and len(self.scopes) > 1:
                for name, old in reversed(self.scopes.pop()):
                    if old is None:
                        self.ev.bindings.pop(name, None)
                    else:
                        self.ev.bindings[name] = old
            if tok.kind != "ident":
                continue
            if tok.text == "let":
                self._let(i)
            elif tok.text == "for":
                self._for(i)
            elif i > 0 and t[i - 1].text == "." and i + 1 < len(t) and t[i + 1].text == "(":
                self._method(i)
            elif (i == 0 or t[i - 1].text != "::") and i + 1 < len(t) and t[i + 1].text in ("::", "("):
                self._path_call(i)
        if self.compiler_called:
            for name, value, line in self.history:
                self._add(value, line, lambda origin: f"compiled by build script ({origin or name})",
                          "compiled", only_sources=True, quiet=True)
        return self.scan

    # bindings -----------------------------------------------------------
    def _bind(self, name: str, value: Value, line: int) -> None:
        self.scopes[-1].append((name, self.ev.bindings.get(name)))
        self.ev.bindings[name] = value
        self.history.append((name, value, line))

    def _consts(self) -> None:
        t = self.tokens
        for i, tok in enumerate(t):
            if tok.text in ("const", "static") and i + 2 < len(t):
                j = i + 1 + (t[i + 1].text == "mut")
                if t[j].kind == "ident" and t[j + 1].text == ":":
                    eq, end = _assignment(t, j + 1)
                    if eq is not None:
                        value = self.ev.evaluate(t[eq + 1:end]).with_origin(f"{tok.text} {t[j].text}")
                        if t[j].text not in self.ev.bindings or value.items:
                            self.ev.bindings[t[j].text] = value
                            self.history = [h for h in self.history if h[0] != t[j].text]
                            self.history.append((t[j].text, value, tok.line))

    def _let(self, i: int) -> None:
        t = self.tokens
        if i > 0 and t[i - 1].text in ("if", "while"):
            # `if let Ok(x) = expr {`: x lives in the block and holds what expr holds.
            eq = next((k for k in range(i + 1, len(t)) if t[k].text == "="), None)
            if eq is None:
                return
            body = eq + 1
            while body < len(t) and t[body].text != "{":
                body = matching(t, body) + 1 if t[body].text in ("(", "[") else body + 1
            value = self.ev.evaluate(t[eq + 1:body])
            for tok in t[i + 1:eq]:
                if tok.kind == "ident" and tok.text[0].islower() and tok.text not in ("mut", "ref"):
                    self.pending.setdefault(body, []).append((tok.text, value, tok.line))
            return
        j = i + 1 + (i + 1 < len(t) and t[i + 1].text == "mut")
        if j + 1 >= len(t) or t[j].kind != "ident" or t[j + 1].text not in ("=", ":"):
            return
        eq, end = _assignment(t, j + 1)
        if eq is not None:
            self._bind(t[j].text, self.ev.evaluate(t[eq + 1:end]).with_origin(f"let {t[j].text}"), t[i].line)

    def _for(self, i: int) -> None:
        t = self.tokens
        k = i + 1
        while k < len(t) and t[k].text != "in":
            k += 1
        names = [x.text for x in t[i + 1:k] if x.kind == "ident" and x.text not in ("mut", "ref")]
        body = k + 1
        while body < len(t) and t[body].text != "{":
            body = matching(t, body) + 1 if t[body].text in ("(", "[") else body + 1
        if len(names) == 1:
            self.pending.setdefault(body, []).append((names[0], self.ev.evaluate(t[k + 1:body]), t[i].line))

    # call sites -----------------------------------------------------------
    def _method(self, i: int) -> None:
        t = self.tokens
        name, close = t[i].text, matching(t, i + 1)
        args = [a for a in split_top(t[i + 2:close], ",") if a]
        line = t[i].line
        if name in ("push", "extend") and i >= 2 and t[i - 2].kind == "ident" and t[i - 2].text in self.ev.bindings:
            var = t[i - 2].text
            old = self.ev.bindings[var]
            if args and (old.items or not old.missing):  # an unreadable PathBuf stays unreadable
                value = old + self.ev.evaluate(args[0]).with_origin(f"let {var}")
                self.ev.bindings[var] = value
                self.history.append((var, value, line))
            return
        if name in ("for_each", "map") and args and t[i + 2].text in ("|", "move"):
            self._closure_receiver(i, args[0])
            return
        if not args:
            return
        if name in ("file", "files"):
            self._add_expr(args[0], line, f"cc::Build::{name}", "compiled")
        elif name in ("include", "includes"):
            self._add_expr(args[0], line, f"cc::Build::{name}", "headers", directory=True)
        elif name == "header" and "bindgen" in self.uses:
            self._add_expr(args[0], line, "bindgen::Builder::header", "bindings")
        elif name in ("clang_arg", "clang_args") and "bindgen" in self.uses:
            self._flags(self.ev.evaluate(args[0]), line, f"bindgen::Builder::{name}")
        elif name in ("arg", "args") and self.command == "compiler":
            arg = args[0][1:] if args[0][0].text == "&" else args[0]
            elements = split_top(arg[1:-1], ",") if arg[0].text == "[" and matching(arg, 0) == len(arg) - 1 else [arg]
            for element in (e for e in elements if e):
                # Most arguments are flags and object paths; only a source that cannot be read is worth a note.
                value = self.ev.evaluate(element)
                self._flags(value, line, "compiler include flag")
                self._add(value, line, lambda o: f"compiled by build script ({o or 'argument'})",
                          "compiled", only_sources=True, quiet=not _names_source(element))
        elif name == "current_dir" and self.command and self.command.startswith("tool:"):
            tool = self.command[5:]
            self._add_expr(args[0], line, f'Command::new("{tool}").current_dir', "built", directory=True)
        elif name == "compile" and self.uses & {"cc", "cxx_build", "gcc"}:
            names = [re.sub(r"^lib(.*)\.a$", r"\1", x.text) for x in self.ev.evaluate(args[0]).items]
            lib = names[0] if len(names) == 1 else "<computed>"
            self.scan.emitters.append(f"rustc-link-lib=static={lib} (cc::Build::compile)")
            for var in CC_ENV:
                self.scan.env.append((var, "read by the cc crate"))
        elif name == "probe" and "pkg_config" in self.uses:
            self._system(args[0], line, "pkg_config::Config::probe")

    def _path_call(self, i: int) -> None:
        t = self.tokens
        parts, j = [t[i].text], i + 1
        while j + 1 < len(t) and t[j].text == "::" and t[j + 1].kind == "ident":
            parts.append(t[j + 1].text)
            j += 2
        if j >= len(t) or t[j].text != "(":
            return
        name = "::".join(p for p in parts if p != "std")
        close = matching(t, j)
        args = [a for a in split_top(t[j + 1:close], ",") if a]
        line = t[i].line
        if name in ("cmake::Config::new", "cmake::build") or (name == "Config::new" and args and "cmake" in self.uses):
            if args:
                self._add_expr(args[0], line, f"cmake source dir ({name})", "built", directory=True)
            self.scan.emitters.append(f"a library built by cmake ({name})")
        elif name in ("cxx_build::bridge", "cxx_build::bridges") and args:
            self._add_expr(args[0], line, name, "bridge")
            self.scan.emitters.append(f"the cxx bridge's static library ({name})")
        elif name in ("pkg_config::probe_library", "probe_library") and args and "pkg_config" in self.uses:
            self._system(args[0], line, "pkg_config::probe_library")
        elif name in ("Command::new", "process::Command::new") and args:
            program = self.ev.evaluate(args[0])
            names = [x.text for x in program.items]
            if any(posixpath.basename(n) in _BUILD_TOOLS for n in names):
                self.command = "tool:" + next(posixpath.basename(n) for n in names
                                              if posixpath.basename(n) in _BUILD_TOOLS)
            elif not names or any(_is_compiler(n) for n in names):
                # A program read from $CC (or any unreadable one) may be the compiler.
                self.command = "compiler"
                self.compiler_called = True
            else:
                self.command = "other"
        elif name in ("cc::Build::new", "Build::new"):
            for var in CC_ENV:
                self.scan.env.append((var, "read by the cc crate"))

    def _closure_receiver(self, i: int, closure: list[Token]) -> None:
        """``LIST.iter().for_each(|f| ...)``: bind *f* to the receiver's items."""
        params, _ = closure_params(closure)
        if not params:
            return
        t, start, depth = self.tokens, i - 1, 0
        while start > 0:
            prev = t[start - 1]
            if prev.text in (")", "]", "}"):
                depth += 1
            elif prev.text in ("(", "[", "{"):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and prev.text in (";", "=", ","):
                break
            start -= 1
        self._bind(params[0], self.ev.evaluate(t[start:i - 1]), t[i].line)

    # results ----------------------------------------------------------------
    def _system(self, arg: list[Token], line: int, rule: str) -> None:
        value = self.ev.evaluate(arg)
        for item in value.items:
            env = pkg_config_env(item.text)
            self.scan.libraries.append(SystemLibrary(item.text, rule, line, env))
            self.scan.emitters.append(f"rustc-link-lib={item.text} ({rule})")
            for var in env:
                self.scan.env.append((var, f'{rule}("{item.text}")'))
        for reason in value.missing:
            self.scan.notes.append(("", line, f"{rule}: the library name {reason}"))

    def _flags(self, value: Value, line: int, rule: str) -> None:
        for x in value.items:
            if x.text.startswith("-I") and len(x.text) > 2:
                self.scan.inputs.append(ScriptInput(_normal(x.text[2:]), True, f"{rule} {x.text}", "headers", line))

    def _add_expr(self, expr: list[Token], line: int, rule: str, role: str, directory: bool = False) -> None:
        self._add(self.ev.evaluate(expr), line, lambda o: f"{rule} ({o})" if o else rule, role, directory=directory)

    def _add(self, value: Value, line: int, rule_for: Callable[[str | None], str], role: str,
             directory: bool = False, only_sources: bool = False, quiet: bool = False) -> None:
        for item in value.items:
            if only_sources and not is_source(item.text):
                continue
            self.scan.inputs.append(ScriptInput(_normal(item.text), directory, rule_for(item.origin), role, line))
        if not quiet:
            label = rule_for(None)
            for reason in dict.fromkeys(value.missing):
                self.scan.notes.append(("", line, f"{label}: {reason}"))


def _normal(path: str) -> str:
    norm = posixpath.normpath(path)
    return "." if norm in ("", ".") else norm


def _names_source(expr: Sequence[Token]) -> bool:
    return any(tok.kind == "str" and re.search(r"\.(c|cc|cpp|cxx|S|s|asm|cu|m|mm)\b", tok.text) for tok in expr)


def _assignment(t: Sequence[Token], i: int) -> tuple[int | None, int]:
    """From a ``:`` or ``=`` after a name: (index of ``=``, index of the closing ``;``)."""
    depth, eq = 0, None
    for j in range(i, len(t)):
        text = t[j].text if t[j].kind == "punct" else ""
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return None, j
        elif depth == 0 and text == "=" and eq is None:
            eq = j
        elif depth == 0 and text == ";":
            return eq, j
    return eq, len(t)


def _crates_used(tokens: Sequence[Token]) -> frozenset[str]:
    known = {"cc", "gcc", "cmake", "cxx_build", "pkg_config", "bindgen", "glob", "walkdir"}
    return frozenset(t.text for t in tokens if t.kind == "ident" and t.text in known)


def scan_script(text: str, package_dir: Path) -> ScriptScan:
    """Everything *text* (a build script) is seen to compile, include or probe."""
    tokens = tokenize(text)
    scanner = _Scanner(tokens, Evaluator(Path(package_dir)), uses=_crates_used(tokens))
    scan = scanner.run()
    scan.notes = list(dict.fromkeys(scan.notes))
    seen: set[tuple[str, bool]] = set()
    inputs = []
    for entry in scan.inputs:
        if (entry.path, entry.directory) not in seen:
            seen.add((entry.path, entry.directory))
            inputs.append(entry)
    scan.inputs = inputs
    scan.env = list(dict.fromkeys(scan.env))
    return scan
