"""A filter of more patterns than picomatch's compile cache holds (4,096) compiles
each pattern once, however many paths it tests: counted in compilations, not timed
(bench/pattern_scale.py measures 1,000 against 10,000 patterns side by side)."""

from __future__ import annotations

import pytest

from linkgate import picomatch
from linkgate.trigger.pathfilter import PathFilter

COUNT = 6_000


def compiles(run) -> int:  # type: ignore[no-untyped-def]
    for cache in (picomatch.compile, picomatch._compile_source, picomatch._js_source):
        cache.cache_clear()
    run()
    return picomatch.compile.cache_info().misses


@pytest.mark.timeout(120)
def test_every_compiles_each_pattern_once_whatever_the_paths() -> None:
    # Each path meets every rule but the last: all rules are tested for each path.
    rules = [f"!docs/d{i}/**" for i in range(COUNT - 1)] + ["nothing/**"]
    f = PathFilter(rules, "every")
    paths = [(f"src/f{i}.rs", "modified") for i in range(20)]
    assert compiles(lambda: f.any_match(paths)) <= COUNT
    assert f.any_match(paths) is False
    assert compiles(lambda: [f.matches(p) for p, _ in paths]) == 0  # held by the rules since


@pytest.mark.timeout(120)
def test_rules_matching_nothing_compiles_each_pattern_once() -> None:
    f = PathFilter([f"crates/c{i}/**" for i in range(COUNT)], "every")
    paths = [f"src/f{i}.rs" for i in range(20)]
    assert compiles(lambda: f.rules_matching_nothing(paths)) <= COUNT
