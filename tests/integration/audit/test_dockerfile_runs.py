"""The RUN lines of the repository's own Dockerfile, when a workflow builds it (`docker build`,
docker/build-push-action): read with what ARG (defaults and build args), ENV, WORKDIR and the
COPY of the repository give them, for the stages the build target reaches; what cannot be
computed is named at the Dockerfile's line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linkgate.cli import main

WF = ".github/workflows/ci.yml"

DOCKERFILE = """\
ARG RUST=1.80
FROM rust:${RUST} AS base
ARG FEATURES=slow
ENV CARGO_TARGET_DIR=/target
WORKDIR /src
COPY . .
RUN cargo fetch

FROM base AS test
ARG FEATURES
WORKDIR crates/core
RUN cargo test --features "$FEATURES"
RUN ["cargo", "build", "--release"]
ARG TARGETARCH
RUN cargo build --target "$TARGETARCH"
RUN <<EOF
cargo doc --no-deps
EOF
SHELL ["pwsh", "-c"]
RUN cargo clippy

FROM base AS release
RUN cargo build --release --features fast

FROM debian AS final
COPY --from=release /target/release/core /core
"""


def _repo(tmp_path: Path, steps: str) -> Path:
    repo = tmp_path / "repo"
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/core"]\n',
        "crates/core/Cargo.toml": '[package]\nname = "core"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                  "[features]\nfast = []\nslow = []\n",
        "crates/core/src/lib.rs": "",
        "ci/Dockerfile": DOCKERFILE,
        WF: "name: ci\non:\n  pull_request:\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n"
            f"      - uses: actions/checkout@v4\n{steps}",
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    return repo


def _audit(repo: Path) -> dict[str, Any]:
    out = repo.parent / "audit.json"
    main(["audit", "--repo", str(repo), "--format", "json", "--output", str(out)])
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def _found(doc: dict[str, Any]) -> list[tuple[str, list[str], str, list[str]]]:
    return [(f"{i['file']}:{i['line']}", i["argv"], i["cwd"], i["unknown"]) for i in doc["invocations"]]


def _gaps(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f"{g['file']}:{g['line']}", g["why"]) for wf in doc["coverage"]["workflows"] for job in wf["jobs"]
            for s in job["steps"] for g in s["gaps"]]


def test_a_docker_build_reads_the_run_lines_of_the_stages_its_target_reaches(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "      - run: docker build --build-arg FEATURES=fast --target test -f ci/Dockerfile .\n")
    doc = _audit(repo)
    assert _found(doc) == [
        ("ci/Dockerfile:7", ["cargo", "fetch"], "", []),
        # The build argument wins over the default; WORKDIR is relative to /src, where `COPY . .` put
        # the repository.
        ("ci/Dockerfile:12", ["cargo", "test", "--features", "fast"], "crates/core", []),
        ("ci/Dockerfile:13", ["cargo", "build", "--release"], "crates/core", []),
        ("ci/Dockerfile:15", ["cargo", "build", "--target", "$TARGETARCH"], "crates/core",
         ["$TARGETARCH (set by the image)"]),
        # A here-document RUN: its body is the script, at its own line.
        ("ci/Dockerfile:17", ["cargo", "doc", "--no-deps"], "crates/core", []),
    ]
    first = doc["invocations"][1]
    assert first["via"] == [f"{WF}:9 docker build --build-arg FEATURES=fast --target test -f ci/Dockerfile .",
                            "ci/Dockerfile:12 (docker build, stage test)"]
    assert _gaps(doc) == [
        ("ci/Dockerfile:15", "cannot evaluate $TARGETARCH (set by the image)"),
        ("ci/Dockerfile:20", "a RUN whose SHELL is not a POSIX shell; what it runs is not audited"),
    ]
    assert [(f["file"], f["status"]) for f in doc["coverage"]["files"]] == [("ci/Dockerfile", "partly read")]


def test_the_last_stage_reaches_the_stages_it_copies_from(tmp_path: Path) -> None:
    steps = ("      - uses: docker/build-push-action@v6\n        with:\n          file: ci/Dockerfile\n"
             "          tags: x\n")
    doc = _audit(_repo(tmp_path, steps))
    # final copies from release, release is built on base; the test stage is not built.
    assert _found(doc) == [
        ("ci/Dockerfile:7", ["cargo", "fetch"], "", []),
        ("ci/Dockerfile:23", ["cargo", "build", "--release", "--features", "fast"], "", []),
    ]
    assert doc["invocations"][1]["via"][0] == f"{WF}:9 uses: docker/build-push-action@v6"
    assert _gaps(doc) == []
    assert [(f["file"], f["status"]) for f in doc["coverage"]["files"]] == [("ci/Dockerfile", "read")]
