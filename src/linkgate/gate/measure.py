"""What a run records about itself besides its verdict: where it ran, how long
it spent linking, whether it started cold, and what link recipe it saw.

These facts go into the run's JSON document and into the history, so a run on
another machine can be imported and compared like a local one.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from linkgate.gate.linkrecord import LINKS_DIR

if TYPE_CHECKING:
    from linkgate.gate.dirtyinputs import DirtyInput


@dataclass(frozen=True)
class RunContext:
    """Where a run happened: runner, host, and the commit, branch and dirty flag of the tree."""

    runner: str | None       # $RUNNER_NAME (GitHub Actions, also self-hosted), else None
    host: str | None
    commit: str | None
    branch: str | None
    # Tracked files differ from HEAD (staged or not): the verdict is about a tree
    # no commit holds, or an input the build read is untracked, ignored or
    # modified (dirty_inputs, gate/dirtyinputs.py). None: not a git checkout,
    # or git could not say.
    dirty: bool | None = None
    dirty_inputs: tuple[DirtyInput, ...] = ()


def context(root: Path) -> RunContext:
    from linkgate import proc
    from linkgate.errors import LinkgateError

    commit = branch = None
    dirty: bool | None = None
    try:
        # One git call for all three: the `# branch.oid` and `# branch.head` headers
        # name the commit and branch, and any other line is a changed tracked file.
        # Untracked files (target/, .linkgate/) do not count; status refreshes the
        # index, so a touched but unchanged file is not "dirty". No ahead/behind
        # count: it walks history and nothing here uses it.
        done = proc.run(["git", "status", "--porcelain=v2", "--branch", "--no-ahead-behind",
                         "--untracked-files=no"], cwd=root, check=False)
        if done.returncode == 0:
            commit, branch, dirty = _parse_status(done.stdout)
    except LinkgateError:
        pass  # no git: the run is still worth recording
    if branch in (None, "(detached)"):
        # CI checks out pull requests detached; GitHub names the branch in the environment.
        branch = os.environ.get("GITHUB_HEAD_REF") or os.environ.get("GITHUB_REF_NAME") or None
    commit = commit or os.environ.get("GITHUB_SHA") or None
    return RunContext(
        runner=os.environ.get("RUNNER_NAME") or None,
        # What socket.gethostname() returns on Linux and macOS (uname(2)'s node
        # name), without importing socket on every run.
        host=os.uname().nodename or None,
        commit=commit,
        branch=branch,
        dirty=dirty,
    )


def _parse_status(out: str) -> tuple[str | None, str | None, bool | None]:
    """Commit, branch and dirty flag from `git status --porcelain=v2 --branch`.
    A repository without a commit yet has none of the three."""
    commit = branch = None
    dirty = False
    for line in out.splitlines():
        if line.startswith("# branch.oid "):
            commit = line[len("# branch.oid "):].strip()
        elif line.startswith("# branch.head "):
            branch = line[len("# branch.head "):].strip()
        elif line and not line.startswith("#"):
            dirty = True
    if commit in (None, "(initial)") or not branch:
        return None, None, None
    return commit, branch, dirty


# What a target dir holds before any unit is built: linkgate's wrapper and
# records, and the two files cargo writes first (even when it then fails).
_NOT_REUSABLE = frozenset({LINKS_DIR, "CACHEDIR.TAG", ".rustc_info.json", ".linkgate-lock"})


def is_cold(target_dir: Path) -> bool:
    """Cold means cargo had nothing to reuse: the target dir is missing, empty,
    or holds only files that no build output lives in."""
    try:
        return all(child.name in _NOT_REUSABLE for child in target_dir.iterdir())
    except FileNotFoundError:
        return True
    except NotADirectoryError:
        return False


def link_seconds(links: Iterable[Mapping[str, Any]], start: float, end: float) -> float:
    """Seconds during which at least one linker ran within [start, end].

    Cargo links several units at once (a test harness and a binary, on every
    core), so per-link seconds may add up to more than the wall time. The union
    of the intervals counts parallel links once, which keeps compile = wall -
    link meaningful. *links* are the run's ``links`` entries (``started``,
    ``seconds``), as gate/recording.py reports them.
    """
    total = 0.0
    cur_lo = cur_hi = None
    spans = ((float(x["started"]), float(x["started"]) + float(x["seconds"])) for x in links if "started" in x)
    for lo, hi in sorted((max(a, start), min(b, end)) for a, b in spans):
        if hi <= lo:
            continue
        if cur_hi is None or cur_lo is None or lo > cur_hi:
            if cur_hi is not None and cur_lo is not None:
                total += cur_hi - cur_lo
            cur_lo, cur_hi = lo, hi
        else:
            cur_hi = max(cur_hi, hi)
    if cur_hi is not None and cur_lo is not None:
        total += cur_hi - cur_lo
    return total


_PKG_ID = re.compile(r"^(?:[a-z+]+\+)?(?P<url>[^#]*)(?:#(?P<frag>.*))?$")


# A unit's directory in cargo's layout, "build/<package>-<16 hex>": the hash
# covers the rustflags, and linkgate's linkers differ in those, so the same
# build script's out dir has another name under each linker.
_UNIT_DIR = re.compile(r"(/build/[^/\s]+?)-[0-9a-f]{16}(?=/|$)")


# Digests of the directives before they kept order (a sorted set) carry no tag: a
# row with one describes a recipe up to order only, and never equals a tagged one.
DIGEST_VERSION = "v2"


def directives_digest(
    build_scripts: Iterable[tuple[str, str]], target_dir: str, root: str | None = None
) -> str | None:
    """A short digest of every link directive the build scripts emitted, in order, or None.

    It covers, per package, each link directive (``rustc-link-lib``,
    ``rustc-link-search``, ``rustc-flags``, ``rustc-link-arg*``, ...) in the order
    the build script printed it, repeats included: ``-lb -la`` and ``-la -lb`` are
    different recipes (GNU ld fails one of them). The packages are taken in name
    order, because cargo runs build scripts in parallel and reports them in any
    order; where each package's libraries stand on the link line follows the
    dependency graph, which the digest does not cover.

    Paths under the target dir, the package's own directory and the checkout
    (*root*) are replaced by placeholders, and a unit directory's hash by
    ``$HASH``, so the same recipe gives the same digest under every linker, on
    every machine and in every checkout; a directive naming e.g.
    /usr/local/cuda keeps its path, because that is part of the recipe. The
    digest starts with ``v2:`` (DIGEST_VERSION).
    """
    from linkgate.cargo.buildscript import read_build_script_output

    blocks: list[str] = []
    for package_id, out_dir in build_scripts:  # (package_id, out_dir), as GateResult keeps them
        if not out_dir:
            continue
        out = read_build_script_output(Path(out_dir), package_id)
        if out is None:
            continue
        name, pkg_dir = _package(package_id)
        places = [(out_dir, "$OUT_DIR"), (target_dir, "$TARGET")]
        places += [(p, "$PKG") for p in (pkg_dir,) if p] + [(r, "$ROOT") for r in (root,) if r]
        places = [(os.path.normpath(p), tag) for p, tag in places]
        places += [(os.path.realpath(p), tag) for p, tag in places if os.path.realpath(p) != p]
        # Longest first: the target dir and the package usually lie inside the checkout.
        places.sort(key=lambda pt: -len(pt[0]))
        lines = [f"{name}\t{d.key}\t{_normalised(d.value, places)}" for d in out.link_directives()]
        if lines:
            blocks.append("\n".join(lines))
    if not blocks:
        return None
    # The same package's script twice (host and target builds) is one recipe per build.
    text = "\n\n".join(sorted(blocks))
    return f"{DIGEST_VERSION}:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _normalised(value: str, places: list[tuple[str, str]]) -> str:
    for path, tag in places:
        # Whole path components only: /tmp/a is not a prefix of /tmp/ab.
        value = re.sub(re.escape(path) + r"(?![^/\s,:;=])", tag, value)
    return _UNIT_DIR.sub(r"\1-$HASH", value)


def _package(package_id: str) -> tuple[str, str | None]:
    m = _PKG_ID.match(package_id)
    if m is None:
        return package_id, None
    url, frag = m.group("url"), m.group("frag") or ""
    pkg_dir = url[len("file://"):] if url.startswith("file://") else None
    if "@" in frag:
        return frag.split("@", 1)[0], pkg_dir
    return (url.rstrip("/").rsplit("/", 1)[-1] or package_id), pkg_dir


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
