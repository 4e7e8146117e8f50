"""Streaming classification: lines in, a bounded set of grouped problems out.

Memory stays constant whatever the log size: the reader
(``linkgate.diagnose.reader``) holds one chunk plus one (capped) partial
line, and at most MAX_GROUPS problems are kept; past that, new problems fold
into their kind's catch-all group.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from linkgate.diagnose import signatures as sig
from linkgate.diagnose.model import Diagnostic
from linkgate.diagnose.rustc_notes import clean, is_command_line, lines_from_json_line

MAX_GROUPS = 200
# Distinct unmatched hit lines remembered: 4,096 lines of at most MAX_MATCH characters.
MAX_PLAIN = 4096
MAX_EXAMPLES = 5
MAX_SEARCHED = 50
# The longest text the signatures are run on. A longer line (an undefined
# C++ template or Rust v0 symbol can run to tens of kilobytes) first has the
# middle of every long run of non-space replaced by a placeholder, so the
# signatures see a short line and the groups get the whole symbol back.
MAX_MATCH = 8192
# The longest linker command line kept (rustc elides objects, so real ones are a few KB).
MAX_COMMAND = 1 << 20
_LONG_RUN = re.compile(r"\S{256,}")
_KEEP = 16  # characters kept at each end of a long run: quotes and backquotes around a symbol
_HOLE = re.compile("\ue000(\\d+)\ue001")
# Unclassified lines kept to show with a failed link that nothing explains.
_RECENT = 5
# GitHub Actions prefixes every line of a downloaded log with its time: "2026-12-01T10:00:00.1234567Z ".
_ACTIONS_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ")
@dataclass
class _Group:
    diag: Diagnostic
    count: int = 1
    examples: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)

    source: str | None = None

    def reference(self, where: str) -> None:
        if where not in self.references and len(self.references) < MAX_EXAMPLES:
            self.references.append(where)

    def rust_source(self, path: str | None, line: str | None) -> None:
        """Keep the first Rust source line named as making the reference."""
        if self.source is None and path and line and path.endswith(".rs"):
            self.source = f"{path}:{line}"


class Classifier:
    """Feed lines with their numbers; ``result()`` returns the grouped diagnostics."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, str | None], _Group] = {}
        self._last_no, self._last_off = -10, 0
        self._last_text = ""
        self._last_key: tuple[str, str | None] | None = None
        self._family: str | None = None
        self._dso_symbol: tuple[str, str, int] | None = None
        # GNU ld names the referencing function once, then lists every
        # undefined reference made from it on the following lines.
        self._in_function: str | None = None
        # rustc's "linking with `cc` failed" header still waiting for a diagnosis.
        self._open_failure: tuple[str, int, int] | None = None
        self._adds = 0
        self._adds_at_exit = 0  # _adds at the previous compiler-driver exit line
        self._recent: deque[str] = deque(maxlen=_RECENT)
        self._plain: set[str] = set()  # hit lines no signature matched (see _match)
        self._holes: list[str] = []  # the long runs cut out of the current line
        self.searched: list[str] = []
        self.command_line: str | None = None
        self.backrefs: list[tuple[int, str]] = []
        # (package_id, linked_libs, linked_paths) from cargo's build-script-executed records.
        self.build_scripts: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []

    # -- input -------------------------------------------------------------
    def feed(self, lineno: int, raw: str, hit: bool | None = None) -> None:
        """*hit*: whether the reader found a trigger word in the line (None: not known)."""
        if raw[:1].isdigit() and (stamp := _ACTIONS_STAMP.match(raw)) is not None:
            raw = raw[stamp.end():]  # a log downloaded from GitHub Actions
        if raw[:1] == "{":
            if '"build-script-executed"' in raw:
                self._build_script(raw)
                return
            nested = lines_from_json_line(raw)
            if nested is not None:
                for offset, inner in enumerate(nested):
                    self._feed_clean(lineno, clean(inner), offset)
                return
        self._feed_clean(lineno, clean(raw), 0, hit)

    def _build_script(self, raw: str) -> None:
        """Keep what cargo says a build script linked (a JSON log has it): the hints use it."""
        import json

        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            return
        if not isinstance(msg, dict) or msg.get("reason") != "build-script-executed":
            return
        libs, paths = msg.get("linked_libs") or [], msg.get("linked_paths") or []
        # Any JSON can sit in a log: a record with the wrong types is not evidence.
        if not (isinstance(libs, list) and isinstance(paths, list)
                and all(isinstance(x, str) for x in (*libs, *paths))):
            return
        if len(self.build_scripts) < MAX_GROUPS:
            self.build_scripts.append((str(msg.get("package_id", "")), tuple(libs), tuple(paths)))

    def _feed_clean(self, lineno: int, text: str, offset: int, known: bool | None = None) -> None:
        # Lines nested in one JSON message share a number and count by offset.
        last_no, last_off = self._last_no, self._last_off
        adjacent = (lineno == last_no and offset == last_off + 1) or (
            offset == 0 and last_off == 0 and lineno == last_no + 1
        )
        prev = self._last_text if adjacent else ""
        self._last_no, self._last_off, self._last_text = lineno, offset, text
        if not adjacent:
            self._in_function = None
        if not text:
            return
        if known is not False and is_command_line(text):
            # rustc's linker command: evidence for the hints (which archives,
            # in which order), never a diagnosis. The last one before a problem wins.
            self.command_line = text[:MAX_COMMAND]
            return  # (a command line that is mere context fails every check below anyway)
        if "in function" in text and (fm := sig.GNU_IN_FUNCTION.match(text)):
            self._in_function = f"{fm['obj']}:({fm['fn']})"
            self._last_key = None
            return
        if self._in_function is not None and "undefined reference to" not in text:
            self._in_function = None
        if known is False:
            # Context around a hit (the reader found no trigger word): all it
            # can be is a continuation of the last problem. Skipping the
            # trigger and family scans here is what keeps dense logs fast.
            if not (adjacent and self._continue(text)):
                self._last_key = None
            return
        if known is True and len(text) <= MAX_MATCH:
            hit = 0  # where exactly matters only for trimming a long line
        else:
            hit = next((i for t in sig.TRIGGERS if (i := text.find(t)) != -1), -1)
        self._holes = []
        if len(text) > MAX_MATCH:
            # Several signatures scan `\S+` unanchored, quadratic on a long
            # run of non-space: cut the long runs out (see MAX_MATCH).
            text = self._cut_long_runs(text)
            if len(text) > MAX_MATCH:  # many medium runs: look near the hit
                start = max(0, hit - MAX_MATCH // 4)
                text = text[start:start + MAX_MATCH]
            self._last_text = text
        family = sig.family_of(text)
        if family:
            self._family = family
        if adjacent and self._continue(text):
            return
        if hit == -1:
            self._last_key = None
            return
        self._match(lineno, text, prev, family)

    def _cut_long_runs(self, text: str) -> str:
        def cut(m: re.Match[str]) -> str:
            run = m.group()
            self._holes.append(run[_KEEP:-_KEEP])
            return f"{run[:_KEEP]}\ue000{len(self._holes) - 1}\ue001{run[-_KEEP:]}"

        return _LONG_RUN.sub(cut, text)

    def _whole(self, text: str | None) -> str | None:
        """*text* with the long runs cut out of its line put back."""
        if text is None or not self._holes or "\ue000" not in text:
            return text
        return _HOLE.sub(lambda m: self._holes[int(m.group(1))], text)

    def _continue(self, text: str) -> bool:
        """Attach a continuation line (lld's `>>>`, ld64's `_f in x.o`) to the last problem."""
        if self._last_key is None:
            return False
        m = sig.LLD_REFERENCED.match(text) or sig.LD64_REFERENCED.match(text)
        if m is None:
            s = sig.LLD_SOURCE.match(text)
            if s is not None and (group := self._groups.get(self._last_key)) is not None:
                group.rust_source(s["path"] or s["short"], s["line"] or s["sline"])
            return text.startswith(">>>")
        group = self._groups.get(self._last_key)
        if group is not None:
            archive = m.groupdict().get("archive")
            # The GNU spelling of an archive member, so every family reads alike.
            where = f"{archive}({m['obj']}):({m['fn']})" if archive else f"{m['obj']}:({m['fn']})"
            group.reference(where)
        return True

    def _match(self, lineno: int, text: str, prev: str, family: str | None) -> None:
        self._last_key = None
        if text in self._plain:
            # Seen before and no signature matched: every test below reads the text
            # alone, so the answer is the same. A log of a million identical
            # `ld: warning:` lines costs one scan, not forty regexes per line.
            self._recent.append(text[:1000])
            return
        # Each regex is guarded by a literal it needs: `in` is far cheaper than
        # an unanchored search, and most hit lines are none of these.
        m = sig.RUSTC_LINK_FAILED.search(text) if "linking with" in text else None
        if m:
            self._close_failure()
            self._open_failure = (text, lineno, self._adds)
            return
        if "backward reference detected" in text:
            # lld's --warn-backrefs: an archive-order problem on a link lld
            # resolved anyway (read with the link line in diagnose.order).
            if len(self.backrefs) < MAX_GROUPS:
                self.backrefs.append((lineno, text))
            return
        m = sig.SEARCH_ATTEMPT.search(text) if "attempt to open" in text else None
        if m:
            if len(self.searched) < MAX_SEARCHED:
                self.searched.append(m["path"])
            return
        m = sig.GNU_DSO_SYMBOL.search(text) if "to symbol '" in text else None
        if m:
            self._dso_symbol = (m["sym"], text, lineno)
            self._family = family or "gnu-ld"
            return
        m = sig.GNU_DSO_LIBRARY.search(text) if "DSO missing" in text else None
        if m:
            symbol, first, at = self._dso_symbol or (None, text, lineno)
            self._dso_symbol = None
            self._add(text, "dso-missing", first, "gnu-ld", symbol=symbol, library=m["path"], line=at)
            return
        m = sig.LINK_EXIT.search(text) if ("exit status" in text or "exit code" in text) else None
        if m:
            self._link_exit(text, lineno)
            return
        if sig.IGNORE.search(text):
            return
        for s in sig.SIGNATURES:
            m = s.pattern.search(text)
            if m is None:
                continue
            groups = {k: self._whole(v) for k, v in m.groupdict().items()}
            referenced = None
            if groups.get("obj") and groups.get("fn"):
                referenced = f"{groups['obj']}:({groups['fn']})"
            elif s.kind == "undefined-symbol" and s.linker == "gnu-ld" and self._in_function:
                referenced = self._in_function
            elif s.kind == "undefined-symbol" and (fm := sig.GNU_IN_FUNCTION.match(prev)):
                referenced = f"{fm['obj']}:({fm['fn']})"
            elif s.kind in ("undefined-symbol", "duplicate-symbol") and groups.get("obj"):
                referenced = groups["obj"]
            library = groups.get("lib") or groups.get("path")
            if s.kind == "incompatible-input" and not library:
                library = groups.get("obj")
            linker = s.linker or family or self._family
            symbol, readable = _symbol(groups.get("sym")), None
            if symbol and (dm := _MSVC_DECORATED.match(symbol)):
                symbol, readable = dm["sym"], dm["readable"]  # link.exe shows both forms
            whole = self._whole(text) or text
            self._add(
                whole, s.kind, whole, linker, symbol=symbol, demangled=readable,
                referenced_from=referenced, library=library, line=lineno,
            )
            if s.kind == "undefined-symbol" and (src := sig.SOURCE_PREFIX.match(whole)) and self._last_key:
                self._groups[self._last_key].rust_source(src["path"], src["line"])
            return
        if sig.LINKER_ERROR.search(text):
            self._add(text, "unknown", text, family or self._family, line=lineno)
            return
        if len(self._plain) < MAX_PLAIN:
            self._plain.add(text)
        self._recent.append(text[:1000])

    def _link_exit(self, text: str, lineno: int) -> None:
        """gcc or clang says the linker failed: unless something since the last
        such line was classified, the failure is `unknown`, with the unclassified
        lines before it, never "no linker problem"."""
        if self._open_failure is not None:
            return  # rustc's header over this link closes it
        if self._adds == self._adds_at_exit:
            message = "\n".join([*self._recent, text])
            self._add(text, "unknown", message, self._family, line=lineno)
        self._recent.clear()
        self._adds_at_exit = self._adds

    def _add(
        self, text: str, kind: str, message: str, linker: str | None, *, symbol: str | None = None,
        demangled: str | None = None, referenced_from: str | None = None, library: str | None = None,
        line: int | None = None,
    ) -> None:
        # One problem per (kind, subject); relocation overflows are one problem however many.
        subject = None if kind in ("relocation-overflow", "unknown", "linker-crashed") else (symbol or library)
        key = (kind, subject)
        group = self._groups.get(key)
        if group is None and len(self._groups) >= MAX_GROUPS:
            key = (kind, None)
            group = self._groups.get(key)
        if group is None:
            # The Diagnostic is built once per problem, not per occurrence:
            # a dense log repeats one problem thousands of times.
            diag = Diagnostic(kind, message, linker, symbol=symbol, demangled=demangled, library=library, line=line)
            group = self._groups[key] = _Group(diag, 0)
        group.count += 1
        if len(group.examples) < MAX_EXAMPLES:
            group.examples.append(text[:1000])
        if referenced_from:
            group.reference(referenced_from)
        self._last_key = key
        self._adds += 1

    def _close_failure(self) -> None:
        """A failed link whose lines said nothing linkgate knows is still a failed link."""
        if self._open_failure is None:
            return
        text, lineno, adds = self._open_failure
        self._open_failure = None
        if adds == self._adds:
            self._add(text, "unknown", text, self._family, line=lineno)

    # -- output ------------------------------------------------------------
    def result(self) -> list[Diagnostic]:
        if self._dso_symbol is not None:
            # The "DSO missing" half never came: report what GNU ld did say.
            symbol, text, at = self._dso_symbol
            self._add(text, "undefined-symbol", text, "gnu-ld", symbol=symbol, line=at)
            self._dso_symbol = None
        self._close_failure()
        out = []
        for group in self._groups.values():
            refs = tuple(group.references)
            out.append(
                replace(
                    group.diag, count=group.count, examples=tuple(group.examples),
                    referenced_from=refs[0] if refs else None, references=refs, source=group.source,
                )
            )
        return out


_SECTION_SYMBOL = re.compile(r"^\.(?:bss|data|rodata|tbss|tdata|text)\.(?P<sym>_[RZ].+)$")
_MSVC_DECORATED = re.compile(r'^"(?P<readable>[^"]+)" \((?P<sym>[^)]+)\)$')


def _symbol(raw: str | None) -> str | None:
    """The symbol itself: lld names per-symbol sections (`.bss.<mangled>`) instead."""
    if raw is None:
        return None
    m = _SECTION_SYMBOL.match(raw)
    return m["sym"] if m else raw


def classify_candidates(candidates: Iterable[tuple[int, str, bool]]) -> Classifier:
    """Feed every candidate line; read ``result()``, ``searched`` and ``build_scripts`` off the classifier."""
    c = Classifier()
    for number, line, hit in candidates:
        c.feed(number, line, hit)
    return c
