"""Link classification against the manifests, as cargo selects packages and discovers targets."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from linkgate.audit.model import AuditResult

PR = "on: pull_request\njobs:\n"
WS = '[workspace]\nmembers = ["crates/*"]\n'


def job(name: str, run: str) -> str:
    return f"  {name}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {run}\n"


def pkg(name: str, extra: str = "") -> str:
    return f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n{extra}'


def exercises(res: AuditResult) -> list[tuple[str, str | None, bool]]:
    return [(" ".join(c.inv.argv), c.exercise, c.links) for c in res.classified]


LAYOUT = {
    "Cargo.toml": WS,
    "crates/pure/Cargo.toml": pkg("pure"),
    "crates/pure/src/lib.rs": "",
    "crates/tool/Cargo.toml": pkg("tool"),
    "crates/tool/src/lib.rs": "",
    "crates/tool/src/bin/gen.rs": "fn main() {}",
    "crates/cli/Cargo.toml": pkg("cli"),
    "crates/cli/src/bin/serve/main.rs": "fn main() {}",
    "crates/app/Cargo.toml": pkg("app"),
    "crates/app/src/main.rs": "fn main() {}",
    "crates/nobins/Cargo.toml": pkg("nobins", "autobins = false\n"),
    "crates/nobins/src/main.rs": "fn main() {}",
    "crates/named/Cargo.toml": pkg("named", '\n[[bin]]\nname = "x"\npath = "tools/x.rs"\n'),
    "crates/named/src/lib.rs": "",
    "crates/ffi/Cargo.toml": pkg("ffi", '\n[lib]\ncrate-type = ["cdylib", "rlib"]\n'),
    "crates/ffi/src/lib.rs": "",
    "crates/macros/Cargo.toml": pkg("macros", "\n[lib]\nproc-macro = true\n"),
    "crates/macros/src/lib.rs": "",
}


@pytest.mark.parametrize(
    ("command", "exercise"),
    [
        ("cargo build -p pure", "compiled"),
        ("cargo build -p pure --release --features x", "compiled"),
        ("cargo run -p pure", "compiled"),
        ("cargo build -p pure --tests", "linked"),
        ("cargo build -p pure --example demo", "linked"),
        ("cargo build -p pure --all-targets", "linked"),
        ("cargo build -p pure@0.1.0", "compiled"),
        ("cargo build -p tool", "linked"),  # src/bin/gen.rs
        ("cargo build -p cli", "linked"),  # src/bin/serve/main.rs
        ("cargo build -p app", "linked"),  # src/main.rs
        ("cargo build -p nobins", "compiled"),  # autobins = false
        ("cargo build -p named", "linked"),  # [[bin]]
        ("cargo build -p ffi", "linked"),  # cdylib
        ("cargo build -p macros", "linked"),  # a proc-macro is a linked shared object
        ("cargo build -p pure -p app", "linked"),
        ("cargo build --workspace", "linked"),
        ("cargo build --workspace --exclude app --exclude tool --exclude cli --exclude named --exclude ffi "
         "--exclude macros", "compiled"),
        ("cargo build --manifest-path crates/pure/Cargo.toml", "compiled"),
        ("cargo build -p unknown", "linked"),  # cannot tell: taken as written
        ("cargo test -p pure", "tested"),
        ("cargo test -p pure --no-run", "linked"),
        ("cargo check -p app", "checked"),
    ],
)
def test_build_links_only_linkable_targets(audit_repo: Callable[..., AuditResult], command: str, exercise: str) -> None:
    res = audit_repo({"ci.yml": PR + job("b", command)}, LAYOUT)
    [(_, got, links)] = exercises(res)
    assert got == exercise
    assert links == (exercise in ("linked", "tested"))


def test_default_selection_in_a_member_directory_and_a_virtual_workspace(audit_repo: Callable[..., AuditResult]) -> None:
    files = dict(LAYOUT, **{"Cargo.toml": WS + 'default-members = ["crates/pure"]\n'})
    wf = PR + job("root", "cargo build") + (
        "  member:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: crates/app\n"
        "    steps:\n      - run: cargo build\n"
    )
    res = audit_repo({"ci.yml": wf}, files)
    assert [c.exercise for c in res.classified] == ["compiled", "linked"]


def test_build_without_any_manifest_is_taken_as_written(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + job("b", "cargo build --release")})
    assert [c.exercise for c in res.classified] == ["linked"]


def test_lib_only_build_next_to_a_check_is_still_never_linked(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + job("c", "cargo check -p pure -F x") + job("b", "cargo build -p pure -F x")}, LAYOUT)
    assert [(f.rule, f.subject) for f in res.findings] == [("never-linked", "x")]
    assert "ci/b" in res.findings[0].message


def test_all_features_of_a_package_without_features_is_the_default_set(audit_repo: Callable[..., AuditResult]) -> None:
    files = dict(LAYOUT, **{"crates/feat/Cargo.toml": pkg("feat", "\n[features]\ngpu = []\n"), "crates/feat/src/main.rs": ""})
    res = audit_repo({"ci.yml": PR + job("c", "cargo clippy -p app --all-features") + job("t", "cargo test -p app")
                      + job("f", "cargo test -p feat --all-features")}, files)
    assert [[fs.label for fs in c.feature_sets] for c in res.classified] == [["default"], ["default"], ["all features"]]
    assert res.findings == []


def test_a_project_the_job_clones_keeps_its_own_feature_sets(audit_repo: Callable[..., AuditResult]) -> None:
    # The script clones a dependent project and tests it with *its* `gpu` feature: that
    # must not count as linking this repository's `gpu`, which only `cargo check` compiles.
    res = audit_repo(
        {"ci.yml": PR + job("check", "cargo check --features gpu")
         + job("downstream", "git clone https://example.invalid/user user && cd user && cargo test --features gpu")},
        {"Cargo.toml": pkg("sys", '\n[features]\ngpu = []\n'), "src/lib.rs": ""},
    )
    labels = [(" ".join(c.inv.argv), [fs.label for fs in c.feature_sets], c.links) for c in res.classified]
    assert labels == [
        ("cargo check --features gpu", ["gpu"], False),
        ("cargo test --features gpu", ["gpu in user/ (not in the repository)"], True),
    ]
    assert [(f.rule, f.subject) for f in res.findings] == [("never-linked", "gpu")]
