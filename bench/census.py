"""The link census: `linkgate audit` over every repository of bench/census/list-*.toml, from local mirrors.

Run:
    .venv/bin/python bench/census.py --from-mirrors DIR [--lists L.toml ...] [--out bench/census/results] [--jobs N]
    .venv/bin/python bench/census.py --summary-only         # docs/census.md and its SVG from the stored results
    .venv/bin/python bench/census.py --sample 30 --seed 29  # bench/census/sample.md, findings to judge by hand

DIR/OWNER+NAME/repo is a bare git directory of each repository (`git clone --mirror`, or the
workplace's `fetch`), holding the pinned commit. Nothing is fetched: a missing mirror or commit is a
row of the report, never a crash. Each repository's tree at its commit is written to a temporary
directory, committed to a fresh git repository there (the audit reads what git tracks), and audited
by a fresh `linkgate audit --format json --coverage` process with a wall-time limit and an address
space limit; its exit code, wall and CPU time and peak resident memory are recorded. One JSON per
repository goes to --out, then summary.json, then docs/census.md and docs/census.svg are drawn from
summary.json alone (and bench/census/checked.md, the hand-judged sample, when present).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CENSUS = ROOT / "bench" / "census"
_SCRIPT = Path(sys.executable).with_name("linkgate")
LINKGATE = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "linkgate"]

# The three rules the census is about, in the order the page reports them.
RULES = ("never-linked", "link-only-on-schedule", "filter-misses-surface")
STATUSES = ("read", "partly read", "unread")
# Audit exit codes (docs/exit-codes.md): 0 clean, 1 a finding, 2 refused input, 3 internal error.
AUDITED = {0: "ok", 1: "ok", 2: "refused", 3: "internal-error"}
# Values from the lists reach git's argv: only GitHub's own name shape and a full object id pass.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,38}/[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}")
COMMIT = re.compile(r"[0-9a-f]{40}")
# A finding's `paths`, `unless` and `sets` can list thousands; the census keeps the first ones and the count.
KEEP_PATHS = 20
FIXED_DATE = "2000-01-01T00:00:00Z"
READ_KINDS = (".rs", ".toml", ".yml", ".yaml", ".sh", ".bash", ".ps1", ".py", ".js", "package.json", ".mk", ".nu")


# ----------------------------------------------------------------------------- lists


def read_lists(paths: list[Path]) -> tuple[list[dict[str, str]], list[str]]:
    """Every [[repository]] of the lists, first occurrence of a name kept; problems as lines."""
    repos: list[dict[str, str]] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in paths:
        try:
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            problems.append(f"{path}: not read ({e})")
            continue
        for i, entry in enumerate(doc.get("repository", [])):
            where = f"{path.name}: repository {i + 1}"
            name, commit = str(entry.get("name", "")), str(entry.get("commit", "")).lower()
            if not NAME.fullmatch(name) or ".." in name:
                problems.append(f"{where}: name {name!r} is not OWNER/NAME")
                continue
            if not COMMIT.fullmatch(commit):
                problems.append(f"{where}: {name}: commit {commit!r} is not 40 hex digits")
                continue
            if name.lower() in seen:
                problems.append(f"{where}: {name} listed again (first in {seen[name.lower()]}), kept once")
                continue
            seen[name.lower()] = path.name
            repos.append({"name": name, "commit": commit, "category": str(entry.get("category", "")),
                          "native": str(entry.get("native", "")), "list": path.name})
    return repos, problems


# ----------------------------------------------------------------------------- checkout


def _git(git_dir: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_NO_LAZY_FETCH": "1", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, env=env, **kw)


def _default_branch(git_dir: Path) -> str:
    """The mirror's HEAD branch (the repository's default branch): the checkout is on it, as a
    clone is, so a workflow's `push: branches: [dev]` reads as the default branch's push."""
    done = _git(git_dir, "symbolic-ref", "--quiet", "--short", "HEAD")
    name = done.stdout.decode(errors="replace").strip() if done.returncode == 0 else ""
    ok = name and not name.startswith("-") and re.fullmatch(r"[A-Za-z0-9._/-]+", name)
    return name if ok else "main"


def _safe(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and all(p not in ("", ".", "..") and p.lower() != ".git" for p in parts)


def checkout(git_dir: Path, commit: str, dest: Path) -> dict[str, Any]:
    """Write the tree of *commit* into *dest* and commit it to a fresh repository there.

    Blob by blob (`ls-tree` + one `cat-file --batch`) rather than `git archive | tar`: archive honours
    the tree's `.gitattributes` (`export-ignore` drops files, `.github` among them in some repositories,
    and `export-subst` rewrites them), and stops at the first blob a mirror does not hold (mirrors may
    leave out their largest files). Here a missing blob is skipped and listed, and no filter runs.
    """
    listing = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit)
    if listing.returncode != 0:
        raise CheckoutError(listing.stderr.decode(errors="replace").strip()[-500:])
    blobs: list[tuple[str, str, str]] = []
    info: dict[str, Any] = {"files": 0, "bytes": 0, "missing_blobs": [], "submodules": 0, "unsafe_paths": []}
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, raw = record.partition(b"\t")
        mode, kind, oid = meta.decode().split()
        path = raw.decode("utf-8", errors="surrogateescape")
        if kind == "commit":
            info["submodules"] += 1
        elif not _safe(path):
            info["unsafe_paths"].append(path)
        else:
            blobs.append((mode, oid, path))
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env={**os.environ, "GIT_NO_LAZY_FETCH": "1"})
    assert proc.stdin is not None and proc.stdout is not None

    def feed() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(b"".join(oid.encode() + b"\n" for _, oid, _ in blobs))
        finally:
            proc.stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    for mode, oid, path in blobs:
        header = proc.stdout.readline().split()
        if len(header) < 2 or header[1] != b"blob":
            info["missing_blobs"].append(path)
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            os.symlink(os.fsdecode(data), target)
        else:
            target.write_bytes(data)
            if mode == "100755":
                target.chmod(0o755)
        info["files"] += 1
        info["bytes"] += len(data)
    writer.join()
    proc.wait()
    env = {**os.environ, "GIT_AUTHOR_DATE": FIXED_DATE, "GIT_COMMITTER_DATE": FIXED_DATE,
           "GIT_CONFIG_NOSYSTEM": "1"}
    cfg = ["-c", "user.name=census", "-c", "user.email=census@localhost", "-c", "core.hooksPath=/dev/null",
           "-c", "commit.gpgsign=false", "-c", f"init.defaultBranch={_default_branch(git_dir)}"]
    for args in (["init", "-q"], ["add", "-A", "-f"], ["commit", "-q", "--no-verify", "--allow-empty", "-m", commit]):
        done = subprocess.run(["git", *cfg, *args], cwd=dest, capture_output=True, env=env)
        if done.returncode != 0:
            raise CheckoutError(f"git {args[0]}: {done.stderr.decode(errors='replace').strip()[-500:]}")
    return info


class CheckoutError(Exception):
    pass


# ----------------------------------------------------------------------------- one audit


def run_audit(repo: Path, out: Path, timeout: float, memory_mb: int) -> dict[str, Any]:
    """One fresh `linkgate audit` process: exit code, wall and CPU seconds, peak RSS, stderr."""
    limit = memory_mb * 1024 * 1024

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    err_path = out.with_suffix(".stderr")
    with open(out, "wb") as stdout, open(err_path, "wb") as stderr:
        t0 = time.perf_counter()
        proc = subprocess.Popen([*LINKGATE, "audit", "--repo", str(repo), "--format", "json", "--coverage"],
                                cwd=repo, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                                preexec_fn=limits, start_new_session=True)
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        # os.wait4 rather than Popen.wait: it returns the child's rusage (peak RSS, CPU time).
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    return {"exit_code": proc.returncode, "timed_out": timed_out.is_set(), "wall_s": round(wall, 3),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
            "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "stderr": err_path.read_bytes().decode(errors="replace")}


def _crash_log(stderr: str, repo: Path) -> str:
    """The traceback an internal error wrote (`see `PATH``), its last 40 lines."""
    m = re.search(r"see `([^`]+)`", stderr)
    if not m:
        return ""
    path = Path(m.group(1))
    if not path.is_absolute():
        path = repo / path
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-40:])
    except OSError:
        return ""


# ----------------------------------------------------------------------------- reduce


def _reason(why: str) -> str:
    """A gap's `why` with its particulars (a path, a word, an expansion) taken out, so like counts with like."""
    why = re.sub(r"`[^`]*`", "`…`", why)
    why = re.sub(r"'[^']*'", "'…'", why)
    why = re.sub(r"^builds \S+, ", "builds ", why)
    # `cannot evaluate $(...)`, `${{ ... }}`, `${X:-}`: the expansion's kind, not its text.
    m = re.match(r"cannot evaluate (\$\{\{|\$\(|\$\{|\$)", why)
    if m:
        why = "cannot evaluate " + {"${{": "a `${{ }}` expression", "$(": "a command substitution `$(…)`",
                                    "${": "a parameter expansion `${…}`", "$": "a variable `$…`"}[m.group(1)]
    return why.strip()


def _per_package(qualified: str) -> list[str]:
    """`a,b: cuda,xla` (one set on two packages, as the audit writes it) as `a: cuda,xla` and `b: cuda,xla`."""
    packages, sep, label = qualified.partition(": ")
    return [f"{p}: {label}" for p in packages.split(",")] if sep else [qualified]


def feature_sets(invocations: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Feature sets (`pkg: set`) some invocation compiles (checked, linted, linked, tested...) and links.

    Distinct sets as written; a set on unknown packages (no `pkg: `) stays apart from the same set on a
    named one. The audit's own `never-linked` judges coverage between them; this only counts."""
    checked: set[str] = set()
    linked: set[str] = set()
    for inv in invocations:
        if not inv.get("exercise"):
            continue
        sets = [s for q in inv.get("feature_sets_by_package") or [] for s in _per_package(q)]
        checked.update(sets)
        if inv.get("links"):
            linked.update(sets)
    return {"checked": sorted(checked), "linked": sorted(linked), "checked_not_linked": sorted(checked - linked)}


def reduce_audit(doc: dict[str, Any]) -> dict[str, Any]:
    """What the summary and the sample need from a linkgate.audit/1 document, small enough to commit."""
    findings = []
    for f in doc.get("findings", []):
        f = dict(f)
        for key in ("paths", "unless", "sets"):
            items = f.get(key) or []
            if len(items) > KEEP_PATHS:
                f[key], f[f"{key}_total"] = items[:KEEP_PATHS], len(items)
        findings.append(f)
    coverage = doc.get("coverage") or {}
    reasons: Counter[str] = Counter()
    reasons_cargo: Counter[str] = Counter()
    for wf in coverage.get("workflows", []):
        for job in wf.get("jobs", []):
            for step in job.get("steps", []):
                if step.get("status") == "read":
                    continue
                for gap in step.get("gaps", []):
                    reasons[_reason(gap.get("why", ""))] += 1
                    if gap.get("may_run_cargo"):
                        reasons_cargo[_reason(gap.get("why", ""))] += 1
    return {
        "schema": doc.get("schema"),
        "workflows": len(doc.get("workflows", [])),
        "invocations": len(doc.get("invocations", [])),
        "feature_sets": feature_sets(doc.get("invocations", [])),
        "findings": findings,
        "notes": doc.get("notes", []),
        "skipped_checks": doc.get("skipped_checks", []),
        "coverage": {"totals": coverage.get("totals", {}), "file_totals": coverage.get("file_totals", {}),
                     "reasons": dict(reasons.most_common()), "reasons_may_run_cargo": dict(reasons_cargo.most_common())},
    }


# ----------------------------------------------------------------------------- one repository


def census_one(repo: dict[str, str], mirrors: Path, out_dir: Path, timeout: float, memory_mb: int) -> dict[str, Any]:
    owner, name = repo["name"].split("/")
    git_dir = mirrors / f"{owner}+{name}" / "repo"
    row: dict[str, Any] = {"schema": "linkgate.census-repo/1", **repo, "status": None}
    if not (git_dir / "HEAD").is_file() or not (git_dir / "objects").is_dir():
        row.update(status="missing-mirror", cause=f"no bare git directory at {git_dir}")
        return row
    if _git(git_dir, "cat-file", "-e", f"{repo['commit']}^{{commit}}").returncode != 0:
        row.update(status="missing-commit", cause=f"{git_dir} does not hold commit {repo['commit']}")
        return row
    work = Path(tempfile.mkdtemp(prefix="linkgate-census-"))
    try:
        tree = work / "tree"
        tree.mkdir()
        t0 = time.perf_counter()
        try:
            row["checkout"] = checkout(git_dir, repo["commit"], tree)
        except CheckoutError as e:
            row.update(status="checkout-error", cause=str(e))
            return row
        row["checkout"]["seconds"] = round(time.perf_counter() - t0, 3)
        audit_out = work / "audit.json"
        ran = run_audit(tree, audit_out, timeout, memory_mb)
        stderr = ran.pop("stderr")
        row.update(ran)
        if ran["timed_out"]:
            row.update(status="timeout", cause=f"killed after {timeout:g} s")
        else:
            row["status"] = AUDITED.get(ran["exit_code"], "internal-error")
        if row["status"] != "ok":
            row["stderr_tail"] = "\n".join(stderr.splitlines()[-20:])
            row["traceback"] = _crash_log(stderr, tree)
            row.setdefault("cause", _cause(row["traceback"], stderr, ran, memory_mb))
            return row
        try:
            row["audit"] = reduce_audit(json.loads(audit_out.read_bytes()))
        except (ValueError, UnicodeDecodeError) as e:
            row.update(status="internal-error", cause=f"the audit's stdout is not JSON ({e})",
                       stderr_tail="\n".join(stderr.splitlines()[-20:]))
        return row
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _cause(traceback: str, stderr: str, ran: dict[str, Any], memory_mb: int) -> str:
    lines = [ln for ln in (traceback or stderr).splitlines() if ln.strip()]
    if "MemoryError" in traceback + stderr:
        return f"MemoryError under the {memory_mb} MB address-space limit"
    if ran["exit_code"] < 0:
        return f"killed by signal {-ran['exit_code']}"
    return lines[-1].strip()[:300] if lines else f"exit {ran['exit_code']} with no message"


# ----------------------------------------------------------------------------- summary


def _pct(xs: list[float], q: float) -> float:
    """The q-quantile, nearest rank: a value some repository had."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for k of n (written out: five lines, no statistics dependency)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary_row(row: dict[str, Any]) -> dict[str, Any]:
    keep = {k: row.get(k) for k in ("name", "commit", "category", "list", "status", "cause", "exit_code",
                                    "wall_s", "cpu_s", "peak_rss_mb")}
    audit = row.get("audit")
    if audit:
        findings = audit["findings"]
        keep["rules"] = dict(Counter(f["rule"] for f in findings))
        keep["rules_error"] = dict(Counter(f["rule"] for f in findings if f.get("level") == "error"))
        fs = audit["feature_sets"]
        keep["sets_checked"], keep["sets_linked"] = len(fs["checked"]), len(fs["linked"])
        keep["sets_checked_not_linked"] = len(fs["checked_not_linked"])
        keep["coverage"] = audit["coverage"]
        keep["workflows"], keep["invocations"] = audit["workflows"], audit["invocations"]
    if row.get("checkout"):
        missing = row["checkout"]["missing_blobs"]
        keep["missing_blobs"] = len(missing)
        # Those of the kinds the audit reads (a workflow, a script, a manifest, a build script): they could
        # change a finding; a font or a video cannot.
        keep["missing_read_kinds"] = [m for m in missing if m.startswith(".github/") or m.endswith(READ_KINDS)
                                      or m.rsplit("/", 1)[-1] in ("Makefile", "justfile", "Dockerfile")]
    return keep


def write_summary(out_dir: Path, problems: list[str], started: str | None, timeout: float,
                  memory_mb: int, version: str | None = None) -> dict[str, Any]:
    """summary.json from the per-repository JSONs of *out_dir*; *version*: the linkgate that ran them."""
    rows = []
    for path in sorted(out_dir.glob("*.json")):
        if path.name == "summary.json":
            continue
        rows.append(summary_row(json.loads(path.read_text())))
    rows.sort(key=lambda r: r["name"].lower())
    if version is None:
        version = subprocess.run([*LINKGATE, "--version"], capture_output=True, text=True).stdout.strip()
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        if head:
            version += f" (commit {head})"
    summary = {"schema": "linkgate.census/1", "linkgate": version, "run": started, "list_problems": problems,
               "timeout_s": timeout, "memory_mb": memory_mb, "repositories": rows}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return summary


# ----------------------------------------------------------------------------- the page


def _fmt_share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k} of {n} ({100 * k / n:.0f} %, 95 % CI {100 * lo:.0f}–{100 * hi:.0f} %)" if n else "0 of 0"


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def read_checked(path: Path) -> list[dict[str, str]]:
    """The judged sample: the rows of the first Markdown table whose header has `verdict`."""
    if not path.is_file():
        return []
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.lstrip().startswith("|"):
            if header is not None and rows:
                break
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            if "verdict" in [c.lower() for c in cells]:
                header = [c.lower() for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows.append(dict(zip(header, cells)))
    return rows


MIRRORS_HOWTO = """\
How to bring the mirrors: one bare git directory per repository, `DIR/OWNER+NAME/repo`, holding the
pinned commit. Either `git clone --mirror https://github.com/OWNER/NAME DIR/OWNER+NAME/repo` for each
`name` of `bench/census/list-*.toml`, or this workplace's `fetch` tool (`github:OWNER/NAME`), which
writes the same layout under `/work/.mirror`. A mirror may leave out its largest blobs; the census
skips a missing blob and counts it. Then, in one command (no network):
`python bench/census.py --from-mirrors DIR` (audits, writes `bench/census/results/`, this page and
`docs/census.svg`); `python bench/census.py --summary-only` redraws the page from the stored results.
"""


def render(summary: dict[str, Any], checked: list[dict[str, str]], svg_name: str) -> str:
    rows = summary["repositories"]
    audited = [r for r in rows if r["status"] == "ok"]
    failed = [r for r in rows if r["status"] in ("internal-error", "timeout", "refused", "checkout-error")]
    absent = [r for r in rows if r["status"] in ("missing-mirror", "missing-commit")]
    n = len(audited)
    out = ["# Link census", "",
           "<!-- Generated by bench/census.py from bench/census/results/summary.json; do not edit. -->", "",
           f"`linkgate audit --format json --coverage` over {len(rows)} listed public repositories that link "
           f"native code (`bench/census/list-*.toml`, pinned by commit; how they were chosen: "
           f"`bench/census/SELECTION-*.md`), each in a fresh process limited to {summary.get('timeout_s', 60):g} s "
           f"and {summary.get('memory_mb', 2048)} MB of address space. {summary['linkgate']}"
           + (f", run {summary['run']}." if summary.get("run") else "."), "",
           MIRRORS_HOWTO, "",
           "## Outcome", "",
           f"- audited: {n}", f"- internal errors: {sum(r['status'] == 'internal-error' for r in rows)}",
           f"- timeouts: {sum(r['status'] == 'timeout' for r in rows)}",
           f"- refused (exit 2): {sum(r['status'] == 'refused' for r in rows)}",
           f"- not checked out (checkout error): {sum(r['status'] == 'checkout-error' for r in rows)}",
           f"- not audited, mirror or commit missing: {len(absent)}"
           + "".join(f"\n  - `{r['name']}`: {r['status']} ({_md(r.get('cause', ''))})" for r in absent),
           f"- mirrors missing blobs (skipped): {sum(1 for r in audited if r.get('missing_blobs'))} repositories, "
           f"{sum(r.get('missing_blobs') or 0 for r in audited)} files; of a kind the audit reads (workflow, "
           "script, manifest, Rust source): "
           + (", ".join(f"`{r['name']}` {', '.join(f'`{m}`' for m in r['missing_read_kinds'])}"
                        for r in audited if r.get("missing_read_kinds")) or "none"), ""]
    for p in summary.get("list_problems", []):
        out.append(f"- list: {_md(p)}")
    out += ["## How many CIs leave a link unseen", "",
            "Share of audited repositories with at least one finding of the rule (any level), and with one "
            "stated as fact (level `error`: nothing unread could contradict it). Intervals: Wilson, 95 %.", "",
            "| rule | any level | stated as fact (error) |", "|---|---|---|"]
    for rule in RULES:
        k_any = sum(1 for r in audited if r.get("rules", {}).get(rule))
        k_err = sum(1 for r in audited if r.get("rules_error", {}).get(rule))
        out.append(f"| `{rule}` | {_fmt_share(k_any, n)} | {_fmt_share(k_err, n)} |")
    k_one = sum(1 for r in audited if any(r.get("rules", {}).get(rule) for rule in RULES))
    out += [f"| any of the three | {_fmt_share(k_one, n)} | "
            f"{_fmt_share(sum(1 for r in audited if any(r.get('rules_error', {}).get(x) for x in RULES)), n)} |", ""]
    cats = sorted({r.get("category") or "" for r in audited})
    if len(cats) > 1:
        out += ["By category (any level):", "", "| category | audited | " + " | ".join(f"`{x}`" for x in RULES)
                + " |", "|---|---|" + "---|" * len(RULES)]
        for cat in cats:
            group = [r for r in audited if (r.get("category") or "") == cat]
            out.append(f"| {_md(cat) or '(none)'} | {len(group)} | "
                       + " | ".join(str(sum(1 for r in group if r.get("rules", {}).get(x))) for x in RULES) + " |")
        out.append("")
    every: Counter[str] = Counter()
    for r in audited:
        every.update(r.get("rules", {}))
    out += ["All findings by rule (count over all repositories): "
            + ", ".join(f"`{k}` {v}" for k, v in sorted(every.items(), key=lambda kv: (-kv[1], kv[0]))) + ".", "",
            f"![findings per repository and read coverage]({svg_name})", ""]
    # Feature sets
    chk = [r.get("sets_checked", 0) for r in audited]
    lnk = [r.get("sets_linked", 0) for r in audited]
    gap = [r.get("sets_checked_not_linked", 0) for r in audited]
    out += ["## Feature sets checked and linked", "",
            "Per repository, the distinct feature sets (`package: set`) that some CI invocation compiles "
            "(check, clippy, doc, build, test, ...) and those some invocation links (build, test, run, ...), "
            "from the audit JSON's `invocations` (`feature_sets_by_package`, `exercise`, `links`).", "",
            "| per repository | median | p95 | max | total |", "|---|---|---|---|---|"]
    for label, xs in (("compiled (checked or more)", chk), ("linked", lnk), ("compiled, never linked", gap)):
        if xs:
            out.append(f"| {label} | {statistics.median(xs):g} | {_pct(xs, .95):g} | {max(xs)} | {sum(xs)} |")
    out += ["", f"Repositories with a set compiled but never linked by any invocation: "
            f"{_fmt_share(sum(1 for g in gap if g), n)}.", ""]
    # Coverage
    tot: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    reasons_cargo: Counter[str] = Counter()
    for r in audited:
        cov = r.get("coverage") or {}
        tot.update({k: v for k, v in (cov.get("totals") or {}).items() if k in STATUSES})
        reasons.update(cov.get("reasons") or {})
        reasons_cargo.update(cov.get("reasons_may_run_cargo") or {})
    steps = sum(tot.values())
    out += ["## Read coverage", "",
            f"Steps of every workflow job the audit reached: {steps} in {n} repositories."]
    if steps:
        out.append(", ".join(f"{s} {tot[s]} ({100 * tot[s] / steps:.1f} %)" for s in STATUSES) + ".")
    fully = sum(1 for r in audited if (r.get("coverage") or {}).get("totals", {}).get("steps")
                and r["coverage"]["totals"].get("read") == r["coverage"]["totals"].get("steps"))
    out += ["", f"Repositories whose every step is read: {_fmt_share(fully, n)}.", "",
            "The most common reasons a part of a step is not read (gaps of partly read and unread steps; "
            "particulars in backticks elided), with how many of them may run cargo: the audit's work list.", "",
            "| reason | gaps | may run cargo |", "|---|---|---|"]
    for why, count in reasons.most_common(15):
        out.append(f"| {_md(why)} | {count} | {reasons_cargo.get(why, 0)} |")
    # Cost
    wall = [r["wall_s"] for r in audited if r.get("wall_s") is not None]
    cpu = [r["cpu_s"] for r in audited if r.get("cpu_s") is not None]
    rss = [r["peak_rss_mb"] for r in audited if r.get("peak_rss_mb") is not None]
    out += ["", "## Time and memory per repository", "",
            "One fresh `linkgate audit` process per repository (start-up included); wall time on a shared "
            "machine, CPU time (user + system) of the process and its children, peak resident memory of the "
            "largest process.", "", "| | median | p95 | max |", "|---|---|---|---|"]
    for label, xs, unit in (("wall", wall, "s"), ("CPU", cpu, "s"), ("peak RSS", rss, "MB")):
        if xs:
            out.append(f"| {label} | {statistics.median(xs):.2f} {unit} | {_pct(xs, .95):.2f} {unit} "
                       f"| {max(xs):.2f} {unit} |")
    if wall:
        med, p95 = statistics.median(wall), _pct(wall, .95)
        out += ["", f"Goal: median under 1 s, 95th percentile under 5 s (wall): median {med:.2f} s "
                f"({'met' if med < 1 else 'not met'}), p95 {p95:.2f} s ({'met' if p95 < 5 else 'not met'})."]
    if rss:
        out += ["", f"Largest peak RSS {max(rss):.0f} MB of the {summary.get('memory_mb', 2048)} MB limit; "
                f"runs over it: {sum(1 for x in rss if x > summary.get('memory_mb', 2048))} (a run past the "
                "address-space limit fails with MemoryError and is listed below as an internal error)."]
    slow = sorted(audited, key=lambda r: -(r.get("wall_s") or 0))[:5]
    if slow:
        out += ["", "Slowest: " + ", ".join(f"`{r['name']}` {r['wall_s']:.2f} s (CPU {r.get('cpu_s') or 0:.2f} s)"
                                           for r in slow) + "."]
    out += ["", "## Internal errors, timeouts, refusals", ""]
    if not failed:
        out.append("None.")
    for r in failed:
        out.append(f"- `{r['name']}` @ `{r['commit'][:12]}`: {r['status']} (exit {r.get('exit_code')}), "
                   f"{_md(r.get('cause', ''))}" + (f"; explained: {_md(r['explained'])}" if r.get("explained") else ""))
    # Precision
    out += ["", "## Hand-checked sample", ""]
    judged = [c for c in checked if c.get("verdict", "").lower() in ("true", "false")]
    if not judged:
        out.append("Not judged yet: `python bench/census.py --sample 30 --seed N` draws findings into "
                   "`bench/census/sample.md`; a reader who did not write the audit judges each from the repository's "
                   "files alone and writes `bench/census/checked.md` (format: bench/census/README.md).")
    else:
        k = sum(1 for c in judged if c["verdict"].lower() == "true")
        out.append(f"Precision: {_fmt_share(k, len(judged))} of the judged findings are true.")
        false = [c for c in judged if c["verdict"].lower() == "false"]
        if false:
            out += ["", "False findings, what the audit misread:", ""]
            for c in false:
                out.append(f"- {_md(c.get('id', ''))} `{_md(c.get('repository', ''))}` {_md(c.get('rule', ''))} "
                           f"{_md(c.get('file:line', ''))}: {_md(c.get('evidence', ''))}")
    out += ["", "## Per repository", "",
            "| repository | category | status | findings (nl / sched / filter) | sets compiled / linked "
            "| steps read / partly / unread | wall s | RSS MB |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        rules, cov = r.get("rules") or {}, ((r.get("coverage") or {}).get("totals") or {})
        out.append(f"| `{r['name']}` | {_md(r.get('category', ''))} | {r['status']} | "
                   + (" / ".join(str(rules.get(x, 0)) for x in RULES) if r["status"] == "ok" else "") + " | "
                   + (f"{r.get('sets_checked', 0)} / {r.get('sets_linked', 0)}" if r["status"] == "ok" else "") + " | "
                   + (" / ".join(str(cov.get(s, 0)) for s in STATUSES) if cov else "") + " | "
                   + (f"{r['wall_s']:.2f}" if r.get("wall_s") is not None else "") + " | "
                   + (f"{r['peak_rss_mb']:.0f}" if r.get("peak_rss_mb") is not None else "") + " |")
    return "\n".join(out) + "\n"


def plot(summary: dict[str, Any], path: Path) -> None:
    """Findings per repository (the three rules, stacked) and read coverage per repository, as one SVG."""
    import matplotlib  # lazily: only the page needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    # The same SVG for the same summary: fixed ids, no date.
    matplotlib.rcParams["svg.hashsalt"] = "linkgate-census"
    matplotlib.rcParams["svg.fonttype"] = "none"
    rows = [r for r in summary["repositories"] if r["status"] == "ok"]
    by_findings = sorted(rows, key=lambda r: (-sum((r.get("rules") or {}).get(x, 0) for x in RULES), r["name"]))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 7))
    xs = range(len(by_findings))
    bottom = [0] * len(by_findings)
    for rule, colour in zip(RULES, ("#c0392b", "#e67e22", "#2980b9")):
        ys = [(r.get("rules") or {}).get(rule, 0) for r in by_findings]
        ax1.bar(xs, ys, bottom=bottom, color=colour, label=rule, width=0.85)
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax1.set_title(f"Findings per repository ({len(rows)} audited, sorted)")
    ax1.set_ylabel("findings")
    ax1.set_xticks([])
    ax1.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.set_ylim(0, max(bottom + [1]) * 1.05)
    # Legend from patches: a bar series whose first bar is 0 high shows no swatch.
    ax1.legend(handles=[Patch(color=c, label=r) for r, c in zip(RULES, ("#c0392b", "#e67e22", "#2980b9"))],
               loc="upper right", framealpha=1)

    def share(r: dict[str, Any], status: str) -> float:
        t = (r.get("coverage") or {}).get("totals") or {}
        return t.get(status, 0) / t["steps"] if t.get("steps") else 0.0

    by_read = sorted(rows, key=lambda r: (-share(r, "read"), -share(r, "partly read"), r["name"]))
    xs = range(len(by_read))
    bottom2 = [0.0] * len(by_read)
    for status, colour in zip(STATUSES, ("#27ae60", "#f1c40f", "#7f8c8d")):
        ys = [share(r, status) for r in by_read]
        ax2.bar(xs, ys, bottom=bottom2, color=colour, label=status, width=0.85)
        bottom2 = [b + y for b, y in zip(bottom2, ys)]
    ax2.set_title("Read coverage per repository (share of steps)")
    ax2.set_ylabel("share of steps")
    ax2.set_ylim(0, 1)
    ax2.set_xticks([])
    ax2.set_xlabel("repositories")
    ax2.legend(handles=[Patch(color=c, label=st) for st, c in zip(STATUSES, ("#27ae60", "#f1c40f", "#7f8c8d"))],
               loc="lower left", framealpha=1)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def earlier_runs(runs: Path) -> list[str]:
    """The page's section on earlier runs: each ``runs/NAME/`` keeps a run's summary.json, its
    per-repository JSONs and its judged sample (checked.md) as they were, never redone."""
    dirs = sorted(d for d in runs.glob("*") if (d / "summary.json").is_file()) if runs.is_dir() else []
    if not dirs:
        return []
    out = ["## Earlier runs", "",
           "Each earlier run is kept as it was under `bench/census/runs/` (its summary, every repository's JSON "
           "and its hand-checked sample); a later run's figures are measured after the fixes its false findings "
           "led to, so they are not first-run figures.", "",
           "| run | linkgate | audited | with `never-linked` | hand-checked precision |", "|---|---|---|---|---|"]
    for d in dirs:
        summary = json.loads((d / "summary.json").read_text())
        rows = [r for r in summary["repositories"] if r["status"] == "ok"]
        judged = [c for c in read_checked(d / "checked.md") if c.get("verdict", "").lower() in ("true", "false")]
        true = sum(1 for c in judged if c["verdict"].lower() == "true")
        out.append(f"| `runs/{d.name}` ({summary.get('run', '?')}) | {_md(summary.get('linkgate', ''))} | {len(rows)} | "
                   f"{_fmt_share(sum(1 for r in rows if (r.get('rules') or {}).get('never-linked')), len(rows))} | "
                   + (f"{_fmt_share(true, len(judged))} (`runs/{d.name}/checked.md`)" if judged else "not judged")
                   + " |")
    return ["", *out]


def write_docs(summary: dict[str, Any], docs: Path, checked: Path, runs: Path | None = None) -> None:
    svg = docs.with_suffix(".svg")
    plot(summary, svg)
    # bench/census/explained.toml: `"OWNER/NAME" = "what failed and why"` for an error or timeout's cause.
    explained = checked.with_name("explained.toml")
    notes = tomllib.loads(explained.read_text(encoding="utf-8")) if explained.is_file() else {}
    summary = {**summary, "repositories": [{**r, "explained": notes.get(r["name"])}
                                           for r in summary["repositories"]]}
    page = render(summary, read_checked(checked), svg.name)
    extra = earlier_runs(runs) if runs is not None else []
    docs.write_text(page + ("\n".join(extra) + "\n" if extra else ""), encoding="utf-8")


# ----------------------------------------------------------------------------- sample


def write_sample(out_dir: Path, count: int, seed: int, dest: Path, rules: tuple[str, ...] = RULES) -> int:
    """Draw *count* findings of *rules* (errors and warnings; notes are not judged) at random, seeded, into *dest*."""
    pool = []
    for path in sorted(out_dir.glob("*.json")):
        if path.name == "summary.json":
            continue
        row = json.loads(path.read_text())
        for i, f in enumerate((row.get("audit") or {}).get("findings", [])):
            if f.get("level") in ("error", "warning") and (not rules or f["rule"] in rules):
                pool.append((row["name"], row["commit"], i, f))
    pool.sort(key=lambda p: (p[0].lower(), p[2]))
    drawn = random.Random(seed).sample(pool, min(count, len(pool)))
    lines = ["# Census sample to judge", "",
             f"{len(drawn)} of the {len(pool)} findings (errors and warnings"
             + (f" of {', '.join(f'`{r}`' for r in rules)}" if rules else "") + ") of bench/census/results/, drawn by "
             f"`python bench/census.py --sample {count} --seed {seed}"
             + ("" if rules else " --all-rules") + "`. Judge each from the repository's files at "
             "its commit only; copy this table to bench/census/checked.md, write `true` or `false` under verdict "
             "and the file:line evidence (for a false one: what the audit misread).", "",
             "| id | repository | commit | rule | level | subject | file:line | message | verdict | evidence |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for n, (name, commit, _, f) in enumerate(drawn, 1):
        where = f"{f.get('file', '')}:{f.get('line', '')}" if f.get("file") else ""
        lines.append(f"| S{n:02d} | {_md(name)} | {commit} | {_md(f['rule'])} | {_md(f.get('level', ''))} | "
                     f"{_md(f.get('subject') or '')} | {_md(where)} | {_md(f.get('message', ''))} |  |  |")
    dest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(drawn)


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from-mirrors", type=Path, metavar="DIR", help="DIR/OWNER+NAME/repo: bare git directories")
    ap.add_argument("--lists", type=Path, nargs="+", help="default: bench/census/list-*.toml")
    ap.add_argument("--out", type=Path, default=CENSUS / "results")
    ap.add_argument("--docs", type=Path, default=ROOT / "docs" / "census.md", help="the page; its SVG goes beside it")
    ap.add_argument("--checked", type=Path, default=CENSUS / "checked.md")
    ap.add_argument("--runs", type=Path, default=CENSUS / "runs", help="earlier runs, each kept as it was")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per audit")
    ap.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per audit")
    ap.add_argument("--summary-only", action="store_true", help="summary.json and the page from the stored results")
    ap.add_argument("--sample", type=int, metavar="N", help="draw N findings into --sample-out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sample-out", type=Path, default=CENSUS / "sample.md")
    ap.add_argument("--all-rules", action="store_true",
                    help="draw the sample from every rule, not only the census's three")
    args = ap.parse_args(argv)

    if args.sample is not None:
        if not args.out.is_dir():
            ap.error(f"{args.out}: no results to draw from; run the census first")
        drawn = write_sample(args.out, args.sample, args.seed, args.sample_out, () if args.all_rules else RULES)
        print(f"{args.sample_out}: {drawn} findings")
        return 0
    lists = args.lists or [Path(p) for p in sorted(glob.glob(str(CENSUS / "list-*.toml")))]
    repos, problems = read_lists(lists)
    if args.summary_only:
        if not (args.out / "summary.json").is_file():
            ap.error(f"{args.out}/summary.json: not there; run with --from-mirrors DIR first")
        old = json.loads((args.out / "summary.json").read_text())
        # Rebuilt from the per-repository JSONs (the page may need what an older summary left out),
        # with the run's own date, limits and linkgate version.
        summary = write_summary(args.out, old.get("list_problems", []), old.get("run"), old.get("timeout_s", 60),
                                old.get("memory_mb", 2048), old.get("linkgate", ""))
    else:
        if args.from_mirrors is None:
            ap.error("--from-mirrors DIR is needed (or --summary-only, or --sample N)")
        if not repos:
            ap.error(f"no repository listed in {', '.join(map(str, lists)) or 'bench/census/list-*.toml'}")
        args.out.mkdir(parents=True, exist_ok=True)
        for stale in args.out.glob("*.json"):
            stale.unlink()
        started = time.strftime("%Y-%m-%d", time.gmtime())

        def one(repo: dict[str, str]) -> dict[str, Any]:
            row = census_one(repo, args.from_mirrors, args.out, args.timeout, args.memory_mb)
            row["timeout_s"], row["memory_mb"] = args.timeout, args.memory_mb
            fname = repo["name"].replace("/", "+") + ".json"
            (args.out / fname).write_text(json.dumps(row, indent=1, sort_keys=True) + "\n")
            extra = f" {row.get('wall_s', 0):.2f} s {row.get('peak_rss_mb', 0):.0f} MB" if "wall_s" in row else ""
            print(f"{repo['name']}: {row['status']}{extra}" + (f" ({row['cause']})" if row.get("cause") else ""),
                  flush=True)
            return row

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, repos))
        summary = write_summary(args.out, problems, started, args.timeout, args.memory_mb)
    args.docs.parent.mkdir(parents=True, exist_ok=True)
    write_docs(summary, args.docs, args.checked, args.runs)
    rows = summary["repositories"]
    print(f"{args.docs}: {sum(r['status'] == 'ok' for r in rows)} of {len(rows)} audited; "
          + ", ".join(f"{k} {v}" for k, v in sorted(Counter(r["status"] for r in rows).items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
