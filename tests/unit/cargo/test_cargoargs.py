from __future__ import annotations

from linkgate.cargo.cargoargs import is_cargo, parse


def call(line: str):  # type: ignore[no-untyped-def]
    result = parse(tuple(line.split()))
    assert result is not None
    return result


def test_features_are_normalised_and_sorted() -> None:
    c = call("cargo build -F b --features=a,c --features d,a -Fe")
    assert c.features == ("a", "b", "c", "d", "e")
    assert not c.no_default_features and not c.all_features


def test_toolchain_global_options_aliases_and_profile() -> None:
    c = call("cargo +nightly --locked -Zunstable-options --color always t --release -p x -p=y --workspace")
    assert (c.toolchain, c.subcommand, c.profile) == ("nightly", "test", "release")
    assert c.packages == ("x", "y") and c.workspace
    assert call("cargo build --profile ci").profile == "ci"
    assert call("cargo install --path .").profile == "release"


def test_targets_triples_and_passthrough() -> None:
    c = call("cargo test --no-run --test xla --lib --target x86_64-unknown-linux-gnu -- --features nope")
    assert c.targets == ("--test xla", "--lib")
    assert c.target_triples == ("x86_64-unknown-linux-gnu",)
    assert c.no_run and c.features == ()


def test_hack_subcommand_anywhere() -> None:
    c = call("cargo hack --feature-powerset --depth 2 check --no-dev-deps")
    assert (c.hack, c.subcommand) == ("feature-powerset", "check")
    c = call("cargo hack test --each-feature --no-run")
    assert (c.hack, c.subcommand, c.no_run) == ("each-feature", "test", True)


def test_nextest_and_its_profile_flag() -> None:
    c = call("cargo nextest run --profile ci --cargo-profile fast --features a")
    assert (c.subcommand, c.profile, c.features) == ("nextest run", "fast", ("a",))
    assert call("cargo nextest archive --release --archive-file x.tar.zst").profile == "release"


def test_no_subcommand_and_program_detection() -> None:
    assert parse(("cargo", "--version")) is None
    assert is_cargo(("/home/u/.cargo/bin/cargo", "b")) and is_cargo(("cross", "build"))
    assert not is_cargo(("cargo-deny",)) and not is_cargo(())
