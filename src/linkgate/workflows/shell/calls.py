"""Commands that run other code: scripts by path, ``source``, ``bash -c`` and
here-documents fed to bash, ``make``, and shell functions.

A script runs in a child shell that sees only exported variables and the
command's own prefix assignments; ``source`` runs it in the caller's shell.
Each is followed at most ``dispatch.MAX_DEPTH`` calls deep.
"""

from __future__ import annotations

import posixpath
import shlex

from linkgate.workflows import docker, pyscript
from linkgate.workflows.coverage import foreign_language, interpreter_language, mentions
from linkgate.workflows.shell.dispatch import MAX_DEPTH, ShellEvaluator
from linkgate.workflows.shell.state import WORKSPACE, Frame, State, clean
from linkgate.workflows.shell.words import Val, Value, unknown

# An autoconf `configure` script runs a C toolchain, never cargo; it is often
# generated in CI, so its absence from the repository is no news.
_GENERATED_SCRIPTS = {"configure", "config.status", "autogen.sh", "bootstrap"}


MAX_SCRIPT_CHARS = 512 * 1024

# The system's identification file (os-release(5)), which CI scripts source to branch on
# the distribution, and the variables it may set.
OS_RELEASE = ("/etc/os-release", "/usr/lib/os-release")
OS_RELEASE_VARIABLES = ("NAME", "ID", "ID_LIKE", "PRETTY_NAME", "CPE_NAME", "VARIANT", "VARIANT_ID", "VERSION",
                        "VERSION_ID", "VERSION_CODENAME", "BUILD_ID", "IMAGE_ID", "IMAGE_VERSION", "HOME_URL",
                        "DOCUMENTATION_URL", "SUPPORT_URL", "BUG_REPORT_URL", "PRIVACY_POLICY_URL", "LOGO",
                        "ANSI_COLOR", "PLATFORM_ID", "UBUNTU_CODENAME")


def run_script(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
               source: bool, offset: int = 0, prefix: dict[str, Value] | None = None) -> list[State]:
    """Run ``fields[offset]`` as a script with the rest as its arguments."""
    path = fields[offset]
    if source and path.text.endswith(("~/.cargo/env", "$HOME/.cargo/env", "${HOME}/.cargo/env")):
        # rustup's env script (`. ~/.cargo/env` after installing rustup): it only puts ~/.cargo/bin on PATH.
        st.status = "true"
        return [st]
    if source and path.known and path.text in OS_RELEASE:
        # os-release(5): newline-separated shell variable assignments describing the
        # system, nothing run. Its variables take values linkgate cannot know.
        for name in OS_RELEASE_VARIABLES:
            st.set(name, unknown(f"${name}"))
        st.status = "true"
        return [st]
    hop = f"{frame.file}:{line} {' '.join(f.text for f in fields)}"
    rel = script_rel(ev, path.text, st, named=source or offset > 0) if path.known else None
    text = ev.host.read_script(rel) if ev.host is not None and rel is not None else None
    if note_refused(ev, frame, line):
        capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    if text is not None and len(text) > MAX_SCRIPT_CHARS:
        # The workflow itself is at most 500 KB (GitHub's limit); a script it
        # calls gets the same bound, so an 8 MB script costs no minute and no GB.
        ev.problem(frame.file, line, f"script {rel}",
                   f"script {rel} is {len(text):,} characters, over the {MAX_SCRIPT_CHARS:,} linkgate reads; "
                   "not followed", True)
        capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    language = foreign_language(rel, text) if text is not None and rel is not None else None
    if language == "Python" and rel is not None and text is not None:
        ran = run_python(ev, rel, text, tuple(fields[offset + 1 :]), st, frame, line, prefix, hop)
        if ran is not None:
            return ran
    if language is not None:
        # `./scripts/build.nu`, `./build.py`: its interpreter runs it, not bash; read as bash it
        # would be nonsense, so it is named (with the lines that write cargo) and left unread.
        ev.problem(frame.file, line, f"script {rel}", f"script {rel} is a {language} program linkgate does not "
                   "read; the cargo commands it runs are not audited", True, unread=rel or "")
        capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    foreign = ev.host.checked_out_from(rel) if text is None and ev.host is not None and rel is not None else None
    if foreign is not None:
        # `actions/checkout` with `repository:` and `path:` brought it at run time: not this repository's.
        ev.problem(frame.file, line, f"script {rel}", f"checked out from {foreign} at run time: {rel} is not in "
                   "the repository, so the cargo commands it runs are not audited", True)
        capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    if text is None:
        base = posixpath.basename(path.text)
        # `./example` with no shell suffix, run directly, is most often a
        # program the build just made, not a script that went missing.
        named_as_script = offset > 0 or base.endswith((".sh", ".bash"))
        if base not in _GENERATED_SCRIPTS and named_as_script:
            where = rel or path.text
            cause = f"script {where}"
            if rel and path.known:
                message = f"script {where} is not in the repository; not followed"
            elif path.known and leaves_repository(path.text, st):
                message = (f"script {path.text} is outside the repository; not read, so what it runs is unknown")
            else:
                message = f"script `{path.text}` cannot be located; not followed"
            ev.problem(frame.file, line, cause, message, True)
        capture_fails(ev)
        ev.emit(fields, st, frame, line, {})
        st.status = "assumed"
        return [st]
    assert rel is not None
    if frame.depth >= MAX_DEPTH:
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {MAX_DEPTH}; `{hop}` not followed", True)
        return [st]
    child_frame = Frame(rel, 1, frame.via + (hop,), "", frame.depth + 1)
    args = tuple(fields[offset + 1 :])
    if source:
        saved = st.args
        if args:
            st.args = args
        ends = ev.run_text(text, child_frame, st)
        for s in ends:
            s.args = saved
            if s.stop == "return":
                s.stop = None
        return ends
    child = ev.new_shell(child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
    child.args, child.arg0 = args, path
    child.vars["BASH_SOURCE"] = (path,)
    ev.run_text(text, child_frame, child)
    capture_fails(ev)
    st.status = "assumed"
    return [st]


# Python's options that take a value (`python -W error x.py`); the others are single letters.
_PYTHON_VALUE_OPTIONS = {"-W", "-X", "--check-hash-based-pycs"}


def run_python_command(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
                       prefix: dict[str, Value]) -> list[State] | None:
    """`python3 ci/x.py ARGS`, `python -m ci.x ARGS`: the script read by ``workflows.pyscript``;
    None when it is not a Python program of the repository that it reads (the command is then
    named as today: an unread program with the lines that write cargo)."""
    if ev.host is None or st.cwd_unknown or interpreter_language(fields[0].text) != "Python":
        return None
    i, module = 1, False
    while i < len(fields) and fields[i].known and fields[i].text.startswith("-"):
        word = fields[i].text
        if word == "-m":
            module = True
            i += 1
            break
        if word in ("-c", "-", "--"):
            return None
        i += 2 if word in _PYTHON_VALUE_OPTIONS else 1
    if i >= len(fields) or not fields[i].known:
        return None
    name = fields[i].text
    if module:
        if not all(part.isidentifier() for part in name.split(".")) or name.split(".")[0] == "linkgate":
            return None
        base = clean(posixpath.join(st.cwd, name.replace(".", "/")))
        candidates = [f"{base}.py", f"{base}/__main__.py"]
    else:
        rel = script_rel(ev, name, st, named=True)
        candidates = [rel] if rel is not None else []
    for rel in candidates:
        if rel.startswith(("..", "/")):
            continue
        text = ev.host.peek(rel)
        if note_refused(ev, frame, line):
            return None
        if text is None or len(text) > MAX_SCRIPT_CHARS:
            continue
        hop = f"{frame.file}:{line} {' '.join(f.text for f in fields)}"
        ran = run_python(ev, rel, text, tuple(fields[i + 1 :]), st, frame, line, prefix, hop)
        if ran is not None:
            ev.host.read_script(rel)  # followed: its coverage is read or partly read
        return ran
    return None


def run_python(ev: ShellEvaluator, rel: str, text: str, args: tuple[Val, ...], st: State, frame: Frame, line: int,
               prefix: dict[str, Value] | None, hop: str) -> list[State] | None:
    """The commands the Python script *rel* starts (``workflows.pyscript``), each run as a shell
    command at its line with ``"$@"`` for ``sys.argv[1:]``; each run not read is a problem at its
    line. None when the file is not read at all (no valid Python, too deep)."""
    reading = pyscript.read(text, rel)
    if reading.unread is not None:
        return None
    capture_fails(ev)
    st.status = "assumed"
    if frame.depth >= MAX_DEPTH:
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {MAX_DEPTH}; `{hop}` not followed", True)
        return [st]
    # As for an unread program: a part not read may run cargo when the file writes cargo anywhere.
    cargo = bool(mentions(rel, text))
    for part in reading.parts:
        ev.problem(rel, part.line, f"{rel}:{part.line}", f"a command the Python script runs is not read: {part.why}",
                   cargo)
    env = child_env(st, prefix)
    via = frame.via + (hop,)
    for run in reading.runs:
        cwd, cwd_unknown = st.cwd, st.cwd_unknown
        if run.cwd is not None:
            if run.cwd == WORKSPACE or run.cwd.startswith(WORKSPACE + "/"):
                cwd = clean(run.cwd[len(WORKSPACE) + 1 :])
            elif run.cwd.startswith("/"):
                cwd_unknown = True
            else:
                cwd = clean(posixpath.join(st.cwd, run.cwd))
            cwd_unknown = cwd_unknown or cwd.startswith("..")
        child = ev.new_shell(env, cwd, cwd_unknown, st.conds)
        child.args = args
        for key, value in run.env:
            child.set(key, Val(value), export=True)
        command = run.shell if run.shell is not None else \
            " ".join(_shell_word(w) for w in run.argv)
        ev.run_text(command, Frame(rel, run.line, via, "", frame.depth + 1), child)
    return [st]


def run_docker_build(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
                     shown: str | None = None) -> list[State] | None:
    """`docker build [-f FILE] [--build-arg K=V] [--target T] CONTEXT` of the repository's own
    Dockerfile: each RUN line the target reaches runs in a fresh shell with what ARG, ENV and
    WORKDIR give it (``docker.read_build``), at the Dockerfile's line. None when the build is not one
    that is read (a word not known, a Dockerfile not in the repository or not parsed): it is then
    named as before, a Dockerfile linkgate does not read."""
    words = [f.text for f in fields]
    rest = words[2:] if words[1:3] == ["buildx", "build"] else words[1:] if words[1:2] == ["build"] else None
    if ev.host is None or st.cwd_unknown or rest is None or not all(f.known for f in fields):
        return None
    options = docker.build_words(rest)
    if options is None:
        return None
    file, context, build_args, target = options
    context = clean(posixpath.join(st.cwd, context))
    rel = clean(posixpath.join(st.cwd, file)) if file else clean(posixpath.join(context, "Dockerfile"))
    if rel.startswith(("..", "/")) or context.startswith(("..", "/")) or file == "-":
        return None
    text = ev.host.peek(rel)
    if note_refused(ev, frame, line) or text is None or len(text) > MAX_SCRIPT_CHARS:
        return None
    build = docker.read_build(text, context, build_args, target)
    if build is None:
        return None
    ev.host.read_script(rel)  # followed: its coverage is read or partly read
    capture_fails(ev)
    st.status = "assumed"
    hop = f"{frame.file}:{line} {shown or ' '.join(words)}"
    if frame.depth >= MAX_DEPTH:
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {MAX_DEPTH}; `{hop}` not followed", True)
        return [st]
    cargo = bool(mentions(rel, text))
    for row, why in build.parts:
        ev.problem(rel, row, f"{rel}:{row}", f"{why}; what it runs is not audited", cargo)
    for run in build.runs:
        # The build's shell sees the Dockerfile's ARG and ENV, never the step's environment.
        env: dict[str, Value] = {k: Val(v) if v is not None else Val(f"${k}", (f"${k} (set by the image)",))
                                 for k, v in run.env}
        child = ev.new_shell(env, run.cwd or "", run.cwd is None, st.conds)
        ev.run_text(run.text, Frame(rel, run.line, frame.via + (hop,), f" (docker build, stage {run.stage})",
                                    frame.depth + 1), child)
    return [st]


def _shell_word(word: str | pyscript.Args) -> str:
    if isinstance(word, str):
        return shlex.quote(word)
    return '"$@"' if word.index is None else f'"${word.index}"'


def run_shell(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
           heredoc: tuple[str, bool] | None, prefix: dict[str, Value]) -> list[State]:
    i = 1
    stdin_args: list[Val] = []
    while i < len(fields) and fields[i].known and fields[i].text[:1] in ("-", "+"):
        flag = fields[i].text
        if flag == "--":
            i += 1  # the next word is the script
            break
        if flag[:1] == "-" and flag[1:2] != "-" and "s" in flag[1:]:
            # `sh -s -- ARGS`: the script is read from stdin; ARGS are its arguments, not a script.
            stdin_args = fields[i + 1 :]
            if stdin_args and stdin_args[0].text == "--":
                stdin_args = stdin_args[1:]
            i = len(fields)
            break
        if flag in ("-c",) and i + 1 < len(fields):
            body = fields[i + 1]
            if not body.known:
                break
            child = ev.new_shell(child_env(st, prefix), st.cwd, st.cwd_unknown, st.conds)
            child.args = tuple(fields[i + 3 :])
            ev.run_text(body.text, Frame(frame.file, line, frame.via, frame.suffix, frame.depth + 1), child)
            st.status = "assumed"
            return [st]
        i += 2 if flag in ("-o", "+o", "-O", "+O") else 1
    if i < len(fields) and fields[i].known and fields[i].text not in ("-s", "-"):
        return run_script(ev, fields, st, frame, line, source=False, offset=i, prefix=prefix)
    if heredoc is not None and i >= len(fields):
        text, expands = heredoc
        # An unquoted here-document is expanded by the calling shell first, so
        # all its variables, exported or not, reach the text.
        env = {**st.vars, **prefix} if expands else child_env(st, prefix)
        child = ev.new_shell(env, st.cwd, st.cwd_unknown, st.conds)
        child.args = tuple(stdin_args)
        ev.run_text(text, Frame(frame.file, line + 1, frame.via, frame.suffix, frame.depth + 1), child)
        st.status = "assumed"
        return [st]
    capture_fails(ev)
    ev.emit(fields, st, frame, line, {})
    st.status = "assumed"
    return [st]


def run_make(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
          prefix: dict[str, Value]) -> list[State]:
    capture_fails(ev)
    st.status = "assumed"
    if ev.host is None or st.cwd_unknown:
        ev.emit(fields, st, frame, line, {})
        return [st]
    top = ev.make_seen is None
    if top:
        ev.make_seen = set()
    assert ev.make_seen is not None
    argv = tuple(f.text for f in fields)
    hop = f"{frame.file}:{line} {' '.join(argv)}"
    try:
        texts = {k: v.text for k, v in child_env(st, prefix).items() if isinstance(v, Val)}
        recipes, problems = ev.host.make_recipes(argv, st.cwd, texts, ev.make_seen)
        if note_refused(ev, frame, line):
            problems = []  # each says only that the refused file is absent
        for message, cargo in problems:
            ev.problem(frame.file, line, message, message, cargo)
        if frame.depth >= MAX_DEPTH:
            _too_deep(ev, frame, line, argv)
            return [st]
        env = child_env(st, prefix)
        for r in recipes:
            child = ev.new_shell(env, r.cwd, False, st.conds)
            ev.run_text(r.text, Frame(r.file, r.line, frame.via + (hop,), f" ({r.goal})", frame.depth + 1), child)
    finally:
        if top:
            ev.make_seen = None
    return [st]


def run_tasks(ev: ShellEvaluator, fields: list[Val], st: State, frame: Frame, line: int,
              prefix: dict[str, Value]) -> list[State] | None:
    """A task runner (``just``, ``cargo make``, ``npm run``): its recipe lines, each in a
    fresh shell; None when *fields* runs no task runner the host reads."""
    if ev.host is None or st.cwd_unknown or not all(f.known for f in fields):
        return None
    argv = tuple(f.text for f in fields)
    known_env = {k: v.text for k, v in child_env(st, prefix).items() if isinstance(v, Val) and v.known}
    found = ev.host.task_recipes(argv, st.cwd, known_env)
    if found is None:
        return None
    recipes, problems = found
    capture_fails(ev)
    st.status = "assumed"
    hop = f"{frame.file}:{line} {' '.join(argv)}"
    if note_refused(ev, frame, line):
        problems = []  # each says only that the refused file is absent
    for message, cargo in problems:
        ev.problem(frame.file, line, message, message, cargo)
    if frame.depth >= MAX_DEPTH:
        _too_deep(ev, frame, line, argv)
        return [st]
    env = child_env(st, prefix)
    for r in recipes:
        child = ev.new_shell(env, r.cwd, False, st.conds)
        for name, text in r.env:
            child.set(name, Val(text), export=True)
        for name, cause in r.unknowns:
            child.set(name, Val(cause, (cause,)), export=True)
        ev.run_text(r.text, Frame(r.file, r.line, frame.via + (hop,), f" ({r.goal})", frame.depth + 1), child)
    return [st]


def _too_deep(ev: ShellEvaluator, frame: Frame, line: int, argv: tuple[str, ...]) -> None:
    """A make or task-runner chain past MAX_DEPTH: its recipes are not read, and the note says so
    (as for functions and scripts), so a cargo run at the end of the chain is never dropped silently."""
    shown = " ".join(argv)
    ev.problem(frame.file, line, "call depth",
               f"calls nest deeper than {MAX_DEPTH}; `{shown[:80]}` not followed", True)


def child_env(st: State, prefix: dict[str, Value] | None) -> dict[str, Value]:
    """What a child process sees: exported variables and the command's own prefix."""
    env: dict[str, Value] = {k: st.vars[k] for k in st.exported if k in st.vars}
    env.update(prefix or {})
    return env


def call_function(ev: ShellEvaluator, name: str, fields: list[Val], st: State, frame: Frame,
                   line: int) -> list[State]:
    body, home = st.funcs[name]
    if frame.depth >= MAX_DEPTH:
        ev.problem(frame.file, line, "call depth", f"calls nest deeper than {MAX_DEPTH}; `{name}` not followed",
                   True)
        return [st]
    hop = f"{frame.file}:{line} {' '.join(f.text for f in fields)}"
    saved, saved_at = st.args, st.args_at
    st.args, st.args_at = tuple(fields[1:]), (frame.file, line)
    st.locals.append({})
    ends = ev.exec(body, st, Frame(home.file, home.base, frame.via + (hop,), home.suffix, frame.depth + 1))
    for s in ends:
        for var, old in (s.locals.pop() if s.locals else {}).items():
            if old is None:
                s.vars.pop(var, None)
            else:
                s.vars[var] = old
        s.args, s.args_at = saved, saved_at
        if s.stop == "return":
            s.stop = None
    return ends


def script_rel(ev: ShellEvaluator, name: str, st: State, named: bool = False) -> str | None:
    """The repository path of a script run by path, if *name* is one. *named*: the script is an
    argument (`bash x.sh`, `sh ci/t.sh`, `. env.sh`, `source env.sh`), so a name without a slash
    is a file of the working directory too (bash reads it from there; `.` and `source` look in
    PATH first, where a repository's script is not)."""
    if name.startswith(WORKSPACE + "/"):
        rel = name[len(WORKSPACE) + 1 :]
    elif name.startswith(("/", "~")) or st.cwd_unknown or ("/" not in name and not named):
        return None
    else:
        rel = clean(posixpath.join(st.cwd, name))
    if rel.startswith("..") or rel.startswith("/"):
        return None
    if name.endswith((".sh", ".bash")) or name.startswith("./") or named:
        return rel
    text = ev.host.read_script(rel) if ev.host is not None else None
    first = text.split("\n", 1)[0] if text else ""
    return rel if first.startswith("#!") and ("sh" in first.rsplit("/", 1)[-1]) else None


def leaves_repository(name: str, st: State) -> bool:
    """Whether the path *name* names a file outside the checkout (``/abs``, ``~/x``,
    ``../x``, ``$GITHUB_WORKSPACE/../x``), which linkgate never reads."""
    if name.startswith(WORKSPACE + "/"):
        return clean(name[len(WORKSPACE) + 1 :]).startswith("..")
    if name.startswith(("/", "~")):
        return True
    return not st.cwd_unknown and "/" in name and clean(posixpath.join(st.cwd, name)).startswith("..")


def note_refused(ev: ShellEvaluator, frame: Frame, line: int) -> bool:
    """One unresolved note per file the host refused to read (outside the
    repository, not a regular file, too large), at the line that asked for it."""
    refused = ev.host.take_refused() if ev.host is not None else []
    for rel, reason in refused:
        ev.problem(frame.file, line, f"file {rel}", f"{rel}: {reason}; not read, so what it runs is unknown", True)
    return bool(refused)


def capture_fails(ev: ShellEvaluator) -> None:
    if ev.capture:
        ev.capture[-1] = None
