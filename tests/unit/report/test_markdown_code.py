"""Code spans and fences in the Markdown reporters hold any text, GNU ld's backticks included.

Checked with a CommonMark parser (markdown-it-py, which rich already depends on),
with GFM tables on: what the parser reads back must be the text exactly."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt

from linkgate.prove.report import render_markdown as prove_markdown
from linkgate.gate.report import render_markdown as run_markdown
from linkgate.report.markdown import code, fenced
from linkgate.report.model import Report

# GNU ld 2.42, a test binary missing libbz2's objects: it quotes the function and the
# symbol as `name', a backtick opening each.
GNU_LD = ("/usr/bin/ld: /work/target/release/deps/link-3f2a.link.1c2d-cgu.0.rcgu.o: in function "
          "`bzip2::mem::Compress::new': link.1c2d-cgu.0:(.text+0x5a): undefined reference to `BZ2_bzCompressInit'")


def inline_codes(markdown: str) -> list[str]:
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    return [c.content for t in tokens if t.type == "inline" for c in t.children or [] if c.type == "code_inline"]


@pytest.mark.parametrize("text", [
    GNU_LD, "plain", "`starts", "ends`", "a `` b ``` c", " spaced ", "`", "a|b",
])
def test_a_code_span_reads_back_as_the_text(text: str) -> None:
    assert inline_codes(f"before {code(text)} after") == [text]
    assert inline_codes(f"| a |\n|---|\n| {code(text, table=True)} |\n") == [text]


def test_a_fence_outlasts_every_backtick_run_inside() -> None:
    lines = ["```", "````rust", GNU_LD]
    tokens = MarkdownIt("commonmark").parse("\n".join(fenced(lines, "diff")) + "\nafter\n")
    assert [(t.type, t.info, t.content) for t in tokens if t.type == "fence"] == [("fence", "diff", "\n".join(lines) + "\n")]


def _prove_report() -> Report:
    run = {"verdict": "link-failed", "duration_s": 1.0, "linker_output": [GNU_LD],
           "diagnostics": [{"message": GNU_LD}]}
    control: dict[str, Any] = {
        "name": "rename-compress-init", "gate": "bz-link", "linker": "bfd", "file": "bzip2-sys/bzip2-1.0.8/bzlib.c",
        "mutated": run, "restored": {"verdict": "linked", "duration_s": 1.0}, "outcome": "caught",
        "reason": "the gate failed with the defect in place", "replayed": False, "explanation": None,
        "mutation": "-int BZ_API(BZ2_bzCompressInit)\n+int BZ_API(BZ2_bzCompressInit_gone)\n",
    }
    return Report(command="prove", document={"status": "pass", "controls": [control]}, summary="1 of 1")


def test_prove_markdown_keeps_the_key_linker_line_whole() -> None:
    md = prove_markdown(_prove_report())
    key = next(line for line in md.splitlines() if "key linker line" in line)
    assert inline_codes(key) == [GNU_LD]
    assert inline_codes(md)[:2] == ["rename-compress-init", "bz-link"]


def test_run_markdown_keeps_the_diagnostic_whole() -> None:
    item = {"gate": "bz-link", "linker": "bfd", "verdict": "link-failed", "linked": [], "forced_relink": False,
            "duration_s": 1.0, "failed_targets": ["link (test)"], "linker_output": [GNU_LD, "```"],
            "diagnostics": [{"kind": "undefined-symbol", "message": GNU_LD, "build_script": "bzip2-sys/build.rs",
                             "directives": [{"key": "rustc-link-lib", "value": "static=bz2"}]}]}
    md = run_markdown(Report(command="run", document={"status": "fail", "results": [item]}, summary="1 failed"))
    assert inline_codes(md) == ["bz-link", GNU_LD, "cargo::rustc-link-lib=static=bz2", "bzip2-sys/build.rs"]
    tokens = MarkdownIt("commonmark").parse(md)
    assert [t.content for t in tokens if t.type == "fence"] == [f"{GNU_LD}\n```\n"]
