"""Load YAML into plain dicts, lists and strings that remember their lines.

Why compose instead of ``yaml.safe_load``:
- YAML 1.1 loaders resolve the key ``on`` to the boolean True; GitHub reads it
  as the string "on". Composing keeps every scalar's source text, so keys stay
  strings and nothing is guessed.
- Nodes carry marks, so every value knows its 1-based line.
- libyaml's composer (``CSafeLoader``) is C, so a very large workflow costs
  milliseconds.

Anchors and aliases compose to the *same* node object; conversion is memoised
by node identity. Whatever walks the result later (a matrix's combinations,
every step) sees each alias expanded, so a document whose aliases would expand
past MAX_NODES nodes, or that nests deeper than MAX_DEPTH, is refused first by
one pass over the composed nodes (an alias bomb of 10**9 nodes is refused in
milliseconds). A key given twice in one mapping is refused too: GitHub refuses
the workflow ("'build' is already defined"). Merge keys (``<<``)
are applied here because the composer leaves them as ordinary entries.
Scalars stay strings (``1.70`` stays "1.70"; GitHub would read 1.7) except
null, which becomes None.
"""

from __future__ import annotations

from typing import Any

_MERGE = "tag:yaml.org,2002:merge"
_NULL = "tag:yaml.org,2002:null"
# No workflow nests more than a few dozen levels or holds a million nodes; a
# GitHub workflow file is at most 500 KB, about 250,000 nodes written out.
MAX_NODES = 1_000_000
MAX_DEPTH = 200


class YamlError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class YStr(str):
    """A scalar with its position. ``content_line`` is where its text starts:
    the line after ``|``/``>`` for block scalars, else the scalar's own line."""

    line: int
    content_line: int
    style: str | None

    def __new__(cls, value: str, line: int, content_line: int, style: str | None) -> YStr:
        obj = super().__new__(cls, value)
        obj.line = line
        obj.content_line = content_line
        obj.style = style
        return obj


class YMap(dict[str, Any]):
    """A mapping with its own line and the line of each key."""

    line: int
    key_lines: dict[str, int]


class YList(list[Any]):
    line: int


def line_of(value: Any, default: int = 0) -> int:
    return int(getattr(value, "line", default))


def load_bytes(data: bytes) -> Any:
    """Parse a file's bytes; raise YamlError with the line libyaml complains about."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(f"not valid UTF-8 (byte {exc.start})", None) from None
    return load_text(text)


def load_text(text: str) -> Any:
    import yaml

    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or str(exc)
        if exc.context:
            problem = f"{exc.context}: {problem}"
        raise YamlError(problem, mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc), None) from None
    if root is None:
        return None
    _measure(root)
    return _Converter().convert(root)


def _children(node: Any) -> list[Any]:
    import yaml

    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _measure(root: Any) -> None:
    """Refuse a document whose aliases expand past MAX_NODES or that nests past
    MAX_DEPTH: an explicit stack, each node's expanded size counted once."""
    size: dict[int, int] = {}
    entered: set[int] = set()  # a node shared by aliases is walked once
    stack: list[tuple[Any, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, done = stack.pop()
        if done:
            total = 1 + sum(size.get(id(c), 1) for c in _children(node))
            if total > MAX_NODES:
                raise YamlError(f"its aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)",
                                node.start_mark.line + 1)
            size[id(node)] = total
            continue
        if id(node) in size:
            continue
        if id(node) in entered:
            raise YamlError("an alias refers to a node that contains it", node.start_mark.line + 1)
        entered.add(id(node))
        if depth > MAX_DEPTH:
            raise YamlError(f"it nests more than {MAX_DEPTH} levels deep", node.start_mark.line + 1)
        stack.append((node, depth, True))
        stack.extend((c, depth + 1, False) for c in _children(node) if id(c) not in size)


class _Converter:
    def __init__(self) -> None:
        self.memo: dict[int, Any] = {}

    def convert(self, node: Any) -> Any:
        import yaml

        key = id(node)
        if key in self.memo:
            return self.memo[key]
        line = node.start_mark.line + 1
        out: Any
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _NULL:
                out = None
            else:
                content = line + 1 if node.style in ("|", ">") else line
                out = YStr(node.value, line, content, node.style)
        elif isinstance(node, yaml.SequenceNode):
            out = YList()
            out.line = line
            self.memo[key] = out
            out.extend(self.convert(item) for item in node.value)
        else:
            out = YMap()
            out.line = line
            out.key_lines = {}
            self.memo[key] = out
            merged: list[YMap] = []
            for knode, vnode in node.value:
                if knode.tag == _MERGE:
                    value = self.convert(vnode)
                    merged.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, YMap))
                    continue
                name = str(knode.value)
                if name in out:
                    raise YamlError(f"key {name!r} is given twice in one mapping (first at line "
                                    f"{out.key_lines[name]})", knode.start_mark.line + 1)
                out[name] = self.convert(vnode)
                out.key_lines[name] = knode.start_mark.line + 1
            # Explicit keys win over merged ones; earlier merge sources win over later.
            for source in merged:
                for name, value in source.items():
                    if name not in out:
                        out[name] = value
                        out.key_lines[name] = source.key_lines.get(name, line)
        self.memo[key] = out
        return out
