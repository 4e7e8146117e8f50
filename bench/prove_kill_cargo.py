"""Fault injection on a real cargo prove: SIGKILL it at random moments, then `run`.

The control renames a function in a C source that the cc-style -sys fixture
(tests/fixtures/ccsys) compiles without cargo watching it. After every kill
the next `linkgate run` must restore the file byte for byte and link under
every linker: a cache poisoned by the mutated build would make it fail.

Usage: python bench/prove_kill_cargo.py [TRIALS]   (about 5 s per trial here)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import LINKGATE, ROOT

CONTROL = """
[[gate.control]]
name = "rename-checksum"
file = "zsys/vendor/zlite/checksum.c"
replace = { pattern = '^unsigned long zl_checksum\\(', with = 'unsigned long zl_checksum_renamed(' }
"""


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    root = Path(tempfile.mkdtemp(prefix="linkgate-killc-")) / "ccsys"
    shutil.copytree(ROOT / "tests" / "fixtures" / "ccsys", root)
    (root / "linkgate.toml").write_text((root / "linkgate.toml").read_text() + CONTROL)
    (root / ".gitignore").write_text("target/\nCargo.lock\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "b"],
                   check=True)
    c_file = root / "zsys/vendor/zlite/checksum.c"
    want = hashlib.sha256(c_file.read_bytes()).hexdigest()
    subprocess.run([*LINKGATE, "run", "-q"], cwd=root, check=True, capture_output=True)
    t0 = time.monotonic()
    subprocess.run([*LINKGATE, "prove", "-q", "--control", "rename-checksum"], cwd=root, capture_output=True)
    span = time.monotonic() - t0
    rng = random.Random(7)
    landed = 0
    for i in range(trials):
        p = subprocess.Popen([*LINKGATE, "prove", "-q", "--control", "rename-checksum"], cwd=root,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0, span))
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        landed += (root / ".linkgate" / "journal.json").exists()
        done = subprocess.run([*LINKGATE, "run", "-q", "--format", "json"], cwd=root, capture_output=True,
                              text=True)
        verdicts = {r["linker"]: r["verdict"] for r in json.loads(done.stdout)["results"]}
        if hashlib.sha256(c_file.read_bytes()).hexdigest() != want:
            raise SystemExit(f"trial {i}: file not restored")
        if set(verdicts.values()) != {"linked"}:
            raise SystemExit(f"trial {i}: run after the kill says {verdicts}:\n{done.stderr}")
    print(f"{trials} kills ({landed} while the C source was mutated), every following run linked "
          f"under every linker; one prove took {span:.1f} s")


if __name__ == "__main__":
    main()
