"""One-off: convert the truth written as Python code, bench/audit_truth/heldout.py (the first held-out
set) and bench/audit_truth/ground_truth.py (the training set), into the TOML files of
bench/audit_truth/heldout-first/ and bench/audit_truth/training/ (format: heldout/README.md), and
prove them equal.

Run: python3 bench/audit_truth/truth_py_to_toml.py COMMIT [--set heldout|training] [--write]
(heldout.py at 3767d842a547, ground_truth.py at a939d87c3528: see each directory's README.md)

The module is read from git at COMMIT (it no longer exists on later commits), executed, and every
`inv()` call is traced to its source line. Records of one source line that differ only in their
matrix become one [[invocation]] with a `combinations` list (a list used by more than one entry is
named under [combinations]). Every comment of the module is carried into the file of its repository:
a comment on a line of an `inv(...)` call becomes that entry's `note`; the comment block that opens
a repository's section heads its file; any other comment is written, verbatim, as a TOML comment
above the first entry that follows it in the module (comments after the last entry, and those of the
FINDINGS entry, above the findings); the comments next to its COMMITS and MOVED_TO_TRAINING entries
go next to `commit` and `moved_to_training`. No truth is changed. (A few comment blocks whose place
does not say which repository they explain are assigned by hand below, each checked by its words.)

Without --write it only checks: for every repository, bench/audit_truth.py's load_data() of the
TOML file gives the same multiset of invocations (job, file, line, subcommand, links, features,
matrix, count) and the same findings as the module, and the same commit and moved_to_training.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
import types
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SETS = {"heldout": ("bench/audit_truth/heldout.py", ROOT / "bench" / "audit_truth" / "heldout-first"),
        "training": ("bench/audit_truth/ground_truth.py", ROOT / "bench" / "audit_truth" / "training")}
SRC, OUT = SETS["heldout"]


def load_module(commit: str) -> tuple[str, types.ModuleType, dict[int, int]]:
    """The module SRC at COMMIT, executed, and for each record inv() returned (by id) its caller's line."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{SRC}"], capture_output=True, text=True,
                          check=True).stdout
    module = types.ModuleType(Path(SRC).stem)
    module.__file__ = SRC
    code = compile(text, SRC, "exec")
    lines: dict[int, int] = {}
    keep: list[Any] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "return" and frame.f_code.co_name == "inv" and frame.f_code.co_filename == SRC:
            lines[id(arg)] = frame.f_back.f_lineno
            keep.append(arg)

    sys.modules[Path(SRC).stem] = module
    sys.setprofile(profile)
    try:
        exec(code, module.__dict__)
    finally:
        sys.setprofile(None)
    return text, module, lines


def comments(text: str) -> dict[int, tuple[str, bool]]:
    """line -> (comment text, standalone?) for every comment of the source."""
    out: dict[int, tuple[str, bool]] = {}
    src_lines = text.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            line = tok.start[0]
            out[line] = (tok.string, src_lines[line - 1].lstrip().startswith("#"))
    return out


def inv_spans(text: str) -> list[tuple[int, int]]:
    tree = ast.parse(text)
    return sorted((n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "inv")


def dict_entries(text: str, name: str) -> list[tuple[str, int, int]]:
    """(key, key line, value end line) of the module-level dict literal NAME."""
    for node in ast.parse(text).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name:
            assert isinstance(node.value, ast.Dict)
            return [(k.value, k.lineno, v.end_lineno or v.lineno) for k, v in zip(node.value.keys, node.value.values)
                    if isinstance(k, ast.Constant)]
    raise SystemExit(f"{name} not found")


def dict_span(text: str, name: str) -> tuple[int, int]:
    for node in ast.parse(text).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name:
            return node.lineno, node.end_lineno or node.lineno
    raise SystemExit(f"{name} not found")


# ---- TOML writing (by hand: only inline values are needed, and the layout of the files matters)
BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(k: str) -> str:
    return k if BARE.match(k) else json.dumps(k)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(str(k))} = {value(x)}" for k, x in v.items()) + "}" if v else "{}"
    raise TypeError(f"no TOML for {v!r}")


def record_key(inv: dict[str, Any]) -> str:
    return json.dumps([inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"], list(inv["features"]),
                       inv.get("matrix") or {}, inv.get("count", 1)], sort_keys=True)


def convert(commit: str) -> dict[str, str]:
    text, held, src_of = load_module(commit)
    notes = comments(text)
    spans = inv_spans(text)
    repos = list(held.INVOCATIONS)
    assert sorted(repos) == sorted(held.COMMITS) and set(held.FINDINGS) <= set(repos), "INVOCATIONS, COMMITS, FINDINGS"
    # Each repository's section: from its `# ---- owner/name` header to the next one (or to FINDINGS).
    findings_start, findings_end = dict_span(text, "FINDINGS")
    heads = sorted((i + 1, r) for i, line in enumerate(text.splitlines()) for r in repos
                   if line.startswith(f"# ---- {r} ") or line == f"# ---- {r}")
    assert [r for _, r in heads] and len(heads) == len(repos), heads
    first_head = heads[0][0]
    section: dict[str, tuple[int, int]] = {}
    for i, (start, r) in enumerate(heads):
        end = heads[i + 1][0] - 1 if i + 1 < len(heads) else findings_start - 1
        section[r] = (start, end)

    def preceding(name: str) -> dict[str, list[str]]:
        """Comment lines of the dict literal NAME above each entry's key (after the previous entry) and on it."""
        out: dict[str, list[str]] = {}
        prev_end = dict_span(text, name)[0]
        for k, kline, vend in dict_entries(text, name):
            out[k] = [notes[n][0] for n in range(prev_end + 1, vend + 1) if n in notes]
            prev_end = vend
        return out

    commit_notes = preceding("COMMITS")
    if SRC.endswith("ground_truth.py"):
        # "Held out: written before linkgate was first run on them." stands above the last two entries.
        assert commit_notes["tikv/jemallocator"] == ["# Held out: written before linkgate was first run on them."]
        commit_notes["rusqlite/rusqlite"] = list(commit_notes["tikv/jemallocator"])
    moved_notes = preceding("MOVED_TO_TRAINING") if hasattr(held, "MOVED_TO_TRAINING") else {}
    # The FINDINGS dict: a comment block goes with the entry below it, except two blocks that explain the
    # entry above them (each checked here by its opening words).
    fentries = dict_entries(text, "FINDINGS")
    finding_notes: dict[str, list[str]] = {k: [] for k, _, _ in fentries}
    prev_end, prev_key = findings_start, None
    for k, kline, vend in fentries:
        block = [n for n in range(prev_end + 1, kline) if n in notes and notes[n][1]]
        inner = [n for n in range(kline, vend + 1) if n in notes]
        if block and notes[block[0]][0].startswith("# Judged false after the first run") and prev_key == "pykeio/ort":
            finding_notes["pykeio/ort"] += [notes[n][0] for n in block]
            block = []
        if block and notes[block[0]][0].startswith("# redb is only checked") and k == "huggingface/tokenizers":
            finding_notes["cberner/redb"] += [notes[n][0] for n in block]
            block = []
        finding_notes[k] += [notes[n][0] for n in block + inner]
        prev_end, prev_key = vend, k

    out: dict[str, str] = {}
    for repo in repos:
        start, end = section[repo]
        # The opening comment block of the section heads the file.
        top = []
        n = start
        while n in notes and notes[n][1]:
            top.append(n)
            n += 1
        # Group the records by source line and everything but the matrix.
        groups: dict[tuple[Any, ...], dict[str, Any]] = {}
        for inv in held.INVOCATIONS[repo]:
            line = src_of[id(inv)]
            g = (line, inv["job"], inv["file"], inv["line"], inv["subcommand"], inv["links"],
                 tuple(inv["features"]), inv.get("count", 1))
            groups.setdefault(g, {"src": line, "inv": inv, "matrices": []})["matrices"].append(inv.get("matrix") or {})
        ordered = sorted(groups.values(), key=lambda e: e["src"])
        # Trailing comments on the lines of an inv call are its note.
        used: set[int] = set(top)
        for e in ordered:
            span = next(((a, b) for a, b in spans if a == e["src"]), None)
            if span is None:
                span = max(((a, b) for a, b in spans if a <= e["src"] <= b), default=(e["src"], e["src"]))
            e["note"] = [notes[n][0] for n in range(span[0], span[1] + 1) if n in notes and not notes[n][1]]
            used.update(n for n in range(span[0], span[1] + 1) if n in notes and not notes[n][1])
        # Every other comment of the section: above the first entry after it.
        rest = [n for n in range(start, end + 1) if n in notes and n not in used]
        for e in ordered:
            e["above"] = [n for n in rest if n < e["src"]]
            rest = [n for n in rest if n >= e["src"]]
        # Named lists: a combination list that more than one entry uses.
        counts = Counter(json.dumps(e["matrices"], sort_keys=True) for e in ordered if len(e["matrices"]) > 1)
        names: dict[str, str] = {}
        for e in ordered:
            k = json.dumps(e["matrices"], sort_keys=True)
            if counts.get(k, 0) > 1 and k not in names:
                base = re.sub(r"[^A-Za-z0-9_-]", "_", e["inv"]["job"])
                name, i = base, 2
                while name in names.values():
                    name, i = f"{base}_{i}", i + 1
                names[k] = name

        w: list[str] = []
        kind = "held-out audit truth of the first held-out set" if OUT.name == "heldout-first" else \
            "audit truth of the training set"
        w.append(f"# {repo}: {kind}, converted mechanically from")
        w.append(f"# {SRC} at {commit[:12]} (its lines {start}-{end} and its FINDINGS entry), no truth changed.")
        w.append(f"# The comments below are {Path(SRC).name}'s, verbatim, each where it stood in {Path(SRC).name}")
        w.append(f"# (`# {Path(SRC).name}:N` names the line an entry came from). Format: ../heldout/README.md.")
        w.append("#")
        w += [notes[n][0] for n in top]
        w.append(f"repository = {value(repo)}")
        w += commit_notes.get(repo, [])
        w.append(f"commit = {value(held.COMMITS[repo])}")
        if OUT.name == "heldout-first":
            w.append('written = "2026-12-01"')
        moved = getattr(held, "MOVED_TO_TRAINING", {})
        if repo in moved:
            w.append("# Moved to the training set: its results led to a fix (the truth is unchanged).")
            w += moved_notes.get(repo, [])
            w.append(f"moved_to_training = {value(moved[repo])}")
        if names:
            w.append("")
            w.append("[combinations]")
            for k, name in names.items():
                w.append(f"{name} = [")
                w += [f"  {value(m)}," for m in json.loads(k)]
                w.append("]")
        for e in ordered:
            inv = e["inv"]
            w.append("")
            w += [notes[n][0] for n in e["above"]]
            w.append(f"# {Path(SRC).name}:{e['src']}")
            w.append("[[invocation]]")
            for field in ("job", "file", "line"):
                w.append(f"{field} = {value(inv[field])}")
            w.append(f"subcommand = {value(inv['subcommand'])}")
            w.append(f"links = {value(inv['links'])}")
            w.append(f"features = {value(list(inv['features']))}")
            ms = e["matrices"]
            k = json.dumps(ms, sort_keys=True)
            if k in names:
                w.append(f"combinations = {value(names[k])}")
            elif ms != [{}]:
                if len(ms) == 1:
                    w.append(f"combinations = [{value(ms[0])}]")
                else:
                    w.append("combinations = [")
                    w += [f"  {value(m)}," for m in ms]
                    w.append("]")
            if inv.get("count", 1) != 1:
                w.append(f"count = {value(inv['count'])}")
            if e["note"]:
                w.append(f"note = {value(' '.join(c.lstrip('#').strip() for c in e['note']))}")
        w.append("")
        w += [notes[n][0] for n in rest]
        w += finding_notes.get(repo, [])
        for f in held.FINDINGS.get(repo, []):
            w.append("[[finding]]")
            for field in ("rule", "subject", "file", "line"):
                if field in f:
                    w.append(f"{field} = {value(f[field])}")
            assert set(f) <= {"rule", "subject", "file", "line"}, f
            w.append("")
        out[repo] = "\n".join(w).rstrip("\n") + "\n"
    return out


def check(commit: str) -> int:
    """load_data() of every TOML file against heldout.py at COMMIT: 0 when all are equal."""
    sys.path.insert(0, str(ROOT / "bench"))
    import audit_truth  # type: ignore[import-not-found]

    _, held, _ = load_module(commit)
    files = {p: audit_truth.load_data(p) for p in sorted(OUT.glob("*.toml"))}
    by_repo = {name: (p, truth) for p, (name, truth) in files.items()}
    bad = 0
    if sorted(by_repo) != sorted(held.INVOCATIONS):
        print(f"repositories differ: {sorted(set(by_repo) ^ set(held.INVOCATIONS))}")
        bad += 1
    import tomllib

    for repo in sorted(held.INVOCATIONS):
        if repo not in by_repo:
            continue
        path, truth = by_repo[repo]
        a = Counter(record_key(i) for i in held.INVOCATIONS[repo])
        b = Counter(record_key(i) for i in truth["invocations"])
        fa = Counter(json.dumps(f, sort_keys=True) for f in held.FINDINGS.get(repo, []))
        fb = Counter(json.dumps(f, sort_keys=True) for f in truth["findings"])
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        moved_ok = data.get("moved_to_training") == getattr(held, "MOVED_TO_TRAINING", {}).get(repo)
        ok = a == b and fa == fb and truth["commit"] == held.COMMITS[repo] and moved_ok
        runs = sum(i.get("count", 1) for i in held.INVOCATIONS[repo])
        print(f"{'same' if ok else 'DIFFERENT'}: {repo}: {sum(a.values())} records ({runs} runs with count), "
              f"{len(data.get('invocation', []))} [[invocation]] entries, {sum(fa.values())} findings, "
              f"commit {'same' if truth['commit'] == held.COMMITS[repo] else 'DIFFERENT'}, "
              f"moved_to_training {'same' if moved_ok else 'DIFFERENT'}")
        if not ok:
            bad += 1
            for k in sorted((a - b) | (b - a)):
                print(f"    {'only in the module' if a[k] > b[k] else 'only in TOML'}: {k}")
            for k in sorted((fa - fb) | (fb - fa)):
                print(f"    finding {'only in the module' if fa[k] > fb[k] else 'only in TOML'}: {k}")
    print("all equal" if not bad else f"{bad} different")
    return 1 if bad else 0


def main() -> int:
    global SRC, OUT
    if "--set" in sys.argv:
        SRC, OUT = SETS[sys.argv[sys.argv.index("--set") + 1]]
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", sys.argv[1]], capture_output=True, text=True,
                            check=True).stdout.strip()
    if "--write" in sys.argv[2:]:
        out = convert(commit)
        OUT.mkdir(exist_ok=True)
        for repo, body in out.items():
            (OUT / (repo.replace("/", "__") + ".toml")).write_text(body, encoding="utf-8")
    return check(commit)


if __name__ == "__main__":
    raise SystemExit(main())
