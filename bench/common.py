"""Shared by the bench scripts: a warm copy of the demo workspace and a timer."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Measure linkgate as an installed package runs: byte-compiled. This machine
# may set PYTHONDONTWRITEBYTECODE, which would make every start-up recompile
# the editable install's modules, a cost no installed copy pays.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src")], check=True)
DEMO = ROOT / "src" / "linkgate" / "data" / "demo"
# The console script, as users and CI run it (`python -m` adds runpy's start-up);
# `python -m linkgate` where linkgate is not installed as a script.
_SCRIPT = Path(sys.executable).with_name("linkgate")
LINKGATE = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "linkgate"]


def workspace(linkers: str = '["default"]', extra: str = "") -> Path:
    dest = Path(tempfile.mkdtemp(prefix="linkgate-bench-")) / "ws"
    shutil.copytree(DEMO, dest, ignore=shutil.ignore_patterns("target"))
    cfg = dest / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('["default", "bfd"]', linkers) + extra)
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    (dest / ".gitignore").write_text("target/\n.linkgate/\nCargo.lock\n")
    subprocess.run(["git", "-C", str(dest), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(dest), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"],
                   check=True)
    return dest


def timed(argv: list[str], cwd: Path, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,)) -> float:
    t0 = time.perf_counter()
    cp = subprocess.run(argv, cwd=cwd, env=env, capture_output=True)
    dt = time.perf_counter() - t0
    if cp.returncode not in ok:
        raise SystemExit(f"{argv} exited {cp.returncode}:\n{cp.stderr.decode(errors='replace')[-2000:]}")
    return dt


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def median_ms(argv: list[str], runs: int, cwd: Path | None = None,
              env: dict[str, str] | None = None) -> tuple[float, str]:
    """Median wall milliseconds of *argv* over *runs* after one warm-up run, and the last stdout."""
    subprocess.run(argv, cwd=cwd, capture_output=True, env=env)  # warm-up: page cache, bytecode
    times, out = [], ""
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
        times.append((time.perf_counter() - t0) * 1000)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed: {done.stderr}")
        out = done.stdout
    return statistics.median(times), out
