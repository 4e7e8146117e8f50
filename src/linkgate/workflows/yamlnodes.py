"""Load YAML into plain dicts, lists and strings that remember their lines.

Why compose instead of ``yaml.safe_load``:
- YAML 1.1 loaders resolve the key ``on`` to the boolean True; GitHub reads it
  as the string "on". Composing keeps every scalar's source text, so keys stay
  strings and nothing is guessed.
- Nodes carry marks, so every value knows its 1-based line.
- libyaml's composer (``CSafeLoader``) is C, so a very large workflow costs
  milliseconds.

Anchors and aliases compose to the *same* node object; conversion is memoised
by node identity, so an alias bomb cannot blow up memory. Merge keys (``<<``)
are applied here because the composer leaves them as ordinary entries.
Scalars stay strings (``1.70`` stays "1.70"; GitHub would read 1.7) except
null, which becomes None.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_MERGE = "tag:yaml.org,2002:merge"
_NULL = "tag:yaml.org,2002:null"


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


def load_file(path: Path) -> Any:
    """Parse *path*; raise YamlError with the line libyaml complains about."""
    try:
        text = path.read_text(encoding="utf-8")
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
    return _Converter().convert(root)


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
