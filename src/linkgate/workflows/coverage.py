"""Read coverage: what the audit reached of each step, and what it could not read.

Every step of every job is classified once, whatever its matrix:

- ``read``: every command in it was understood (a `run:` whose scripts,
  Makefiles and task files were followed, an action linkgate knows);
- ``partly read``: some commands were understood, the rest are named as
  ``Gap`` (file, line, what, why);
- ``unread``: nothing in it was read (a ``shell: python`` step, an action
  linkgate does not know), with the reason.

A gap says whether cargo may hide behind it (``cargo``): a Rust xtask, a
Python build script that writes ``cargo`` or ``maturin``, a cargo command
whose subcommand cannot be computed. Only such gaps can contradict a finding
that rests on an absence (``audit.findings`` turns them into ``unless``).

For a file linkgate does not read (Python, nushell, Node, a Dockerfile, the
xtask's ``src/**.rs``), a plain textual scan names the lines where a program
that runs cargo is written (``mentions``), so the user knows where to look;
it is a pointer, never read as a command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

STATUSES = ("read", "partly read", "unread")
# Programs that run cargo (cargo.frontends), and the task runners that may: a word, not part of one
# (`cargo_metadata`, `CARGO_MANIFEST_DIR` and `cross-platform` are not).
_MENTION = re.compile(r"(?<![\w-])(cargo|cross|maturin|napi|wasm-pack|cargo-zigbuild|cargo-make|makers|rustc)"
                      r"(?![\w-])")
MAX_MENTIONS = 20
_NAPI_API = re.compile(r"(?<![\w$])(NapiCli|createBuildCommand)(?![\w$])|\.build\s*\(")

# Actions that set up tools or move files and run no cargo of the repository's (each one's
# action.yml: checkout, cache and artifact steps, toolchain installers, paths-filter).
_NO_CARGO_ACTIONS = (
    "actions/checkout", "actions/cache", "actions/upload-artifact", "actions/download-artifact",
    "actions/setup-python", "actions/setup-node", "actions/setup-go", "actions/setup-java",
    "actions/setup-dotnet", "actions/github-script", "actions/labeler", "actions/stale",
    "dtolnay/rust-toolchain", "swatinem/rust-cache", "dorny/paths-filter", "actions-rs/toolchain",
    "mozilla-actions/sccache-action", "rui314/setup-mold", "goto-bus-stop/setup-zig", "mlugg/setup-zig",
    "ilammy/msvc-dev-cmd", "jwlawson/actions-setup-cmake", "lukka/get-cmake", "arduino/setup-protoc",
    "docker/setup-buildx-action", "docker/setup-qemu-action", "docker/login-action", "docker/metadata-action",
    "codecov/codecov-action", "softprops/action-gh-release", "peaceiris/actions-gh-pages",
    "pypa/gh-action-pypi-publish", "cargo-bins/cargo-binstall", "baptiste0928/cargo-install",
)


@dataclass(frozen=True)
class Mention:
    file: str
    line: int
    text: str


@dataclass(frozen=True)
class Gap:
    """One part of a step linkgate did not read: where, what it is, why not."""

    file: str
    line: int
    what: str
    why: str
    cargo: bool
    mentions: tuple[Mention, ...] = ()
    unread: str = ""  # the repository file (or package directory) left unread, when it is one

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def sentence(self) -> str:
        return f"{self.where} ({self.what}, {self.why})" if self.what else f"{self.where} ({self.why})"


@dataclass(frozen=True)
class StepCoverage:
    workflow: str
    job: str
    step: int
    line: int
    label: str
    kind: str  # run | action
    status: str
    gaps: tuple[Gap, ...] = ()
    followed: tuple[str, ...] = ()  # scripts, Makefiles and task files read for it


@dataclass
class CoverageLog:
    """Per (workflow, job, step), merged over matrix combinations: the worst status wins,
    gaps and files accumulate."""

    steps: dict[tuple[str, str, int], StepCoverage] = field(default_factory=dict)

    def add(self, item: StepCoverage) -> None:
        key = (item.workflow, item.job, item.step)
        old = self.steps.get(key)
        if old is None:
            self.steps[key] = item
            return
        status = max(old.status, item.status, key=STATUSES.index)
        gaps = tuple(dict.fromkeys((*old.gaps, *item.gaps)))
        followed = tuple(dict.fromkeys((*old.followed, *item.followed)))
        self.steps[key] = StepCoverage(old.workflow, old.job, old.step, old.line, old.label, old.kind, status,
                                       gaps, followed)


# Other CI systems' configuration files (the repository-relative paths each one reads).
OTHER_CI = (
    (".cirrus.yml", "Cirrus CI"), (".cirrus.star", "Cirrus CI"), (".gitlab-ci.yml", "GitLab CI"),
    (".travis.yml", "Travis CI"), ("appveyor.yml", "AppVeyor"), (".appveyor.yml", "AppVeyor"),
    ("azure-pipelines.yml", "Azure Pipelines"), (".azure-pipelines.yml", "Azure Pipelines"),
    (".circleci/config.yml", "CircleCI"), ("Jenkinsfile", "Jenkins"), (".drone.yml", "Drone"),
    (".buildkite/pipeline.yml", "Buildkite"), ("bitbucket-pipelines.yml", "Bitbucket Pipelines"),
    (".woodpecker.yml", "Woodpecker"), ("buildspec.yml", "AWS CodeBuild"),
)


def other_ci(read: Callable[[str], str | None]) -> list[Gap]:
    """A gap for each other CI system's configuration that writes a program that runs cargo:
    linkgate reads GitHub's workflows only, so what those jobs link is not known, and a finding
    resting on an absence cannot be stated as fact while one of them could link the set."""
    out: list[Gap] = []
    for rel, system in OTHER_CI:
        found = mentions(rel, read(rel))
        if found:
            out.append(Gap(rel, found[0].line, f"a {system} configuration",
                           "another CI system's jobs, which linkgate does not read", True, found, rel))
    return out


def status_of(gaps: Iterable[Gap], understood: bool) -> str:
    """``read`` with no gap; ``partly read`` when something else was understood; else ``unread``."""
    return "read" if not list(gaps) else ("partly read" if understood else "unread")


def mentions(file: str, text: str | None) -> tuple[Mention, ...]:
    """The lines of *text* that write a program that runs cargo (at most MAX_MENTIONS)."""
    if not text:
        return ()
    out: list[Mention] = []
    # A JavaScript or TypeScript program that imports the napi CLI builds through its API
    # (`new NapiCli().build(options)`, `createBuildCommand(argv)`): those lines too.
    napi_api = "@napi-rs/cli" in text
    for no, line in enumerate(text.split("\n"), start=1):
        if _MENTION.search(line) or (napi_api and _NAPI_API.search(line)):
            out.append(Mention(file, no, line.strip()[:160]))
            if len(out) >= MAX_MENTIONS:
                break
    return tuple(out)


def known_no_cargo_action(uses: str) -> bool:
    name = uses.split("@", 1)[0].strip().lower().rstrip("/")
    return any(name == a or name.startswith(a + "/") for a in _NO_CARGO_ACTIONS)


def action_gap(file: str, line: int, uses: str, read: Callable[[str], str | None]) -> Gap:
    """An action linkgate does not read: a local or container action may run anything (cargo
    too); a published action is taken to run what its name says, which is not cargo."""
    name = uses.split("@", 1)[0].strip()
    if name.startswith("./"):
        rel = name[2:].rstrip("/")
        found = next(((f"{rel}/{n}", t) for n in ("action.yml", "action.yaml") if (t := read(f"{rel}/{n}"))), None)
        return Gap(file, line, f"uses: {name}", "a local action linkgate does not read", True,
                   mentions(*found) if found else (), found[0] if found else rel)
    if name.startswith("docker://"):
        return Gap(file, line, f"uses: {name}", "a container action linkgate does not read", True)
    return Gap(file, line, f"uses: {uses}", "an action linkgate does not know", False)


_SUFFIXES = {".py": "Python", ".nu": "nushell", ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript",
             ".ts": "TypeScript", ".rb": "Ruby", ".pl": "Perl", ".rs": "Rust"}
# Interpreters by the name a command line or a shebang gives them.
INTERPRETERS = {"python": "Python", "nu": "nushell", "node": "JavaScript", "deno": "TypeScript", "bun": "JavaScript",
                "ruby": "Ruby", "perl": "Perl", "rust-script": "Rust", "cargo-script": "Rust",
                # Node's TypeScript runners (tsx, ts-node, oxc-node's oxnode, esno, esbuild-runner, swc-node, vite-node).
                "tsx": "TypeScript", "ts-node": "TypeScript", "oxnode": "TypeScript", "esno": "TypeScript",
                "esr": "TypeScript", "swc-node": "TypeScript", "vite-node": "TypeScript"}
# Options of node (and the runners above, which pass them on) that take a value: never the script.
INTERPRETER_VALUE_OPTIONS = {"--import", "--require", "-r", "--loader", "--experimental-loader", "--env-file",
                             "--conditions", "-C", "--input-type", "--project", "-P", "--tsconfig"}
# A script's language by its suffix wins over its interpreter's (`node x.ts` under a loader, `tsx x.js`).
_NODE_FAMILY = {"JavaScript", "TypeScript"}
_VERSIONED = re.compile(r"^(python|pypy|ruby|perl|node)[\d.]*$")


def interpreter_language(program: str) -> str | None:
    """The language *program* runs (`python3.12` -> Python), or None for a shell or another program."""
    name = program.rsplit("/", 1)[-1].removesuffix(".exe")
    m = _VERSIONED.match(name)
    return INTERPRETERS.get(m.group(1) if m else name, "Python" if name.startswith("pypy") else None)


def script_language(interpreter: str, rel: str) -> str:
    """The language of the script *rel* that *interpreter* (a language) runs: for Node's family, the suffix's."""
    if interpreter in _NODE_FAMILY:
        suffix = next((lang for sfx, lang in _SUFFIXES.items() if rel.endswith(sfx)), None)
        if suffix in _NODE_FAMILY:
            return suffix
    return interpreter


def foreign_language(rel: str, text: str) -> str | None:
    """The language of a script run by path when it is not a shell: its shebang, else its suffix."""
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        prog = words[1] if words and words[0].endswith("/env") and len(words) > 1 else (words[0] if words else "")
        if prog == "-S" and len(words) > 2:
            prog = words[2]
        return interpreter_language(prog)
    for suffix, language in _SUFFIXES.items():
        if rel.endswith(suffix):
            return language
    return None


def file_kind(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    if name == "xtask":
        return "Rust program"
    if name in ("Makefile", "makefile", "GNUmakefile"):
        return "Makefile"
    if name.lower() in ("justfile", ".justfile"):
        return "justfile"
    if name == "package.json":
        return "package scripts"
    if name == "pixi.toml":
        return "pixi tasks"
    if name in ("mise.toml", ".mise.toml") or rel.startswith((".mise/", "mise/", ".config/mise")):
        return "mise tasks"
    if name.lower().startswith("taskfile.") and name.endswith((".yml", ".yaml")):
        return "go-task tasks"
    if name.endswith(".toml"):
        return "cargo-make tasks"
    if name == "Dockerfile" or name.endswith(".Dockerfile") or name.startswith("Dockerfile."):
        return "Dockerfile"
    if name in ("action.yml", "action.yaml"):
        return "action"
    if rel.startswith(".github/workflows/") and name.endswith((".yml", ".yaml")):
        return "reusable workflow"
    if name == "CMakeLists.txt" or name.endswith(".cmake"):
        return "CMake project"
    if name.endswith(".nix"):
        return "Nix expression"
    return "script" if "." in name or "/" in rel else "program"


def files(steps: Iterable[StepCoverage]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Every script, task file, Makefile and unread program the steps reached, once each, as
    (file, kind, status, reasons): read when followed with no gap in it, partly read when a gap
    lies in it, unread when it was only named."""
    found: dict[str, tuple[str, list[str]]] = {}
    items = list(steps)
    for step in items:
        for rel in step.followed:
            found.setdefault(rel, ("read", []))
    for step in items:
        for gap in step.gaps:
            if gap.unread:
                # Followed for one step (a Dockerfile's ENTRYPOINT) and not read for another (its RUN lines).
                status, reasons = found.get(gap.unread, ("unread", []))
                found[gap.unread] = ("unread" if status == "unread" else "partly read", reasons + [gap.why])
            if gap.file in found and gap.file != step.workflow:
                _, reasons = found[gap.file]
                found[gap.file] = ("partly read", reasons + [f"line {gap.line}: {gap.why}"])
    return [(rel, file_kind(rel), status, tuple(dict.fromkeys(reasons)))
            for rel, (status, reasons) in sorted(found.items())]
