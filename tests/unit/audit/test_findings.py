from __future__ import annotations

from collections.abc import Callable

from linkgate.audit.model import AuditResult

PR = "on: pull_request\n"


def job(name: str, run: str, runs_on: str = "ubuntu-latest", extra: str = "") -> str:
    return f"  {name}:\n    runs-on: {runs_on}\n{extra}    steps:\n      - run: {run}\n"


def rules(result: AuditResult) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.rule, f.file, f.line, f.subject) for f in result.findings]


def test_checked_but_linked_elsewhere_is_fine(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("c", "cargo check -F a") + job("t", "cargo test --features a")})
    assert rules(res) == []


def test_never_linked_points_at_the_first_check(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({
        "ci.yml": PR + "jobs:\n" + job("c", "cargo clippy --features b,a") + job("d", "cargo check --features a,b"),
        "other.yml": PR + "jobs:\n" + job("all", "cargo build --all-features"),
    })
    assert rules(res) == [("never-linked", ".github/workflows/ci.yml", 6, "a,b")]
    assert "ci/c" in res.findings[0].message and "ci/d" in res.findings[0].message


def test_test_no_run_links_but_fmt_does_not_compile(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("c", "cargo check") + job("f", "cargo fmt --all")
                      + job("t", "cargo test --no-run")})
    assert rules(res) == []
    assert [c.exercise for c in res.classified] == ["checked", None, "linked"]


def test_link_only_on_schedule_and_event_narrowing(audit_repo: Callable[..., AuditResult]) -> None:
    sched = "on:\n  schedule: [{cron: '0 0 * * *'}]\n  pull_request:\njobs:\n"
    only = "    if: github.event_name == 'schedule'\n"
    res = audit_repo({"n.yml": sched + job("n", "cargo build -F x", extra=only) + job("p", "cargo build -F y")})
    assert rules(res) == [("link-only-on-schedule", ".github/workflows/n.yml", 9, "x")]


def test_tag_pushes_are_releases(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"r.yml": "on:\n  push:\n    tags: ['v*']\njobs:\n" + job("r", "cargo build --release -F x")})
    assert [r[0] for r in rules(res)] == ["link-only-on-schedule"]


def test_self_hosted_link_without_timeout(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + "jobs:\n"
                      + job("gpu", "cargo test", runs_on="[self-hosted, gpu]")
                      + job("ok", "cargo test", runs_on="[self-hosted]", extra="    timeout-minutes: 30\n")
                      + job("lint", "cargo clippy", runs_on="[self-hosted]")})
    assert rules(res) == [("no-timeout", ".github/workflows/ci.yml", 3, "ci/gpu")]


def test_shared_target_dir_with_different_linkers(audit_repo: Callable[..., AuditResult]) -> None:
    env = "    timeout-minutes: 5\n    env:\n      CARGO_TARGET_DIR: /cache/target\n"
    mold = env + "      RUSTFLAGS: -Clink-arg=-fuse-ld=mold\n"
    res = audit_repo({"ci.yml": PR + "jobs:\n"
                      + job("a", "cargo build", runs_on="self-hosted", extra=env)
                      + job("b", "cargo build", runs_on="self-hosted", extra=mold)
                      + job("c", "cargo build", runs_on="ubuntu-latest", extra=mold)})
    [finding] = res.findings
    assert (finding.rule, finding.line, finding.subject) == ("shared-target-dir", 17, "/cache/target")
    assert "linker (default vs mold)" in finding.message


def test_debug_link_on_large_target_is_information(audit_repo: Callable[..., AuditResult]) -> None:
    lock = "version = 3\n" + "".join(f'[[package]]\nname = "p{i}"\n' for i in range(300))
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("t", "cargo test") + job("r", "cargo build --release")},
                     {"Cargo.lock": lock})
    assert rules(res) == [("debug-link-on-large-target", ".github/workflows/ci.yml", 6, "ci/t")]


def test_invalid_yaml_does_not_hide_other_workflows(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({
        "a.yml": "on: push\njobs:\n  x:\n    steps:\n      - run: a\n     - run: b\n",
        "b.yml": PR + "jobs:\n" + job("c", "cargo check -F q"),
        "c.yml": "just a string\n",
    })
    assert rules(res) == [
        ("invalid-workflow", ".github/workflows/a.yml", 6, ""),
        ("invalid-workflow", ".github/workflows/c.yml", 1, ""),
        ("never-linked", ".github/workflows/b.yml", 6, "q"),
    ]


def test_unknown_expressions_are_kept_and_noted(audit_repo: Callable[..., AuditResult]) -> None:
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("c", "cargo check --features ${{ inputs.f }}")})
    [inv] = res.classified
    assert inv.call.features == ("${{ inputs.f }}",)
    assert inv.inv.unknown == ("${{ inputs.f }}",)
    assert inv.feature_sets[0].unknown
    assert rules(res) == [("unresolved", ".github/workflows/ci.yml", 6, "${{ inputs.f }}")]


def test_filter_surface_check_without_a_manifest_is_a_note(audit_repo: Callable[..., AuditResult]) -> None:
    wf = (PR + "jobs:\n  link:\n    runs-on: ubuntu-latest\n    steps:\n"
          "      - uses: dorny/paths-filter@v3\n        id: f\n        with:\n          filters: |\n"
          "            core: ['src/**']\n      - if: steps.f.outputs.core == 'true'\n        run: cargo build\n")
    res = audit_repo({"ci.yml": wf})
    [inv] = res.classified
    assert inv.trigger.paths_filter is not None and inv.trigger.paths_filter.filter == "core"
    assert res.skipped_checks == []
    assert rules(res) == [("unresolved", ".github/workflows/ci.yml", 12, "core")]


def test_hack_with_unknown_features_next_to_a_plain_check_does_not_crash(audit_repo: Callable[..., AuditResult]) -> None:
    """Regression: sorting feature sets compared `symbolic=None` with a string (TypeError in _never_linked)."""
    res = audit_repo({"ci.yml": PR + "jobs:\n" + job("h", "cargo hack check --each-feature")
                      + job("c", "cargo check") + job("p", "cargo hack build --feature-powerset")})
    labels = sorted(fs.label for c in res.classified for fs in c.feature_sets)
    assert labels == ["default", "each-feature (features unknown)", "feature-powerset (features unknown)"]
    assert [(f.rule, f.subject) for f in res.findings] == [("never-linked", "default")]


def test_needs_of_an_unknown_job_or_a_cycle_make_the_workflow_invalid(
        audit_repo: Callable[..., AuditResult]) -> None:
    # GitHub refuses such a workflow before any job starts: what it would link is never linked.
    unknown = PR + "jobs:\n" + job("a", "cargo build") + job("b", "cargo build --release",
                                                            extra="    needs: [a, gone]\n")
    cycle = PR + "jobs:\n" + job("a", "cargo build", extra="    needs: b\n") + job("b", "cargo build",
                                                                                  extra="    needs: a\n")
    fine = PR + "jobs:\n" + job("a", "cargo check -F q") + job("b", "cargo test", extra="    needs: a\n")
    res = audit_repo({"u.yml": unknown, "c.yml": cycle, "f.yml": fine})
    found = {(f.file, f.rule): f for f in res.findings}
    assert "needs 'gone'" in found[(".github/workflows/u.yml", "invalid-workflow")].message
    assert "a cycle (a -> b -> a)" in found[(".github/workflows/c.yml", "invalid-workflow")].message
    assert {c.inv.file for c in res.classified} == {".github/workflows/f.yml"}
    assert (".github/workflows/f.yml", "never-linked") in found
