"""Edit a workflow the user wrote by splicing text at node positions.

Never re-dump the user's file: only the managed job region (between its
``# linkgate:begin``/``# linkgate:end`` marker comments), one entry of the
paths filter and one output line change; every other byte stays as it was,
comments, blank lines and quoting included. Positions come from PyYAML's
composer (libyaml), which reports where each node starts and ends; every
edit is re-parsed before it is accepted.

The user's bytes stay theirs: lines are split at ``\n`` only (``\r\n`` kept
whole), inserted lines take the file's own line end, a byte-order mark and a
missing final newline are kept. A file holding a line break that YAML 1.1
and 1.2 disagree about (a lone ``\r``, NEL, U+2028, U+2029) is refused:
PyYAML counts lines by them and this splice by ``\n``, so an edit could land
on the wrong line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from linkgate import yamlemit
from linkgate.errors import UsageError

BEGIN = "# linkgate:begin {}"
END = "# linkgate:end {}"


class SpliceError(UsageError):
    """The workflow does not have the shape an edit needs; the message says what to add by hand."""


def _compose(text: str, where: str) -> Any:
    import yaml

    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise SpliceError(f"{where}{line}: not valid YAML: {getattr(exc, 'problem', exc)}",
                          hint="fix the workflow first; linkgate edits only valid files") from None


def _get(node: Any, key: str) -> tuple[Any, Any] | None:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None


def _end_line(node: Any, lines: list[str]) -> int:
    """Exclusive 0-based end line of *node*'s text.

    A block collection ends where the next token starts (libyaml's BlockEnd
    mark), which may be indented on the following key's line: only text
    before the mark on its line belongs to the node.
    """
    mark = node.end_mark
    if mark.line >= len(lines) or not lines[mark.line][: mark.column].strip():
        return int(mark.line)
    return int(mark.line + 1)


def _trim(lines: list[str], start: int, end: int) -> int:
    """Pull *end* back over trailing blank and comment lines (they introduce what follows)."""
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


_AMBIGUOUS_BREAK = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """*text*'s lines, each with its own ``\n`` or ``\r\n``; nothing else ends a line."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


@dataclass
class WorkflowText:
    text: str
    where: str
    newline: str = field(init=False, default="\n")

    def __post_init__(self) -> None:
        m = _AMBIGUOUS_BREAK.search(self.text)
        if m is not None:
            line = self.text.count("\n", 0, m.start()) + 1
            what = "a carriage return without a line feed" if m.group(0) == "\r" else \
                yamlemit.problem(m.group(0)) or repr(m.group(0))
            raise SpliceError(f"{self.where}:{line}: {what.removeprefix('holds ')}: YAML 1.1 and 1.2 parsers "
                              "disagree about where this file's lines end, so linkgate does not edit it",
                              hint="remove that character (or write it as an escape inside double quotes)")
        first = self.text.find("\n")
        # Inserted lines end as the file's first line does (Windows editors write \r\n).
        self.newline = "\r\n" if first > 0 and self.text[first - 1] == "\r" else "\n"

    @property
    def lines(self) -> list[str]:
        return split_lines(self.text)

    def root(self) -> Any:
        root = _compose(self.text, self.where)
        if root is None or _get(root, "jobs") is None:
            raise SpliceError(f"{self.where}: no `jobs:` mapping", hint="is this a GitHub Actions workflow?")
        # Jobs are spliced in as block-style lines; inside `{...}` they would not parse.
        for node in (root, _get(root, "jobs")[1]):  # type: ignore[index]
            if getattr(node, "flow_style", False):
                raise SpliceError(f"{self.where}:{node.start_mark.line + 1}: the workflow's "
                                  f"{'jobs are' if node is not root else 'top level is'} written in flow style "
                                  "({...}), and linkgate splices block-style lines only",
                                  hint="write it in block style (one key per line), or add the job by hand "
                                  "from `linkgate ci github GATE` without --write")
        return root

    def jobs(self) -> list[tuple[str, int, int, int]]:
        """(job id, key column, start line, trimmed exclusive end line) in file order."""
        _, jobs = _get(self.root(), "jobs")  # type: ignore[misc]
        lines = self.lines
        out: list[tuple[str, int, int, int]] = []
        if not isinstance(jobs.value, list):
            return out  # `jobs:` with nothing under it yet: a workflow --write just created
        for k, v in jobs.value:
            start = k.start_mark.line
            out.append((str(k.value), k.start_mark.column, start, _trim(lines, start, _end_line(v, lines))))
        return out

    def _replace_lines(self, start: int, end: int, new: str) -> None:
        """Put *new* (lines ending in ``\n``) in place of lines *start*..*end*,
        written with the file's line end; a file that had no final newline gets none."""
        lines = self.lines
        if self.newline != "\n":
            new = new.replace("\r\n", "\n").replace("\n", self.newline)
        had_final = not self.text or self.text.endswith("\n")
        self.text = "".join(lines[:start]) + new + "".join(lines[end:])
        if not had_final and self.text.endswith("\n"):
            self.text = self.text[: -len(self.newline)] if self.text.endswith(self.newline) else self.text[:-1]

    # -- the managed job region ------------------------------------------------

    def region(self, name: str) -> tuple[int, int] | None:
        lines = self.lines
        begin = end = None
        for i, line in enumerate(lines):
            stripped = line.strip()
            if stripped == BEGIN.format(name) and begin is None:
                begin = i
            elif stripped == END.format(name) and begin is not None:
                end = i + 1
                break
        if begin is None:
            return None
        if end is None:
            raise SpliceError(f"{self.where}:{begin + 1}: `{BEGIN.format(name)}` has no matching `{END.format(name)}`",
                              hint="restore the end marker, or delete the whole generated job and write again")
        return begin, end

    def region_comment(self, name: str) -> list[str]:
        """The comment lines that open the managed region *name*, without ``# ``."""
        found = self.region(name)
        if found is None:
            return []
        out = []
        for line in self.lines[found[0] + 1:found[1]]:
            text = line.lstrip(" ").rstrip("\r\n")
            if text == "#":
                out.append("")
            elif text.startswith("# "):
                out.append(text[2:])
            else:
                break
        return out

    def put_job(self, name: str, block: str, after: str | None = None) -> None:
        """Replace the managed region *name*, or insert *block* after job *after*
        (default: the last job). *block* must already carry the markers."""
        found = self.region(name)
        if found:
            self._replace_lines(found[0], found[1], block)
            return
        jobs = self.jobs()
        if any(jid == name for jid, *_ in jobs):
            line = next(s for jid, _, s, _ in jobs if jid == name) + 1
            raise SpliceError(f"{self.where}:{line}: a job {name!r} exists and was not written by linkgate",
                              hint="rename or delete it, or wrap it in the linkgate:begin/end markers to hand it over")
        if not jobs:  # a workflow whose `jobs:` is still empty (one --write just created)
            lines = self.lines
            tail = "" if not lines or lines[-1].endswith("\n") else "\n"
            self._replace_lines(len(lines), len(lines), tail + block)
            return
        if after is not None:
            match = [j for j in jobs if j[0] == after]
            if not match:
                raise SpliceError(f"{self.where}: no job {after!r} to insert after",
                                  hint="jobs: " + ", ".join(j[0] for j in jobs))
            end = match[0][3]
        else:
            end = jobs[-1][3]
        lines = self.lines
        if end > 0 and not lines[end - 1].endswith("\n"):
            self._replace_lines(end - 1, end, lines[end - 1] + "\n\n" + block)
        else:
            self._replace_lines(end, end, "\n" + block)

    # -- the paths filter ------------------------------------------------------

    def filter_step(self) -> tuple[str, int] | None:
        """(job id, step index) of the first dorny/paths-filter step, if any."""
        import yaml

        _, jobs = _get(self.root(), "jobs")  # type: ignore[misc]
        for k, v in jobs.value:
            steps = _get(v, "steps")
            if steps is None or not isinstance(steps[1], yaml.SequenceNode):
                continue
            for i, step in enumerate(steps[1].value):
                uses = _get(step, "uses")
                if uses and str(uses[1].value).startswith("dorny/paths-filter@"):
                    return str(k.value), i
        return None

    def _step_node(self, job: str, index: int) -> Any:
        _, jobs = _get(self.root(), "jobs")  # type: ignore[misc]
        jnode = _get(jobs, job)[1]  # type: ignore[index]
        return jnode, _get(jnode, "steps")[1].value[index]  # type: ignore[index]

    def step_id(self, job: str, index: int) -> str | None:
        _, step = self._step_node(job, index)
        found = _get(step, "id")
        return str(found[1].value) if found else None

    def ensure_step_id(self, job: str, index: int) -> str:
        found = self.step_id(job, index)
        if found is not None:
            return found
        _, step = self._step_node(job, index)
        k, v = step.value[0]
        col = k.start_mark.column
        self._insert_after(_end_line(v, self.lines), " " * col + "id: filter\n")
        return "filter"

    def _insert_after(self, line: int, new: str) -> None:
        self._replace_lines(line, line, new)

    def put_filter(self, job: str, index: int, name: str, patterns: list[str]) -> None:
        _, step = self._step_node(job, index)
        with_ = _get(step, "with")
        filters = _get(with_[1], "filters") if with_ else None
        if filters is None or filters[1].style not in ("|",):
            line = step.start_mark.line + 1
            raise SpliceError(
                f"{self.where}:{line}: the paths-filter step's `filters` is not an inline `|` block",
                hint="add this filter by hand:\n" + filter_entry(name, patterns),
            )
        node = filters[1]
        lines = self.lines
        first, end = node.start_mark.line + 1, _end_line(node, self.lines)
        content = [i for i in range(first, end) if lines[i].strip()]
        indent = min((len(lines[i]) - len(lines[i].lstrip(" ")) for i in content), default=node.start_mark.column + 2)
        entry = filter_entry(name, patterns, indent)
        key = re.compile(r"^ {%d}%s\s*:" % (indent, re.escape(yamlemit.key(name))))
        start = next((i for i in content if key.match(lines[i])), None)
        if start is not None:
            stop = start + 1
            while stop < end and (not lines[stop].strip() or len(lines[stop]) - len(lines[stop].lstrip(" ")) > indent
                                  or lines[stop].lstrip().startswith("- ")):
                stop += 1
            stop = _trim(lines, start, stop)
            self._replace_lines(start, stop, entry)
        else:
            last = content[-1] + 1 if content else first
            self._replace_lines(last, last, entry)

    def put_output(self, job: str, name: str, value: str) -> None:
        _, jobs = _get(self.root(), "jobs")  # type: ignore[misc]
        jnode = _get(jobs, job)[1]  # type: ignore[index]
        outputs = _get(jnode, "outputs")
        line_text = f"{yamlemit.key(name)}: {yamlemit.scalar(value)}\n"
        if outputs is None:
            steps_key = _get(jnode, "steps")[0]  # type: ignore[index]
            col = steps_key.start_mark.column
            # Inserted at the steps key's line, so it lands just before `steps:`.
            self._insert_after(steps_key.start_mark.line,
                               " " * col + "outputs:\n" + " " * (col + 2) + line_text)
            return
        knode, onode = outputs
        existing = _get(onode, name)
        if existing:
            k, v = existing
            self._replace_lines(k.start_mark.line, _end_line(v, self.lines), " " * k.start_mark.column + line_text)
            return
        if onode.value:
            col = onode.value[0][0].start_mark.column
            self._insert_after(_trim(self.lines, knode.start_mark.line, _end_line(onode, self.lines)), " " * col + line_text)
        else:  # `outputs: {}`
            col = knode.start_mark.column
            self._replace_lines(knode.start_mark.line, knode.start_mark.line + 1,
                                " " * col + "outputs:\n" + " " * (col + 2) + line_text)


def filter_entry(name: str, patterns: list[str] | tuple[str, ...], indent: int = 0) -> str:
    """One entry of a paths-filter ``filters: |`` block, as ``put_filter`` writes it.
    Globs are always single-quoted: `*`, `!`, `{` and `[` would mean something else plain."""
    return " " * indent + f"{yamlemit.key(name)}:\n" + "".join(
        " " * (indent + 2) + f"- {yamlemit.quoted(p)}\n" for p in patterns)
