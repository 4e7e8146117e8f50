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

The values reach those calls through ``linkgate.surface.scriptwalk`` (bindings,
loops, the script's own helper functions) and ``linkgate.surface.scriptexpr``
(path expressions, globs, source lists in text files).

Paths are relative to the package directory, where cargo runs the script.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from linkgate.rustlex import Token, matching, split_top, tokenize
from linkgate.surface.scriptexpr import Evaluator, Value, widened_dir
from linkgate.surface.scriptwalk import ScriptWalker

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
class _Scanner(ScriptWalker):
    scan: ScriptScan = field(default_factory=ScriptScan)
    uses: frozenset[str] = frozenset()
    command: str | None = None  # "compiler", "tool:<name>", "other": the last Command::new
    compiler_called: bool = False
    # `.cargo_metadata(false)` since the last `Build::new`: cc's compile prints no
    # rustc-link-lib / rustc-link-search, so the library is not linked through it.
    quiet_build: bool = False

    def run(self) -> ScriptScan:
        self.walk_all()
        if self.compiler_called:
            for name, value, line in self.history:
                self._add(value, line, lambda origin: f"compiled by build script ({origin or name})",
                          "compiled", only_sources=True, quiet=True)
        return self.scan

    def on_method(self, i: int, name: str, args: list[list[Token]]) -> None:
        if not args:
            return
        line = self.tokens[i].line
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
        elif name == "cargo_metadata" and self.uses & {"cc", "cxx_build", "gcc"}:
            self.quiet_build = [t.text for t in args[0]] == ["false"]
        elif name == "compile" and self.uses & {"cc", "cxx_build", "gcc"}:
            names = [re.sub(r"^lib(.*)\.a$", r"\1", x.text) for x in self.ev.evaluate(args[0]).items]
            lib = names[0] if len(names) == 1 else "<computed>"
            if not self.quiet_build:
                self.scan.emitters.append(f"rustc-link-lib=static={lib} (cc::Build::compile)")
            self.scan.env += [(var, "read by the cc crate") for var in CC_ENV]
        elif name == "probe" and "pkg_config" in self.uses:
            self._system(args[0], line, "pkg_config::Config::probe")

    def on_call(self, i: int, name: str, args: list[list[Token]]) -> None:
        line = self.tokens[i].line
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
            names = [posixpath.basename(x.text) for x in self.ev.evaluate(args[0]).items]
            tools = [n for n in names if n in _BUILD_TOOLS]
            if tools:
                self.command = "tool:" + tools[0]
            elif not names or any(_is_compiler(n) for n in names):
                # A program read from $CC (or any unreadable one) may be the compiler.
                self.command = "compiler"
                self.compiler_called = True
            else:
                self.command = "other"
        elif name in ("cc::Build::new", "Build::new"):
            self.quiet_build = False
            self.scan.env += [(var, "read by the cc crate") for var in CC_ENV]

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
                path = widened_dir(x.text[2:]) if x.widened else x.text[2:]
                self.scan.inputs.append(ScriptInput(_normal(path), True, f"{rule} {x.text}", "headers", line))

    def _add_expr(self, expr: list[Token], line: int, rule: str, role: str, directory: bool = False) -> None:
        self._add(self.ev.evaluate(expr), line, lambda o: f"{rule} ({o})" if o else rule, role, directory=directory)

    def _add(self, value: Value, line: int, rule_for: Callable[[str | None], str], role: str,
             directory: bool = False, only_sources: bool = False, quiet: bool = False) -> None:
        for item in value.items:
            if only_sources and not is_source(item.text):
                continue
            path = widened_dir(item.text) if item.widened else item.text
            self.scan.inputs.append(ScriptInput(_normal(path), directory or item.widened, rule_for(item.origin),
                                                role, line))
        if not quiet:
            label = rule_for(None)
            for reason in dict.fromkeys(value.missing):
                self.scan.notes.append(("", line, f"{label}: {reason}"))


def _normal(path: str) -> str:
    norm = posixpath.normpath(path)
    return "." if norm in ("", ".") else norm


def _names_source(expr: Sequence[Token]) -> bool:
    return any(tok.kind == "str" and re.search(r"\.(c|cc|cpp|cxx|S|s|asm|cu|m|mm)\b", tok.text) for tok in expr)


def _crates_used(tokens: Sequence[Token]) -> frozenset[str]:
    known = {"cc", "gcc", "cmake", "cxx_build", "pkg_config", "bindgen", "glob", "walkdir"}
    return frozenset(t.text for t in tokens if t.kind == "ident" and t.text in known)


TOO_DEEP = "the build script nests expressions too deeply to read"


def scan_script(text: str, package_dir: Path) -> ScriptScan:
    """Everything *text* (a build script) is seen to compile, include or probe."""
    tokens = tokenize(text)
    scanner = _Scanner(tokens, Evaluator(Path(package_dir)), uses=_crates_used(tokens))
    try:
        scan = scanner.run()
    except RecursionError:
        # Expressions are read by recursion; thousands of nested `format!`, `vec!` or
        # `concat!` exhaust Python's stack. What the script names is then unknown: a note.
        scan = ScriptScan()
        scan.notes.append(("", 1, TOO_DEEP))
        return scan
    scan.notes = list(dict.fromkeys(scan.notes))
    seen: set[tuple[str, bool]] = set()
    inputs = []
    for entry in scan.inputs:
        if (entry.path, entry.directory) not in seen:
            seen.add((entry.path, entry.directory))
            inputs.append(entry)
    scan.inputs = inputs
    scan.env = list(dict.fromkeys(scan.env))
    scan.emitters = list(dict.fromkeys(scan.emitters))
    scan.libraries = list(dict.fromkeys(scan.libraries))  # a helper called twice probes once
    return scan
