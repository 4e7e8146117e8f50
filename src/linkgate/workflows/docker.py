"""Images a workflow builds from the repository's Dockerfiles, and what ``docker run`` of one runs.

A job that builds ``docker build -t NAME [-f FILE] CONTEXT`` (or ``docker buildx
build``, or ``docker/build-push-action`` with ``tags``, ``file``, ``context``) and
later runs ``docker run [OPTIONS] NAME [ARGS]`` runs the image's ``ENTRYPOINT``
with ``ARGS`` (or its ``CMD`` when none are given), as Docker does. An entrypoint
that the Dockerfile ``COPY``s or ``ADD``s from the build context is the
repository's script, read like any other; ``--entrypoint`` on the command line
is not followed. Only the exec (JSON) and shell forms of the last
``ENTRYPOINT``/``CMD`` are read; build arguments and multi-stage ``--from``
copies are not.

The build itself runs the ``RUN`` lines of the stages its target reaches
(``read_build``): each with what ``ARG``, ``ENV`` and ``WORKDIR`` give it, its
directory mapped to the repository through the ``COPY`` of the build context.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ReadText = Callable[[str], "str | None"]
_BUILD = re.compile(r"\bdocker\s+(?:buildx\s+)?build\s+([^\n;&|]*)")


@dataclass(frozen=True)
class Image:
    dockerfile: str  # repository path
    context: str


def images_built(runs: Iterable[str], actions: Iterable[Mapping[str, Any]]) -> dict[str, Image]:
    """Tag -> the Dockerfile and context it is built from, by `docker build` lines and
    docker/build-push-action inputs; a tag with an expression or a variable is skipped."""
    found: dict[str, Image] = {}
    for text in runs:
        for m in _BUILD.finditer(text.replace("\\\n", " ")):
            try:
                words = shlex.split(m.group(1))
            except ValueError:
                continue
            tags, file, context = _build_words(words)
            for tag in tags:
                _add(found, tag, file, context)
    for inputs in actions:
        tags = [t.strip() for t in re.split(r"[,\n]", str(inputs.get("tags") or "")) if t.strip()]
        context = str(inputs.get("context") or ".")
        file = inputs.get("file")
        for tag in tags:
            _add(found, tag, str(file) if file else None, context)
    return found


def built_from(argv: tuple[str, ...]) -> Image | None:
    """The Dockerfile a `docker [buildx] build ...` command line builds, or None."""
    words = list(argv[1:])
    if words[:1] == ["buildx"]:
        words = words[1:]
    if argv[:1] != ("docker",) or words[:1] != ["build"]:
        return None
    tags, file, context = _build_words(words[1:])
    found: dict[str, Image] = {}
    _add(found, "image", file, context)
    return found.get("image")


def _build_words(words: list[str]) -> tuple[list[str], str | None, str]:
    tags: list[str] = []
    file = None
    context = "."
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        name, eq, value = word.partition("=")
        if name in ("-t", "--tag", "-f", "--file") or (word.startswith("-") and not eq and name in _VALUED):
            if not eq and i < len(words):
                value = words[i]
                i += 1
            if name in ("-t", "--tag"):
                tags.append(value)
            elif name in ("-f", "--file"):
                file = value
        elif not word.startswith("-"):
            context = word
    return tags, file, context


_VALUED = {"--build-arg", "--target", "--platform", "--label", "--cache-from", "--cache-to", "--secret",
           "--ssh", "--output", "-o", "--network", "--progress", "--iidfile", "--metadata-file", "--builder"}


def _add(found: dict[str, Image], tag: str, file: str | None, context: str) -> None:
    if "$" in tag or "{" in tag or "$" in context or (file and "$" in file):
        return
    context = posixpath.normpath(context)
    if context.startswith(("..", "/")):
        return
    dockerfile = posixpath.normpath(file) if file else posixpath.join(context, "Dockerfile")
    image = Image(dockerfile, "" if context == "." else context)
    found[tag] = image
    if ":" not in tag.rsplit("/", 1)[-1]:
        found[f"{tag}:latest"] = image


def run_command(read: ReadText, image: Image, args: list[str]) -> list[str] | None:
    """What `docker run IMAGE ARGS` runs, the entrypoint script as a repository path (`./x.sh`)."""
    text = read(image.dockerfile)
    if text is None:
        return None
    entry: list[str] = []
    cmd: list[str] = []
    copies: dict[str, str] = {}
    workdir = "/"
    for line in _instructions(text):
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "FROM":
            entry, cmd, copies, workdir = [], [], {}, "/"
        elif word == "ENTRYPOINT":
            entry = _form(rest)
        elif word == "CMD":
            cmd = _form(rest)
        elif word == "WORKDIR":
            workdir = posixpath.join(workdir, rest.strip())
        elif word in ("COPY", "ADD"):
            parts = [p for p in _paths(rest) if not p.startswith("--")]
            if len(parts) >= 2 and "--from" not in rest:
                dest = posixpath.join(workdir, parts[-1])
                for src in parts[:-1]:
                    target = posixpath.join(dest, posixpath.basename(src)) if parts[-1].endswith("/") else dest
                    copies[posixpath.normpath(target)] = posixpath.normpath(posixpath.join(image.context, src))
    argv = [*entry, *(args or cmd)] if entry else (args or cmd)
    if not argv:
        return None
    program = posixpath.normpath(posixpath.join(workdir, argv[0])) if "/" in argv[0] else argv[0]
    if program in copies:
        argv = [f"./{copies[program]}", *argv[1:]]
    return argv


def _instructions(text: str) -> list[str]:
    out: list[str] = []
    current = ""
    for raw in text.split("\n"):
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        out.append((current + line).strip())
        current = ""
    return out


def _exec_form(rest: str) -> list[str]:
    """A Dockerfile instruction's JSON (exec) form, ``["a", "b"]``; [] when it is not one."""
    try:
        value = json.loads(rest)
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _form(rest: str) -> list[str]:
    rest = rest.strip()
    if rest.startswith("["):
        return _exec_form(rest)
    # The shell form runs `/bin/sh -c REST`.
    return ["sh", "-c", rest] if rest else []


def _paths(rest: str) -> list[str]:
    rest = rest.strip()
    if rest.startswith("["):
        return _exec_form(rest)
    try:
        return shlex.split(rest)
    except ValueError:
        return rest.split()


# --- the RUN lines of a build ---------------------------------------------------------------------

# Build arguments Docker sets for each platform built: their values are the runner's, not known here.
_PLATFORM_ARGS = {"TARGETPLATFORM", "TARGETOS", "TARGETARCH", "TARGETVARIANT", "BUILDPLATFORM", "BUILDOS",
                  "BUILDARCH", "BUILDVARIANT"}
_REF = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_SHELLS = {"sh", "bash", "dash", "ash"}


@dataclass(frozen=True)
class BuildRun:
    """One RUN line a build runs: *text* for the shell at *line* (exec form already quoted), the
    variables ARG and ENV give it (None: not known), and its directory in the repository (None: a
    directory of the image the repository was not copied to)."""

    line: int
    text: str
    env: tuple[tuple[str, str | None], ...]
    cwd: str | None
    stage: str


@dataclass
class Build:
    runs: list[BuildRun]
    parts: list[tuple[int, str]]


@dataclass
class _Stage:
    name: str
    env: dict[str, str | None]
    workdir: str
    copies: dict[str, str]  # container directory -> repository directory
    shell_ok: bool = True


def build_words(words: list[str]) -> tuple[str | None, str, dict[str, str], str | None] | None:
    """`docker [buildx] build` options after `build`: (file, context, build args, target); None when
    an option's value is missing."""
    file, context, args, target = None, ".", {}, None
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        name, eq, value = word.partition("=")
        if word.startswith("-") and (name in _VALUED or name in ("-t", "--tag", "-f", "--file")):
            if not eq:
                if i >= len(words):
                    return None
                value = words[i]
                i += 1
            if name in ("-f", "--file"):
                file = value
            elif name == "--build-arg":
                key, has, val = value.partition("=")
                if has:
                    args[key] = val
            elif name == "--target":
                target = value
        elif not word.startswith("-"):
            context = word
    return file, context, args, target


def read_build(text: str, context: str, build_args: Mapping[str, str], target: str | None) -> Build | None:
    """The RUN lines building *target* (else the last stage) of the Dockerfile *text* runs, each with
    what ARG, ENV and WORKDIR give it, and what is not read as (line, why); None when the file does
    not parse. Read with the ``dockerfile`` package (BuildKit's own Go parser), never built."""
    import dockerfile  # lazily: a compiled extension only `docker build` steps need

    try:
        commands = dockerfile.parse_string(text)
    except Exception:  # the binding raises its own GoParseError/GoIOError for a file BuildKit refuses
        return None
    stages: list[tuple[_Stage, list[Any], str | None]] = []
    global_args: dict[str, str | None] = {}
    for cmd in commands:
        if cmd.cmd.upper() == "FROM":
            words = [w for w in cmd.value]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else str(len(stages))
            stages.append((_Stage(name, {}, "/", {}), [], words[0] if words else None))
        elif stages:
            stages[-1][1].append(cmd)
        elif cmd.cmd.upper() == "ARG":
            for item in cmd.value:
                key, has, val = item.partition("=")
                global_args[key] = build_args.get(key, _unquote(val) if has else None)
    if not stages:
        return Build([], [])
    names = {stage.name: i for i, (stage, _, _) in enumerate(stages)}
    index = names.get(target, len(stages) - 1) if target else len(stages) - 1
    reached: set[int] = set()
    todo = [index]
    while todo:
        i = todo.pop()
        if i in reached:
            continue
        reached.add(i)
        stage, body, base = stages[i]
        if base in names and names[base] < i:
            todo.append(names[base])
        for cmd in body:
            for flag in cmd.flags:
                m = re.match(r"--(?:from|mount=.*\bfrom)=([^,\s]+)", flag)
                if m and (m.group(1) in names or m.group(1).isdigit()):
                    todo.append(names.get(m.group(1), int(m.group(1)) if m.group(1).isdigit() else 0))
    out = Build([], [])
    done: dict[str, _Stage] = {}
    for i, (stage, body, base) in enumerate(stages):
        if base in done:
            parent = done[base]
            stage.env, stage.workdir, stage.copies = dict(parent.env), parent.workdir, dict(parent.copies)
            stage.shell_ok = parent.shell_ok
        for cmd in body:
            _instruction(cmd, stage, context, build_args, global_args, out if i in reached else None)
        done[stage.name] = stage
    out.runs.sort(key=lambda r: r.line)
    out.parts.sort()
    return out


def _instruction(cmd: Any, stage: _Stage, context: str, build_args: Mapping[str, str],
                 global_args: Mapping[str, str | None], out: Build | None) -> None:
    word = cmd.cmd.upper()
    if word == "ARG":
        for item in cmd.value:
            key, has, val = item.partition("=")
            if key in build_args:
                stage.env[key] = build_args[key]
            elif key in _PLATFORM_ARGS:
                stage.env[key] = None
            elif has:
                stage.env[key] = _expand(_unquote(val), stage.env)
            elif key in global_args:
                stage.env[key] = global_args[key]
            # Declared with no value anywhere: unset, as Docker leaves it.
    elif word == "ENV":
        pairs = list(cmd.value)
        for key, val in zip(pairs[::2], pairs[1::2], strict=False):
            stage.env[key] = _expand(_unquote(val), stage.env)
    elif word == "WORKDIR":
        value = _expand(_unquote(" ".join(cmd.value)), stage.env)
        stage.workdir = "\0" if value is None else posixpath.normpath(posixpath.join(stage.workdir, value))
    elif word in ("COPY", "ADD") and not any(f.startswith("--from") for f in cmd.flags):
        words = [_expand(w, stage.env) for w in cmd.value]
        if len(words) >= 2 and all(w is not None for w in words):
            dest = posixpath.normpath(posixpath.join(stage.workdir, str(words[-1])))
            for src in words[:-1]:
                assert src is not None
                if src in (".", "./") or src.endswith("/"):
                    repo_dir = posixpath.normpath(posixpath.join(context or ".", src))
                    if not repo_dir.startswith(("..", "/")):
                        stage.copies[dest] = "" if repo_dir == "." else repo_dir
    elif word == "SHELL":
        stage.shell_ok = bool(cmd.value) and posixpath.basename(cmd.value[0]) in _SHELLS
    elif word == "RUN" and out is not None:
        _run(cmd, stage, out)


def _run(cmd: Any, stage: _Stage, out: Build) -> None:
    line = cmd.start_line
    if cmd.json:
        text = shlex.join(cmd.value)
    elif cmd.heredocs:
        docs = cmd.heredocs
        if len(docs) != 1 or docs[0].file_descriptor != 0 or tuple(cmd.value) != (f"<<{docs[0].name}",) and \
                tuple(cmd.value) != (f"<<-{docs[0].name}",):
            out.parts.append((line, "a RUN with here-documents linkgate does not read"))
            return
        text, line = docs[0].content, line + 1
    else:
        text = " ".join(cmd.value)
    if not stage.shell_ok and not cmd.json:
        out.parts.append((cmd.start_line, "a RUN whose SHELL is not a POSIX shell"))
        return
    cwd = None if stage.workdir == "\0" else _in_repository(stage.workdir, stage.copies)
    out.runs.append(BuildRun(line, text, tuple(stage.env.items()), cwd, stage.name))


def _in_repository(workdir: str, copies: Mapping[str, str]) -> str | None:
    for dest in sorted(copies, key=len, reverse=True):
        if workdir == dest or workdir.startswith(dest.rstrip("/") + "/"):
            rest = posixpath.relpath(workdir, dest)
            return posixpath.normpath(posixpath.join(copies[dest], rest)).removeprefix("./") if rest != "." \
                else copies[dest]
    return None


def _unquote(value: str) -> str:
    try:
        words = shlex.split(value, posix=True)
    except ValueError:
        return value
    return " ".join(words) if words else ""


def _expand(value: str, env: Mapping[str, str | None]) -> str | None:
    """`$X`/`${X}` from ARG and ENV; None when one is not known (`${X:-y}` forms included)."""
    if "${" in value and re.search(r"\$\{[^}]*[:#%/]", value):
        return None
    unknown = False

    def sub(m: re.Match[str]) -> str:
        nonlocal unknown
        name = m.group(1) or m.group(2)
        found = env.get(name)
        if found is None:  # not known, or the base image's (PATH, HOME, CARGO_HOME)
            unknown = True
            return ""
        return found

    out = _REF.sub(sub, value)
    return None if unknown else out
