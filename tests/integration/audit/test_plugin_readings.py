"""Cargo plugins as the cargo work they do: those that run a cargo subcommand (cargo-xwin,
cargo-component, cargo-insta's test), those that build and link on their own (cargo-bloat,
cargo-bundle, cargo-wix, cargo-deb, cargo-criterion, cargo-mutants, cargo-lambda,
espflash), one that packs what was built (cargo-generate-rpm), and the ones whose build
linkgate does not read (cargo-tauri, cargo-leptos, cargo-dinghy,
cargo-pgrx): notes, never records."""

from __future__ import annotations

from pathlib import Path

from lgtest import PACKAGE, audit_files

WORKFLOW = """\
on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: |
          cargo xwin build --target x86_64-pc-windows-msvc --features x
          cargo xwin env
          cargo component build --release
          cargo insta test --all-features
          cargo insta review
          cargo bloat --release --features x
          cargo bundle --release
          cargo wix --no-build
          cargo wix --version
          cargo deb -p p --deb-version 1.0 -- --features x
          cargo deb --no-build
          cargo criterion
          cargo mutants --features x
          cargo lambda build --release
          cargo pgrx test pg16
          cargo espflash save-image --chip esp32 image.bin
          cargo generate-rpm
          cargo tauri build
          cargo leptos build
          cargo dinghy -d android test
"""


def test_plugins_are_read_as_the_cargo_work_they_do(tmp_path: Path) -> None:
    doc = audit_files(tmp_path, WORKFLOW, {"Cargo.toml": PACKAGE + '[features]\nx = []\n', "src/main.rs": ""})
    got = [(i["line"], i["subcommand"], i["exercise"], i["feature_sets"]) for i in doc["invocations"]]
    assert got == [
        (7, "build", "linked", ["x"]),
        (8, "xwin", None, ["default"]),  # `cargo xwin env` prints the environment
        (9, "build", "linked", ["default"]),
        (10, "test", "tested", ["all features"]),
        (11, "insta", None, ["default"]),  # `cargo insta review` reviews snapshots
        (12, "bloat", "linked", ["x"]),
        (13, "bundle", "linked", ["default"]),
        (14, "wix", None, ["default"]),
        (15, "wix", None, ["default"]),  # prints its version
        # cargo-deb: a release build; its own options dropped, the words after `--` kept.
        (16, "build", "linked", ["x"]),
        (17, "deb", None, ["default"]),
        (18, "criterion", "tested", ["default"]),
        (19, "mutants", "tested", ["x"]),
        (20, "lambda build", "linked", ["default"]),
        (22, "espflash save-image", "linked", ["default"]),
        (23, "generate-rpm", None, ["default"]),
    ], got
    assert [i["profile"] for i in doc["invocations"] if i["line"] == 16] == ["release"]
    unresolved = sorted(f["line"] for f in doc["findings"] if f["rule"] == "unresolved")
    # pgrx, tauri, leptos and dinghy: notes, not records.
    assert unresolved == [21, 24, 25, 26], doc["findings"]
