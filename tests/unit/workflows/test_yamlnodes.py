from __future__ import annotations

import pytest

from linkgate.workflows.yamlnodes import YamlError, YMap, YStr, load_text


def test_on_key_stays_a_string_not_true() -> None:
    doc = load_text("on:\n  push:\njobs: {}\n")
    assert list(doc) == ["on", "jobs"]
    assert doc["on"] == {"push": None}


def test_lines_of_keys_and_block_scalar_content() -> None:
    doc = load_text("a: 1\nrun: |\n  first\n  second\nplain: x\nfolded: >\n  y\n")
    assert doc.key_lines == {"a": 1, "run": 2, "plain": 5, "folded": 6}
    assert isinstance(doc["run"], YStr)
    assert (doc["run"].line, doc["run"].content_line) == (2, 3)
    assert (doc["plain"].line, doc["plain"].content_line) == (5, 5)
    assert doc["folded"].content_line == 7


def test_scalars_keep_their_source_text() -> None:
    doc = load_text("rust: [1.70, true, 007]\n")
    assert doc["rust"] == ["1.70", "true", "007"]


def test_alias_is_shared_and_merge_keys_apply_with_explicit_keys_winning() -> None:
    doc = load_text("base: &b\n  x: 1\n  y: 2\njob:\n  <<: *b\n  y: 3\nother: *b\n")
    assert doc["job"] == {"x": "1", "y": "3"}
    assert doc["other"] is doc["base"]
    assert doc["job"].key_lines["y"] == 6


def test_alias_bomb_is_refused_without_being_expanded() -> None:
    """10**30 nodes once expanded: whatever walks the document later (a matrix's
    combinations) would expand it, so it is refused by counting, not by walking."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 30):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    with pytest.raises(YamlError, match="alias bomb"):
        load_text("\n".join(lines) + "\n")


def test_shared_aliases_within_the_bound_are_the_same_object() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 4):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    doc = load_text("\n".join(lines) + "\n")
    assert isinstance(doc, YMap)
    assert doc["a3"][0] is doc["a2"]


def test_invalid_yaml_reports_its_line() -> None:
    with pytest.raises(YamlError) as info:
        load_text("jobs:\n  a:\n    steps:\n      - run: x\n     - run: y\n")
    assert info.value.line == 5
    assert "expected" in info.value.message


def test_very_large_workflow_is_read_completely() -> None:
    jobs = "".join(
        f"  j{i}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          cargo check -F f{i}\n"
        for i in range(5000)
    )
    doc = load_text("on: push\njobs:\n" + jobs)
    assert len(doc["jobs"]) == 5000
    assert doc["jobs"]["j4999"]["steps"][0]["run"].content_line == 3 + 4999 * 5 + 4
