from __future__ import annotations

from linkgate.cargo.frontends import action_commands as cargo_commands


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


def test_actions_that_run_cargo_or_only_install() -> None:
    from linkgate.cargo.frontends import action_commands

    assert action_commands("sfackler/actions/rustfmt@main", {}) == [["cargo", "fmt", "--all", "--", "--check"]]
    assert action_commands("actions-rust-lang/rustfmt@v1", {"manifest-path": "a/Cargo.toml"}) == [
        ["cargo", "fmt", "--all", "--manifest-path=a/Cargo.toml", "--", "--check"]]
    assert action_commands("actions-rust-lang/audit@v1", {}) == [["cargo", "audit"]]
    assert action_commands("actions-rust-lang/setup-rust-toolchain@v1", {}) == []
    assert action_commands("actions-rust-lang/anything-new@v1", {}) == []
    assert action_commands("taiki-e/install-action@cargo-hack", {}) == []


def test_every_table_entry_says_why() -> None:
    from linkgate.cargo.frontends import FRONT_ENDS

    assert all(len(f.why) > 20 for f in FRONT_ENDS)
    assert len({f.name for f in FRONT_ENDS}) == len(FRONT_ENDS)


def test_wasm_pack_reads_as_the_cargo_line_it_runs() -> None:
    from linkgate.cargo.cargoargs import is_cargo, parse
    from linkgate.cargo.frontends import cargo_argv

    assert cargo_argv(["wasm-pack", "build", "--target", "web", "--dev", "crates/w", "--", "--features", "x"]) == (
        "cargo", "build", "--lib", "--target", "wasm32-unknown-unknown", "--manifest-path", "crates/w/Cargo.toml",
        "--features", "x")
    call = parse(("wasm-pack", "test", "--node", "--release", "-F", "a"))
    assert call is not None
    assert (call.program, call.subcommand, call.profile, call.features, call.target_triples) == (
        "wasm-pack", "test", "release", ("a",), ("wasm32-unknown-unknown",))
    assert call.args == ("wasm-pack", "test", "--node", "--release", "-F", "a")
    assert not is_cargo(("wasm-pack", "publish")) and is_cargo(("cross", "build")) and is_cargo(("/x/cargo.exe", "b"))


def test_xargo_reads_as_cargo() -> None:
    from linkgate.cargo.cargoargs import is_cargo, parse

    call = parse(("xargo", "run", "--release", "--target=x86_64-unknown-linux-gnu", "--features=alloc"))
    assert call is not None
    assert (call.program, call.subcommand, call.profile, call.features) == ("xargo", "run", "release", ("alloc",))
    assert is_cargo(("xargo", "build"))


def test_napi_cargo_flags_reach_the_cargo_build() -> None:
    from linkgate.cargo.cargoargs import parse

    call = parse(("napi", "build", "--platform", "--release", "--target", "x86_64-unknown-linux-gnu",
                  "--cargo-flags=--no-default-features --features tls", "--js", "binding.js"))
    assert call is not None
    assert (call.subcommand, call.profile, call.no_default_features, call.features, call.target_triples) == (
        "build", "release", True, ("tls",), ("x86_64-unknown-linux-gnu",))
    call = parse(("napi", "build", "--cargo-flags", "--all-features"))
    assert call is not None and call.all_features
