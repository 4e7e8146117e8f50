"""A front-end's command line completed from the repository, as the program completes it.

- ``maturin build|develop|publish``: without ``-F``/``--features``, maturin takes
  ``[tool.maturin] features`` from pyproject.toml (its ``merge_with_pyproject_toml``
  applies them only when the command line names none), and without ``-m`` the
  crate from ``[tool.maturin] manifest-path``. pyproject.toml is read in the
  working directory (or next to ``-m``'s manifest).
- ``pip install [-e] DIR`` (``pip wheel``, ``uv pip install``, ``python -m pip``) of
  a directory whose pyproject.toml has ``build-backend = "maturin"``: a PEP 517
  build, which maturin runs as ``maturin build --release`` in that directory.
- ``cargo ALIAS``: ``[alias]`` of ``.cargo/config.toml`` from the working directory
  up to the repository root, resolved by ``cargo.subcommand.expand_aliases`` (the
  same resolver as the gate configuration's check).
- ``cargo xtask`` (as an alias or not): a Rust program that may run cargo; a note.
- ``trunk build|serve [HTML]`` (trunk-rs/trunk): ``cargo build --target
  wasm32-unknown-unknown`` of the crate the HTML file's ``<link data-trunk rel="rust">``
  names (``href``: a Cargo.toml or its directory, else the HTML file's directory), with
  its ``data-bin``, ``data-cargo-features``, ``data-cargo-no-default-features`` and
  ``data-cargo-all-features``; the command line's ``--release``, ``--features``,
  ``--no-default-features`` and ``--all-features`` win. The HTML file is the argument,
  else ``[build] target`` of Trunk.toml in the working directory, else ``index.html``.
"""

from __future__ import annotations

import fnmatch
import html.parser
import posixpath
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate import repofs
from linkgate.cargo import frontends, manifests
from linkgate.cargo.subcommand import BUILTIN, expand_aliases, unread_configs
from linkgate.errors import RefusedFile
from linkgate.workflows import coverage

_PIP = re.compile(r"^(pip|pip3(\.\d+)?|uv)$")


@dataclass(frozen=True)
class Completed:
    argv: tuple[str, ...]
    cwd: str
    via: tuple[str, ...] = ()
    # (cause, message) of an unresolved note, when the program's cargo runs cannot be read.
    note: tuple[str, str] | None = None
    # Why, in a few words, for read coverage; and the package directory left unread.
    gap_why: str = ""
    unread_dir: str = ""
    # False when what the program builds is not known at all: the note, and no record.
    record: bool = True


def _pyproject(repo: Path, directory: str) -> dict[str, Any] | None:
    path = repo / directory / "pyproject.toml" if directory else repo / "pyproject.toml"
    try:
        doc = tomllib.loads(repofs.read_text(path, inside=repo))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _pyproject_refused(repo: Path, directory: str) -> tuple[str, str] | None:
    """(path, why) when the directory's pyproject.toml exists but the path rule refuses
    it (a link out of the repository, not a regular file, too large): named, never read."""
    rel = posixpath.join(directory, "pyproject.toml") if directory else "pyproject.toml"
    try:
        repofs.check(rel, inside=repo, limit=repofs.MAX_SOURCE, shown=rel)
    except RefusedFile as exc:
        return rel, exc.reason
    except OSError:
        return None
    return None


def _maturin_table(doc: dict[str, Any] | None) -> dict[str, Any]:
    tool = doc.get("tool") if doc else None
    table = tool.get("maturin") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else {}


def is_maturin_project(repo: Path, directory: str) -> bool:
    doc = _pyproject(repo, directory)
    system = doc.get("build-system") if doc else None
    return isinstance(system, dict) and system.get("build-backend") == "maturin"


def complete(repo: Path, argv: tuple[str, ...], cwd: str) -> Completed | None:
    """*argv* as the program runs it, or None when *argv* is not a command this module completes."""
    name = frontends.program(argv)
    if name == "maturin" and frontends.runs_cargo(argv):
        return _maturin(repo, argv, cwd)
    if name in ("cargo", "cross", "xargo") and len(argv) > 1:
        return _cargo(repo, argv, cwd)
    if name == "trunk" and argv[1:2] in (("build",), ("serve",)):
        return _trunk(repo, argv, cwd)
    if _PIP.match(name) or name.startswith("python") and argv[1:3] == ("-m", "pip"):
        return _pip(repo, argv, cwd)
    return None


def _maturin(repo: Path, argv: tuple[str, ...], cwd: str) -> Completed:
    words = set(argv)
    manifest = next((argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-m", "--manifest-path")), None)
    manifest = manifest or next((w.split("=", 1)[1] for w in argv if w.startswith("--manifest-path=")), None)
    directory = posixpath.dirname(posixpath.normpath(posixpath.join(cwd, manifest))) if manifest else cwd
    doc = _pyproject(repo, directory) or (_pyproject(repo, cwd) if manifest else None)
    refused = _pyproject_refused(repo, directory) if doc is None else None
    table = _maturin_table(doc)
    extra: list[str] = []
    via: list[str] = []
    if manifest is None and isinstance(table.get("manifest-path"), str):
        extra += ["--manifest-path", table["manifest-path"]]
    has_features = any(w in ("-F", "--features") or w.startswith("--features=") or w.startswith("-F")
                       for w in argv)
    features = table.get("features")
    if not has_features and isinstance(features, list) and all(isinstance(f, str) for f in features) and features:
        extra += ["--features", ",".join(features)]
    for key in ("all-features", "no-default-features"):
        if table.get(key) is True and f"--{key}" not in words:
            extra.append(f"--{key}")
    if extra:
        where = posixpath.join(directory, "pyproject.toml") if directory else "pyproject.toml"
        via.append(f"{where} [tool.maturin] adds {' '.join(extra)}")
    if refused is not None:
        rel, why = refused
        return Completed((*argv, *extra), cwd, tuple(via),
                         (f"file {rel}", f"{rel}: {why}; not read, so what its [tool.maturin] table adds to the "
                                         "build (features, manifest) is unknown"),
                         "a pyproject.toml linkgate did not read")
    return Completed((*argv, *extra), cwd, tuple(via))


def _pip(repo: Path, argv: tuple[str, ...], cwd: str) -> Completed | None:
    words = list(argv[3:] if frontends.program(argv).startswith("python") else argv[1:])
    if words[:1] == ["pip"]:
        words = words[1:]  # uv pip
    if not words or words[0] not in ("install", "wheel"):
        return None
    targets: list[str] = []
    i = 1
    while i < len(words):
        word = words[i]
        i += 1
        if word in ("-e", "--editable") and i < len(words):
            targets.append(words[i])
            i += 1
        elif word in ("-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "--root",
                      "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-w", "--wheel-dir",
                      "--python", "-p", "--config-settings", "-C") and i < len(words):
            i += 1
        elif not word.startswith("-") and (word.startswith((".", "/")) or "/" in word) and "://" not in word:
            targets.append(word)
    for target in targets:
        path = re.sub(r"\[.*\]$", "", target)  # `.[dev]`: extras, same project
        if path.startswith("/"):
            continue
        directory = posixpath.normpath(posixpath.join(cwd, path))
        directory = "" if directory == "." else directory
        if directory.startswith(".."):
            continue
        refused = _pyproject_refused(repo, directory)
        if refused is not None:
            rel, why = refused
            return Completed(argv, cwd, (), (f"file {rel}", f"{rel}: {why}; not read, so whether "
                                             f"`{' '.join(argv)}` builds Rust code there (maturin) is unknown"),
                             "a pyproject.toml linkgate did not read")
        if is_maturin_project(repo, directory):
            built = _maturin(repo, ("maturin", "build", "--release"), directory)
            return Completed(built.argv, directory, (f"{' '.join(argv)}: PEP 517 build of a maturin project "
                                                     f"in {directory or '.'}", *built.via))
    return None


def _cargo(repo: Path, argv: tuple[str, ...], cwd: str) -> Completed | None:
    if any("$" in a for a in argv[:3]) or "$" in cwd or cwd.startswith(("/", "..")):
        return None
    expanded, via = expand_aliases(argv[1:], repo / cwd, repo)
    rest = [a for a in expanded if not a.startswith(("+", "-"))]
    note = None
    unread = unread_configs(repo / cwd, repo) if rest and rest[0] not in BUILTIN else []
    if unread:
        rel, why = unread[0]
        note = (f"file {rel}", f"{rel}: {why}; not read, so the cargo aliases it may define are unknown")
    runs_xtask = argv[1:2] == ("xtask",) or (rest[:1] == ["run"] and _package(expanded) == "xtask")
    if runs_xtask:
        note = ("cargo xtask", "`cargo xtask` runs a Rust program (the xtask package) that may run cargo itself; "
                "the cargo commands it runs cannot be read and are not audited")
    if not via and note is None:
        return None
    if note is None:
        return Completed((argv[0], *expanded), cwd, tuple(via))
    if not runs_xtask:
        return Completed((argv[0], *expanded), cwd, tuple(via), note, "a cargo configuration linkgate did not read")
    return Completed((argv[0], *expanded), cwd, tuple(via), note, "a Rust program linkgate cannot read",
                     _xtask_dir(repo, cwd))


class _RustLinks(html.parser.HTMLParser):
    """The attributes of each ``<link data-trunk rel="rust">`` of a page, with its line.
    The standard library's parser: an HTML page is not XML, and it takes any page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "link" and "data-trunk" in values and values.get("rel") == "rust":
            self.found.append((self.getpos()[0], values))

    handle_startendtag = handle_starttag


_TRUNK_VALUE = {"--dist", "-d", "--public-url", "--config", "--watch", "-w", "--ignore", "-i", "--address", "-a",
                "--port", "--proxy-backend", "--cargo-profile", "--target-path"}


def _trunk(repo: Path, argv: tuple[str, ...], cwd: str) -> Completed | None:
    if cwd.startswith(("/", "..")) or any("$" in a for a in argv):
        return None
    release, page, features, flags = False, None, None, []
    words = list(argv[2:])
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word in ("--release", "-r"):
            release = True
        elif word in ("--all-features", "--no-default-features"):
            flags.append(word)
        elif word in ("--features", "-F") and i < len(words):
            features, i = words[i], i + 1
        elif word.startswith("--features="):
            features = word.split("=", 1)[1]
        elif word.split("=", 1)[0] in _TRUNK_VALUE:
            i += 0 if "=" in word else 1
        elif not word.startswith("-") and page is None:
            page = word
    config = _trunk_config(repo, cwd)
    build = config.get("build") if isinstance(config.get("build"), dict) else {}
    assert isinstance(build, dict)
    if page is None and isinstance(build.get("target"), str):
        page = build["target"]
    release = release or build.get("release") is True
    rel = posixpath.normpath(posixpath.join(cwd, page or "index.html"))
    if rel.startswith(".."):
        return None
    written = " ".join(argv)
    try:
        text = repofs.read_text(rel, inside=repo, shown=rel, errors="replace")
    except (RefusedFile, OSError) as exc:
        why = exc.reason if isinstance(exc, RefusedFile) else "it is not in the repository"
        return Completed(argv, cwd, (), (f"file {rel}", f"`{written}` builds the crate {rel} names, and {rel} "
                                                       f"cannot be read ({why}): what it links is not known"),
                         "an HTML page linkgate did not read", record=False)
    parser = _RustLinks()
    try:
        parser.feed(text)
        parser.close()
    except (AssertionError, ValueError):  # the parser's own refusals of broken markup
        parser.found = []
    line, attrs = parser.found[0] if parser.found else (0, {})
    page_dir = posixpath.dirname(rel)
    href = attrs.get("href", "")
    crate = posixpath.normpath(posixpath.join(page_dir, href)) if href else page_dir or "."
    manifest = crate if crate.endswith(".toml") else posixpath.join(crate, "Cargo.toml")
    manifest = posixpath.relpath(manifest, cwd or ".")
    out = ["cargo", "build", "--target", frontends.WASM_TARGET, "--manifest-path", manifest]
    if release:
        out.append("--release")
    if attrs.get("data-bin"):
        out += ["--bin", attrs["data-bin"]]
    if features is None and attrs.get("data-cargo-features"):
        features = attrs["data-cargo-features"]
    if features:
        out += ["--features", features]
    if not flags:
        flags = [f"--{k}" for k in ("no-default-features", "all-features") if f"data-cargo-{k}" in attrs]
        flags += [f"--{k}" for k in ("no-default-features", "all-features")
                  if build.get(k) is True or build.get(k.replace("-", "_")) is True]
    out += list(dict.fromkeys(flags))
    where = f"{rel}:{line} <link data-trunk rel=\"rust\">" if line else f"{rel} (no rust link: its directory's crate)"
    return Completed(tuple(out), cwd, (f"trunk runs `{' '.join(out)}`, from {where}",))


def _trunk_config(repo: Path, cwd: str) -> dict[str, Any]:
    rel = posixpath.join(cwd, "Trunk.toml") if cwd else "Trunk.toml"
    try:
        doc = tomllib.loads(repofs.read_text(rel, inside=repo, shown=rel))
    except (RefusedFile, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return doc


def _xtask_dir(repo: Path, cwd: str) -> str:
    """The xtask package's directory: `xtask/` beside the working directory or at the root."""
    for base in dict.fromkeys((cwd, "")):
        rel = posixpath.join(base, "xtask") if base else "xtask"
        if (repo / rel / "Cargo.toml").is_file():
            return rel
    return ""


_MAX_SCANNED = 200  # .rs files of one xtask scanned for cargo; past that, the first ones


def note_mentions(repo: Path, done: Completed) -> tuple[coverage.Mention, ...]:
    """The lines of the unread package's `src/**.rs` that write a program that runs cargo."""
    if not done.unread_dir:
        return ()
    found: list[coverage.Mention] = []
    for path in sorted((repo / done.unread_dir / "src").rglob("*.rs"))[:_MAX_SCANNED]:
        try:
            # The path guard: nothing is read outside the repository, whatever a symlink points at.
            text = repofs.read_text(path, inside=repo, errors="replace")
        except (OSError, RefusedFile):
            continue
        found += coverage.mentions(path.relative_to(repo).as_posix(), text)
        if len(found) >= coverage.MAX_MENTIONS:
            break
    return tuple(found[:coverage.MAX_MENTIONS])


def _package(args: list[str]) -> str | None:
    for i, word in enumerate(args):
        if word == "--":
            return None
        if word in ("-p", "--package") and i + 1 < len(args):
            return args[i + 1]
        if word.startswith("--package="):
            return word.split("=", 1)[1]
    return None


_WS_VALUE = {"--ignore"}


def workspace_exec(repo: Path, argv: tuple[str, ...], cwd: str) -> list[tuple[tuple[str, ...], str]] | None:
    """`cargo ws exec [--ignore GLOB] [--no-bail] [--ignore-private] CMD ARGS` (cargo-workspaces,
    also `cargo workspaces exec`): CMD ARGS once in each member's directory, members whose
    name matches an --ignore glob left out; None when *argv* is not that, or the workspace
    cannot be read."""
    words = [w for w in argv[1:] if not w.startswith("+")]
    if frontends.program(argv) != "cargo" or words[:2] not in (["ws", "exec"], ["workspaces", "exec"]):
        return None
    rest = words[2:]
    ignore: list[str] = []
    while rest and rest[0].startswith("-"):
        flag, eq, value = rest.pop(0).partition("=")
        if flag in _WS_VALUE:
            ignore.append(value if eq else (rest.pop(0) if rest else ""))
    if not rest:
        return None
    try:
        start = manifests.nearest(repo, repo / cwd)
        if start is None:
            return None
        root = manifests.read(manifests.find_workspace_root(start, repo))
        members = [manifests.read(d / "Cargo.toml") for d in manifests.member_dirs(root)]
    except manifests.ManifestError:
        return None
    top = repo.resolve()
    out: list[tuple[tuple[str, ...], str]] = []
    for m in members:
        if not m.name or any(fnmatch.fnmatchcase(m.name, g) for g in ignore):
            continue
        try:
            rel = m.dir.resolve().relative_to(top).as_posix()
        except ValueError:
            continue
        out.append((tuple(rest), "" if rel == "." else rel))
    return out
