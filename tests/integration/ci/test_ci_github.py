"""`linkgate ci github`: the job, its filter and comment, written into a user's workflow."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml
from lgtest import git
from workflow_lint import actionlint, zizmor

from linkgate.ci import pins
from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ci" / "repo"
WF = Path(".github/workflows/ci.yml")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def untouched_regions(before: str, after: str) -> list[str]:
    """Every line of *before* must appear in *after*, in order, unchanged."""
    it = iter(after.splitlines(keepends=True))
    missing = []
    for line in before.splitlines(keepends=True):
        for candidate in it:
            if candidate == line:
                break
        else:
            missing.append(line)
    return missing


def test_paths_trigger_writes_job_filter_and_comment_and_keeps_every_byte(repo: Path) -> None:
    before = (repo / WF).read_text()
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    after = (repo / WF).read_text()
    assert untouched_regions(before, after) == []
    # Only additions: the job region, the filter entry and one output line.
    added = len(after.splitlines()) - len(before.splitlines())
    region = after[after.index("# linkgate:begin xla-link"): after.index("# linkgate:end xla-link")]
    doc = yaml.safe_load(after)
    entry = yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])["xla-link"]
    # region (its last line is the end marker's), a blank line, one output, the filter entry
    assert added == len(region.splitlines()) + 1 + 1 + 1 + len(entry)
    job = doc["jobs"]["xla-link"]
    assert job["if"] == "github.repository == 'rtlab/rtcore' && needs.changes.outputs.xla-link == 'true'"
    assert job["runs-on"] == ["self-hosted", "gb10", "cuda"]
    assert job["timeout-minutes"] == 120 and "not yet measured" in region
    assert job["permissions"] == {"contents": "read"}
    assert job["concurrency"]["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"
    runs = "\n".join(s.get("run", "") for s in job["steps"])
    assert 'CARGO_TARGET_DIR=$HOME/.cargo-target/rtcore-xla-link' in runs
    assert "bash scripts/iree/setup-cuda.sh\n" in runs
    assert "linkgate env-from -- bash scripts/iree/setup-cuda.sh --env" in runs
    assert "linkgate run xla-link --format json --output linkgate-xla-link.json" in runs
    assert job["steps"][0]["with"] == {"persist-credentials": False}
    assert "cargo test --release --features cuda,xla --test prefill --no-run" in region
    assert "executes none of them" in region
    filters = yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])
    assert {"build.rs", "native/**", "scripts/iree/setup-cuda.sh"} <= set(filters["xla-link"])
    old_filters = yaml.safe_load(yaml.safe_load(before)["jobs"]["changes"]["steps"][1]["with"]["filters"])
    assert {k: v for k, v in filters.items() if k != "xla-link"} == old_filters
    assert doc["jobs"]["changes"]["outputs"]["xla-link"] == "${{ steps.filter.outputs.xla-link }}"
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
    labels = (repo / ".github" / "actionlint.yaml").read_text()
    assert labels.startswith("# Custom labels of our self-hosted runners") and "# the shared GPU host" in labels
    assert yaml.safe_load(labels)["self-hosted-runner"]["labels"] == ["gb10", "cuda"]


def test_second_write_is_a_no_op_and_check_catches_a_hand_edit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ci", "github", "xla-link", "--trigger", "paths"]
    assert main([*args, "--write"]) == 0
    first = digest(repo / WF)
    assert main([*args, "--write"]) == 0
    assert digest(repo / WF) == first
    assert main([*args, "--check"]) == 0
    text = (repo / WF).read_text()
    (repo / WF).write_text(text.replace("timeout-minutes: 120\n    permissions:\n      contents: read\n    concurrency:\n"
                                        "      group: linkgate", "timeout-minutes: 30\n    permissions:\n      contents: "
                                        "read\n    concurrency:\n      group: linkgate", 1))
    assert (repo / WF).read_text() != text
    capsys.readouterr()
    assert main([*args, "--check"]) == 1
    out = capsys.readouterr().out
    assert "-    timeout-minutes: 30" in out and "+    timeout-minutes: 120" in out
    # A hand edit to the filter entry is drift too.
    (repo / WF).write_text(text.replace("              - 'native/**'\n", "", 1))
    assert main([*args, "--check"]) == 1


def test_print_is_the_default_and_writes_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(repo / WF)
    assert main(["ci", "github", "xla-link"]) == 0
    out = capsys.readouterr().out
    assert out.lstrip().startswith("# linkgate:begin xla-link") and "xla-link:" in out
    assert digest(repo / WF) == before
    assert digest(repo / ".github" / "actionlint.yaml") == digest(FIXTURE / ".github" / "actionlint.yaml")


def test_without_a_paths_filter_step_a_changes_job_is_created(repo: Path) -> None:
    text = (repo / WF).read_text()
    start, end = text.index("  changes:\n"), text.index("  # -----", text.index("  changes:\n"))
    stripped = text[:start] + text[end:]
    stripped = re.sub(r"\n    needs: changes\n", "\n", stripped)
    stripped = stripped.replace(" && needs.changes.outputs.rust == 'true'", "")
    stripped = stripped.replace("    if: needs.changes.outputs.rust == 'true'\n", "")
    (repo / WF).write_text(stripped)
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    doc = yaml.safe_load((repo / WF).read_text())
    assert "xla-link" in yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])
    assert doc["jobs"]["xla-link"]["needs"] == "changes"
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--check"]) == 0


@pytest.mark.parametrize("hosted", [False, True])
@pytest.mark.parametrize("trigger", ["every-pr", "paths", "schedule:17 3 * * *"])
def test_every_trigger_mode_passes_actionlint_and_zizmor(repo: Path, trigger: str, hosted: bool) -> None:
    if hosted:
        cfg = (repo / "linkgate.toml").read_text().replace('runner = ["self-hosted", "gb10", "cuda"]\n', "")
        (repo / "linkgate.toml").write_text(cfg)
    assert main(["ci", "github", "xla-link", "--trigger", trigger, "--write"]) == 0
    written = (repo / ".github" / "workflows" / "linkgate-xla-link.yml") if trigger.startswith("schedule") else repo / WF
    doc = yaml.safe_load(written.read_text())
    job = doc["jobs"]["xla-link"]
    uses = [s["uses"] for s in job["steps"] if "uses" in s]
    if hosted:
        assert "if" not in job or "github.repository" not in job["if"]
        assert any(u.startswith("actions/cache@") for u in uses)
    else:
        assert "github.repository == 'rtlab/rtcore'" in job["if"]
    assert actionlint(repo, written) == []
    assert zizmor(written) == []
    if trigger.startswith("schedule"):
        assert doc[True]["schedule"] == [{"cron": "17 3 * * *"}]  # PyYAML reads `on` as True
        assert digest(repo / WF) == digest(FIXTURE / WF)


def test_generated_actions_are_pinned_from_the_table(repo: Path) -> None:
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    text = (repo / WF).read_text()
    region = text[text.index("# linkgate:begin xla-link"):]
    for m in re.finditer(r"uses: (\S+)@(\S+)\s+# (\S+)", region):
        action, sha, version = m.groups()
        assert pins.PINS[action] == (sha, version)
    for action, (sha, version) in pins.PINS.items():
        assert re.fullmatch(r"[0-9a-f]{40}", sha) and re.fullmatch(r"v\d+\.\d+\.\d+", version), action


def test_self_hosted_gate_needs_a_repository(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git(repo, "remote", "remove", "origin")
    assert main(["ci", "github", "xla-link", "--write"]) == 2
    assert "--repository owner/name" in capsys.readouterr().err
    assert main(["ci", "github", "xla-link", "--write", "--repository", "me/fork"]) == 0
    assert "github.repository == 'me/fork'" in (repo / WF).read_text()


def test_unknown_trigger_and_job_are_one_line_errors(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ci", "github", "xla-link", "--trigger", "nightly"]) == 2
    assert "every-pr, paths or schedule:CRON" in capsys.readouterr().err
    assert main(["ci", "github", "xla-link", "--write", "--after", "nope"]) == 2
    assert "no job 'nope'" in capsys.readouterr().err
    assert main(["ci", "github", "nope"]) == 2
    capsys.readouterr()
    # A missing default workflow would be a new one (tests/integration/ci/test_new_workflow.py);
    # the note names the ones the repository has.
    (repo / ".github" / "workflows" / "ci.yml").rename(repo / ".github" / "workflows" / "main.yml")
    assert main(["ci", "github", "xla-link"]) == 0
    assert "pass --workflow .github/workflows/main.yml to add the job there instead" in capsys.readouterr().err
    assert not (repo / ".github" / "workflows" / "ci.yml").exists()


def test_matrix_mode_writes_plan_legs_and_merge(repo: Path) -> None:
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--matrix", "--write"]) == 0
    doc = yaml.safe_load((repo / WF).read_text())
    plan, leg, merge = doc["jobs"]["xla-link-plan"], doc["jobs"]["xla-link"], doc["jobs"]["xla-link-merge"]
    assert "github.repository == 'rtlab/rtcore'" in plan["if"] and plan["needs"] == "changes"
    assert leg["strategy"]["matrix"] == "${{ fromJSON(needs.xla-link-plan.outputs.matrix) }}"
    assert leg["runs-on"] == "${{ matrix.runs-on }}"
    assert any('linkgate run --only "$LINKGATE_LEG"' in s.get("run", "") for s in leg["steps"])
    assert merge["if"].startswith("always()")
    assert any("linkgate report merge --expect" in s.get("run", "") for s in merge["steps"])
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--matrix", "--check"]) == 0
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--check"]) == 1


def test_comment_states_measured_cost_the_unlinked_recipe_and_the_control(repo: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q"]) == 0      # cold
    assert main(["run", "-q"]) == 0      # warm (a forced relink)
    assert main(["prove", "-q"]) == 0
    capsys.readouterr()
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    text = (repo / WF).read_text()
    region = text[text.index("# linkgate:begin xla-link"):text.index("# linkgate:end xla-link")]
    comment = " ".join(ln.strip().lstrip("#").strip() for ln in region.splitlines() if ln.strip().startswith("#"))
    assert "Cost, measured by linkgate" in comment and "not yet measured" not in comment
    assert "default: cold" in comment and "bfd: cold" in comment and "warm" in comment
    assert "rt-dist (build.rs:10, never-linked)" in comment
    assert "vendored" not in comment.split("Coverage gap")[1].split("Negative controls")[0]
    assert "drop-runtime-archive [bfd]: caught" in comment and "drop-runtime-archive [default]: caught" in comment
    timeout = yaml.safe_load(text)["jobs"]["xla-link"]["timeout-minutes"]
    # linker-matrix = replay: default compiles, bfd relinks its links: one relink, not a second build.
    assert f"timeout-minutes {timeout}: default's build, then one relink each under bfd" in comment
    # A new run makes the measured figures stale: --check --history compares them,
    # --check alone (as on a CI runner, whose history is not this one) does not.
    check = ["ci", "github", "xla-link", "--trigger", "paths", "--check"]
    assert main([*check, "--history", ".linkgate/history.sqlite"]) == 0
    assert main(["run", "-q"]) == 0
    assert main([*check, "--history", ".linkgate/history.sqlite"]) == 1
    capsys.readouterr()
    assert main(check) == 0
    assert "compared as written" in capsys.readouterr().err


def test_a_thousand_line_workflow_keeps_every_byte_outside_the_edits(repo: Path) -> None:
    text = (repo / WF).read_text()
    head, tail = text.split("  # ---------------------------------------------------------------------------\n  # 2. lint", 1)
    jobs = []
    for i in range(50):
        jobs.append(
            f"  # Shard {i}: a block of comments the way long workflows carry them.\n"
            f"  #   owner: team-{i % 7}    # trailing note\n\n"
            f"  shard-{i}:\n"
            f"    name: \"shard {i} ('quoted')\"\n"
            f"    needs: changes\n"
            f"    if: needs.changes.outputs.rust == 'true'\n"
            f"    runs-on: ubuntu-latest\n"
            f"    permissions:\n      contents: read\n"
            f"    env: {{ SHARD: '{i}', FLAGS: \"-C opt-level=2\" }}\n"
            f"    steps:\n"
            f"      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
            f"        with:\n          persist-credentials: false\n"
            f"      - run: |\n          # inside a block scalar\n          cargo test -p shard{i}\n\n"
        )
    long = head + "".join(jobs) + "  # ---------------------------------------------------------------------------\n  # 2. lint" + tail
    (repo / WF).write_text(long)
    assert len(long.splitlines()) > 1000
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--after", "shard-20", "--write"]) == 0
    after = (repo / WF).read_text()
    assert untouched_regions(long, after) == []
    doc = yaml.safe_load(after)
    order = list(doc["jobs"])
    assert order.index("xla-link") == order.index("shard-20") + 1
    # Removing what linkgate added gives the original back, byte for byte.
    start = after.index("\n  # linkgate:begin xla-link")
    end = after.index("# linkgate:end xla-link\n") + len("# linkgate:end xla-link\n")
    restored = after[:start] + after[end:]  # the blank line before the region is ours too
    restored = restored.replace("      xla-link: ${{ steps.filter.outputs.xla-link }}\n", "")
    entry = restored[restored.index("            xla-link:\n"):]
    entry = entry[:entry.index("\n\n") + 1]
    restored = restored.replace(entry, "", 1)
    assert restored == long


def test_paths_filter_never_names_a_file_git_ignores(repo: Path) -> None:
    # A git-ignored Cargo.lock exists on disk: no pull request can change it, so the
    # filter must not list it. A tracked file matching an ignore rule stays.
    (repo / ".gitignore").write_text("Cargo.lock\nbuild.rs\n")
    (repo / "Cargo.lock").write_text("# This file is automatically @generated by Cargo.\nversion = 4\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore the lockfile")
    assert main(["ci", "github", "xla-link", "--trigger", "paths", "--write"]) == 0
    doc = yaml.safe_load((repo / WF).read_text())
    entry = yaml.safe_load(doc["jobs"]["changes"]["steps"][1]["with"]["filters"])["xla-link"]
    assert "Cargo.lock" not in entry
    assert "build.rs" in entry and "Cargo.toml" in entry  # tracked, though build.rs matches a rule
    assert "native/**" in entry and "native/rt.c" not in entry  # the glob covers the file


def test_a_failed_plan_turns_the_matrix_verdict_red(repo: Path) -> None:
    # A skipped job reports success: the verdict must run, and fail, when the plan failed.
    import subprocess

    assert main(["ci", "github", "xla-link", "--matrix", "--write"]) == 0
    merge = yaml.safe_load((repo / WF).read_text())["jobs"]["xla-link-merge"]
    assert merge["if"] == "always() && needs.xla-link-plan.result != 'skipped'"
    assert merge["env"]["LINKGATE_PLAN"] == "${{ needs.xla-link-plan.result }}"
    first = merge["steps"][0]
    assert first["name"] == "The plan must have succeeded"
    for result, code in (("success", 0), ("failure", 1), ("cancelled", 1)):
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", first["run"]], capture_output=True, text=True,
                              env={"LINKGATE_PLAN": result, "PATH": "/usr/bin:/bin"})
        assert done.returncode == code, (result, done.stdout)
    assert actionlint(repo, repo / WF) == []
    assert zizmor(repo / WF) == []
