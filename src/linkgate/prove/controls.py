"""Negative controls: compute a mutation and check it is safe, before touching anything."""

from __future__ import annotations

import difflib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from linkgate import proc, repofs
from linkgate.config import Config, Control, Gate
from linkgate.errors import CommandFailed, ConfigError, RefusedFile, UsageError
from linkgate.userregex import RegexRefused, UserRegex, compile_user


@dataclass(frozen=True)
class PlannedMutation:
    gate: Gate
    control: Control
    rel_path: str  # relative to the repository root, symlinks resolved
    original: bytes
    mutated: bytes

    def diff(self) -> str:
        a = self.original.decode("utf-8", errors="replace").splitlines(keepends=True)
        b = self.mutated.decode("utf-8", errors="replace").splitlines(keepends=True)
        return "".join(difflib.unified_diff(a, b, f"a/{self.rel_path}", f"b/{self.rel_path}", n=1))


def _fail(config: Config, control: Control, message: str, key: str, hint: str | None = None) -> ConfigError:
    return ConfigError(
        message, file=str(config.path), line=control.line_of(key), key=f"control.{control.name}.{key}", hint=hint
    )


def resolve_inside(config: Config, control: Control) -> Path:
    """The control's file, which must lie inside the repository after resolving symlinks."""
    root = config.root.resolve()
    raw = Path(control.file)
    if raw.is_absolute() or ".." in raw.parts:
        raise _fail(config, control, f"{control.file!r} escapes the repository", "file",
                    hint="name a path relative to the repository root, without '..'")
    path = (root / raw).resolve()
    try:
        path.relative_to(root)
    except ValueError:
        raise _fail(config, control, f"{control.file!r} is a symlink leading outside the repository ({path})",
                    "file", hint="point the control at the real file inside the repository") from None
    try:
        path.stat()
    except FileNotFoundError:
        raise _fail(config, control, f"{control.file!r} does not exist", "file") from None
    except OSError as exc:  # a name past the file system's limit, a loop of links
        raise _fail(config, control, f"{control.file!r} cannot be read: {exc.strerror or exc}", "file") from None
    if not path.is_file():
        raise _fail(config, control, f"{control.file!r} is {repofs.kind_of(path.stat().st_mode)}, not a regular "
                    "file", "file", hint="a control mutates one regular source file inside the repository")
    return path


def plan(config: Config, gate: Gate, control: Control) -> PlannedMutation:
    path = resolve_inside(config, control)
    rel = path.relative_to(config.root.resolve()).as_posix()
    try:
        original = repofs.read_bytes(path, inside=config.root, limit=repofs.MAX_SOURCE, shown=control.file)
    except RefusedFile as exc:
        raise _fail(config, control, f"{control.file!r}: {exc.reason}", "file",
                    hint="a control mutates one regular source file inside the repository") from None
    if control.delete is not None:
        mutated = _delete(config, control, original)
    elif control.replace is not None:
        mutated = _replace(config, control, original)
    else:
        mutated = _patch(config, control, rel, original)
    if mutated == original:
        raise _fail(config, control, "the mutation changes nothing", "file")
    return PlannedMutation(gate, control, rel, original, mutated)


def _text(config: Config, control: Control, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail(config, control, f"{control.file} is not UTF-8 text; use patch = ...", "file") from None


def _delete(config: Config, control: Control, data: bytes) -> bytes:
    assert control.delete is not None
    pattern = _user_regex(config, control, control.delete, "delete")
    lines = _text(config, control, data).splitlines(keepends=True)
    kept = [ln for ln in lines if not pattern.search_line(ln)]
    if len(kept) == len(lines):
        raise _fail(config, control, f"delete pattern {control.delete!r} matches no line of {control.file}",
                    "delete", hint="a control that changes nothing proves nothing; fix the pattern")
    return "".join(kept).encode("utf-8")


def _replace(config: Config, control: Control, data: bytes) -> bytes:
    assert control.replace is not None
    pattern, repl = control.replace
    regex = _user_regex(config, control, pattern, "replace.pattern", multiline=True)
    try:
        text, count = regex.subn(repl, _text(config, control, data))
    except RegexRefused as exc:
        raise _fail(config, control, exc.reason, "replace.with") from None
    if count == 0:
        raise _fail(config, control, f"replace pattern {pattern!r} matches nothing in {control.file}",
                    "replace.pattern")
    return text.encode("utf-8")


def _user_regex(config: Config, control: Control, pattern: str, key: str, multiline: bool = False) -> UserRegex:
    """The control's pattern on RE2 (config validation refused what RE2 cannot run; this is the
    same refusal for a Control built some other way)."""
    try:
        return compile_user(pattern, multiline=multiline)
    except RegexRefused as exc:
        raise _fail(config, control, f"pattern {pattern!r} cannot be run by RE2: {exc.reason}", key) from None


def _patch(config: Config, control: Control, rel: str, original: bytes) -> bytes:
    """Apply the patch to a scratch copy with git apply; the tree is never touched."""
    assert control.patch is not None
    patch_file = (config.root / control.patch).resolve()
    if not patch_file.is_file():
        raise _fail(config, control, f"patch file {control.patch!r} does not exist", "patch")
    with tempfile.TemporaryDirectory(prefix="linkgate-patch-") as scratch:
        target = Path(scratch, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(original)
        try:
            touched = proc.run(["git", "apply", "--numstat", str(patch_file)], cwd=scratch).stdout
            names = {line.split("\t")[-1] for line in touched.splitlines() if line.strip()}
            if names != {rel}:
                raise _fail(config, control, f"patch touches {sorted(names)}, expected only {rel}", "patch")
            proc.run(["git", "apply", str(patch_file)], cwd=scratch)
        except CommandFailed as exc:
            raise _fail(config, control, f"patch does not apply to {rel}: {exc.stderr.strip()}", "patch",
                        hint="regenerate the patch against the current file") from None
        return target.read_bytes()


def require_clean(config: Config, rel: str) -> None:
    """Refuse to mutate a file with uncommitted changes: they would be ours to lose.

    Asked of the innermost repository holding the file: from the superproject
    git refuses a pathspec inside a submodule ("is in submodule"), and a
    submodule's own edits show only as "modified content" of the submodule.
    """
    path = config.root / rel
    top = proc.run(["git", "rev-parse", "--show-toplevel"], cwd=path.parent, check=False)
    if top.returncode != 0:
        raise UsageError(
            f"{config.root} is not a git repository, so linkgate cannot tell whether {rel} has uncommitted changes",
            hint="run inside a git checkout, or pass --allow-dirty",
        )
    repo = Path(top.stdout.strip())
    inner = path.resolve().relative_to(repo.resolve()).as_posix()
    out = proc.run(["git", "status", "--porcelain", "--", inner], cwd=repo).stdout
    if out.strip():
        where = "" if repo.resolve() == config.root.resolve() else f" (in the repository at {repo})"
        raise UsageError(
            f"{rel} has uncommitted changes{where}; a control mutates it and restores the committed bytes",
            hint="commit or stash your edits, or pass --allow-dirty (the journal still restores the current bytes)",
        )


def package_of(config: Config, rel: str) -> str | None:
    """Name of the cargo package whose manifest is nearest above the file."""
    from linkgate.prove.caches import owning_package

    owner = owning_package(config.root, rel)
    return owner[0] if owner is not None else None

