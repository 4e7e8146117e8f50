#!/usr/bin/env python3
"""The worst wall time and peak memory per class of hostile input, each case a
fresh `linkgate` process (os.wait4 gives its peak RSS).

    .venv/bin/python bench/adversarial.py [CLASS ...]   # e.g. outside "special files"

Classes and their heaviest cases (tests/adversarial/ holds the full suite):
  configuration  20,000 gates; 5,000 nested arrays; a 5,000-character name
  generated CI   `ci github` with hostile values in every copied key; a why of
                 20,000 U+2028 (each escaped in the comment); --write into a
                 450 KB workflow (read back by both YAML versions)
  workflows      an alias bomb (10**18 nodes); 13,000 steps in 494 KB; an 8 MB
                 script (over GitHub's 500 KB); 3,000 nested `$(` and `if`
  logs           a 1,000,000-character undefined symbol; 20 MB of UTF-16; a
                 3 MB line with no newline
  events         a payload of 200,000 nested arrays; a `before` of --output=FILE
  special files  a FIFO as a workflow and as a history; a 3 GB sparse Makefile;
                 /dev/zero as a log and as an event payload
  outside        `make -C ../x`, a workflow and a script that are symlinks out
  value bombs    `x=$x$x` 64 times; `${x//?/$x}`; PowerShell doubling; a Makefile
                 variable that refers to itself; tenfold Makefile variables
  regex bombs    a control's `delete = "(a+)+$"`; `[[ $x =~ (a+)+b ]]`
  walks          `surface --static` on WalkDir::new("/"), a glob over symlink
                 loops, 100,000 rerun-if-changed lines
  explain encodings  100 MB of dense failures; a failure among 1,000,000
                 `ld: warning` lines; UTF-16 without a BOM; a failure ending a
                 3 MB line; JSON-lines records
Prints, per class, the worst case's wall seconds and peak RSS in MiB (GNU
time's %M), and each case's exit code (every one must be in 0..4: no internal
error).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINKGATE = [sys.executable, "-m", "linkgate"]


def measure(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(wall seconds, peak RSS MiB, exit code). GNU time runs the case: a child
    forked straight from this process would report this process's own peak
    (Linux carries the old address space's high-water mark across exec)."""
    report = Path(tempfile.mkstemp(prefix="linkgate-bench-rss-")[1])
    t0 = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(report), *argv], cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    seconds = time.perf_counter() - t0
    kib = int(report.read_text().split()[-1])
    report.unlink()
    if done.returncode not in range(5) or "internal error" in done.stderr:
        print(f"  !! {argv[3:6]}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return seconds, kib / 1024, done.returncode


def git_init(repo: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"],
                   check=True)


def configuration(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    cases = []
    texts = {
        "20,000 gates": "".join(f'[[gate]]\nname = "g{i}"\ncommand = ["true"]\npaths = ["s/{i}/**"]\n\n'
                                for i in range(20_000)),
        "5,000 nested arrays": '[[gate]]\nname = "g"\ncommand = ["true"]\nx = ' + "[" * 5000 + "]" * 5000 + "\n",
        "a 5,000-character name": '[[gate]]\nname = "' + "g" * 5000 + '"\ncommand = ["true"]\n',
    }
    for name, text in texts.items():
        repo = base / f"cfg-{len(cases)}"
        repo.mkdir()
        (repo / "linkgate.toml").write_text(text)
        cases.append((name, [*LINKGATE, "matrix"], repo, None))
    return cases


def generated_ci(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    repo = base / "ci"
    shutil.copytree(ROOT / "tests" / "fixtures" / "ci" / "repo", repo)
    cfg = repo / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('env = { RT_CUDA_ARCHITECTURES = "121" }',
                                           'env = { A = "it\'s \\"x\\" $(id) `id`\\n${HOME}" }'))
    git_init(repo)
    seps = repo.parent / "ci-separators"
    shutil.copytree(repo, seps)
    cfg = seps / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('why = "', 'why = "' + "x\\u2028  evil: 1" * 20_000, 1))
    big = repo.parent / "ci-big-workflow"
    shutil.copytree(repo, big)
    wf = big / ".github" / "workflows" / "ci.yml"
    wf.write_text(wf.read_text() + "".join(f"  j{i}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo {i}\n"
                                          f"      - run: cargo check --features f{i}\n" for i in range(4000)))
    return [("hostile env values", [*LINKGATE, "ci", "github", "xla-link", "--repository", "o/n"], repo, None),
            ("a 450 KB workflow (4,000 jobs), --write",
             [*LINKGATE, "ci", "github", "xla-link", "--repository", "o/n", "--write"], big, None),
            ("a why of 20,000 U+2028 line breaks", [*LINKGATE, "ci", "github", "xla-link", "--repository", "o/n"],
             seps, None),
            ("an expression in provision", [*LINKGATE, "ci", "github", "xla-link", "--repository", "o/n' || '"],
             repo, None)]


def workflows(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    head = "on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
    bomb = ["on: [push]", "x0: &a0 [" + ",".join(["1"] * 10) + "]"]
    bomb += [f"x{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 18)]
    bomb += ["jobs:", "  build:", "    runs-on: ubuntu-latest", "    strategy:", "      matrix:", "        os: *a17",
             "    steps:", "      - run: cargo build"]
    texts = {
        "alias bomb (10**18 nodes)": "\n".join(bomb) + "\n",
        "13,000 steps in 494 KB": head + "    steps:\n" + "      - run: cargo check --features f\n" * 13000,
        "8 MB script": head + "    steps:\n      - run: |\n" + "          cargo check; echo $X\n" * 300000,
        "3,000 nested $(": head + "    steps:\n      - run: echo " + "$(" * 3000 + ")" * 3000 + "\n",
        "3,000 nested if": head + "    steps:\n      - run: |\n" + "          if true; then\n" * 3000
        + "          cargo build\n" + "          fi\n" * 3000,
    }
    cases = []
    for name, text in texts.items():
        repo = base / f"wf-{len(cases)}"
        (repo / ".github" / "workflows").mkdir(parents=True)
        (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
        (repo / ".github" / "workflows" / "ci.yml").write_text(text)
        cases.append((name, [*LINKGATE, "audit", "--repo", str(repo), "--format", "json"], repo, None))
    return cases


def logs(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    block = ("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x5): undefined reference to `f'\n"
             "collect2: error: ld returned 1 exit status\n")
    texts = {
        "a 1,000,000-character symbol": ("main.c:(.text+0x5): undefined reference to `" + "x" * 1_000_000
                                         + "'\ncollect2: error: ld returned 1 exit status\n").encode(),
        "20 MB of UTF-16": (block * (20_000_000 // len(block) // 2)).encode("utf-16"),
        "a 3 MB line": b"ld: error: " + b"q" * (3 << 20),
    }
    cases = []
    for name, data in texts.items():
        path = base / f"log-{len(cases)}.log"
        path.write_bytes(data)
        cases.append((name, [*LINKGATE, "explain", str(path), "--format", "json"], base, None))
    return cases


def events(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    repo = base / "events"
    repo.mkdir()
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["build.rs"]\n')
    git_init(repo)
    cases = []
    for name, text in {"200,000 nested arrays": "[" * 200_000 + "]" * 200_000,
                       "before = --output=FILE": '{"ref": "refs/heads/main", "before": "--output=%s",'
                       ' "repository": {"default_branch": "main"}}' % (base / "trap")}.items():
        path = base / f"event-{len(cases)}.json"
        path.write_text(text)
        env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(path)}
        env.pop("GITHUB_OUTPUT", None)
        cases.append((name, [*LINKGATE, "should-run", "g"], repo, env))
    return cases


def special_files(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    repo = base / "special"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncommand = ["true"]\npaths = ["build.rs"]\n')
    (repo / ".github" / "workflows" / "ci.yml").write_text(
        "on: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n")
    os.mkfifo(repo / ".github" / "workflows" / "fifo.yml")
    os.mkfifo(repo / "history.sqlite")
    with open(repo / "Makefile", "wb") as fh:
        fh.truncate(3 << 30)
    git_init(repo)
    env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": "/dev/zero"}
    env.pop("GITHUB_OUTPUT", None)
    return [("a FIFO workflow, a 3 GB Makefile", [*LINKGATE, "audit", "--repo", str(repo), "--format", "json"], repo,
             None),
            ("/dev/zero as a log", [*LINKGATE, "explain", "/dev/zero", "--format", "json"], repo, None),
            ("a FIFO as the history", [*LINKGATE, "cost", "--history", str(repo / "history.sqlite")], repo, None),
            ("/dev/zero as the event payload", [*LINKGATE, "should-run", "g"], repo, env)]


def outside(base: Path) -> list[tuple[str, list[str], Path, dict[str, str] | None]]:
    out = base / "out"
    out.mkdir()
    (out / "Makefile").write_text("all:\n\tcargo build --features leaked\n")
    (out / "x.sh").write_text("cargo build --features leaked\n")
    (out / "wf.yml").write_text("on: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                                "      - run: cargo build --features leaked\n")
    repo = base / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (repo / ".github" / "workflows" / "ci.yml").write_text(
        "on: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make -C ../out\n"
        "      - run: ./x.sh\n")
    (repo / "x.sh").symlink_to(out / "x.sh")
    (repo / ".github" / "workflows" / "wf.yml").symlink_to(out / "wf.yml")
    return [("make -C ../x, linked script and workflow",
             [*LINKGATE, "audit", "--repo", str(repo), "--format", "json"], repo, None)]


Cases = list[tuple[str, list[str], Path, "dict[str, str] | None"]]
CARGO_TOML = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'


def _audit_repo(base: Path, name: str, script: str, shell: str = "", files: dict[str, str] | None = None) -> Path:
    repo = base / name
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "Cargo.toml").write_text(CARGO_TOML)
    for rel, text in (files or {}).items():
        (repo / rel).write_text(text)
    body = "".join(f"          {line}\n" for line in script.splitlines())
    (repo / ".github" / "workflows" / "ci.yml").write_text(
        "on: [push]\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n" + body
        + (f"        shell: {shell}\n" if shell else ""))
    return repo


def value_bombs(base: Path) -> Cases:
    tenfold = "\n".join(["A = aaaaaaaaaa"] + [f"{chr(66 + i)} = " + f"$({chr(65 + i)})" * 10 for i in range(12)])
    repos = {
        "x=$x$x, 64 times": _audit_repo(base, "dbl", "x=ab\n" + "x=$x$x\n" * 64 + "cargo build $x"),
        "${x//?/$x}, 6 times": _audit_repo(base, "repl", "x=abcd\n" + "x=${x//?/$x}\n" * 6 + "cargo build"),
        "PowerShell doubling": _audit_repo(base, "pwsh", '$x = "ab"\n' + '$x = "$x$x"\n' * 64 + "cargo build $x",
                                           shell="pwsh"),
        "X = $(X)$(X)": _audit_repo(base, "self", "make", files={"Makefile": "X = $(X)$(X)\nall:\n\tcargo build $(X)\n"}),
        "tenfold Makefile variables": _audit_repo(base, "ten", "make",
                                                  files={"Makefile": tenfold + "\nall:\n\tcargo test $(M)\n"}),
    }
    return [(name, [*LINKGATE, "audit", "--repo", str(repo), "--format", "json"], repo, None)
            for name, repo in repos.items()]


def regex_bombs(base: Path) -> Cases:
    repo = base / "prove"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "main.rs").write_text("fn main() {}\n")
    (repo / "Cargo.toml").write_text(CARGO_TOML)
    (repo / "data.txt").write_text(("a" * 40 + "b\n") * 1000)
    (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n\n[[gate.control]]\n'
                                        'name = "c"\nfile = "data.txt"\ndelete = "(a+)+$"\n')
    git_init(repo)
    shell = _audit_repo(base, "shell", "x=" + "a" * 5000 + "c\nif [[ $x =~ (a+)+b ]]; then cargo build; fi")
    return [('delete = "(a+)+$" (1,000 lines)', [*LINKGATE, "prove", "--repo", str(repo), "-q"], repo, None),
            ("[[ $x =~ (a+)+b ]]", [*LINKGATE, "audit", "--repo", str(shell), "--format", "json"], shell, None)]


def walks(base: Path) -> Cases:
    cases: Cases = []
    scripts = {
        'WalkDir::new("/")': 'fn main() { cc::Build::new().files(WalkDir::new("/").into_iter()'
                             '.map(|e| e.unwrap().path().to_owned())).compile("x"); }\n',
        "glob over symlink loops": 'fn main() { cc::Build::new().files(glob::glob("csrc/**/*.c").unwrap()'
                                   '.map(|p| p.unwrap())).compile("x"); }\n',
        "100,000 rerun-if-changed lines": 'fn main() {\n    println!("cargo:rustc-link-lib=static=foo");\n'
        + "".join(f'    println!("cargo:rerun-if-changed=csrc/f{i}.c");\n' for i in range(100_000)) + "}\n",
    }
    for name, text in scripts.items():
        repo = base / f"walk-{len(cases)}"
        (repo / "src").mkdir(parents=True)
        (repo / "csrc" / "sub").mkdir(parents=True)
        (repo / "csrc" / "a.c").write_text("")
        os.symlink("..", repo / "csrc" / "sub" / "up")
        os.symlink(".", repo / "csrc" / "self")
        (repo / "src" / "main.rs").write_text("fn main() {}\n")
        (repo / "Cargo.toml").write_text(CARGO_TOML)
        (repo / "build.rs").write_text(text)
        (repo / "linkgate.toml").write_text('[[gate]]\nname = "g"\ncargo = ["build"]\n')
        git_init(repo)
        cases.append((name, [*LINKGATE, "surface", "g", "--static", "--repo", str(repo), "--format", "json"],
                      repo, None))
    return cases


def explain_encodings(base: Path) -> Cases:
    import json

    block = ("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x5): undefined reference to `f'\n"
             "collect2: error: ld returned 1 exit status\n")
    texts = {
        "100 MB of dense failures": block.encode() * (100_000_000 // len(block)),
        "a failure among 1,000,000 ld: warning lines": b"ld: warning: odd\n" * 1_000_000 + block.encode(),
        "20 MB of UTF-16 without a BOM": (block * (20_000_000 // len(block) // 2)).encode("utf-16-le"),
        "a failure ending a 3 MB line": b"x" * (3 << 20) + b" main.c:(.text+0x5): undefined reference to `f'\n",
        "JSON lines, 200,000 records": "".join(json.dumps({"line": line}) + "\n"
                                               for line in block.splitlines() * 66_000).encode(),
    }
    cases: Cases = []
    for name, data in texts.items():
        path = base / f"enc-{len(cases)}.log"
        path.write_bytes(data)
        cases.append((name, [*LINKGATE, "explain", str(path), "--format", "json"], base, None))
    return cases


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="linkgate-bench-adversarial-"))
    classes = {"configuration": configuration, "generated CI": generated_ci, "workflows": workflows,
               "logs": logs, "events": events, "special files": special_files, "outside": outside,
               "value bombs": value_bombs, "regex bombs": regex_bombs, "walks": walks,
               "explain encodings": explain_encodings}
    only = set(sys.argv[1:])  # class names to run (all when none), e.g. `outside`
    classes = {k: v for k, v in classes.items() if not only or k in only}
    print(f"{'class':<15} {'worst case (time)':<32} {'s':>6}  {'worst case (memory)':<32} {'MiB':>6}")
    for label, build in classes.items():
        directory = base / label.replace(" ", "-")
        directory.mkdir()
        results = [(name, *measure(argv, cwd, env)) for name, argv, cwd, env in build(directory)]
        slow = max(results, key=lambda r: r[1])
        big = max(results, key=lambda r: r[2])
        print(f"{label:<15} {slow[0]:<32} {slow[1]:>6.2f}  {big[0]:<32} {big[2]:>6.1f}")
        for name, seconds, mib, code in results:
            print(f"    {name:<40} exit {code}  {seconds:6.2f} s  {mib:6.1f} MiB")
    assert not (base / "events" / "trap").exists(), "should-run passed an event value to git as an option"
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
