"""Evaluate the path expressions a build script passes to cc, cmake and the compiler.

Build scripts name their inputs in a handful of shapes: a literal
(``.file("src/a.c")``), a ``const``/``static``/``let`` array walked by a
``for`` loop, ``Path::new(dir).join(name)``, ``env::var("CARGO_MANIFEST_DIR")``
(cargo runs the script in the package directory, so that is ``.``), a
``glob(...)`` or a ``read_dir(...)`` filtered by extension. Those evaluate to
strings relative to the package directory. Anything else (a helper function,
another variable of the environment) is kept as a reason it could not be
read, so the caller can say so instead of dropping it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from linkgate.surface import scriptfs
from linkgate.rustlex import (
    Token, closure_params, matching, skip_generics, split_top, strip_attributes, token_text,
)

_MAX_ITEMS = 5000
_IDENTITY = frozenset({
    "unwrap", "expect", "to_str", "to_string", "to_owned", "as_ref", "as_path", "into", "iter",
    "into_iter", "cloned", "copied", "display", "as_str", "clone", "to_path_buf", "as_os_str",
    "to_string_lossy", "canonicalize", "collect", "flatten", "as_slice", "borrow", "ok", "path",
    "into_os_string", "to_vec", "into_path", "unwrap_or_default", "as_deref", "by_ref",
})
_CALL_IDENTITY = frozenset({"Path::new", "PathBuf::from", "String::from", "OsStr::new", "OsString::from",
                            "Some", "Ok", "Cow::from", "Path::to_path_buf"})
_ENV_CALLS = frozenset({"env::var", "var", "env::var_os", "var_os"})
_CLOSURE_METHODS = frozenset({"map", "filter_map", "flat_map", "for_each", "inspect"})
_SPLITS = frozenset({"lines", "split", "split_whitespace", "split_terminator"})
# `.map(str::trim)`, `.map(PathBuf::from)`: a function path that keeps the value.
_MAP_IDENTITY = frozenset({"trim", "from", "new", "to_string", "to_owned", "into", "as_str", "clone", "as_ref"})


@dataclass(frozen=True)
class Item:
    text: str
    origin: str | None = None  # the binding or generator it came from: "const SOURCES", 'glob("src/*.c")'
    # False: what a method linkgate cannot evaluate was called on, kept as a guess.
    exact: bool = True
    # True: a piece of the path was unknown; *text* holds ``*`` there and the
    # path is somewhere under the directory before it (``widened_dir``).
    widened: bool = False


@dataclass(frozen=True)
class Value:
    items: tuple[Item, ...] = ()
    missing: tuple[str, ...] = ()  # why some part could not be read statically

    def __add__(self, other: Value) -> Value:
        return Value(self.items + other.items, self.missing + other.missing)

    def with_origin(self, origin: str) -> Value:
        return Value(tuple(i if i.origin else replace(i, origin=origin) for i in self.items), self.missing)


def unresolved(reason: str) -> Value:
    return Value((), (reason,))


class _Fail(Exception):
    """The tokens are not an expression this evaluator knows."""


def join(base: str, name: str) -> str:
    if name.startswith("/") or base in ("", "."):
        return name
    return base.rstrip("/") + "/" + name


def widened_dir(text: str) -> str:
    """The directory a widened path is under: what precedes its first unknown piece."""
    known = text.split("*", 1)[0]
    return known.rsplit("/", 1)[0] if "/" in known else "."


def _combine(x: Item, y: Item, op: str, why: str) -> Item | None:
    """*x* joined (or concatenated) with *y*; None when an unknown *y* leaves nothing known."""
    unknown = not y.exact or y.widened
    if x.widened or (unknown and not x.exact):
        # Already somewhere under a directory, or a guess joined to a guess: keep going.
        text = join(x.text, y.text if y.exact else "*") if op == "join" else x.text + (y.text if y.exact else "*")
        return Item(text, y.origin or x.origin, exact=x.exact, widened=x.widened or y.widened)
    if not unknown:
        text = join(x.text, y.text) if op == "join" else x.text + y.text
        return Item(text, y.origin or x.origin, exact=x.exact)
    # `format!("src/zlib-ng/{root}{fname}.c")` with `root` unknown: writing the
    # pieces that are known side by side names a file that does not exist, while
    # the file is surely under the directory the known prefix names.
    text = join(x.text, "*") if op == "join" else x.text + "*"
    if widened_dir(text) in ("", "."):
        return None  # the whole package: too wide to be a finding, left as a note
    return Item(text, f"under {widened_dir(text)}: {why}", widened=True)


def _product(a: Value, b: Value, op: str = "join") -> Value:
    items = []
    ys = b.items
    if not ys and b.missing:
        ys = (Item("*", exact=False),)  # a piece that cannot be read: widen to the directory before it
    why = b.missing[0] if b.missing else "computed at build time"
    accounted = True  # every unknown combination became a widened path
    for x in a.items:
        for y in ys:
            item = _combine(x, y, op, why)
            if item is None:
                accounted = False
                continue
            items.append(item)
            if len(items) > _MAX_ITEMS:
                return Value(tuple(items), a.missing + b.missing + ("too many combinations",))
    unknown = any(not y.exact or y.widened for y in ys)
    keep = b.missing if not (unknown and accounted and a.items and all(x.exact for x in a.items)) else ()
    return Value(tuple(items), a.missing + keep)


@dataclass
class Evaluator:
    """Evaluate token spans with the bindings seen so far; *package_dir* resolves globs."""

    package_dir: Path
    bindings: dict[str, Value] = field(default_factory=dict)

    def evaluate(self, tokens: Sequence[Token]) -> Value:
        if not tokens:
            return unresolved("empty expression")
        try:
            value, end = self._expr(tokens, 0)
        except (_Fail, IndexError):
            return unresolved(f"`{token_text(tokens)}` is not a literal path")
        if end != len(tokens):
            return unresolved(f"`{token_text(tokens)}` is not a literal path")
        return value

    # expression := unary postfix*
    def _expr(self, t: Sequence[Token], i: int) -> tuple[Value, int]:
        value, i = self._unary(t, i)
        while i < len(t):
            tok = t[i]
            if tok.text == "?" and tok.kind == "punct":
                i += 1
            elif tok.text == "." and tok.kind == "punct" and i + 1 < len(t) and t[i + 1].kind == "ident":
                value, i = self._method(value, t, i + 1)
            elif tok.kind == "ident" and tok.text == "as":
                i += 2  # `x as &str`: a cast keeps the value
            elif tok.kind == "punct" and tok.text == "+" and i + 1 < len(t):
                right, i = self._unary(t, i + 1)  # String + &str
                while i < len(t) and t[i].text == "." and i + 1 < len(t) and t[i + 1].kind == "ident":
                    right, i = self._method(right, t, i + 1)
                value = _product(value, right, op="concat")
            else:
                break
        return value, i

    def _unary(self, t: Sequence[Token], i: int) -> tuple[Value, int]:
        tok = t[i]
        if tok.kind == "punct" and tok.text in ("&", "*"):
            j = i + 1
            if t[j].kind == "ident" and t[j].text == "mut":
                j += 1
            return self._expr(t, j)
        if tok.kind in ("str", "char"):
            return Value((Item(tok.text),)), i + 1
        if tok.kind == "punct" and tok.text == "(":
            close = matching(t, i)
            return self._list(t[i + 1:close]), close + 1
        if tok.kind == "punct" and tok.text == "[":
            close = matching(t, i)
            return self._list(t[i + 1:close]), close + 1
        if tok.kind == "ident" and tok.text == "if":
            return self._if(t, i)
        if tok.kind == "ident" and i + 1 < len(t) and t[i + 1].text == "!":
            return self._macro(t, i)
        if tok.kind == "ident" or (tok.kind == "punct" and tok.text == "::"):
            return self._path(t, i)
        raise _Fail

    def _list(self, inner: Sequence[Token]) -> Value:
        """Elements of an array, vec! or tuple; an unreadable element is kept as a reason."""
        out = Value()
        for part in split_top(inner, ","):
            part = strip_attributes(part)
            if not part:
                continue
            repeat = split_top(part, ";")  # [x; N]
            out = out + self.evaluate(repeat[0])
        return out

    def _if(self, t: Sequence[Token], i: int) -> tuple[Value, int]:
        """``if c { a } else { b }``: either branch may run, so both count."""
        out = Value()
        while True:
            j = i + 1
            while not (t[j].kind == "punct" and t[j].text == "{"):
                j = matching(t, j) if t[j].text in "([" and t[j].kind == "punct" else j
                j += 1
            close = matching(t, j)
            out = out + self.evaluate(t[j + 1:close])
            i = close + 1
            if i < len(t) and t[i].text == "else":
                if t[i + 1].text == "if":
                    i += 1
                    continue
                close = matching(t, i + 1)
                return out + self.evaluate(t[i + 2:close]), close + 1
            return out, i

    def _macro(self, t: Sequence[Token], i: int) -> tuple[Value, int]:
        name, open_ = t[i].text, i + 2
        close = matching(t, open_)
        args = split_top(t[open_ + 1:close], ",")
        if name == "vec":
            return self._list(t[open_ + 1:close]), close + 1
        if name == "concat":
            value = Value((Item(""),))
            for arg in args:
                if arg:
                    value = _product(value, self.evaluate(arg), op="concat")
            return value, close + 1
        if name == "include_str" and args and len(args[0]) == 1 and args[0][0].kind == "str":
            return self._text_file(args[0][0].text, f'include_str!("{args[0][0].text}")'), close + 1
        if name in ("env", "option_env") and args and len(args[0]) == 1 and args[0][0].kind == "str":
            return self._env(args[0][0].text), close + 1
        if name == "format":
            return self._format(args), close + 1
        return unresolved(f"{name}!(...)"), close + 1

    def _format(self, args: list[list[Token]]) -> Value:
        if not args or len(args[0]) != 1 or args[0][0].kind != "str":
            return unresolved("format! without a literal format string")
        positional: list[Value] = []
        named: dict[str, Value] = {}
        for arg in args[1:]:
            if len(arg) > 2 and arg[0].kind == "ident" and arg[1].text == "=":
                named[arg[0].text] = self.evaluate(arg[2:])
            elif arg:
                positional.append(self.evaluate(arg))
        value, index = Value((Item(""),)), 0
        for piece in re.split(r"(\{\{|\}\}|\{[^{}]*\})", args[0][0].text):
            if piece in ("{{", "}}"):
                part = Value((Item(piece[0]),))
            elif piece.startswith("{"):
                key = piece[1:-1].split(":", 1)[0]
                if key == "":
                    part = positional[index] if index < len(positional) else unresolved("format! argument")
                    index += 1
                elif key.isdigit():
                    n = int(key)
                    part = positional[n] if n < len(positional) else unresolved("format! argument")
                else:
                    part = named.get(key) or self.bindings.get(key) or unresolved(f"{key} is not a literal")
            else:
                part = Value((Item(piece),))
            value = _product(value, part, op="concat")
        return value

    def _env(self, var: str) -> Value:
        if var == "CARGO_MANIFEST_DIR":
            return Value((Item("."),))
        if var == "OUT_DIR":
            return unresolved("under OUT_DIR, generated at build time")
        return unresolved(f"depends on ${var}")

    def _path(self, t: Sequence[Token], i: int) -> tuple[Value, int]:
        parts: list[str] = []
        if t[i].text == "::":
            i += 1
        while True:
            if t[i].kind != "ident":
                raise _Fail
            parts.append(t[i].text)
            i += 1
            if i < len(t) and t[i].text == "::" and i + 1 < len(t) and t[i + 1].text == "<":
                i = skip_generics(t, i + 1)
            if i < len(t) and t[i].text == "::":
                i += 1
                continue
            break
        name = "::".join(p for p in parts if p != "std")
        if i < len(t) and t[i].kind == "punct" and t[i].text == "(":
            close = matching(t, i)
            args = [a for a in split_top(t[i + 1:close], ",") if a]
            return self._call(name, args), close + 1
        if len(parts) == 1 and name in self.bindings:
            return self.bindings[name], i
        if name in ("None", "Option::None"):
            return Value(), i  # no value: nothing to read, nothing unreadable either
        return unresolved(f"{name} is not a literal"), i

    def _call(self, name: str, args: list[list[Token]]) -> Value:
        first = self.evaluate(args[0]) if args else Value()
        if name in _CALL_IDENTITY:
            return first
        if name in _ENV_CALLS and args and len(args[0]) == 1 and args[0][0].kind == "str":
            return self._env(args[0][0].text)
        if name in ("fs::read_to_string", "read_to_string"):
            return Value(tuple(i for x in first.items for i in self._text_file(x.text, f'read_to_string("{x.text}")').items),
                         first.missing)
        if name in ("Vec::new", "Vec::with_capacity", "vec::Vec::new"):
            return Value()
        if name in ("String::new", "String::with_capacity", "PathBuf::new"):
            return Value((Item(""),))
        if name in ("env::current_dir", "current_dir"):
            return Value((Item("."),))
        if name in ("glob", "glob::glob"):
            return self._expand(first, "glob", lambda p: scriptfs.glob(self.package_dir, p))
        if name in ("fs::read_dir", "read_dir"):
            return self._expand(first, "read_dir", lambda p: scriptfs.walk(self.package_dir, p, recursive=False))
        if name in ("WalkDir::new", "walkdir::WalkDir::new"):
            return self._expand(first, "WalkDir::new", lambda p: scriptfs.walk(self.package_dir, p, recursive=True))
        return unresolved(f"{name}() is computed at build time")

    def _text_file(self, name: str, origin: str) -> Value:
        """A source list kept in a text file: its whole text, for .lines()/.split() to cut."""
        text = scriptfs.read_text(self.package_dir, name)
        return unresolved(f"{origin}: cannot read it") if text is None else Value((Item(text, origin),))

    def _expand(self, arg: Value, how: str, walk: Callable[[str], scriptfs.Listing]) -> Value:
        out = Value((), arg.missing)
        for item in arg.items:
            listing = walk(item.text)
            origin = f'{how}("{item.text}")'
            if listing.note is not None:
                out = out + unresolved(listing.note)  # outside the repository, or cut at the bound
            elif not listing.files:
                out = out + unresolved(f"{origin} matches no file in {self.package_dir}")
            out = out + Value(tuple(Item(f, origin) for f in listing.files))
        return out

    def _method(self, recv: Value, t: Sequence[Token], i: int) -> tuple[Value, int]:
        name = t[i].text
        i += 1
        if i < len(t) and t[i].text == "::":
            i = skip_generics(t, i + 1)
        if i >= len(t) or t[i].text != "(":
            raise _Fail  # a field access
        close = matching(t, i)
        args = [a for a in split_top(t[i + 1:close], ",") if a]
        end = close + 1
        if name in _IDENTITY:
            return recv, end
        if name == "join" and len(args) == 1:
            return _product(recv, self.evaluate(args[0])), end
        if name == "chain" and len(args) == 1:
            return recv + self.evaluate(args[0]), end
        if name == "parent" and not args:
            return Value(tuple(replace(x, text=posixpath.dirname(x.text) or ".") for x in recv.items), recv.missing), end
        if name == "file_name" and not args:
            return Value(tuple(replace(x, text=posixpath.basename(x.text)) for x in recv.items), recv.missing), end
        if name in ("unwrap_or", "unwrap_or_else") and not recv.items:
            return recv, end  # the fallback of an unreadable value tells nothing about files
        if name in ("map_or", "map_or_else") and len(args) == 2:
            # `root.map_or(String::new(), |s| format!("{s}/"))`: the closure maps a value
            # that is there (`Some("arch/x86")`); the default stands in for one that is not.
            mapped = self._closure(recv, args[1])
            if recv.items and not recv.missing:
                return mapped, end
            default = self.evaluate(args[0]) if name == "map_or" else self._closure(Value(), args[0])
            return mapped + default, end
        if name in _CLOSURE_METHODS and len(args) == 1:
            return self._closure(recv, args[0]), end
        if name in _SPLITS:
            seps = [x.text for x in self.evaluate(args[0]).items] if args else []
            return Value(tuple(Item(piece, x.origin) for x in recv.items for piece in _split(x.text, name, seps)),
                         recv.missing), end
        if name in ("trim", "trim_end", "trim_start"):
            return Value(tuple(replace(x, text=x.text.strip()) for x in recv.items), recv.missing), end
        if name == "read_dir" and not args:  # Path::read_dir
            return self._expand(recv, "read_dir", lambda p: scriptfs.walk(self.package_dir, p, recursive=False)), end
        if name == "filter" and len(args) == 1:
            return filter_by_closure(recv, args[0]), end
        guesses = tuple(replace(x, exact=False) for x in recv.items)
        return Value(guesses, recv.missing + (f".{name}(...) is computed at build time",)), end

    def _closure(self, recv: Value, body: Sequence[Token]) -> Value:
        """``.map(|p| expr)``: *p* stands for every item of the receiver."""
        if body and body[-1].kind == "ident" and all(t.kind == "ident" or t.text == "::" for t in body):
            if body[-1].text in _MAP_IDENTITY:
                strip = body[-1].text == "trim"
                return Value(tuple(Item(x.text.strip(), x.origin) if strip else x for x in recv.items), recv.missing)
        params, rest = closure_params(body)
        if params is None:
            return Value((), recv.missing + ("a closure linkgate cannot read",))
        saved = {p: self.bindings.get(p) for p in params}
        for p in params:
            self.bindings[p] = recv
        try:
            if rest and rest[0].text == "{":
                rest = rest[1:matching(rest, 0)]
                rest = split_top(rest, ";")[-1]
            return self.evaluate(rest) if rest else recv
        finally:
            for p, old in saved.items():
                if old is None:
                    self.bindings.pop(p, None)
                else:
                    self.bindings[p] = old


def filter_by_closure(recv: Value, body: Sequence[Token]) -> Value:
    """``.filter(|e| e.extension() == Some("c"))`` or ``ends_with(".c")``: keep matching items."""
    names = {tok.text for tok in body if tok.kind == "ident"}
    literals = [tok.text for tok in body if tok.kind == "str"]
    if "extension" in names and literals:
        keep = tuple(x for x in recv.items if posixpath.splitext(x.text)[1][1:] in literals)
    elif "ends_with" in names and literals:
        keep = tuple(x for x in recv.items if any(x.text.endswith(s) for s in literals))
    else:
        return recv  # an unreadable filter: keeping every file over-approximates, which is safe
    return Value(keep, recv.missing)


def _split(text: str, how: str, seps: list[str]) -> list[str]:
    """Pieces of a text-file source list; empty pieces and `#` comments are not files."""
    if how == "lines":
        pieces = text.splitlines()
    elif how == "split_whitespace" or not seps:
        pieces = text.split()
    else:
        pieces = [text]
        for sep in seps:
            pieces = [p for piece in pieces for p in piece.split(sep)]
    return [p.strip() for p in pieces if p.strip() and not p.strip().startswith("#")]
