"""Python CI scripts read, never run: the commands a script starts with literal argv.

Read with Python's own ``ast`` (the one parser that reads Python exactly as
the interpreter does). Understood: module-level and function-level
straight-line code; ``if __name__ == "__main__":``; calls of the script's own
functions (positional arguments, a top-level ``return``); ``try`` and
``with`` bodies; a ``for`` over a list of literals (unrolled, at most
``MAX_UNROLL`` rounds). Values: string and list literals, ``+``,
``.append``/``.extend``/``+=``, ``*splat``, ``sys.argv[1:]`` (the arguments of
the calling line), f-strings of known values, ``" ".join``, ``shlex.split``,
``os.path.join``/``dirname``/``abspath`` and ``__file__``, module constants.
Runs: ``subprocess.run``/``call``/``check_call``/``check_output``/``Popen``
(a list, or a string with ``shell=True``), ``os.system``, their ``cwd=`` and a
literal ``env=``, and ``os.chdir``/``os.environ[K] = V`` before them.

Anything else that reaches a run (a loop variable, a branch, a call result, an
unknown ``os.environ`` value) makes that run an unread part, with its line and
why: never a guess. A run in code not followed (another branch, a loop, a
function never called) is named too.
"""

from __future__ import annotations

import ast
import posixpath
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

# As the shell evaluator's bounds (shell.dispatch): statements, nested calls.
MAX_STEPS = 20_000
MAX_DEPTH = 8
MAX_UNROLL = 64
MAX_ITEMS = 4096
# As the shell's cap on one value (shell.words.MAX_VALUE), and on the commands one script starts.
MAX_CHARS = 1 << 16
MAX_RUNS = 1000
_RUNS = {"run", "call", "check_call", "check_output", "Popen"}
# Other ways the standard library starts a program: each is a part not read.
_OTHER_RUNS = {"subprocess.getoutput", "subprocess.getstatusoutput", "os.popen", "os.execv", "os.execvp",
               "os.execvpe", "os.execl", "os.execlp", "os.execle", "os.execlpe", "os.execve", "os.spawnv",
               "os.spawnvp", "os.spawnl", "os.spawnlp", "os.posix_spawn", "os.posix_spawnp", "pty.spawn",
               "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"}
WORKSPACE = "/github/workspace"


@dataclass(frozen=True)
class Args:
    """``sys.argv[1:]`` (*index* None): the words the calling line passes the script; ``sys.argv[N]``
    (*index* N): its Nth."""

    index: int | None = None


ARGS = Args()


@dataclass(frozen=True)
class Unknown:
    why: str


Item = str | Args | Unknown
Value = str | Args | list[Item] | Unknown | None


@dataclass(frozen=True)
class Run:
    """One command the script starts at *line*: argv words (str or ARGS), or *shell* text for
    ``os.system``/``shell=True``; *cwd* relative to the calling shell's directory (None: the same);
    *env* the variables the script adds."""

    line: int
    argv: tuple[str | Args, ...] = ()
    shell: str | None = None
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Part:
    """A run not read: its line and why."""

    line: int
    why: str


@dataclass
class Reading:
    runs: list[Run] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    # Why the whole file is not read (no valid Python, nests too deeply); None when read.
    unread: str | None = None


class _Stop(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: Value) -> None:
        self.value = value


def read(text: str, rel: str) -> Reading:
    """What the Python script *rel* (its *text*) runs."""
    out = Reading()
    try:
        tree = ast.parse(text, filename=rel)
    except (SyntaxError, ValueError, MemoryError) as exc:
        out.unread = f"not valid Python ({type(exc).__name__})"
        return out
    except RecursionError:
        out.unread = "nests too deeply to parse"
        return out
    reader = _Reader(rel, out)
    try:
        try:
            reader.block(tree.body, reader.globals, 0)
        except _Return:
            pass  # a top-level `raise` or `return`: the script ends there
        reader.sweep(tree)
    except RecursionError:
        out.runs.clear()
        out.parts.clear()
        out.unread = "nests too deeply to follow"
    except _Stop:
        out.parts.append(Part(1, f"evaluation stopped after {MAX_STEPS} statements"))
        reader.sweep(tree)
    return out


class _Reader:
    def __init__(self, rel: str, out: Reading) -> None:
        self.rel, self.out = rel, out
        self.globals: dict[str, Value] = {"__file__": f"{WORKSPACE}/{rel}", "__name__": "__main__"}
        self.funcs: dict[str, ast.FunctionDef] = {}
        self.modules: dict[str, str] = {}  # local name -> module (`import subprocess as sp`)
        self.imported: dict[str, str] = {}  # local name -> "module.name" (`from subprocess import run`)
        self.visited: set[int] = set()
        self.invoked: set[int] = set()
        self.steps = 0
        self.cwd: str | Unknown | None = None
        self.env: dict[str, str | Unknown] = {}

    # --- statements ---------------------------------------------------------

    def block(self, body: list[ast.stmt], scope: dict[str, Value], depth: int) -> None:
        for stmt in body:
            self.stmt(stmt, scope, depth)

    def stmt(self, node: ast.stmt, scope: dict[str, Value], depth: int) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Stop
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self.foreign(node)
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                self.imported[alias.asname or alias.name] = f"{node.module or ''}.{alias.name}"
        elif isinstance(node, ast.FunctionDef):
            self.funcs[node.name] = node
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value, scope, depth)
            for target in node.targets:
                self.assign(target, value, scope, node.lineno)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.expr(node.value, scope, depth), scope, node.lineno)
        elif isinstance(node, ast.AugAssign):
            value = self.expr(node.value, scope, depth)
            if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
                old = scope.get(node.target.id, self.globals.get(node.target.id))
                if isinstance(old, list) and isinstance(value, list):
                    # `+=` on a list mutates it, as in Python.
                    old.extend(value if len(old) + len(value) <= MAX_ITEMS else
                               [Unknown(f"a list past {MAX_ITEMS} words at line {node.lineno}")])
                    return
                scope[node.target.id] = _add(old, value, node.lineno)
            else:
                self.taint([node], scope, f"in the operation at line {node.lineno}")
        elif isinstance(node, ast.Expr):
            self.expr(node.value, scope, depth)
        elif isinstance(node, ast.If):
            if _is_main_guard(node.test):
                self.block(node.body, scope, depth)
                return
            self.expr(node.test, scope, depth)
            self.taint(node.body + node.orelse, scope, f"under the `if` at line {node.lineno}")
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and not node.orelse:
            items = self.expr(node.iter, scope, depth)
            if isinstance(items, list) and len(items) <= MAX_UNROLL and all(isinstance(i, str) for i in items) \
                    and not _breaks(node.body):
                for item in list(items):
                    scope[node.target.id] = item
                    self.block(node.body, scope, depth)
                return
            self.taint([node], scope, f"in the loop at line {node.lineno}")
        elif isinstance(node, ast.With):
            for w in node.items:
                self.expr(w.context_expr, scope, depth)
                if w.optional_vars is not None:
                    self.assign(w.optional_vars, Unknown(f"a `with` value at line {node.lineno}"), scope,
                                node.lineno)
            self.block(node.body, scope, depth)
        elif isinstance(node, ast.Try):
            self.block(node.body, scope, depth)
            self.taint([*node.handlers, *node.orelse], scope, f"in an `except` or `else` of the `try` at line {node.lineno}")
            self.block(node.finalbody, scope, depth)
        elif isinstance(node, ast.Return):
            raise _Return(self.expr(node.value, scope, depth) if node.value is not None else None)
        elif isinstance(node, (ast.Pass, ast.Global, ast.Nonlocal, ast.Assert, ast.ClassDef)):
            pass
        else:
            # while, match, del, raise, async code, a `for` this reader does not unroll: not followed.
            self.taint([node], scope, f"in the statement at line {node.lineno}")
            if isinstance(node, ast.Raise):
                raise _Return(None)  # what follows it does not run

    def taint(self, body: Sequence[ast.AST], scope: dict[str, Value],
              where: str) -> None:
        """Code not followed (*where*: "under the `if` at line 3"): each command it runs is an unread
        part; each name it assigns and each list it appends to become unknown."""
        why = f"assigned {where}"
        for node in (n for part in body for n in ast.walk(part)):
            if isinstance(node, ast.Call) and id(node) not in self.visited and self.is_run(node):
                self.visited.add(id(node))
                self.out.parts.append(Part(node.lineno, f"it runs {where}, which linkgate does not evaluate"))
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                scope[node.id] = Unknown(f"{node.id} is {why}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name):
                old = scope.get(node.func.value.id, self.globals.get(node.func.value.id))
                if isinstance(old, list):
                    old.append(Unknown(f"{node.func.value.id} is {why}"))
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and _is_environ(node.value):
                self.env["*"] = Unknown(f"os.environ is {why}")
            elif isinstance(node, ast.Call) and self.qualified(node.func) == "os.chdir":
                self.cwd = Unknown(f"the working directory is {why}")

    def assign(self, target: ast.expr, value: Value, scope: dict[str, Value], line: int) -> None:
        if isinstance(target, ast.Name):
            scope[target.id] = value
        elif isinstance(target, ast.Subscript) and _is_environ(target.value):
            key = self.expr(target.slice, scope, 0)
            if isinstance(key, str):
                self.env[key] = value if isinstance(value, (str, Unknown)) else Unknown(f"os.environ[{key!r}]")
            else:
                self.env["*"] = Unknown(f"os.environ is set with a key not computed at line {line}")
        else:
            for node in ast.walk(target):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    scope[node.id] = Unknown(f"{node.id} is unpacked at line {line}")

    # --- expressions ----------------------------------------------------------

    def lookup(self, name: str, scope: dict[str, Value]) -> Value:
        if name in scope:
            return scope[name]
        if name in self.globals:
            return self.globals[name]
        return Unknown(f"{name} is not computed")

    def is_run(self, node: ast.Call) -> bool:
        name = self.qualified(node.func)
        return name is not None and (name.startswith("subprocess.") and name.split(".", 1)[1] in _RUNS or
                                     name == "os.system" or name in _OTHER_RUNS)

    def foreign(self, node: ast.Import | ast.ImportFrom) -> None:
        """A module outside the standard library (setuptools_rust, nox, invoke, sh, the repository's
        own helpers) may run cargo in code linkgate does not read: a part not read, at its import."""
        if isinstance(node, ast.ImportFrom):
            names = [("." * node.level) + (node.module or "")] if node.level or node.module else []
        else:
            names = [alias.name for alias in node.names]
        for name in names:
            if name.startswith(".") or name.split(".")[0] not in sys.stdlib_module_names:
                self.out.parts.append(Part(node.lineno, f"it imports {name}, a module linkgate does not read; "
                                                        "what it runs is not known"))

    def qualified(self, node: ast.expr) -> str | None:
        """`sp.run` -> "subprocess.run" by the script's imports; None for anything else."""
        if isinstance(node, ast.Name):
            return self.imported.get(node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.modules:
                return f"{self.modules[node.value.id]}.{node.attr}"
            inner = self.qualified(node.value)
            return f"{inner}.{node.attr}" if inner else None
        return None

    def expr(self, node: ast.expr, scope: dict[str, Value], depth: int) -> Value:
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else Unknown(f"the constant at line {node.lineno}") \
                if node.value is not None else None
        if isinstance(node, ast.Name):
            return self.lookup(node.id, scope)
        if isinstance(node, (ast.List, ast.Tuple)):
            items: list[Item] = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    inner = self.expr(elt.value, scope, depth)
                    items.extend(inner if isinstance(inner, list) else [_unknown(inner, elt)])
                else:
                    items.append(_item(self.expr(elt, scope, depth), elt))
            return items
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _add(self.expr(node.left, scope, depth), self.expr(node.right, scope, depth), node.lineno)
        if isinstance(node, ast.JoinedStr):
            text = ""
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    text += part.value
                    continue
                assert isinstance(part, ast.FormattedValue)
                got = self.expr(part.value, scope, depth)
                if not isinstance(got, str) or part.format_spec is not None or part.conversion not in (-1, 115):
                    return Unknown(f"an f-string of a value not computed at line {node.lineno}")
                text += got
                if len(text) > MAX_CHARS:
                    return Unknown(f"a string past {MAX_CHARS} characters at line {node.lineno}")
            return text
        if isinstance(node, ast.Subscript):
            base = self.qualified(node.value) if isinstance(node.value, ast.Attribute) else None
            if base == "sys.argv" and isinstance(node.slice, ast.Slice) and node.slice.upper is None and \
                    node.slice.step is None and isinstance(node.slice.lower, ast.Constant) and \
                    node.slice.lower.value == 1:
                return [ARGS]
            if base == "sys.argv" and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int \
                    and 1 <= node.slice.value <= 9:
                return Args(node.slice.value)  # one word
            if base == "os.environ":
                return Unknown(f"os.environ at line {node.lineno}")
            return Unknown(f"a subscript at line {node.lineno}")
        if isinstance(node, ast.Call):
            return self.call(node, scope, depth)
        if isinstance(node, ast.Attribute) and self.qualified(node) == "sys.executable":
            return "python3"
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child, scope, depth)  # for the runs inside it
        return Unknown(f"a value not computed at line {getattr(node, 'lineno', 0)}")

    def call(self, node: ast.Call, scope: dict[str, Value], depth: int) -> Value:
        name = self.qualified(node.func)
        args = [self.expr(a.value if isinstance(a, ast.Starred) else a, scope, depth) for a in node.args]
        kwargs = {k.arg: k.value for k in node.keywords}
        if name in _OTHER_RUNS:
            self.visited.add(id(node))
            self.out.parts.append(Part(node.lineno, f"it starts a program with {name}, which linkgate does not "
                                                    "read"))
            return Unknown(f"the result of the command at line {node.lineno}")
        if name is not None and name.startswith("subprocess.") and name.split(".", 1)[1] in _RUNS or \
                name == "os.system":
            self.run(node, name, args, kwargs, scope, depth)
            return Unknown(f"the result of the command at line {node.lineno}")
        for k in node.keywords:
            self.expr(k.value, scope, depth)
        if name == "shlex.split" and len(args) == 1 and isinstance(args[0], str):
            try:
                return list(shlex.split(args[0]))
            except ValueError:
                return Unknown(f"shlex.split of unbalanced quotes at line {node.lineno}")
        if name in ("os.path.join", "os.path.dirname", "os.path.abspath", "os.path.realpath",
                    "os.path.normpath") and args and all(isinstance(a, str) for a in args):
            words = [a for a in args if isinstance(a, str)]
            if name == "os.path.join":
                return posixpath.join(*words)
            if name == "os.path.dirname":
                return posixpath.dirname(words[0])
            return posixpath.normpath(words[0]) if words[0].startswith("/") else \
                Unknown(f"{name} of a relative path at line {node.lineno}")
        if name == "os.chdir":
            self.chdir(args[0] if args else None, node.lineno)
            return None
        if name in ("os.environ.get", "os.getenv"):
            return Unknown(f"os.environ at line {node.lineno}")
        if isinstance(node.func, ast.Attribute):
            owner = self.expr(node.func.value, scope, depth) if not isinstance(node.func.value, ast.Name) or \
                node.func.value.id not in self.modules else None
            method = node.func.attr
            if isinstance(owner, list) and method in ("append", "extend", "insert", "copy"):
                if method == "append" and len(args) == 1:
                    owner.append(_item(args[0], node) if len(owner) < MAX_ITEMS else
                                 Unknown(f"a list past {MAX_ITEMS} words at line {node.lineno}"))
                    return None
                if method == "extend" and len(args) == 1:
                    if isinstance(args[0], list) and len(owner) + len(args[0]) > MAX_ITEMS:
                        owner.append(Unknown(f"a list past {MAX_ITEMS} words at line {node.lineno}"))
                        return None
                    owner.extend(args[0] if isinstance(args[0], list) else [_unknown(args[0], node)])
                    return None
                if method == "copy" and not args:
                    return list(owner)
                owner.append(Unknown(f"a list changed at line {node.lineno}"))
                return None
            if isinstance(owner, str) and method == "join" and len(args) == 1 and isinstance(args[0], list) and \
                    all(isinstance(a, str) for a in args[0]):
                words = [a for a in args[0] if isinstance(a, str)]
                if sum(len(w) + len(owner) for w in words) > MAX_CHARS:
                    return Unknown(f"a string past {MAX_CHARS} characters at line {node.lineno}")
                return owner.join(words)
            if isinstance(owner, list):
                owner.append(Unknown(f"a list changed by .{method} at line {node.lineno}"))
            return Unknown(f"the result of .{method}() at line {node.lineno}")
        if isinstance(node.func, ast.Name):
            if node.func.id == "list" and len(args) == 1 and isinstance(args[0], list):
                return list(args[0])
            func = self.funcs.get(node.func.id)
            if func is not None and node.func.id not in scope:
                self.invoked.add(id(node))
                return self.invoke(func, args, node, depth)
        for a in args:
            if isinstance(a, list):
                a.append(Unknown(f"a list passed to a call at line {node.lineno}"))
        return Unknown(f"the result of a call at line {node.lineno}")

    def invoke(self, func: ast.FunctionDef, args: list[Value], node: ast.Call, depth: int) -> Value:
        params = func.args
        simple = not (params.vararg or params.kwarg or params.kwonlyargs or params.posonlyargs or node.keywords
                      or any(isinstance(a, ast.Starred) for a in node.args))
        names = [a.arg for a in params.args]
        if depth >= MAX_DEPTH or not simple or len(args) > len(names) or \
                len(names) - len(args) > len(params.defaults):
            for a in args:
                if isinstance(a, list):
                    a.append(Unknown(f"a list passed to {func.name}() at line {node.lineno}"))
            return Unknown(f"the result of {func.name}() at line {node.lineno}")
        local: dict[str, Value] = dict(zip(names, args, strict=False))
        for name, default in zip(names[len(names) - len(params.defaults):], params.defaults, strict=True):
            if name not in local:
                local[name] = self.expr(default, self.globals, depth)
        try:
            self.block(func.body, local, depth + 1)
        except _Return as ret:
            return ret.value
        return None

    def chdir(self, where: Value, line: int) -> None:
        if isinstance(self.cwd, Unknown):
            return
        if not isinstance(where, str):
            self.cwd = Unknown(f"os.chdir to a directory not computed at line {line}")
            return
        self.cwd = posixpath.join(self.cwd or "", where)

    def run(self, node: ast.Call, name: str, args: list[Value], kwargs: dict[str | None, ast.expr],
            scope: dict[str, Value], depth: int) -> None:
        self.visited.add(id(node))
        line = node.lineno

        def part(why: str) -> None:
            self.out.parts.append(Part(line, why))

        if len(self.out.runs) >= MAX_RUNS:
            return part(f"the script starts more than {MAX_RUNS} commands; the rest are not read")

        if not args:
            return part("its command is not a literal argument")
        shell = name == "os.system" or _true(kwargs.get("shell"))
        first = args[0]
        known = {k: v for k, v in kwargs.items() if k in ("cwd", "env", "shell")}
        if None in kwargs:
            return part("its options are passed with ** and not computed")
        cwd = self.cwd
        if "cwd" in known:
            got = self.expr(known["cwd"], scope, depth)
            if not isinstance(got, str):
                return part("its cwd= is not computed")
            cwd = got if isinstance(cwd, Unknown) and got.startswith("/") or cwd is None else \
                cwd if isinstance(cwd, Unknown) else posixpath.join(cwd, got)
        if isinstance(cwd, Unknown):
            return part(cwd.why)
        env = dict(self.env)
        if "env" in known:
            added = self.env_kwarg(known["env"], scope, depth)
            if isinstance(added, Unknown):
                return part(added.why)
            env.update(added)
        bad = next((v for v in env.values() if isinstance(v, Unknown)), None)
        if bad is not None:
            return part(bad.why)
        pairs = tuple((k, v) for k, v in env.items() if isinstance(v, str))
        if shell:
            if not isinstance(first, str):
                return part(first.why if isinstance(first, Unknown) else "its command string is not computed")
            self.out.runs.append(Run(line, shell=first, cwd=cwd, env=pairs))
            return None
        if isinstance(first, str):
            words: list[Item] = [first]  # one program name, no arguments, as Python runs it
        elif isinstance(first, list):
            words = first
        else:
            return part(first.why if isinstance(first, Unknown) else "its command is not computed")
        unknown = next((w for w in words if isinstance(w, Unknown)), None)
        if unknown is not None:
            return part(unknown.why)
        if not words:
            return part("its command is empty")
        self.out.runs.append(Run(line, tuple(w for w in words if not isinstance(w, Unknown)), None, cwd, pairs))
        return None

    def env_kwarg(self, node: ast.expr, scope: dict[str, Value], depth: int) -> dict[str, str] | Unknown:
        """`env={**os.environ, "K": "v"}`, `dict(os.environ, K="v")`: the variables added; what else
        is passed replaces the environment in a way not computed."""
        out: dict[str, str] = {}
        pairs: list[tuple[ast.expr | None, ast.expr]] = []
        base = False
        if isinstance(node, ast.Dict):
            pairs = list(zip(node.keys, node.values, strict=True))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and \
                len(node.args) <= 1:
            base = bool(node.args) and self.qualified(node.args[0]) == "os.environ"
            if node.args and not base:
                return Unknown(f"its env= is not computed (line {node.lineno})")
            pairs = [(ast.Constant(k.arg), k.value) for k in node.keywords if k.arg is not None]
            if len(pairs) != len(node.keywords):
                return Unknown(f"its env= is not computed (line {node.lineno})")
        else:
            return Unknown(f"its env= is not computed (line {getattr(node, 'lineno', 0)})")
        for key, value in pairs:
            if key is None:
                if self.qualified(value) != "os.environ":
                    return Unknown(f"its env= is not computed (line {node.lineno})")
                base = True
                continue
            k, v = self.expr(key, scope, depth), self.expr(value, scope, depth)
            if not isinstance(k, str) or not isinstance(v, str):
                return Unknown(f"its env= holds a value not computed (line {node.lineno})")
            out[k] = v
        if not base:
            # A literal env= replaces the whole environment (no PATH, no CARGO_* of the step).
            return Unknown(f"its env= replaces the environment (line {node.lineno})")
        return out

    def sweep(self, tree: ast.Module) -> None:
        """Every run call not reached on a path followed: an unread part."""
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and id(node) not in self.visited:
                if isinstance(node, ast.Call) and self.is_run(node):
                    self.out.parts.append(Part(node.lineno, "in code linkgate does not follow (a branch, a "
                                                            "loop or a function it does not evaluate)"))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.funcs \
                    and id(node) not in self.invoked:
                # A function followed from one call may run other commands from a call not followed.
                for inner in ast.walk(self.funcs[node.func.id]):
                    if not isinstance(inner, ast.Call):
                        continue
                    if self.is_run(inner):
                        self.out.parts.append(Part(inner.lineno, f"reached from the call of {node.func.id}() at "
                                                                 f"line {node.lineno}, which linkgate does not follow"))
        self.out.parts[:] = sorted(set(self.out.parts), key=lambda p: (p.line, p.why))


def _add(left: Value, right: Value, line: int) -> Value:
    for side in (left, right):
        if isinstance(side, Unknown):
            return side  # the first cause, not a sum of it
    if isinstance(left, str) and isinstance(right, str):
        return left + right if len(left) + len(right) <= MAX_CHARS else \
            Unknown(f"a string past {MAX_CHARS} characters at line {line}")
    if isinstance(left, list) and isinstance(right, list):
        return [*left, *right] if len(left) + len(right) <= MAX_ITEMS else \
            Unknown(f"a list past {MAX_ITEMS} words at line {line}")
    return Unknown(f"a sum of values not computed at line {line}")


def _item(value: Value, node: ast.AST) -> Item:
    return value if isinstance(value, (str, Args)) else _unknown(value, node)


def _unknown(value: Value, node: ast.AST) -> Unknown:
    if isinstance(value, Unknown):
        return value
    if isinstance(value, Args):
        return Unknown(f"the script's arguments used as a list at line {getattr(node, 'lineno', 0)}")
    return Unknown(f"a value not a string at line {getattr(node, 'lineno', 0)}")


def _true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and \
        node.value.id == "os"


def _is_main_guard(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" and \
        len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and isinstance(test.comparators[0], ast.Constant) \
        and test.comparators[0].value == "__main__"


def _breaks(body: list[ast.stmt]) -> bool:
    return any(isinstance(n, (ast.Break, ast.Continue)) for part in body for n in ast.walk(part))
