"""Peel rustc's wrapping off a linker's stderr.

A failed link is one rustc error (``linking with `cc` failed: ...``) whose
``note`` children are, in order: the elided command line, "some arguments
are omitted...", the linker's stderr verbatim, and with GNU ld three advice
notes. In cargo's human output the same notes appear as ``  = note: ``
blocks with 10-space continuation lines.
"""

from __future__ import annotations

import json
import re
from typing import Any

_LINK_FAILED = re.compile(r"^linking with `[^`]+` failed")
# rustc's own link-recipe errors (no linker ran): the message is the whole story.
_RECIPE_ERROR = re.compile(r"^could not find native static library `|^failed to add native library ")
_OMITTED = "some arguments are omitted"
# rustc's own advice after GNU ld's wording; not linker output.
_ADVICE = (
    "some `extern` functions couldn't be found",
    "use the `-l` flag",
    "use the `cargo:rustc-link-lib` directive",
    "some arguments are omitted",
)
_NOTE_PREFIX = re.compile(r"^\s*= note: ?")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def is_command_line(text: str) -> bool:
    """rustc's elided linker invocation: quoted arguments, possibly `LC_ALL="C"` first."""
    t = text.lstrip()
    return (t.startswith('"') or t.startswith("LC_ALL=")) and '" "' in t


def linker_lines_from_cargo_message(msg: dict[str, Any]) -> list[str]:
    """The linker's own stderr lines from a cargo ``compiler-message`` (or its ``message``).

    Returns [] for any message that is not a link failure.
    """
    inner = msg.get("message", msg) if msg.get("reason") == "compiler-message" else msg
    if not isinstance(inner, dict):
        return []
    text = inner.get("message")
    if not isinstance(text, str):
        return []
    if _RECIPE_ERROR.match(text):
        return [text]
    if not _LINK_FAILED.match(text):
        return []
    lines: list[str] = []
    for child in inner.get("children") or []:
        body = child.get("message") if isinstance(child, dict) else None
        if not isinstance(body, str) or is_command_line(body):
            continue
        if body.startswith(_ADVICE):
            continue
        lines.extend(ln for ln in body.splitlines() if ln.strip())
    return lines


def lines_from_json_line(line: str) -> list[str] | None:
    """Linker lines inside one cargo JSON line; None when it is not a cargo message."""
    if not line.startswith("{"):
        return None
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
        return None
    if not isinstance(msg, dict):
        return None
    if "reason" not in msg:
        return _logger_record(msg)
    lines = linker_lines_from_cargo_message(msg)
    inner = msg.get("message")
    if not lines and msg.get("reason") == "compiler-message" and isinstance(inner, dict) \
            and inner.get("level") == "error":
        # A message without the linker's notes as children (another cargo, a tool that
        # rewrote it) still carries what the terminal showed.
        rendered = inner.get("rendered")
        if isinstance(rendered, str):
            return rendered.splitlines()
    header = link_failure_header(msg)
    # The command line goes along so the classifier can read the link's
    # archives (archive order); it is never classified itself.
    return [header, *command_line_notes(msg), *lines] if header else lines


# Keys under which JSON-lines loggers (bunyan, pino, GitHub's and Buildkite's log
# exporters, structlog) keep the line they wrapped.
_RECORD_KEYS = ("line", "message", "msg", "log", "text")


def _logger_record(msg: dict[str, Any]) -> list[str] | None:
    """The text a JSON-lines logger wrapped (``{"line": ...}``, ``{"message": ...}``)."""
    for key in _RECORD_KEYS:
        value = msg.get(key)
        if isinstance(value, str):
            return value.splitlines()
        if isinstance(value, dict) and isinstance(value.get("rendered"), str):
            return str(value["rendered"]).splitlines()
    return None


def command_line_notes(msg: dict[str, Any]) -> list[str]:
    """rustc's (elided) linker command line among a failed link's notes."""
    inner = msg.get("message", msg) if msg.get("reason") == "compiler-message" else msg
    children = inner.get("children") if isinstance(inner, dict) else None
    return [
        body for child in children or []
        if isinstance(child, dict) and isinstance(body := child.get("message"), str) and is_command_line(body)
    ][:1]


_BRACES = re.compile(r"^(?P<head>[^{}]*)\{(?P<items>[^{}]*)\}(?P<tail>[^{}]*)$")


def parse_command_line(text: str) -> list[str]:
    """rustc's printed linker command as words: shell quoting undone, and the
    rlibs it elides as ``/d/{liba-1,libb-2}.rlib`` spelt out. A ``VAR="x"``
    prefix (``LC_ALL="C"`` under ``--verbose``) and ``<N object files
    omitted>`` stay as harmless words."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError:
        return []
    out: list[str] = []
    for w in words:
        m = _BRACES.match(w)
        if m is None:
            out.append(w)
        else:
            out.extend(m["head"] + item + m["tail"] for item in m["items"].split(","))
    return out


def link_failure_header(msg: dict[str, Any]) -> str | None:
    """rustc's "linking with `cc` failed: exit status: 1", when *msg* is a failed link."""
    inner = msg.get("message", msg) if msg.get("reason") == "compiler-message" else msg
    text = inner.get("message") if isinstance(inner, dict) else None
    return text if isinstance(text, str) and _LINK_FAILED.match(text) else None


def clean(line: str) -> str:
    """One comparable line: no ANSI colour, no CR, no rustc note prefix or indent."""
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    line = line.rstrip("\r\n")
    if "= note" in line:  # the regex only when it can match: this runs on every candidate line
        m = _NOTE_PREFIX.match(line)
        if m:
            line = line[m.end():]
    return line.strip()
