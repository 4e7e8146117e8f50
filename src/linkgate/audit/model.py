"""What the audit's stages hand each other: classified invocations, raw findings, the result.

Every other module of ``linkgate.audit`` imports this one and nothing
imports back up: workflows -> classify -> rules/surfacecheck -> run.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from linkgate.cargo.cargoargs import CargoCall
from linkgate.cargo.features import FeatureSet
from linkgate.workflows.coverage import Gap, StepCoverage
from linkgate.workflows.invocations import Invocation
from linkgate.workflows.read import Unreadable
from linkgate.workflows.triggers import Trigger

# How each subcommand exercises a feature set. Anything absent compiles
# nothing that matters here (fmt, metadata, tree, ...).
EXERCISE = {
    "check": "checked", "doc": "checked", "rustdoc": "checked", "miri": "checked",
    "clippy": "linted",
    "build": "linked", "run": "linked", "install": "linked", "rustc": "linked", "zigbuild": "linked",
    "auditable build": "linked", "nextest archive": "linked", "nextest list": "linked",
    "llvm-cov build": "linked", "cbuild": "linked", "cinstall": "linked", "fuzz build": "linked",
    "test": "tested", "bench": "tested", "nextest run": "tested", "llvm-cov": "tested",
    "llvm-cov test": "tested", "llvm-cov run": "tested", "llvm-cov nextest": "tested", "tarpaulin": "tested",
    "ctest": "tested", "fuzz run": "tested",
    # cargo-fuzz's corpus and test-case minimisers build the fuzz target (linked) and run it.
    "fuzz cmin": "linked", "fuzz tmin": "linked",
    # cargo-codspeed's `build` compiles and links the benchmarks (`run` runs what it built).
    "codspeed build": "linked",
    # cargo-apk builds the package's library as a cdylib for Android (and packs it in an APK).
    "apk build": "linked", "apk run": "linked",
    # cargo-docs-rs documents the package as docs.rs does: rustdoc, no linker.
    "docs-rs": "checked",
    # `cargo package` verifies by compiling the packaged copy's lib with the features given.
    "package": "compiled",
    # cargo-bloat builds the binary (cargo build) to measure it; cargo-bundle and cargo-wix build
    # the release binary they pack (unless `--no-build`, see audit.classify).
    "bloat": "linked", "bundle": "linked", "wix": "linked",
    # cargo-criterion builds and runs the benchmarks; cargo-mutants builds and tests each mutant.
    "criterion": "tested", "mutants": "tested",
    # cargo-lambda's `build` is a cargo-zigbuild build; espflash's `flash` and `save-image`
    # build the firmware image first.
    "lambda build": "linked", "espflash flash": "linked", "espflash save-image": "linked",
}
# `build` of packages with no linkable target compiles rlibs only: no linker runs.
COMPILED_ONLY = "compiled"
EXERCISE_ORDER = ("checked", "linted", COMPILED_ONLY, "linked", "tested")

DEFAULT_SEVERITY: dict[str, str] = {
    "never-linked": "error",
    "link-only-on-schedule": "warning",
    "filter-misses-surface": "error",
    "filter-misses-manifest": "warning",
    "shared-target-dir": "warning",
    "no-timeout": "warning",
    "debug-link-on-large-target": "note",
    "invalid-workflow": "error",
    "unresolved": "note",
}


@dataclass(frozen=True)
class Classified:
    inv: Invocation
    call: CargoCall
    exercise: str | None
    feature_sets: tuple[FeatureSet, ...]
    trigger: Trigger
    # The sets the build links the selected packages' local path dependencies with (when known).
    dependency_sets: tuple[FeatureSet, ...] = ()

    @property
    def links(self) -> bool:
        return self.exercise in ("linked", "tested")

    @property
    def where(self) -> str:
        return f"{self.inv.file}:{self.inv.line}"

    @property
    def job_label(self) -> str:
        """`ci/test`; a reusable workflow's job as GitHub shows it in its caller's run, caller
        first: `pr/build-and-test / build` (each hop's job id)."""
        callers = self.inv.callers
        first = callers[0].workflow if callers else self.inv.workflow
        stem = posixpath.splitext(posixpath.basename(first.rel))[0]
        return f"{stem}/" + " / ".join([*(c.job.id for c in callers), self.inv.job.id])


@dataclass(frozen=True)
class RawFinding:
    """A finding before the configured severities apply.

    ``paths`` are the repository paths it is about (every missed path of a
    filter); ``suggest`` the patterns that would fix it, checked against the
    tracked files."""

    rule: str
    message: str
    file: str | None
    line: int | None
    subject: str = ""
    hint: str | None = None
    paths: tuple[str, ...] = ()
    suggest: tuple[str, ...] = ()
    # Unread or partly read steps that could contradict a finding resting on an absence
    # (each `file:line (what, why)`): such a finding is at most a warning.
    unless: tuple[str, ...] = ()
    # A grouped finding: every feature set it is about, and the matrix axis they differ along.
    sets: tuple[str, ...] = ()
    axis: str = ""


@dataclass
class AuditResult:
    classified: list[Classified] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    problems: list[tuple[str, int, str]] = field(default_factory=list)
    workflows: list[str] = field(default_factory=list)
    findings: list[RawFinding] = field(default_factory=list)
    skipped_checks: list[str] = field(default_factory=list)
    # (file, line, message) of an unresolved note -> its cause, the finding's subject.
    causes: dict[tuple[str, int, str], str] = field(default_factory=dict)
    # Said once per audit, not a finding: how the workspace was read when cargo could not resolve it.
    notes: list[str] = field(default_factory=list)
    # Read coverage of every step reached, and the gaps that may hide a cargo run with
    # whether their step runs on a trigger a pull request sees.
    coverage: list[StepCoverage] = field(default_factory=list)
    cargo_gaps: list[tuple[Gap, bool]] = field(default_factory=list)
