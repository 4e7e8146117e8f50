"""Reading TOML with positions: tomllib keeps none, so lines are found in the raw text.

Shared by every configuration reader: locate a table or key, check value
types against a schema of tags, and suggest the key a user probably meant.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.errors import ConfigError


def did_you_mean(word: str, options: Sequence[str]) -> str | None:
    import difflib

    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


class Locator:
    """Find the line of a table header or key in the raw TOML text."""

    _HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")

    def __init__(self, text: str, prefix: str) -> None:
        self.lines = text.splitlines()
        self.prefix = prefix
        self.headers: list[tuple[int, str]] = []
        # Indexes, so that locating the n-th of 20,000 gates is a bisection, not a scan
        # (a scan per key made loading quadratic in the number of gates).
        self._starts: list[int] = []
        self._by_name: dict[str, list[int]] = {}
        for no, line in enumerate(self.lines, start=1):
            m = self._HEADER.match(line)
            if m:
                name = re.sub(r"\s*\.\s*", ".", m.group(1)).replace('"', "")
                self.headers.append((no, name))
                self._starts.append(no)
                self._by_name.setdefault(name, []).append(no)

    def _nth_header(self, name: str, n: int, after: int = 0, before: int | None = None) -> int | None:
        found = self._by_name.get(self.prefix + name, [])
        at = bisect.bisect_right(found, after) + n
        if at < len(found) and (before is None or found[at] < before):
            return found[at]
        return None

    def _section_end(self, start: int) -> int:
        at = bisect.bisect_right(self._starts, start)
        return self._starts[at] if at < len(self._starts) else len(self.lines) + 1

    def _gate_span(self, index: int) -> tuple[int, int] | None:
        start = self._nth_header("gate", index)
        if start is None:
            return None
        nxt = self._nth_header("gate", 0, after=start)
        return start, (nxt if nxt is not None else len(self.lines) + 1)

    def key_line(self, start: int, end: int, key: str) -> int | None:
        pat = re.compile(rf'^\s*"?{re.escape(key)}"?\s*=')
        for no in range(start + 1, min(end, len(self.lines) + 1)):
            if pat.match(self.lines[no - 1]):
                return no
        return None

    def _inline_item(self, array: str, index: int) -> int | None:
        """The line of item *index* of ``array = [ {...}, {...} ]`` in the prefix's own table.

        TOML 1.0 keeps an inline table on one line, so item n is the n-th ``{`` that
        opens an item at the array's own depth, counted from the key's line."""
        if self.prefix:
            found = self._by_name.get(self.prefix.rstrip("."))
            if not found:
                return None
            own = found[0]
        else:
            own = 0
        key = self.key_line(own, self._section_end(own) if own else self._first_header(), array)
        if key is None:
            return None
        depth, seen = 0, -1
        for no in range(key, min(self._section_end(key), len(self.lines) + 1)):
            line = self.lines[no - 1]
            text = line.split("=", 1)[1] if no == key and "=" in line else line
            for ch in text:
                if ch in "[{":
                    depth += 1
                    if ch == "{" and depth == 2:
                        seen += 1
                        if seen == index:
                            return no
                elif ch in "]}":
                    depth -= 1
                    if depth == 0:
                        return None
        return None

    def _first_header(self) -> int:
        return self._starts[0] if self._starts else len(self.lines) + 1

    def gate(self, index: int, key: str | None = None) -> int | None:
        span = self._gate_span(index)
        if span is None:
            return self._inline_item("gate", index)  # the item's one line holds every key
        start, end = span
        if key is None:
            return start
        return self.key_line(start, self._section_end(start), key) or start

    def gate_member(self, index: int, table: str, key: str) -> int | None:
        """The line of *key* in gate *index*'s table *table*: in its ``[gate.TABLE]``
        header's section when it has one, else the line of ``table = { ... }``."""
        span = self._gate_span(index)
        start = self._nth_header(f"gate.{table}", 0, after=span[0], before=span[1]) if span else None
        if start is None:
            return self.gate(index, table)
        return self.key_line(start, self._section_end(start), key) or start

    def control(self, gate_index: int, index: int, key: str | None = None) -> int | None:
        span = self._gate_span(gate_index)
        if span is None:
            return None
        start = self._nth_header("gate.control", index, after=span[0], before=span[1])
        if start is None:
            return self.gate(gate_index, "control")
        if key is None:
            return start
        return self.key_line(start, self._section_end(start), key) or start

    def table(self, name: str, key: str | None = None, index: int | None = None) -> int | None:
        start = self._nth_header(name, index or 0)
        if start is None:
            return None
        if key is None:
            return start
        return self.key_line(start, self._section_end(start), key) or start


class Validator:
    def __init__(self, path: Path, locator: Locator, prefix: str) -> None:
        self.path = path
        self.loc = locator
        self.prefix = prefix

    def fail(self, message: str, line: int | None, key: str, hint: str | None = None) -> ConfigError:
        return ConfigError(message, file=str(self.path), line=line, key=self.prefix + key, hint=hint)

    def check_keys(
        self, table: Mapping[str, Any], schema: Mapping[str, str], where: str, line_of: Callable[[str], int | None]
    ) -> None:
        for key in table:
            if key not in schema:
                hint = did_you_mean(key, list(schema))
                if hint is None and "_" in key and key.replace("_", "-") in schema:
                    hint = f"keys are kebab-case: did you mean {key.replace('_', '-')!r}?"
                raise self.fail(
                    f"unknown key {key!r}",
                    line_of(key),
                    f"{where}.{key}" if where else key,
                    hint=hint or "allowed keys: " + ", ".join(schema),
                )
        for key, value in table.items():
            tag = schema[key]
            if not _type_ok(value, tag):
                full = f"{where}.{key}" if where else key
                # A list or table of the right kind with one wrong member: name the member.
                member = _bad_member(value, tag)
                if member is not None:
                    sub, bad = member
                    raise self.fail(f"expected a string, got {_describe_value(bad)}", line_of(key), full + sub)
                raise self.fail(f"expected {_describe(tag)}, got {_describe_value(value)}", line_of(key), full)


def _type_ok(value: Any, tag: str) -> bool:
    if tag == "str":
        return isinstance(value, str)
    if tag == "bool":
        return isinstance(value, bool)
    if tag == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if tag == "list[str]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if tag == "table[str]":
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    if tag == "table":
        return isinstance(value, dict)
    if tag == "list[table]":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if tag == "str|table":
        return isinstance(value, str | dict)
    raise AssertionError(tag)


def _bad_member(value: Any, tag: str) -> tuple[str, Any] | None:
    """(``[i]`` or ``.name``, the member) of the first non-string member of a
    list of strings or table of strings; None when the container itself is wrong."""
    if tag == "list[str]" and isinstance(value, list):
        return next(((f"[{i}]", v) for i, v in enumerate(value) if not isinstance(v, str)), None)
    if tag == "table[str]" and isinstance(value, dict):
        return next(((f".{_key(k)}", v) for k, v in value.items() if not isinstance(v, str)), None)
    return None


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else '"' + name.replace('"', '\\"') + '"'


def _describe(tag: str) -> str:
    return {
        "str": "a string",
        "bool": "true or false",
        "int": "an integer",
        "list[str]": "a list of strings",
        "table[str]": "a table of strings",
        "table": "a table",
        "list[table]": "an array of tables ([[...]])",
        "str|table": "a string or a table",
    }[tag]


def _describe_value(value: Any) -> str:
    """What the TOML value is, by TOML's own type names, with the value when short."""
    import datetime

    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the float {value!r}"
    if isinstance(value, list):
        return "an empty array" if not value else f"an array of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, datetime.datetime):
        return f"the date-time {value.isoformat()}"
    if isinstance(value, datetime.date):
        return f"the date {value.isoformat()}"
    if isinstance(value, datetime.time):
        return f"the time {value.isoformat()}"
    return type(value).__name__


# A configuration of 20,000 gates is about 2 MB; anything past this is not one.
MAX_BYTES = 32 * 1024 * 1024


def parse_toml(path: Path) -> tuple[dict[str, Any], str]:
    try:
        text = repofs.read_text(path, inside=None)
    except OSError as exc:
        raise ConfigError(f"cannot read configuration: {exc.strerror}", file=str(path)) from exc
    except UnicodeDecodeError:
        raise ConfigError("configuration is not valid UTF-8", file=str(path)) from None
    if len(text) > MAX_BYTES:
        raise ConfigError(f"configuration is {len(text):,} characters, over linkgate's limit of {MAX_BYTES:,}",
                          file=str(path), hint="split it, or move what is not linkgate's out of it")
    try:
        return tomllib.loads(text), text
    except RecursionError:
        # tomllib follows nested arrays and inline tables by recursion.
        raise ConfigError("configuration nests arrays or inline tables too deeply to read", file=str(path),
                          hint="no linkgate key nests more than two levels; fix the TOML") from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        if line is None and "end of document" in msg:
            line = max(1, len(text.splitlines()))
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", msg)
        if m:
            reason += f" (column {m.group(2)})"
        raise ConfigError(
            f"invalid TOML: {reason}", file=str(path), line=line, hint="fix the TOML syntax and retry"
        ) from None
