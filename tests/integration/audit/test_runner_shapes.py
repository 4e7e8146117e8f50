"""Shapes met on CIs linkgate had never seen (issue 26), one fixture each under
tests/fixtures/audit/shapes/, audited end to end: subcommand meaning, task runners,
launchers, earlier action names, docker images, matrices from job outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lgtest import audit_shape

from linkgate.cli import main

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "audit" / "shapes"
WF = ".github/workflows/ci.yml"


def audit(tmp_path: Path, shape: str) -> dict[str, Any]:
    return audit_shape(tmp_path, shape)


def rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(i["line"], i["program"], i["subcommand"], i["exercise"], i["feature_sets_by_package"], i["cwd"])
            for i in doc["invocations"]]


def test_aliases_fuzz_minimisers_crates_io_installs_and_package(tmp_path: Path) -> None:
    doc = audit(tmp_path, "subcommands")
    assert rows(doc) == [
        (10, "cargo", "test", "tested", ["engine: default"], ""),
        (11, "cargo", "build", "linked", ["engine: gpu"], ""),  # `b`
        (12, "cargo", "check", "checked", ["engine: simd"], ""),  # `c`
        (13, "cargo", "nextest run", "tested", ["engine: simd"], ""),  # nextest's `r`
        (14, "cargo", "fuzz cmin", "linked", ["engine-fuzz-links: default"], ""),
        # A crates.io tool, whatever precedes `install`: this repository is not linked.
        (15, "cargo", "install", None, ["engine: default"], ""),
        (16, "cargo", "install", "linked", ["engine: gpu"], ""),  # --path .
        (17, "cargo", "package", "compiled", ["engine: extra"], ""),
        (18, "cargo", "check", "checked", ["engine-fuzz: default"], ""),
    ]
    found = [(f["rule"], f["level"], f["line"], f["subject"]) for f in doc["findings"]]
    assert found == [
        # `package -F extra` compiles the lib with `extra`; nothing links it.
        ("never-linked", "error", 17, "extra"),
        # The fuzz package has its own workspace; CI only checks it.
        ("never-linked", "error", 18, "default"),
        # `+${{ env.msrv }}` is unknown, but it only names the toolchain: no note, and no
        # `unless` on the findings above.
    ]


def test_cargo_make_extend_env_conditions_and_task_env_and_just_builtins(tmp_path: Path) -> None:
    doc = audit(tmp_path, "task-files")
    assert [(i["job"], f"{i['file']}:{i['line']}", i["argv"][1:], i["feature_sets"]) for i in doc["invocations"]] == [
        # Makefile.toml extends Makefile.ci.toml (a `{ path }` table in a list), which extends
        # make/base.toml (a string); `[env]`'s condition holds (CARGO_FEATURES is not set).
        ("make", "Makefile.ci.toml:4", ["check", "--features", "cuda"], ["cuda"]),
        # `[tasks.nextest.env]`.
        ("make", "make/base.toml:2", ["nextest", "run", "--features", "metal"], ["metal"]),
        # A `platforms` condition is not decided here: the value stays unknown.
        ("make", "make/extra.toml:2", ["clippy", "--features", "${ON_CI}"], ["${ON_CI}"]),
        # The job sets CARGO_FEATURES: the condition fails and the job's value is used.
        ("make-simd", "Makefile.ci.toml:4", ["check", "--features", "simd"], ["simd"]),
        # env_var_or_default('MSRV', "") is empty, join(justfile_directory(), ...) absolute,
        # quote() a shell word, env_var('FEATURES') the job's value.
        ("just", "justfile:6", ["check", "--target-dir", "/github/workspace/target", "--features", "gpu"], ["gpu"]),
        ("just-msrv", "justfile:6",
         ["+1.80", "check", "--target-dir", "/github/workspace/target", "--features", "{{env_var('FEATURES')}}"],
         ["{{env_var('FEATURES')}}"]),
    ]
    assert doc["invocations"][4]["subcommand"] == "check"
    assert [(f["rule"], f["subject"]) for f in doc["findings"]] == [
        ("never-linked", "cuda"), ("never-linked", "simd"), ("never-linked", "gpu"),
        ("unresolved", "{{env_var('FEATURES')}}"), ("unresolved", "${ON_CI}"),
    ]


def test_launchers_wrappers_workspace_exec_and_an_earlier_action_name(tmp_path: Path) -> None:
    doc = audit(tmp_path, "launchers")
    assert rows(doc) == [
        (10, "maturin", "build", "linked", ["core: simd"], ""),  # uvx --from 'maturin[zig]'
        (11, "maturin", "build", "linked", ["core: default"], ""),  # uv tool run maturin@1.7
        (12, "maturin", "build", "linked", ["core: simd"], ""),  # pipx run --spec
        (13, "napi", "build", "linked", ["core: default"], ""),  # npx @napi-rs/cli@2
        (14, "cargo", "test", "tested", ["app: default"], ""),  # env
        (15, "cargo", "build", "linked", ["app: default"], ""),  # time
        (16, "cargo", "build", "linked", ["app: simd"], ""),  # nice -n 10
        (17, "cargo", "test", "tested", ["core: default"], ""),  # timeout 30m
        (18, "cargo", "test", "tested", ["core: simd"], ""),  # xvfb-run -a
        (19, "cargo", "test", "tested", ["skip-me: default"], ""),  # sudo -E
        (20, "cargo", "test", "tested", ["skip-me: simd"], ""),  # nix develop .#ci -c
        # cargo ws exec: once in each member's directory, --ignore 'skip*' left out.
        (21, "cargo", "check", "checked", ["app: simd"], "crates/app"),
        (21, "cargo", "check", "checked", ["core: simd"], "crates/core"),
        # messense/maturin-action is PyO3/maturin-action's earlier name.
        (22, "maturin", "build", "linked", ["core: default"], ""),
    ]
    assert doc["findings"] == []
    assert doc["coverage"]["totals"]["read"] == doc["coverage"]["totals"]["steps"]


def test_docker_run_of_an_image_built_here_runs_its_entrypoint_script(tmp_path: Path) -> None:
    doc = audit(tmp_path, "docker-image")
    assert [(f"{i['file']}:{i['line']}", i["argv"][1:], i["profile"], i["via"][0]) for i in doc["invocations"]] == [
        # The build runs the Dockerfile's RUN line (workflows.docker.read_build), by `docker build`
        # and by docker/build-push-action alike.
        ("docker/Dockerfile:4", ["install", "--locked", "cargo-about"], "release",
         f"{WF}:10 docker build -t builder -f docker/Dockerfile ."),
        # No arguments: ENTRYPOINT + CMD; the entrypoint is the repository's script COPY'd in.
        ("scripts/entrypoint.sh:3", ["build", "--features", "gpu", "--release"], "release",
         f"{WF}:11 ./scripts/entrypoint.sh --release"),
        # Arguments replace CMD; `--entrypoint` (line 13) is not followed.
        ("scripts/entrypoint.sh:3", ["build", "--features", "gpu", "--profile", "dev"], "dev",
         f"{WF}:12 ./scripts/entrypoint.sh --profile dev"),
        ("docker/Dockerfile:4", ["install", "--locked", "cargo-about"], "release",
         f"{WF}:14 uses: docker/build-push-action@v6"),
    ]
    assert doc["invocations"][0]["via"][1] == "docker/Dockerfile:4 (docker build, stage 0)"
    steps = doc["coverage"]["workflows"][0]["jobs"][0]["steps"]
    assert steps[2]["followed"] == ["docker/Dockerfile", "scripts/entrypoint.sh"]
    # The RUN line runs in WORKDIR /work, where the repository is not copied: its directory is
    # not the repository's, which the gap says (cargo install needs none; it does not link there).
    gaps = [(s["line"], s["status"], [(f"{g['file']}:{g['line']}", g["why"], g["may_run_cargo"]) for g in s["gaps"]])
            for s in steps if s["gaps"]]
    assert gaps == [
        (10, "partly read", [("docker/Dockerfile:4", "cannot evaluate cd to an unknown directory", False)]),
        (14, "partly read", [("docker/Dockerfile:4", "cannot evaluate cd to an unknown directory", False)]),
    ]


def test_matrices_from_a_job_output_literal_and_findings_grouped_along_one_axis(tmp_path: Path) -> None:
    doc = audit(tmp_path, "matrix-output")
    assert [(i["job"], i["argv"][1:], i["matrix"]) for i in doc["invocations"] if i["job"] != "lint"] == [
        # `target: ${{ fromJSON(needs.plan.outputs.targets) }}`: three combinations, not one.
        ("build", ["build", "--target", "x86_64-unknown-linux-gnu"], {"target": "x86_64-unknown-linux-gnu"}),
        ("build", ["build", "--target", "aarch64-unknown-linux-gnu"], {"target": "aarch64-unknown-linux-gnu"}),
        ("build", ["build", "--target", "riscv64gc-unknown-linux-gnu"], {"target": "riscv64gc-unknown-linux-gnu"}),
        # The whole matrix from the output: `{"features": ["a", "b"]}`.
        ("check", ["check", "--features", "a"], {"features": "a"}),
        ("check", ["check", "--features", "b"], {"features": "b"}),
    ]
    found = [(f["line"], f["message"].split(" are compiled")[0], f["sets"], f["axis"]) for f in doc["findings"]]
    assert found == [
        (32, "feature sets `a`, `b` of planned (matrix axis `features`: a, b)", ["planned: a", "planned: b"],
         "features"),
        # runtime x tls: one finding per TLS back end, naming the runtime axis.
        (41, "feature sets `native-tls,smol`, `native-tls,tokio` of planned (matrix axis `runtime`: smol, tokio)",
         ["planned: native-tls,smol", "planned: native-tls,tokio"], "runtime"),
        (41, "feature sets `rustls,smol`, `rustls,tokio` of planned (matrix axis `runtime`: smol, tokio)",
         ["planned: rustls,smol", "planned: rustls,tokio"], "runtime"),
    ]
    assert {f["level"] for f in doc["findings"]} == {"error"}


def test_link_only_on_schedule_is_a_warning_when_an_unread_step_on_pull_requests_could_link(tmp_path: Path) -> None:
    repo = tmp_path / "sched"
    shutil.copytree(SHAPES / "xtask-unless", repo)
    wf = repo / WF
    nightly = repo / ".github" / "workflows" / "nightly.yml"
    nightly.write_text("on:\n  schedule:\n    - cron: '0 3 * * *'\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                       "    timeout-minutes: 30\n    steps:\n      - run: cargo test -p engine --all-features\n")
    out = tmp_path / "a.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    found = [(f["rule"], f["level"], f["unless"]) for f in json.loads(out.read_text())["findings"]
             if f["rule"] != "unresolved"]
    assert found == [("link-only-on-schedule", "warning",
                      [f"{WF}:16 (cargo xtask test, a Rust program linkgate cannot read)"])]
    # The xtask runs only on schedule too: nothing a pull request runs could link it.
    wf.write_text(wf.read_text().replace("  pull_request:\n", "  pull_request:\n  schedule:\n    - cron: '0 4 * * *'\n")
                  .replace("  test:\n", "  test:\n    if: github.event_name == 'schedule'\n"))
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    found = [(f["rule"], f["subject"], f["unless"]) for f in json.loads(out.read_text())["findings"]
             if f["rule"] != "unresolved"]
    assert sorted(found) == [("link-only-on-schedule", "all features", []), ("link-only-on-schedule", "default", [])]
