"""Feature sets resolved per package, as cargo enables a command's flags on each selected package."""

from __future__ import annotations

from collections.abc import Callable

from linkgate.audit.model import AuditResult

PR = "on: pull_request\n"


def job(name: str, run: str) -> str:
    return f"  {name}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {run}\n"


def pkg(name: str, features: str = "", deps: str = "") -> str:
    return f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n{deps}{features}'


def never(res: AuditResult) -> list[tuple[str, str | None, str]]:
    return [(f.rule, f.subject, f.message) for f in res.findings if f.rule in ("never-linked", "link-only-on-schedule")]


WS = '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n'


def test_root_and_manifest_path_all_features_are_one_set(audit_repo: Callable[..., AuditResult]) -> None:
    # A virtual workspace: the root's `cargo test --all-features` links each member's
    # all-features set, so doc of one member with --all-features is linked.
    res = audit_repo(
        {"ci.yml": PR + "jobs:\n" + job("t", "cargo test --all-features")
         + job("d", "cargo doc --manifest-path ./a/Cargo.toml --all-features")},
        {"Cargo.toml": WS, "a/Cargo.toml": pkg("a", '[features]\nx = []\ny = []\n'),
         "a/src/lib.rs": "", "b/Cargo.toml": pkg("b", '[features]\nz = []\n'), "b/src/lib.rs": ""})
    assert never(res) == []


def test_workspace_clippy_names_only_members_never_linked(audit_repo: Callable[..., AuditResult]) -> None:
    files = {"Cargo.toml": '[workspace]\nmembers = ["a", "b", "c", "d", "e"]\nresolver = "2"\n'}
    for n in "abcde":
        files |= {f"{n}/Cargo.toml": pkg(n, '[features]\nf = []\n'), f"{n}/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy --all-features")
                      + job("t", "cargo test --package a --all-features")}, files)
    [(rule, subject, message)] = never(res)
    assert (rule, subject) == ("never-linked", "all features")
    assert "feature set `all features` of b, c and 2 more" in message
    assert [f.sets for f in res.findings if f.rule == "never-linked"] == [
        ("b: f", "c: f", "d: f", "e: f")]


def test_no_default_features_is_the_default_set_without_a_default(audit_repo: Callable[..., AuditResult]) -> None:
    # a has `default = []`, b no default key: --no-default-features changes nothing for
    # either; c lacks `x`, so for c the command compiles its default set.
    res = audit_repo(
        {"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy --workspace --no-default-features --features x")
         + job("t", "cargo test --workspace --features x")},
        {"Cargo.toml": '[workspace]\nmembers = ["a", "b", "c"]\nresolver = "2"\n',
         "a/Cargo.toml": pkg("a", '[features]\ndefault = []\nx = []\n'), "a/src/lib.rs": "",
         "b/Cargo.toml": pkg("b", '[features]\nx = []\n'), "b/src/lib.rs": "",
         "c/Cargo.toml": pkg("c", '[features]\ndefault = ["y"]\ny = []\n'), "c/src/lib.rs": ""})
    # c's set is `--no-default-features` (c has a default): never linked, and only c's.
    [(rule, subject, message)] = never(res)
    assert rule == "never-linked" and "of c " in message and subject == "x (no default)"


def test_member_without_features_all_features_is_default(audit_repo: Callable[..., AuditResult]) -> None:
    # b has no [features] table: its --all-features set is its default set, linked by `cargo test -p b`.
    res = audit_repo(
        {"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy --workspace --all-features")
         + job("t", "cargo test -p a --all-features") + job("u", "cargo test -p b")},
        {"Cargo.toml": WS, "a/Cargo.toml": pkg("a", '[features]\nx = []\n'), "a/src/lib.rs": "",
         "b/Cargo.toml": pkg("b"), "b/src/lib.rs": ""})
    assert never(res) == []


def test_package_feature_syntax_and_exclude(audit_repo: Callable[..., AuditResult]) -> None:
    # `--features a/foo` enables foo on a only; --exclude c removes c and changes nobody else's set.
    files = {"Cargo.toml": '[workspace]\nmembers = ["a", "b", "c"]\nresolver = "2"\n',
             "a/Cargo.toml": pkg("a", '[features]\nfoo = []\n'), "a/src/lib.rs": "",
             "b/Cargo.toml": pkg("b", '[features]\nfoo = []\n'), "b/src/lib.rs": "",
             "c/Cargo.toml": pkg("c"), "c/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("t", "cargo test --all --exclude c --features a/foo")
                      + job("l", "cargo clippy -p a --features foo") + job("m", "cargo clippy -p b")}, files)
    assert never(res) == []
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("t", "cargo test --all --exclude c --features a/foo")
                      + job("l", "cargo clippy -p b --features foo")}, files)
    [(rule, subject, message)] = never(res)
    assert rule == "never-linked" and subject == "foo" and "of b" in message


def test_multi_p_features_apply_to_each_package_that_has_them(audit_repo: Callable[..., AuditResult]) -> None:
    files = {"Cargo.toml": '[workspace]\nmembers = ["a", "b", "c"]\nresolver = "2"\n',
             "a/Cargo.toml": pkg("a", '[features]\npg14 = []\n'), "a/src/lib.rs": "",
             "b/Cargo.toml": pkg("b", '[features]\npg14 = []\n'), "b/src/lib.rs": "",
             "c/Cargo.toml": pkg("c"), "c/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("t", "cargo test --features pg14 -p a -p b -p c")
                      + job("l", "cargo clippy -p b --features pg14") + job("m", "cargo check -p c")}, files)
    assert never(res) == []


def test_multi_p_check_reports_only_the_unlinked_package(audit_repo: Callable[..., AuditResult]) -> None:
    files = {"Cargo.toml": WS, "a/Cargo.toml": pkg("a", '[features]\ncuda = []\n'), "a/src/lib.rs": "",
             "b/Cargo.toml": pkg("b", '[features]\ncuda = []\n'), "b/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo check -p a -p b --features cuda")
                      + job("t", "cargo test -p a --features cuda")}, files)
    [(rule, subject, message)] = never(res)
    assert rule == "never-linked" and subject == "cuda" and "of b " in message
    assert [f.sets for f in res.findings if f.rule == "never-linked"] == [("b: cuda",)]


def test_path_dependency_is_linked_with_the_set_cargo_resolves(audit_repo: Callable[..., AuditResult]) -> None:
    # ex links lib with exactly `pg15 (no default)` (default-features = false, pg15 forwarded);
    # lib's clippy with that set is linked. ex's own `pg15` label on lib would be wrong: lib's
    # `pg15` with defaults is not what ex links.
    files = {"Cargo.toml": '[workspace]\nmembers = ["lib", "ex"]\nresolver = "2"\n',
             "lib/Cargo.toml": pkg("lib", '[features]\ndefault = ["std"]\nstd = []\npg15 = []\n'), "lib/src/lib.rs": "",
             "ex/Cargo.toml": pkg("ex", '[features]\ndefault = []\npg15 = ["lib/pg15"]\n',
                                  '[dependencies]\nlib = { path = "../lib", default-features = false }\n'),
             "ex/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy -p lib --no-default-features --features pg15")
                      + job("t", "cargo test -p ex --features pg15")}, files)
    assert never(res) == []
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy -p lib --features pg15")
                      + job("t", "cargo test -p ex --features pg15")}, files)
    [(rule, subject, message)] = never(res)
    assert (rule, subject) == ("never-linked", "pg15") and "of lib " in message


def test_a_default_that_only_forwards_empty_defaults_is_empty(audit_repo: Callable[..., AuditResult]) -> None:
    # wrap's default turns on core/default, and core has `default = []`: --no-default-features
    # compiles wrap's default code, which the workspace test links.
    files = {"Cargo.toml": '[workspace]\nmembers = ["core", "wrap"]\nresolver = "2"\n',
             "core/Cargo.toml": pkg("core", '[features]\ndefault = []\nx = []\n'), "core/src/lib.rs": "",
             "wrap/Cargo.toml": pkg("wrap", '[features]\ndefault = ["core/default"]\n',
                                    '[dependencies]\ncore = { path = "../core", default-features = false }\n'),
             "wrap/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo check --no-default-features")
                      + job("t", "cargo test")}, files)
    assert never(res) == []


def test_workspace_inherited_path_dependencies_are_resolved_through_the_root(
        audit_repo: Callable[..., AuditResult]) -> None:
    # `lib = { workspace = true, features = ["pg15"] }`: the path, default-features and
    # features come from [workspace.dependencies], the member's features added.
    root = ('[workspace]\nmembers = ["lib", "ex", "wrap"]\nresolver = "2"\n\n[workspace.dependencies]\n'
            'lib = { path = "lib", default-features = false }\n')
    files = {"Cargo.toml": root,
             "lib/Cargo.toml": pkg("lib", '[features]\ndefault = ["std"]\nstd = []\npg15 = []\n'), "lib/src/lib.rs": "",
             "ex/Cargo.toml": pkg("ex", "", '[dependencies]\nlib = { workspace = true, features = ["pg15"] }\n'),
             "ex/src/lib.rs": "",
             "wrap/Cargo.toml": pkg("wrap", '[features]\ndefault = ["lib/default"]\n',
                                    '[dependencies]\nlib = { workspace = true }\n'), "wrap/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy -p lib --no-default-features --features pg15")
                      + job("t", "cargo test -p ex")}, files)
    assert never(res) == []
    # wrap's default only forwards lib's default, which is not empty: --no-default-features differs.
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo check -p wrap --no-default-features")
                      + job("t", "cargo test -p wrap")}, files)
    assert [(r, s) for r, s, _ in never(res)] == [("never-linked", "no default features")]


def test_a_build_dependency_is_linked_into_the_build_script_with_its_host_set(
        audit_repo: Callable[..., AuditResult]) -> None:
    # sys's build script links gen (a build-dependency) with gen's `v7`, forwarded by sys's `v7`.
    files = {"Cargo.toml": '[workspace]\nmembers = ["gen", "sys"]\nresolver = "2"\n',
             "gen/Cargo.toml": pkg("gen", '[features]\nv7 = []\n'), "gen/src/lib.rs": "",
             "sys/Cargo.toml": pkg("sys", '[features]\nv7 = ["gen/v7"]\n',
                                   '[build-dependencies]\ngen = { path = "../gen" }\n'),
             "sys/src/lib.rs": "", "sys/build.rs": "fn main() {}\n"}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo clippy -p gen --features v7")
                      + job("t", "cargo test -p sys --features v7")}, files)
    assert never(res) == []


def test_sets_are_compared_in_one_form_when_a_feature_turns_on_another(
        audit_repo: Callable[..., AuditResult]) -> None:
    # lib's v15 turns on v14: a dependent forwarding both links lib with exactly `v15`.
    files = {"Cargo.toml": '[workspace]\nmembers = ["lib", "app"]\nresolver = "2"\n',
             "lib/Cargo.toml": pkg("lib", '[features]\nv14 = []\nv15 = ["v14"]\n'), "lib/src/lib.rs": "",
             "app/Cargo.toml": pkg("app", '[features]\nv14 = ["lib/v14"]\nv15 = ["v14", "lib/v15"]\n',
                                   '[dependencies]\nlib = { path = "../lib", default-features = false }\n'),
             "app/src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("l", "cargo check -p lib --no-default-features --features v15")
                      + job("t", "cargo test -p app --features v15")}, files)
    assert never(res) == []


def test_a_command_after_an_unknown_cd_is_no_set_of_the_repository(audit_repo: Callable[..., AuditResult]) -> None:
    # `cd $HOME/the_repo` (a project cloned at run time): its check says nothing of ours.
    files = {"Cargo.toml": pkg("p", '[features]\ngui = []\n'), "src/lib.rs": ""}
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("c", "cd $HOME/the_repo && cargo check --features=gui")
                      + job("t", "cargo test")}, files)
    assert never(res) == []
