"""The one way linkgate writes text into YAML: every value checked, every
scalar written so that a YAML 1.1 parser (PyYAML, libyaml) and a YAML 1.2
parser (ruamel.yaml, GitHub's) read back exactly the value given.

Why rules of our own on top of ruamel.yaml's emitter (measured with
ruamel.yaml 0.18): it writes ``yes``, ``on`` and ``12:30`` plain, which are
strings to YAML 1.2 and a boolean and the integer 750 to YAML 1.1; and it
writes U+2028 raw, which YAML 1.1 parsers read as a line break, so one value
could end its line and start a job of its own. So:

- A value holding a character no workflow should carry (a line or paragraph
  separator, NEL, a control character, a byte-order mark, a surrogate or
  U+FFFE/U+FFFF) is refused: ``problem`` says which, and the caller names the
  configuration key. A comment escapes such characters instead (``\\u2028``):
  it is prose about the job, never read back.
- A scalar is written plain only when both YAML versions resolve it to the
  same string; otherwise quoted.
- ``dump`` parses what it wrote with both parsers and refuses the text unless
  both give back the mapping it was handed.
"""

from __future__ import annotations

import functools
import io
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from linkgate.errors import UsageError

# YAML 1.1 reads these as line breaks (so do PyYAML and libyaml); YAML 1.2 does not.
_BREAKS = {"\x85": "NEL (U+0085)", "\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR"}
# Plain scalars may not start with an indicator, and `: ` / ` #` inside one end it.
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
_FLOW = set(",[]{}")
# Booleans in the YAML 1.1 spec (and go-yaml v2) that PyYAML's resolver leaves out.
_SPEC_BOOLS = {"y", "Y", "n", "N"}


class UnsafeValue(UsageError):
    """A value a generated workflow cannot carry; nothing was written."""


def _refused(ch: str, multiline: bool) -> bool:
    o = ord(ch)
    if ch == "\t" or (ch == "\n" and multiline):
        return False
    return (o < 0x20 or 0x7F <= o <= 0x9F or ch in _BREAKS or 0xD800 <= o <= 0xDFFF
            or o in (0xFEFF, 0xFFFE, 0xFFFF))


def _describe(ch: str) -> tuple[str, str]:
    """(what *ch* is, why a workflow cannot carry it, or "")."""
    o = ord(ch)
    if ch in _BREAKS:
        return _BREAKS[ch], "YAML 1.1 parsers, PyYAML and libyaml, read it as a line break"
    if ch in "\n\r":
        return "a line break", ""
    if ch == "\ufeff":
        return "a byte-order mark (U+FEFF)", "YAML allows one only at the start of a file"
    if 0xD800 <= o <= 0xDFFF:
        return f"a lone surrogate (U+{o:04X})", "no UTF-8 file can hold one"
    if o in (0xFFFE, 0xFFFF):
        return f"the noncharacter U+{o:04X}", "YAML parsers refuse it"
    name = unicodedata.name(ch, "")
    return f"the control character U+{o:04X}" + (f" {name}" if name else ""), ""


def problem(value: str, *, multiline: bool = False) -> str | None:
    """Why *value* cannot be written into a workflow, or None. Tabs pass; line
    feeds pass only where the value is a block of lines (*multiline*)."""
    for i, ch in enumerate(value):
        if _refused(ch, multiline):
            what, why = _describe(ch)
            return f"holds {what} at character {i + 1}" + (f" ({why})" if why else "")
    return None


def escaped(text: str) -> str:
    """*text* with every character ``problem`` refuses (line feeds too) written as an escape."""
    return "".join((f"\\x{ord(ch):02X}" if ord(ch) < 0x100 else f"\\u{ord(ch):04X}")
                   if _refused(ch, False) else ch for ch in text)


def comment(text: str) -> str:
    """One comment line, ``# `` included, that cannot end early."""
    return "# " + escaped(text) if text else "#"


@functools.cache
def _resolvers() -> tuple[Callable[[str], str], Callable[[str], str]]:
    """How YAML 1.1 (PyYAML) and YAML 1.2 (ruamel.yaml) tag a plain scalar."""
    import yaml
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    one, two = yaml.resolver.Resolver(), VersionedResolver(version=(1, 2))
    return (lambda v: str(one.resolve(yaml.ScalarNode, v, (True, False))),  # type: ignore[no-untyped-call]
            lambda v: str(two.resolve(ScalarNode, v, (True, False))))


def _resolves_to_str(value: str) -> bool:
    return all(resolve(value) == "tag:yaml.org,2002:str" for resolve in _resolvers())


def plain_ok(value: str, flow: bool = False) -> bool:
    """Whether *value* may be written as a plain scalar (*flow*: inside ``[...]``)."""
    if not value or value != value.strip() or value[0] in _INDICATORS or "\t" in value:
        return False
    if ": " in value or " #" in value or value.endswith(":") or problem(value) is not None:
        return False
    if flow and any(ch in _FLOW for ch in value):
        return False
    return value not in _SPEC_BOOLS and _resolves_to_str(value)


def quoted(value: str) -> str:
    """*value* as a single-quoted YAML scalar (one line, so nothing folds)."""
    found = problem(value)
    if found is not None:
        raise UnsafeValue(f"{value[:60]!r} {found}, which a workflow cannot carry; nothing was written",
                          hint="remove that character from the value")
    return "'" + value.replace("'", "''") + "'"


def scalar(value: str, flow: bool = False) -> str:
    """*value* as a one-line YAML scalar: plain when that reads back the same, else single-quoted."""
    return value if plain_ok(value, flow) else quoted(value)


key = scalar


Comments = Callable[[str, Any], "str | None"]


def dump(mapping: Mapping[str, Any], indent: int, comments: Comments | None = None) -> str:
    """Block YAML for *mapping*, indented by *indent* spaces. *comments* gives an
    end-of-line comment for a (key, value) pair, or None. Multi-line strings
    are literal blocks (``|``) when that reads back the same, else double-quoted."""
    for literal in (True, False):
        text = _emit(mapping, indent, comments, literal)
        if _reads_back(text) == plain(mapping):
            return text
    raise UnsafeValue("the generated YAML does not read back as written under both YAML 1.1 and 1.2; "
                      "nothing was written", hint="please report this with the configuration that caused it")


def _emit(mapping: Mapping[str, Any], indent: int, comments: Comments | None, literal: bool) -> str:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    buf = io.StringIO()
    yaml.dump(_convert(mapping, "", comments, literal), buf)
    pad = " " * indent
    return "".join(pad + line if line.strip() else line for line in buf.getvalue().splitlines(True))


def _convert(value: Any, path: str, comments: Comments | None, literal: bool, flow: bool = False) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, Mapping):
        out = CommentedMap()
        for k, v in value.items():
            where = f"{path}.{k}" if path else str(k)
            out[_string(str(k), where, False, literal)] = _convert(v, where, comments, literal)
            note = comments(k, v) if comments else None
            if note:
                out.yaml_add_eol_comment(comment(note), k)
        return out
    if isinstance(value, list):
        seq = CommentedSeq()
        inline = all(isinstance(v, str) and "\n" not in v for v in value)
        seq.extend(_convert(v, f"{path}[{i}]", comments, literal, inline) for i, v in enumerate(value))
        if inline:
            seq.fa.set_flow_style()  # runs-on: [self-hosted, gpu], as people write it
        return seq
    if isinstance(value, str):
        return _string(value, path, flow, literal)
    return value


def styled(value: str, where: str) -> Any:
    """*value* styled for a ruamel.yaml round trip (a file linkgate edits with
    ruamel.yaml): plain, or quoted when plain would not read back."""
    return _string(value, where, False, True)


def _string(value: str, path: str, flow: bool, literal: bool) -> Any:
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString

    found = problem(value, multiline=True)
    if found is not None:
        raise UnsafeValue(f"the generated workflow's {path} {found}, which a workflow cannot carry; "
                          "nothing was written", hint="remove that character from the value")
    if "\n" in value:
        return LiteralScalarString(value) if literal else DoubleQuotedScalarString(value)
    return value if plain_ok(value, flow) else SingleQuotedScalarString(value)


def plain(value: Any) -> Any:
    """*value* as a YAML parser gives it back: mappings as dicts with string keys, sequences as lists."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _reads_back(text: str) -> Any:
    """*text*'s value when YAML 1.1 (PyYAML) and YAML 1.2 (ruamel.yaml) agree on it, else a marker."""
    try:
        one, two = load_11(text), load_12(text)
    except ValueError:
        return _DISAGREE
    return one if one == two else _DISAGREE


_DISAGREE = object()


def load_11(text: str) -> Any:
    """*text* read by PyYAML (libyaml when built in), YAML 1.1; ValueError when it refuses."""
    import yaml

    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def load_12(text: str) -> Any:
    """*text* read by ruamel.yaml, YAML 1.2; ValueError when it refuses."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        return YAML(typ="safe", pure=True).load(text)
    except (YAMLError, RecursionError) as exc:
        raise ValueError(str(exc)) from None
