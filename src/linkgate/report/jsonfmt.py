from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any

from linkgate.report.model import Report


def render(report: Report, console: Any | None = None) -> str:
    return dumps(report.document) + "\n"


class _Unsure(Exception):
    """A value the writer below does not handle itself: json.dumps decides."""


def dumps(doc: Any) -> str:
    """``json.dumps(doc, indent=2)``, byte for byte, in about a third of its time.

    With ``indent`` set, the standard library leaves its C encoder for a
    generator per container in Python, and a surface of 100,000 paths spent a
    quarter of its time there. This writer handles what reports hold (dicts with
    string keys, lists, tuples, strings, numbers, booleans, None), escapes strings
    with the C function json itself uses, and hands anything else to json.dumps.
    tests/unit/report/test_jsonfmt.py checks it against json.dumps on generated
    documents.
    """
    out: list[str] = []
    try:
        _write(doc, "\n", out)
    except (_Unsure, RecursionError):
        return json.dumps(doc, indent=2)
    return "".join(out)


def _write(o: Any, nl: str, out: list[str]) -> None:
    if isinstance(o, str):
        out.append(encode_basestring_ascii(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif isinstance(o, dict):
        if not o:
            out.append("{}")
            return
        inner = nl + "  "
        sep = "{" + inner
        for key, value in o.items():
            if not isinstance(key, str):
                raise _Unsure
            out.append(sep)
            out.append(encode_basestring_ascii(key))
            out.append(": ")
            _write(value, inner, out)
            sep = "," + inner
        out.append(nl + "}")
    elif isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        inner = nl + "  "
        sep = "[" + inner
        for value in o:
            out.append(sep)
            _write(value, inner, out)
            sep = "," + inner
        out.append(nl + "]")
    elif isinstance(o, int):
        out.append(int.__repr__(o))
    elif isinstance(o, float):
        out.append(json.dumps(o) if o != o or o in (float("inf"), float("-inf")) else float.__repr__(o))
    else:
        raise _Unsure
