from __future__ import annotations

from linkgate.workflows.matrix import expand


def test_no_matrix_is_one_empty_combination() -> None:
    assert expand(None) == [{}]


def test_expression_matrix_is_unknown() -> None:
    assert expand("${{ fromJSON(needs.a.outputs.m) }}") is None
    assert expand({"f": "${{ fromJSON(x) }}"}) is None


def test_product_exclude_and_include_follow_github() -> None:
    # The example from GitHub's documentation of include.
    matrix = {
        "fruit": ["apple", "pear"],
        "animal": ["cat", "dog"],
        "include": [
            {"color": "green"},
            {"color": "pink", "animal": "cat"},
            {"fruit": "apple", "shape": "circle"},
            {"fruit": "banana"},
            {"fruit": "banana", "animal": "cat"},
        ],
    }
    assert expand(matrix) == [
        {"fruit": "apple", "animal": "cat", "color": "pink", "shape": "circle"},
        {"fruit": "apple", "animal": "dog", "color": "green", "shape": "circle"},
        {"fruit": "pear", "animal": "cat", "color": "pink"},
        {"fruit": "pear", "animal": "dog", "color": "green"},
        {"fruit": "banana"},
        {"fruit": "banana", "animal": "cat"},
    ]


def test_exclude_matches_on_the_keys_it_names() -> None:
    matrix = {"os": ["a", "b"], "f": ["x", "y"], "exclude": [{"os": "b"}, {"os": "a", "f": "y"}]}
    assert expand(matrix) == [{"os": "a", "f": "x"}]


def test_include_only_matrix() -> None:
    assert expand({"include": [{"f": "a"}, {"g": "b"}]}) == [{"f": "a"}, {"g": "b"}]
