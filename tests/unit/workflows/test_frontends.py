from __future__ import annotations

from linkgate.workflows.frontends import action_commands as cargo_commands


def test_actions_rs_cargo() -> None:
    inputs = {"command": "build", "args": "--release --features 'a b'", "toolchain": "stable"}
    assert cargo_commands("actions-rs/cargo@v1", inputs) == [
        ["cargo", "+stable", "build", "--release", "--features", "a b"]
    ]
    assert cargo_commands("actions-rs/cargo@v1", {"command": "test", "use-cross": "true"}) == [["cross", "test"]]


def test_clippy_and_cross_actions() -> None:
    assert cargo_commands("actions-rs/clippy-check@v1", {"args": "--all-features"}) == [
        ["cargo", "clippy", "--all-features"]
    ]
    assert cargo_commands("houseabsolute/actions-rust-cross@v1", {"command": "both", "target": "t"}) == [
        ["cargo", "build", "--target", "t"],
        ["cargo", "test", "--target", "t"],
    ]


def test_unknown_action_runs_nothing() -> None:
    assert cargo_commands("actions/checkout@v4", {}) == []
