from __future__ import annotations

from linkgate.workflows.makecond import expand, lookup_in
from linkgate.workflows import makecond

VARS = {"T": "x86_64-apple-darwin", "EMPTY": "", "R": "$(T)", "LIST": "a b c"}
LOOK = lookup_in(VARS, {"G": "given"}, {"HOME": "/root"})


def test_functions_and_references() -> None:
    assert expand("$(findstring darwin,$(T))", LOOK) == "darwin"
    assert expand("$(or $(EMPTY),$(findstring linux,$(T)),z)", LOOK) == "z"
    assert expand("$(and a,$(EMPTY),b)", LOOK) == ""
    assert expand("$(if $(EMPTY),yes,no)", LOOK) == "no"
    assert expand("$(subst -, ,$(T))", LOOK) == "x86_64 apple darwin"
    assert expand("$(filter a% c,$(LIST))", LOOK) == "a c"
    assert expand("$(filter-out b,$(LIST))", LOOK) == "a c"
    assert expand("$(firstword $(LIST)) $(words $(LIST)) $(strip  a   b )", LOOK) == "a 3 a b"
    assert expand("${R}-$$x-$(G)-$(HOME)", LOOK) == "x86_64-apple-darwin-$x-given-/root"


def test_what_cannot_be_known_is_none() -> None:
    assert expand("$(UNSET)", LOOK) is None  # may come from the runner's environment
    assert expand("$(shell uname)", LOOK) is None
    assert expand("$(wildcard *.c)", LOOK) is None
    assert expand("$(T", LOOK) is None


def test_the_four_tests_in_both_argument_forms() -> None:
    assert makecond.test("ifeq", "($(T), x86_64-apple-darwin)", LOOK) is True
    assert makecond.test("ifneq", "\"$(T)\" 'x'", LOOK) is True
    assert makecond.test("ifeq", "'a' \"b\"", LOOK) is False
    assert makecond.test("ifdef", "T", LOOK) is True
    assert makecond.test("ifdef", "EMPTY", LOOK) is False
    assert makecond.test("ifndef", "UNSET", LOOK) is None
    assert makecond.test("ifeq", "($(UNSET),)", LOOK) is None
    assert makecond.test("ifeq", "no parentheses", LOOK) is None
