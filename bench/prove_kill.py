"""Fault injection at scale: SIGKILL `linkgate prove` at random moments, N times.

After each kill the next linkgate invocation must restore the file byte for
byte. The test suite runs 50 trials; this script runs as many as you ask.

Usage: python bench/prove_kill.py [TRIALS]
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import LINKGATE

CONFIG = """
[[gate]]
name = "fast"
command = ["sh", "-c", "sleep 0.1; grep -q NEEDED lib.txt || { echo '/usr/bin/ld: cannot find -lneeded' >&2; exit 1; }"]

[[gate.control]]
name = "drop-needed"
file = "lib.txt"
delete = "NEEDED"
"""


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    root = Path(tempfile.mkdtemp(prefix="linkgate-kill-"))
    (root / "linkgate.toml").write_text(CONFIG)
    lib = root / "lib.txt"
    lib.write_bytes(b"a\r\nNEEDED -lneeded\nz")
    (root / ".gitignore").write_text(".linkgate/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"],
                   check=True)
    want = hashlib.sha256(lib.read_bytes()).hexdigest()
    rng = random.Random(1)
    landed = 0
    for i in range(trials):
        p = subprocess.Popen([*LINKGATE, "prove", "-q"], cwd=root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0, 0.6))
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        landed += hashlib.sha256(lib.read_bytes()).hexdigest() != want
        subprocess.run([*LINKGATE, "recover"], cwd=root, capture_output=True)
        if hashlib.sha256(lib.read_bytes()).hexdigest() != want:
            raise SystemExit(f"trial {i}: file not restored")
    print(f"{trials} kills, {landed} while the file was mutated, 0 losses")


if __name__ == "__main__":
    main()
