"""Turn bash text into ``syntax`` nodes with tree-sitter-bash.

Parsed once per distinct text (an LRU cache): a matrix job evaluates the same
script under every combination, and ``${{ }}`` expressions are replaced by
placeholders *before* parsing (``parsewords.EXPR_PLACEHOLDER``) so the text, and its
tree, are the same for all of them.

Grammar quirks worked around here (tree-sitter-bash 0.25):
- ``A=1 B=2`` alone on a line, followed by a command on the next line, comes
  back as one command with an env prefix; bash sees two statements.
- ``[[ -n $a && $b = y ]]`` is grouped as ``(-n $a && $b) = y``; test
  expressions are kept as flat token lists and re-parsed by ``conditions``.
- Code points above U+FFFF (four UTF-8 bytes: emoji, CJK extensions, private
  planes) make the parser crash the whole process (SIGSEGV, or SIGBUS) on some
  scripts: found by fuzzing random scripts, with tree-sitter 0.24-0.26 and
  tree-sitter-bash 0.23-0.25 alike, and never without such characters. The
  parser reads a copy in which each is four ``.`` (the same byte length, and a
  plain word character in bash, where ``$.`` is no expansion); words are still
  read from the real text at the same byte offsets.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from linkgate.workflows.shell.parsewords import WordReader
from linkgate.workflows.shell.syntax import (
    AndOr, Assign, Broken, Case, CaseItem, Command, Decl, For, FuncDef, If, Lit, Loop, Not, Pipeline, Seq, Stmt,
    Subshell, Test, Unset, Word,
)

_OPERAND_TYPES = {
    "word", "string", "raw_string", "ansi_c_string", "translated_string", "simple_expansion", "expansion",
    "concatenation", "number", "extglob_pattern", "regex", "command_substitution", "arithmetic_expansion",
    "process_substitution", "variable_name",
}
_LOOP_TYPES = {"while_statement", "c_style_for_statement", "select_statement"}


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


@functools.lru_cache(maxsize=1024)
def parse_script(text: str) -> Seq:
    from tree_sitter import Parser

    data = text.encode("utf-8")
    safe = data if text.isascii() else _ASTRAL.sub("....", text).encode("utf-8")
    tree = Parser(_language()).parse(safe)
    # Node offsets count from the start of the text; the root node's own text starts at its
    # first token, after any leading blank lines, so it cannot be the buffer they index.
    return _Converter(data).seq(tree.root_node.named_children)


@functools.lru_cache(maxsize=1)
def _language() -> Any:
    import tree_sitter_bash
    from tree_sitter import Language

    return Language(tree_sitter_bash.language())


class _Converter(WordReader):
    def seq(self, nodes: list[Any]) -> Seq:
        items: list[Stmt] = []
        for node in nodes:
            items.extend(self.stmt(node))
        return Seq(tuple(items))

    def stmt(self, node: Any) -> list[Stmt]:
        kind = node.type
        row = node.start_point[0]
        if kind in ("comment", "heredoc_body", "heredoc_start", "heredoc_end"):
            return []
        if kind == "command":
            return self.command(node)
        if kind in ("variable_assignment", "variable_assignments"):
            assigns = [node] if kind == "variable_assignment" else node.named_children
            return [Command(row, tuple(self.assign(a) for a in assigns), ())]
        if kind in ("compound_statement", "do_group", "program"):
            return [self.seq(node.named_children)]
        if kind == "redirected_statement":
            body = node.child_by_field_name("body")
            out = self.stmt(body) if body is not None else []
            if len(out) != 1 or not isinstance(out[0], Command):
                return out
            cmd = out[0]
            heredoc = next((c for c in node.named_children if c.type == "heredoc_redirect"), None)
            text: str | None = None
            expands = True
            if heredoc is not None:
                text = "".join(self.text(c) for c in heredoc.named_children if c.type == "heredoc_body")
                expands = not any(c.type == "heredoc_start" and self.text(c)[:1] in "'\"" for c in heredoc.children)
            output: Word | None = None
            for redirect in node.named_children:
                dest = redirect.child_by_field_name("destination")
                if redirect.type == "file_redirect" and dest is not None and redirect.child_by_field_name(
                        "descriptor") is None and any(c.type in (">", ">>") for c in redirect.children):
                    output = self.word(dest)
            return [Command(cmd.row, cmd.assigns, cmd.words, heredoc=text, heredoc_expands=expands, output=output,
                            rows=cmd.rows)]
        if kind == "list":
            children = node.children
            left = self.one(children[0])
            for i in range(1, len(children) - 1, 2):
                left = AndOr(left, children[i].type, self.one(children[i + 1]))
            return [left]
        if kind == "pipeline":
            return [Pipeline(tuple(self.one(c) for c in node.named_children))]
        if kind == "negated_command":
            return [Not(self.one(node.named_children[-1]))]
        if kind == "subshell":
            return [Subshell(self.seq(node.named_children))]
        if kind == "if_statement":
            return [self.if_(node)]
        if kind == "case_statement":
            return [self.case(node)]
        if kind == "for_statement":
            var = node.child_by_field_name("variable")
            values = [self.word(c) for c in node.children_by_field_name("value")]
            has_in = any(c.type == "in" for c in node.children)
            body = node.child_by_field_name("body")
            return [For(row, self.text(var) if var is not None else "_", tuple(values) if has_in else None,
                        self.seq(body.named_children) if body is not None else Seq(()))]
        if kind in _LOOP_TYPES:
            body = node.child_by_field_name("body")
            conds = [c for c in node.children_by_field_name("condition") if c.is_named]
            return [Loop(row, self.seq(conds) if kind == "while_statement" else Seq(()),
                         self.seq(body.named_children) if body is not None else Seq(()))]
        if kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is None or body is None:
                return []
            return [FuncDef(self.text(name), self.one(body))]
        if kind == "declaration_command":
            return [self.decl(node)]
        if kind == "unset_command":
            return [Unset(row, tuple(self.text(c) for c in node.named_children))]
        if kind == "test_command":
            return [Test(row, tuple(self.test_tokens(node)), self.text(node).startswith("[["))]
        if kind == "ERROR" or node.has_error:
            return [Broken(row, self.text(node))]
        return []

    def one(self, node: Any) -> Stmt:
        items = self.stmt(node)
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def command(self, node: Any) -> list[Stmt]:
        row = node.start_point[0]
        assign_nodes = [c for c in node.children if c.type == "variable_assignment"]
        name = node.child_by_field_name("name")
        assigns = tuple(self.assign(a) for a in assign_nodes)
        if name is None:
            return [Command(row, assigns, ())]
        words = [tuple(p for c in name.named_children for p in self.parts(c, False)) or self.word(name)]
        arguments = node.children_by_field_name("argument")
        words += [self.word(c) for c in arguments]
        rows = (name.start_point[0], *(c.start_point[0] for c in arguments))
        if assign_nodes:
            gap = self.src[assign_nodes[-1].end_byte : name.start_byte].replace(b"\\\n", b"")
            if b"\n" in gap:  # the grammar quirk: two statements, not an env prefix
                return [Command(row, assigns, ()), Command(name.start_point[0], (), tuple(words), rows=rows)]
        return [Command(name.start_point[0], assigns, tuple(words), rows=rows)]

    def assign(self, node: Any) -> Assign:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else ""
        if name_node is not None and name_node.type == "subscript":
            name = name.split("[", 1)[0] + "[]"
        value = node.child_by_field_name("value")
        append = any(c.type == "+=" for c in node.children)
        if value is None:
            return Assign(name, ((Lit("", True),)), None, append)
        if value.type == "array":
            return Assign(name, None, tuple(self.word(c) for c in value.named_children), append)
        return Assign(name, self.word(value), None, append)

    def decl(self, node: Any) -> Decl:
        kind = node.children[0].type
        flags: list[str] = []
        items: list[Assign] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                items.append(self.assign(child))
            elif child.type == "variable_name":
                items.append(Assign(self.text(child), None))
            elif child.type == "word":
                text = self.text(child)
                if text.startswith(("-", "+")):
                    flags.append(text)
                else:
                    items.append(Assign(text, None))
        return Decl(node.start_point[0], kind, tuple(flags), tuple(items))

    def if_(self, node: Any) -> If:
        clauses: list[tuple[Seq, Seq]] = []
        orelse: Seq | None = None
        cond, body = self.split_then(node.children)
        clauses.append((cond, body))
        for child in node.named_children:
            if child.type == "elif_clause":
                clauses.append(self.split_then(child.children))
            elif child.type == "else_clause":
                orelse = self.seq(child.named_children)
        return If(node.start_point[0], tuple(clauses), orelse)

    def split_then(self, children: list[Any]) -> tuple[Seq, Seq]:
        cond: list[Any] = []
        body: list[Any] = []
        target = cond
        for child in children:
            if child.type == "then":
                target = body
            elif child.type in ("elif_clause", "else_clause"):
                break
            elif child.is_named:
                target.append(child)
        return self.seq(cond), self.seq(body)

    def case(self, node: Any) -> Case:
        value = node.child_by_field_name("value")
        items: list[CaseItem] = []
        for item in node.named_children:
            if item.type != "case_item":
                continue
            patterns = [self.word(c) for c in item.children_by_field_name("value")]
            pattern_ids = {c.id for c in item.children_by_field_name("value")}
            body = [c for c in item.named_children if c.id not in pattern_ids]
            items.append(CaseItem(tuple(patterns), self.seq(body)))
        return Case(node.start_point[0], self.word(value) if value is not None else (), tuple(items))

    def test_tokens(self, node: Any) -> list[str | Word]:
        out: list[str | Word] = []
        for child in node.children:
            if child.type in ("[[", "]]", "[", "]"):
                continue
            if child.type in _OPERAND_TYPES:
                out.append(self.word(child))
            elif child.type == "test_operator" or not child.is_named:
                out.append(self.text(child))
            else:
                out.extend(self.test_tokens(child))
        return out
