"""The report's JSON writer gives json.dumps(doc, indent=2) byte for byte."""

from __future__ import annotations

import enum
import json
from collections import namedtuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linkgate.report.jsonfmt import dumps

leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                   st.text())
docs = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=30)


@pytest.mark.timeout(120)
@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(docs)
def test_the_writer_is_json_dumps_with_indent_2(doc: object) -> None:
    assert dumps(doc) == json.dumps(doc, indent=2)


class Level(enum.IntEnum):
    HIGH = 3


Pair = namedtuple("Pair", "a b")


@pytest.mark.parametrize("doc", [
    {1: "int key"}, {None: 1, True: 2, 1.5: 3}, {"a": Level.HIGH}, Pair(1, [2]), {"deep": [[[[]]]], "e": {}},
    "\u2028\x00é🦀", [float("nan"), float("-inf"), 1e308, -0.0],
])
def test_what_it_leaves_to_json_or_writes_itself_reads_the_same(doc: object) -> None:
    assert dumps(doc) == json.dumps(doc, indent=2)


def test_a_value_json_refuses_is_refused_the_same() -> None:
    with pytest.raises(TypeError):
        dumps({"x": object()})
