"""What the recording linker wrapper adds to one link.

Runs the demo gate once (so the wrapper recorded the test harness's link),
then alternates, N times each and side by side, the recorded link command run
bare (`cc ...`) and the same command through the wrapper, both writing to a
scratch output. Prints the medians and the difference. Goal: under 5 ms.

Usage: python bench/wrapper_overhead.py [PAIRS] [LINKER ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from common import LINKGATE, median, timed, workspace

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from linkgate.gate import wrapper  # noqa: E402
from linkgate.gate.linkrecord import read_records  # noqa: E402
from linkgate.replay import command  # noqa: E402


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    linkers = sys.argv[2:] or ["default", "bfd"]
    ws = workspace(linkers="[" + ", ".join(f'"{ln}"' for ln in linkers) + "]")
    timed([*LINKGATE, "run", "-q"], ws)
    print(f"per-link overhead of the recording wrapper ({pairs} pairs, medians)")
    for linker in linkers:
        tdir = ws / "target" / "linkgate" / "smoke" / linker
        rec = next(r for r in read_records(tdir) if r.output and "link_smoke" in r.output and r.exit_status == 0)
        scratch = Path(tempfile.mkdtemp(prefix="linkgate-wrap-bench-"))
        cmd = command.build(rec, str(scratch / "out"))
        exe = wrapper.ensure(tdir, os.environ)
        env = dict(cmd.env, LINKGATE_REAL_LINKER=cmd.argv[0], LINKGATE_LINKS_DIR=str(scratch / "records"))
        (scratch / "records").mkdir()
        bare, wrapped = [], []
        for _ in range(pairs):
            bare.append(timed(list(cmd.argv), Path(cmd.cwd), env))
            wrapped.append(timed([str(exe), *cmd.argv[1:]], Path(cmd.cwd), env))
        # The same pair with `true` as the linker isolates the wrapper's own
        # cost (fork, exec, keeping the objects, writing the record) from
        # the linker's run-to-run noise on a shared machine.
        null_env = dict(env, LINKGATE_REAL_LINKER="true")
        null_bare, null_wrapped = [], []
        for _ in range(pairs):
            null_bare.append(timed(["true", *cmd.argv[1:]], Path(cmd.cwd), null_env))
            null_wrapped.append(timed([str(exe), *cmd.argv[1:]], Path(cmd.cwd), null_env))
        own = median(null_wrapped) - median(null_bare)
        print(f"  {linker:8} wrapper alone (linker = true): {own * 1000:6.2f} ms")
        added = median(wrapped) - median(bare)
        print(f"  {linker:8} bare {median(bare) * 1000:7.1f} ms   wrapped {median(wrapped) * 1000:7.1f} ms   "
              f"added {added * 1000:6.2f} ms  (goal < 5 ms: {'met' if added < 0.005 else 'NOT met'})")


if __name__ == "__main__":
    main()
