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
