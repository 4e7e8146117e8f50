"""Before and after a gate run: keep what replay needs, drop what it no longer can use.

After cargo returns, each record of this run gets the size and mtime of every
persistent input it names (replay refuses when one changed), and the copies
the wrapper kept of files that still exist are dropped again: only the files
rustc deleted after the link need a copy. ``last-run.json`` then names the
run's records and the build scripts behind them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from linkgate import statedir
from linkgate.gate.linkrecord import LINKS_DIR, LinkRecord, read_records

if TYPE_CHECKING:  # the classifier is imported only when a link said something
    from linkgate.diagnose.model import Diagnostic

LAST_RUN = "last-run.state"  # not *.json: read_records globs those


KEEP_RECORDS = 1000


def begin(tdir: Path, keep: Collection[str] = ()) -> float:
    """Drop the kept inputs of earlier runs (only the last run is replayable), but
    for the folders named in *keep* and the last run's own (kept until ``finish``
    knows whether this run replaces it), and all but the newest records, so the
    folder stays bounded."""
    folder = tdir / LINKS_DIR
    if folder.is_dir():
        keep = set(keep) | _inputs_of(last_run(tdir))
        for child in folder.glob("*.inputs"):
            if child.name not in keep:
                shutil.rmtree(child, ignore_errors=True)
        # Record names start with the start time in microseconds, a fixed-width number for centuries.
        old = sorted(folder.glob("*.json"))[:-KEEP_RECORDS]
        for path in old:
            path.unlink(missing_ok=True)
    return time.time()


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    statedir.replace_with(path, json.dumps(doc, indent=1) + "\n")


def finish(
    tdir: Path,
    *,
    gate: str,
    linker: str,
    started: float,
    verdict: str,
    build_scripts: Sequence[tuple[str, str]],
    cwd: Path,
    artifacts: Sequence[dict[str, Any]] = (),
    passed: bool = False,
    dirty_inputs: Sequence[dict[str, str]] = (),
    units: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """Complete this run's records; return their link times (``links``). A run that
    *passed* without linking anything leaves the last recorded run the replayable one."""
    records = read_records(tdir, since=started)
    for rec in records:
        try:
            doc = json.loads(rec.path.read_text())
        except (OSError, ValueError):
            continue
        preserved = {}
        for orig, kept in rec.preserved.items():
            if os.path.exists(orig):
                Path(kept).unlink(missing_ok=True)
            else:
                preserved[orig] = kept
        doc["preserved"] = preserved
        from linkgate.gate import linkinputs  # only now: a run that linked nothing reads no link line

        stats = []
        for item in linkinputs.inputs(rec.args, rec.cwd):
            if item.path in preserved:
                continue
            st = linkinputs.stat_of(item.path)
            if st is not None and st not in stats:
                stats.append(st)
        doc["inputs"] = stats
        doc["gate"], doc["linker"] = gate, linker
        _write_json(rec.path, doc)
    records = read_records(tdir, since=started)
    links = link_times(records, [(str(a["target"]), str(a["path"])) for a in artifacts])
    prior = last_run(tdir)
    if not records and passed and prior is not None and prior.get("records") \
            and (prior.get("gate"), prior.get("linker")) == (gate, linker):
        # Nothing linked because cargo found every unit fresh: the outputs are still the
        # ones the last recorded run linked, so its recording stays the replayable one
        # (replay still checks its inputs and the tree against now).
        return links
    replaced = _inputs_of(prior)  # the last run's kept inputs: this run replaces it
    for child in (tdir / LINKS_DIR).glob("*.inputs"):  # only folders that are there, by name
        if child.name in replaced:
            shutil.rmtree(child, ignore_errors=True)
    _write_json(
        tdir / LINKS_DIR / LAST_RUN,
        {
            "gate": gate,
            "linker": linker,
            "started": started,
            "ended": time.time(),
            "verdict": verdict,
            "cwd": str(cwd),
            "records": [r.id for r in records],
            "links": links,
            "artifacts": list(artifacts),
            "build_scripts": [{"package_id": p, "out_dir": o} for p, o in build_scripts],
            "units": list(units),
            # Only a run that linked can be replayed (replay refuses one that linked
            # nothing before asking about the tree), so a warm no-op run spends no
            # git calls on describing its tree.
            "tree": tree_state(cwd) if records else None,
            "script_outputs": script_outputs(build_scripts) if records else None,
            # What the build read that no commit holds (gate/dirtyinputs.py): a replay of
            # these links judges the same tree, so it is dirty for the same files.
            "dirty_inputs": list(dirty_inputs),
        },
    )
    return links


def script_outputs(build_scripts: Sequence[tuple[str, str]]) -> dict[str, str | None]:
    """out_dir -> sha256 of the build script's recorded output (``<out_dir>/../output``), None when absent."""
    import hashlib

    found: dict[str, str | None] = {}
    for _, out_dir in build_scripts:
        if not out_dir:
            continue
        try:
            found[out_dir] = hashlib.sha256((Path(out_dir).parent / "output").read_bytes()).hexdigest()
        except OSError:
            found[out_dir] = None
    return found


# Never part of the tree a link judged: linkgate's own state and cargo's output.
_NOT_TREE = (".linkgate/", "target/")


def tree_state(cwd: Path) -> dict[str, Any] | None:
    """The checkout a recording was made from: HEAD, and the size and mtime of
    every file that differs from it (tracked and changed, or untracked and not
    ignored), hashed into one key. None outside git. A replay compares it with
    the tree as it is now: another branch, a restored cache or an edit makes
    the recording evidence about another tree."""
    import hashlib

    from linkgate import proc
    from linkgate.errors import LinkgateError

    try:
        head = proc.run(["git", "rev-parse", "HEAD", "--show-toplevel"], cwd=cwd, check=False)
        status = proc.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], cwd=cwd, check=False)
    except LinkgateError:
        return _walked_state(cwd)
    words = head.stdout.split("\n")
    if head.returncode != 0 or status.returncode != 0 or len(words) < 2:
        return _walked_state(cwd)
    commit, top = words[0].strip(), Path(words[1].strip())
    digest = hashlib.sha256(commit.encode())
    changed = 0
    entries = status.stdout.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        code, path = entry[:2], entry[3:]
        if code[0] in "RC":
            i += 1  # a rename's source follows as its own entry
        if path.startswith(_NOT_TREE) or "/target/" in f"/{path}":
            continue
        try:
            st = (top / path).stat()
            stamp = f"{st.st_size}:{st.st_mtime_ns}"
        except OSError:
            stamp = "missing"
        digest.update(f"\0{code}\0{path}\0{stamp}".encode())
        changed += 1
    return {"commit": commit, "changed": changed, "key": digest.hexdigest()}


def _walked_state(cwd: Path) -> dict[str, Any] | None:
    """Outside git: the size and mtime of every file under the gate's working
    directory, skipping cargo's target directories (a ``CACHEDIR.TAG``, or
    ``target/``), ``.linkgate/`` and VCS folders."""
    import hashlib

    digest = hashlib.sha256(b"walk")
    count = 0
    try:
        for dirpath, dirnames, filenames in os.walk(cwd):
            dirnames[:] = sorted(
                d for d in dirnames
                if d not in (".linkgate", ".git", ".hg", "target") and not os.path.exists(os.path.join(dirpath, d, "CACHEDIR.TAG"))
            )
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                digest.update(f"\0{os.path.relpath(path, cwd)}\0{st.st_size}:{st.st_mtime_ns}".encode())
                count += 1
    except OSError:
        return None
    return {"commit": None, "changed": count, "key": digest.hexdigest()}


def backrefs_flag(args: Sequence[str], program: str) -> list[str]:
    """What the wrapper appends so an lld link reports archive-order problems
    (``--warn-backrefs``); the same decision as ``backrefs_flag`` in
    data/wrapper/linkgate-link.c, for links linkgate runs itself (replay)."""
    fuse = None
    for a in args:
        if a.startswith("-fuse-ld="):
            fuse = a[len("-fuse-ld="):]
        if "--fatal-warnings" in a or "warn-backrefs" in a:
            return []  # the flag would fail a passing link, or is already there
    if fuse is not None:
        return ["-Wl,--warn-backrefs"] if fuse.endswith("lld") else []
    return ["--warn-backrefs"] if os.path.basename(program) in ("ld.lld", "rust-lld", "lld") else []


def archive_order(tdir: Path, since: float) -> tuple[list[Diagnostic], list[str]]:
    """Archive-order warnings lld gave on this run's links that passed (the wrapper
    kept their stderr), and the ids of the records that gave them."""
    found: list[Diagnostic] = []
    ids: list[str] = []
    for rec in read_records(tdir, since=since):
        if rec.exit_status != 0 or _build_script(rec) or "backward reference" not in (rec.stderr or ""):
            continue
        from linkgate import diagnose  # only now: most runs have nothing to classify

        lines = (rec.stderr or "").splitlines()
        for d in diagnose.classify(lines, command_line=list(rec.args), cwd=Path(rec.cwd)):
            if d.kind != "archive-order":
                continue
            ids.append(rec.id)
            if all(d.archives != f.archives for f in found):
                found.append(d)
    return found, ids


_STEM = re.compile(r"^lib(?P<name>.+?)\.(?:a|so(?:\.[0-9.]*)?)$")


def mixed_linkage(tdir: Path, since: float, build_scripts: Sequence[tuple[str, str]]) -> list[Diagnostic]:
    """Mixed linkage in this run's passing links, as the wrapper recorded them."""
    return mixed_linkage_of(
        [(r.args, r.cwd, r.output) for r in read_records(tdir, since=since) if r.exit_status == 0 and not _build_script(r)],
        build_scripts,
    )


def mixed_linkage_of(
    links: Sequence[tuple[Sequence[str], str, str | None]], build_scripts: Sequence[tuple[str, str]]
) -> list[Diagnostic]:
    """Libraries the passing *links* ((args, cwd, output) each: a cargo link as recorded,
    or a replayed one) took both from a static archive and from a shared library: from
    the link line (``-Bstatic``/``-Bdynamic``, ``.a``/``.so``) and from the ``static=``
    libraries rustc bundled into an rlib that is on that line."""
    if not links:
        return []  # nothing linked (a warm no-op): no build script's output to read
    from linkgate.cargo import linklib
    from linkgate.cargo.buildscript import read_build_script_output
    from linkgate.cargo.messages import package_name
    from linkgate.gate import linkinputs

    bundled: list[tuple[str, str, str]] = []  # (library, package, rlib name prefix)
    for package_id, out_dir in build_scripts:
        out = read_build_script_output(Path(out_dir), package_id) if out_dir else None
        for d in out.link_directives() if out else ():
            lib = linklib.parse(d.value) if d.key == "rustc-link-lib" else None
            stem = _STEM.match(lib.archive_file) if lib is not None and lib.bundled else None
            if stem:
                pkg = package_name(package_id)
                bundled.append((stem["name"], pkg, f"lib{pkg.replace('-', '_')}-"))
    found: dict[str, Diagnostic] = {}
    for args, cwd, output in links:
        static: dict[str, str] = {}
        dynamic: dict[str, str] = {}
        for item in linkinputs.inputs(args, cwd):
            m = _STEM.match(os.path.basename(item.path))
            if m:
                (static if item.path.endswith(".a") else dynamic).setdefault(m["name"], item.path)
        rlibs = [os.path.basename(a) for a in args if a.endswith(".rlib")]
        for name, pkg, prefix in bundled:
            if any(r.startswith(prefix) for r in rlibs):
                static.setdefault(name, f"lib{name}.a, bundled into {pkg}'s rlib by `static={name}`")
        target = os.path.basename(output or "") or "the output"
        for name in sorted(static.keys() & dynamic.keys()):
            if name in found:
                continue
            from linkgate.diagnose.model import Diagnostic  # only now: most links mix nothing

            found[name] = Diagnostic(
                "mixed-linkage",
                f"lib{name} is linked into {target} both statically ({static[name]}) and dynamically "
                f"({dynamic[name]}): two copies of its code and its state in one binary",
                library=name, level="warning",
                hint=f"link it one way: the same kind in every build script (`static={name}` or `dylib={name}`), "
                "or let one -sys crate own the library (`links = ...`) and have the others use it through that crate",
            )
    return list(found.values())


def failed_link(tdir: Path, since: float) -> LinkRecord | None:
    """The last link since *since* that the linker failed, as the wrapper recorded
    it: its command line tells the diagnosis which archives stood in which order."""
    failed = [r for r in read_records(tdir, since=since) if r.exit_status != 0 and not _build_script(r)]
    return failed[-1] if failed else None


def _build_script(rec: LinkRecord) -> bool:
    return os.path.basename(rec.output or "").startswith(("build_script_", "build-script-"))


def _inputs_of(state: dict[str, Any] | None) -> set[str]:
    """The folders of kept inputs of a run's records."""
    return {f"{rid}.inputs" for rid in (state or {}).get("records", []) if isinstance(rid, str)}


def last_run(tdir: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads((tdir / LINKS_DIR / LAST_RUN).read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _inode(path: str | None) -> tuple[int, int] | None:
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return (st.st_ino, st.st_dev) if st else None


def link_times(records: Sequence[LinkRecord], artifacts: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Per-artifact link times for the run report (``links``).

    *artifacts* are (target, path) of what cargo reported linked; cargo
    uplifts ``deps/<name>-<hash>`` (the linker's ``-o``) to ``<profile>/<name>``
    as a hard link, so the two are matched by inode.
    """
    by_inode = {ino: target for target, path in artifacts if (ino := _inode(path)) is not None}
    return [
        {
            "output": r.output,
            "target": by_inode.get(_inode(r.output) or (-1, -1))
            or ("build-script-build" if r.output and "/build/" in r.output else None),
            "seconds": round(r.seconds, 6),
            "exit_status": r.exit_status,
            "started": r.started,
            "record": r.id,
        }
        for r in records
    ]
