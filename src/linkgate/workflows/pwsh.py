"""A small PowerShell reader: a ``shell: pwsh`` step turned into the bash the evaluator reads.

GitHub runs ``run:`` under pwsh on Windows runners (and wherever ``shell:`` or
``defaults.run.shell`` says pwsh or powershell); bash's grammar cannot read it.
Hand-written because no Python library parses PowerShell; it reads what CI
steps that run cargo are made of, row for row (a command stays on its line):

- command lines, ``;``, backtick line continuations, ``#`` and ``<# #>`` comments;
- ``$env:X = ...`` (exported) and ``$x = ...`` (names are case-insensitive), with
  string, number and literal-list values; ``$env:X``, ``${env:X}`` and ``$x`` in
  arguments and in double-quoted strings; ``$IsWindows``, ``$IsLinux``, ``$IsMacOS``;
- ``foreach ($x in a, 'b', @('c'))``, ``if``/``elseif``/``else`` on comparisons
  (``-eq``, ``-ne``, ``-and``, ``-or``, ``-not``), ``try`` (its ``catch`` and ``finally``
  are not read), the ``&`` and ``.`` call operators, ``cd``/``Set-Location``/
  ``Push-Location``/``Pop-Location``, writes to ``$env:GITHUB_ENV``.

Anything else (script blocks, ``switch``, ``while``, functions, ``.ps1`` scripts,
expressions in parentheses) is not read: the statement or block becomes a
no-op and, when it may run cargo, an unresolved problem (row, cause, message).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

# A statement or block that mentions one of these may run cargo.
_MAY_RUN_CARGO = re.compile(r"\b(cargo|cross|maturin|wasm-pack|just|npm|yarn|pnpm|makers)\b|\.(ps1|sh|bat|cmd)\b",
                            re.I)
_VAR = re.compile(r"\$\{env:(\w+)\}|\$env:(\w+)|\$\{(\w+)\}|\$(\w+)", re.I)
# `$x = v`, `$env:X = v`, and the braced forms `${x} = v`, `${env:X} = v`.
_ASSIGN = re.compile(r"^\$(?:\{(env:)?(\w+)\}|(env:)?(\w+))\s*(\+?=)\s*(.*)$", re.I | re.S)
# A value read as one word: a quoted string, a bare word, a variable (braced or not).
_SIMPLE = re.compile(r"^('([^']|'')*'|\"([^\"`]|`.)*\"|[\w./:\\-]+|\$\w+|\$env:\w+|\$\{(env:)?\w+\})$", re.I | re.S)
_REDIRECT = re.compile(r"^((?:[1-6*])?>>?(?:&[12])?)(.*)$")
_RUNNER_TESTS = {"iswindows": "Windows", "islinux": "Linux", "ismacos": "macOS"}
_LOCATION = {"cd", "set-location", "sl", "chdir", "push-location", "pushd"}
_QUIET = {"write-host", "write-output", "echo", "write-verbose", "write-warning", "write-error", "write-debug",
          "write-information", "out-null", "set-strictmode"}


# A value the reader does not compute: a variable the step's shell holds as unknown (UNREAD_VAR,
# set by the caller), never a command the evaluator would run.
UNREAD_VAR = "LG_PWSH_EXPRESSION"
_UNREAD = "${" + UNREAD_VAR + "}"


@dataclass
class Translated:
    text: str
    # (row, cause, message) of what was not read and may hide cargo.
    problems: list[tuple[int, str, str]] = field(default_factory=list)
    # (row, bash variable, PowerShell name, expression) of each assignment whose value is not read:
    # the caller gives the shell that variable as an unknown naming the line.
    unknowns: list[tuple[int, str, str, str]] = field(default_factory=list)


@dataclass
class _Block:
    kind: str  # if | loop | group | skip
    row: int


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.out: list[list[str]] = [[] for _ in lines]
        self.problems: list[tuple[int, str, str]] = []
        self.unknowns: list[tuple[int, str, str, str]] = []
        self.stack: list[_Block] = []
        self.header: tuple[str, str] | None = None  # (opener, kind) waiting for its `{`
        self.open_if: int | None = None  # row of an `if` just closed, that an `else` may continue
        self.after_try = False
        self.skip_text: list[str] = []
        self.last_opener = False

    def emit(self, row: int, fragment: str) -> None:
        # bash refuses an empty body (`then fi`), PowerShell does not.
        if fragment in ("fi", "done", "}", "else") or fragment.startswith("elif "):
            if self.last_opener:
                self.out[row].append(":")
        self.out[row].append(fragment)
        self.last_opener = fragment.endswith((" then", " do")) or fragment in ("else", "{")

    def problem(self, row: int, text: str, why: str) -> None:
        if _MAY_RUN_CARGO.search(text):
            cause = f"PowerShell {why}"
            self.problems.append((row, cause, f"cannot read the PowerShell {why} `{text.strip()[:80]}`; "
                                              "a cargo command in it is not audited"))

    def close_if(self, row: int) -> None:
        if self.open_if is not None:
            self.emit(row, "fi")
            self.open_if = None

    def skipping(self) -> bool:
        return any(b.kind in ("skip", "catch") for b in self.stack)

    def piece(self, row: int, piece: str) -> None:
        if piece == "{":
            if self.skipping():
                self.stack.append(_Block("skip", row))
            elif self.header is not None:
                opener, kind = self.header
                self.header = None
                if kind not in ("skip", "catch") and opener:
                    self.emit(row, opener)
                self.stack.append(_Block(kind, row))
            else:  # a script block given to a command (ForEach-Object { ... })
                self.stack.append(_Block("skip", row))
                self.skip_text = []
            return
        if piece == "}":
            block = self.stack.pop() if self.stack else _Block("group", row)
            self.after_try = False
            if block.kind in ("skip", "catch"):
                if not self.skipping():
                    self.problem(block.row, " ".join(self.skip_text), "script block")
                    self.after_try = block.kind == "catch"
                return
            if block.kind == "if":
                self.open_if = row
            elif block.kind == "loop":
                self.emit(row, "done")
            elif block.kind == "group":
                self.emit(row, "}")
                self.after_try = True
            return
        if self.skipping():
            self.skip_text.append(piece)
            return
        word = piece.split(None, 1)[0].lower() if piece.strip() else ""
        if self.open_if is not None and word in ("else", "elseif"):
            if word == "else":
                self.emit(row, "else")
            else:
                self.emit(row, f"elif {self.condition(piece[len('elseif'):].strip(), row)}; then")
            self.open_if = None
            self.header = ("", "if")
            return
        self.close_if(row)
        if self.after_try and word in ("catch", "finally"):
            # What runs after a failure is not the build: catch and finally are not read.
            self.header = ("", "catch")
            self.skip_text = []
            return
        self.after_try = False
        if word == "if":
            self.header = (f"if {self.condition(piece[2:].strip(), row)}; then", "if")
        elif word == "foreach" and piece[7:].lstrip().startswith("("):
            self.header = (self.foreach(piece[7:].strip(), row), "loop")
        elif word == "try":
            self.header = ("{", "group")
        elif word in ("function", "filter", "switch", "while", "for", "do", "until", "else", "elseif"):
            self.header = ("", "skip")
            self.skip_text = [piece]
        else:
            self.statement(row, piece)

    # --- pieces -----------------------------------------------------------------

    def condition(self, text: str, row: int) -> str:
        inner = text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
        parts = re.split(r"\s+-(and|or)\s+", inner, flags=re.I)
        out: list[str] = []
        for i, part in enumerate(parts):
            if i % 2:
                out.append("&&" if part.lower() == "and" else "||")
                continue
            out.append(self.comparison(part.strip(), row))
        return " ".join(out)

    def comparison(self, text: str, row: int) -> str:
        negate = ""
        m = re.match(r"^(-not\s+|!\s*)(.*)$", text, re.I)
        if m:
            negate, text = "! ", m.group(2).strip()
        text = text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
        m = re.match(r"^\$(\w+)$", text)
        if m and m.group(1).lower() in _RUNNER_TESTS:
            return f'{negate}[ "${{RUNNER_OS}}" = {_RUNNER_TESTS[m.group(1).lower()]} ]'
        if m and m.group(1).lower() in ("true", "false"):
            return f"{negate}{m.group(1).lower()}"
        m = re.match(r"^(\S+)\s+-(eq|ne|ieq|ine|ceq|cne)\s+(\S+)$", text, re.I)
        if m:
            op = "!=" if m.group(2).lower().endswith("ne") else "="
            return f"{negate}[ {self.word(m.group(1))} {op} {self.word(m.group(3))} ]"
        # Test-Path, $LASTEXITCODE, method calls: undecided, both branches are read.
        return f'{negate}[ -n "$(pwsh-condition)" ]'

    def foreach(self, text: str, row: int) -> str:
        m = re.match(r"^\(\s*\$(\w+)\s+in\s+(.*)\)$", text, re.I | re.S)
        if not m:
            return "for unread in '(pwsh-foreach)'; do"
        items = self.items(m.group(2).strip())
        return f"for {m.group(1).lower()} in {' '.join(items) if items is not None else _UNREAD}; do"

    def items(self, text: str) -> list[str] | None:
        """A literal list (`a, 'b', @("c")`) or an array variable, as bash words; None otherwise."""
        if text.startswith("@(") and text.endswith(")"):
            text = text[2:-1].strip()
        m = re.match(r"^\$(\w+)$", text)
        if m and m.group(1).lower() not in ("null", "true", "false"):
            return [f'"${{{m.group(1).lower()}[@]}}"']
        out: list[str] = []
        for part in _split_commas(text):
            part = part.strip()
            if not part or part.startswith(("(", "[", "@", "$(")):
                return None
            out.append(self.word(part))
        return out

    def statement(self, row: int, text: str) -> None:
        text = text.strip()
        if not text or text.startswith("#"):
            return
        m = _ASSIGN.match(text)
        if m:
            env_b, name_b, env_p, name_p, op, value = m.groups()
            env, name = (env_b, name_b) if name_b else (env_p, name_p)
            name = name if env else name.lower()
            value = value.strip()
            listed = len(_split_commas(value)) > 1 and len(_split_top(value, "+")) == 1
            items = self.items(value) if listed or value.startswith("@(") else None
            if items is not None and not env:
                self.emit(row, f"{name}=({' '.join(items)})")
                return
            bash = self.value(value)
            if bash == _UNREAD:
                self.problem(row, text, "expression")  # `$x = cargo metadata ...`, `$x = a && b`: runs what it names
                var = f"LG_PWSH_{row}_{len(self.unknowns)}"
                self.unknowns.append((row, var, f"${'env:' if env else ''}{name}", value[:60]))
                bash = "${" + var + "}"
            if op == "+=":
                bash = f'"${{{name}}}"{bash}'
            self.emit(row, f"{'export ' if env else ''}{name}={bash}")
            return
        words = _words(text)
        if any(w in ("&&", "||") for w in words):
            # PowerShell 7's pipeline chains: `a && b` runs b when a succeeded, `a || b` when it failed.
            # A part not read leaves the whole chain unread, and the problem names the whole chain.
            parts: list[str] = []
            segment: list[str] = []
            for w in [*words, ""]:
                if w in ("&&", "||", ""):
                    part = self.command(row, " ".join(segment), chain=text) if segment else None
                    if part is None:
                        if not segment:
                            self.problem(row, text, "pipeline chain")
                        return
                    parts += [part or ":"] + ([w] if w else [])
                    segment = []
                else:
                    segment.append(w)
            self.emit(row, " ".join(parts))
            return
        line = self.command(row, text)
        if line:
            self.emit(row, line)

    def command(self, row: int, text: str, chain: str | None = None) -> str | None:
        """One command as bash ("" for one that does nothing the audit reads), or None
        when it cannot be read: a problem is recorded, naming *chain* when it is part of one."""
        shown = chain or text
        if text.startswith(("[", "(", "$(")) or re.match(r"^\$\w+\.", text) or _ASSIGN.match(text):
            self.problem(row, shown, "expression")
            return None
        if (text.startswith(("$", "'", '"', "@(", "@{")) or re.match(r"^-?\d", text)) \
                and "github_env" not in text.lower():  # `"K=V" | Out-File $env:GITHUB_ENV`: read below
            # An expression statement (`$x`, `"text"`, `$a + $b`): PowerShell writes its value and runs
            # nothing, unless a part of it calls something (then it is not read, and named).
            if "(" in text or "&" in text or "|" in text:
                self.problem(row, shown, "expression")
                return None
            return ""
        if text.startswith(("& ", ". ")):
            text = text[2:].strip()
        words = _words(text)
        if not words:
            return ""
        head = words[0].lower().strip("'\"")
        env_file = self.github_env(words)
        if env_file is not None:
            return env_file
        if head in _QUIET:
            return ""
        if head in ("invoke-expression", "iex") and len(words) == 2:
            return f"eval {self.word(words[1])}"
        if head in _LOCATION:
            path = next((w for w in words[1:] if not w.startswith("-")), None)
            return f"cd {self.word(path)}" if path else ":"
        if head in ("pop-location", "popd"):
            return "popd"
        if head.endswith(".ps1"):
            self.problem(row, shown, "script")
            return None
        cut = next((i for i, w in enumerate(words) if i and w == "|"), len(words))
        args: list[str] = []
        redirect = ""
        i = 1
        while i < cut:
            m = _REDIRECT.match(words[i])
            if m is None:
                args.append(words[i])
                i += 1
                continue
            # `> file`, `2>$null`, `*>> log`, `2>&1`: where output goes, not an argument.
            target = m.group(2) or ("" if m.group(1).endswith("&1") or i + 1 >= cut else words[i + 1])
            if target.lower() == "$null":
                redirect = " >/dev/null"
            i += 1 if m.group(2) or m.group(1).endswith("&1") else 2
        return " ".join([self.word(words[0]), *(self.word(w) for w in args)]) + redirect

    def github_env(self, words: list[str]) -> str | None:
        """`Add-Content $env:GITHUB_ENV "K=V"`, `"K=V" | Out-File $env:GITHUB_ENV -Append`, `echo K=V >> $env:GITHUB_ENV`."""
        lowered = [w.lower() for w in words]
        if not any("github_env" in w for w in lowered):
            return None
        values = [w for w in words if "github_env" not in w.lower() and not w.startswith("-")
                  and w.lower() not in ("add-content", "out-file", "set-content", "|", ">>", "echo", "write-output",
                                        "utf8", "ascii")]
        if len(values) != 1:
            return ":"
        return f"echo {self.word(values[0])} >> $GITHUB_ENV"

    def value(self, text: str) -> str:
        if _SIMPLE.match(text):
            return self.word(text)
        # `$a + "-" + $b`: strings joined (a sum of numbers alone is not read).
        parts = [p.strip() for p in _split_top(text, "+")]
        if len(parts) > 1 and all(p and _SIMPLE.match(p) for p in parts) and not all(p.isdigit() for p in parts):
            return "".join(self.word(p) for p in parts)
        return _UNREAD

    def word(self, text: str) -> str:
        """One PowerShell argument as one bash word."""
        if text.startswith("'") and text.endswith("'") and len(text) >= 2:
            return shlex.quote(text[1:-1].replace("''", "'"))
        if text.startswith('"') and text.endswith('"') and len(text) >= 2:
            return '"' + self.expand(text[1:-1]) + '"'
        if text.lower() in ("$null",):
            return "''"
        if text.lower() in ("$true", "$false"):
            return text[1:].lower()
        if "'" in text or '"' in text:
            # `--features="a b"`: quotes inside a word are removed, as bash removes them.
            return "".join(self.word(part) for part in _segments(text))
        return '"' + self.expand(text) + '"' if "$" in text or "`" in text else shlex.quote(text)

    def expand(self, text: str) -> str:
        """The inside of a double-quoted PowerShell string as the inside of a bash one."""
        out: list[str] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c == "`" and i + 1 < len(text):
                nxt = text[i + 1]
                out.append({"n": "\n", "t": "\t", "$": "\\$", '"': '\\"', "`": "\\`", "\\": "\\\\"}.get(nxt, nxt))
                i += 2
                continue
            if c == "$" and text[i + 1 : i + 2] == "(":
                depth, j = 0, i + 1
                while j < len(text):
                    depth += {"(": 1, ")": -1}.get(text[j], 0)
                    if depth == 0:
                        break
                    j += 1
                out.append(_UNREAD)
                i = j + 1
                continue
            m = _VAR.match(text, i) if c == "$" else None
            if m:
                env_name = m.group(1) or m.group(2)
                name = env_name or (m.group(3) or m.group(4))
                if not env_name and name.lower() in _RUNNER_TESTS:
                    out.append(_UNREAD)
                else:
                    out.append("${" + (name if env_name else name.lower()) + "}")
                i = m.end()
                continue
            out.append({'"': '\\"', "\\": "\\\\", "`": "\\`", "$": "\\$"}.get(c, c))
            i += 1
        return "".join(out)


def _segments(text: str) -> list[str]:
    """A word cut into its quoted and bare parts: `--features="a b"` -> `--features=`, `"a b"`."""
    parts = re.findall(r"'(?:[^']|'')*'|\"(?:[^\"`]|`.)*\"|[^'\"]+", text, re.S)
    return parts if "".join(parts) == text else [text.replace("'", "").replace('"', "")]


def _split_commas(text: str) -> list[str]:
    return _split_top(text, ",")


def _split_top(text: str, seps: str, keep: str = "") -> list[str]:
    """Split at *seps* (dropped) and *keep* (kept as pieces) outside quotes, parentheses and `$(...)`."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            cur.append(c)
            if c == "`" and quote == '"' and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
            cur.append(c)
        elif c == "$" and text[i + 1 : i + 2] == "{" and "}" in text[i + 2 :]:
            # `${x}`, `${env:X}`: a braced variable, one piece, never a block.
            end = text.index("}", i + 2)
            cur.append(text[i : end + 1])
            i = end + 1
            continue
        elif c == "(":
            depth += 1
            cur.append(c)
        elif c == ")":
            depth -= 1
            cur.append(c)
        elif depth == 0 and c == "#" and (not cur or cur[-1] in " \t"):
            break
        elif depth == 0 and c in seps:
            out.append("".join(cur))
            cur = []
        elif depth == 0 and c in keep and not (c == "{" and cur and cur[-1] == "$"):
            out.append("".join(cur))
            out.append(c)
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


def _words(text: str) -> list[str]:
    """PowerShell argument words: quotes kept on the word, backtick escapes inside."""
    return [w for w in _split_top(text, " \t") if w]


def to_bash(text: str) -> Translated:
    """*text* (a pwsh script) as bash, one output row per input row."""
    lines = text.split("\n")
    reader = _Reader(lines)
    row = 0
    in_comment = False
    while row < len(lines):
        start = row
        line = lines[row]
        row += 1
        if in_comment or line.lstrip().startswith("<#"):
            in_comment = "#>" not in line
            continue
        if re.search(r"@[\"']\s*$", line):  # a here-string: not read
            while row < len(lines) and not re.match(r"^[\"']@", lines[row]):
                row += 1
            row += 1
            reader.problem(start, "\n".join(lines[start:row]), "here-string")
            continue
        logical = line.rstrip()
        while logical.endswith("`") and row < len(lines):
            logical = logical[:-1] + " " + lines[row].strip()
            row += 1
        for piece in _split_top(logical, ";", "{}"):
            if piece.strip():
                reader.piece(start, piece.strip())
            elif piece in ("{", "}"):
                reader.piece(start, piece)
    last = len(lines) - 1
    reader.close_if(last)
    for block in reversed(reader.stack):
        if block.kind == "loop":
            reader.emit(last, "done")
        elif block.kind == "group":
            reader.emit(last, "}")
    return Translated("\n".join(_join(fragments) for fragments in reader.out), reader.problems, reader.unknowns)


def _join(fragments: list[str]) -> str:
    """Fragments of one row as bash: `then`/`do`/`else`/`{` take no `;` after them, and a body is never empty."""
    out = ""
    for frag in fragments:
        opener_before = out.endswith((" then", " do", " else", "; else", "{")) or out in ("else", "{")
        if not out:
            out = frag
        elif opener_before:
            out += " " + frag
        else:
            out += "; " + frag
    return out
