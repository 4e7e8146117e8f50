"""PathFilter combines rules the way dorny/paths-filter does."""

from __future__ import annotations

import pytest

from linkgate.trigger.pathfilter import PathFilter, Rule, matches


def test_negated_rule_is_not_an_exclusion_under_some() -> None:
    f = PathFilter(["src/**", "!**/*.md"])
    # `!**/*.md` alone matches every non-Markdown path, so docs/a.txt triggers.
    assert f.matches("docs/a.txt")
    assert f.matches("src/README.md")
    assert not f.matches("docs/README.md")


def test_every_requires_all_rules() -> None:
    f = PathFilter(["src/**", "!**/*.md"], quantifier="every")
    assert f.matches("src/lib.rs")
    assert not f.matches("src/README.md")
    assert not f.matches("docs/a.txt")


def test_trailing_globstar_matches_the_directory_itself() -> None:
    assert matches("scripts/iree/**", "scripts/iree")
    assert matches("./build.rs", "build.rs")
    assert not matches("*.md", "docs/a.md")


def test_change_types() -> None:
    f = PathFilter([Rule(("vendor/**", "pins/*"), frozenset({"added", "modified"}))])
    assert f.matches("vendor/pin.txt", "modified")
    assert f.matches("pins/x", "added")
    assert not f.matches("vendor/pin.txt", "deleted")
    assert not f.matches("vendor/pin.txt", None)


def test_indexed_and_per_rule_paths_agree() -> None:
    rules = ["src/**", "!**/*.md", "{a,b}/*.rs", "[!a]", "*(x|y).toml", "**/build.rs", "./lib/*", "a.{1..2}"]
    paths = ["a/x.rs", "b/y.md", "README.md", "src/x", "!", "xy.toml", "lib/core/build.rs", ".github/ci.yml",
             "./lib/*", "lib/a", "src", "a.{1..2}", ".1", "a.1"]
    for quantifier in ("some", "every"):
        combined = PathFilter(rules, quantifier)
        expect = [(any if quantifier == "some" else all)(matches(r, p) for r in rules) for p in paths]
        assert [combined.matches(p) for p in paths] == expect


def test_empty_rule_lists_follow_javascript() -> None:
    assert not PathFilter([]).matches("a")
    assert PathFilter([], "every").matches("a")


def test_rules_matching_nothing() -> None:
    f = PathFilter(["src/**", "vendor/pin.txt", "nope/**"])
    assert [str(r) for r in f.rules_matching_nothing(["src/a.rs", "vendor/pin.txt"])] == ["nope/**"]


def test_bad_quantifier() -> None:
    with pytest.raises(ValueError, match="some"):
        PathFilter(["a"], quantifier="any")


def test_any_match_agrees_with_matches() -> None:
    for rules in (["src/**", "Cargo.lock"], ["**/build.rs", "!**/*.md"], ["vendor/**", "a.{1..2}"]):
        f = PathFilter(rules)
        for paths in (["docs/a.md"], ["src"], ["x/build.rs"], [".1"], ["Cargo.lock"], ["a/b.md", "vendor"], []):
            assert f.any_match((p, "modified") for p in paths) == any(f.matches(p) for p in paths), (rules, paths)
