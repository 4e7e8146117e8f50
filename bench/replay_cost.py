"""What replay, sweep and drop-directive controls cost, against what they replace.

Side by side in one run on a copy of the demo (GNU ld), medians of N:
1. `linkgate replay` vs the same link commands run bare by hand, one after the
   other (goal <= 1.2x) and side by side as replay runs them; also replay
   in-process, without the interpreter's start-up.
2. `linkgate sweep` over the build script's N directives vs N x (edit build.rs
   to drop the directive, `linkgate run`) (goal >= 5x faster).
3. `linkgate prove` of a drop-directive control vs the equivalent file control
   (delete the line from build.rs), and the drop-directive control vs the bare
   link (goal <= 1.5x).

Usage: python bench/replay_cost.py [REPEATS]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import LINKGATE, median, timed, workspace

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from linkgate import config as config_mod  # noqa: E402
from linkgate.replay import command  # noqa: E402
from linkgate.replay.run import load, replay_gate  # noqa: E402

CONTROLS = '''
[[gate.control]]
name = "by-replay"
drop-directive = "-lhelper"

[[gate.control]]
name = "by-file"
file = "build.rs"
delete = '^    "-lhelper",$'
'''
DIRECTIVES = ['    "-lcore",\n', '    "-lnutil",\n', '    "-lhelper",\n',
              '    "-ldeep", // core.c calls deep_value() itself: GNU ld wants it named here\n']


def bare_links(ws: Path) -> float:
    cfg = config_mod.load(ws / "linkgate.toml")
    recorded = load(cfg, cfg.gate("smoke"), "bfd")
    out = Path(tempfile.mkdtemp(prefix="linkgate-bare-"))
    t0 = time.perf_counter()
    for link in recorded.links:
        cmd = command.build(link.record, str(out / "o"))
        subprocess.run(cmd.argv, cwd=cmd.cwd, env=cmd.env, capture_output=True, check=True)
    return time.perf_counter() - t0


def bare_links_side_by_side(ws: Path) -> float:
    """The same link commands started together, as replay runs them (and cargo links)."""
    cfg = config_mod.load(ws / "linkgate.toml")
    recorded = load(cfg, cfg.gate("smoke"), "bfd")
    out = Path(tempfile.mkdtemp(prefix="linkgate-bare-"))
    cmds = [command.build(link.record, str(out / f"o{i}")) for i, link in enumerate(recorded.links)]
    t0 = time.perf_counter()
    running = [subprocess.Popen(c.argv, cwd=c.cwd, env=c.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for c in cmds]
    assert all(p.wait() == 0 for p in running)
    return time.perf_counter() - t0


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    ws = workspace(linkers='["bfd"]', extra=CONTROLS)
    os.chdir(ws)  # linkgate takes the repository root from where it runs
    timed([*LINKGATE, "run", "-q"], ws)
    cfg = config_mod.load(ws / "linkgate.toml")

    bare, side, cli, inproc = [], [], [], []
    for _ in range(n):
        bare.append(bare_links(ws))
        side.append(bare_links_side_by_side(ws))
        cli.append(timed([*LINKGATE, "replay", "smoke"], ws))
        t0 = time.perf_counter()
        assert replay_gate(cfg, cfg.gate("smoke"), "bfd").verdict == "linked"
        inproc.append(time.perf_counter() - t0)
    print(f"1. replay vs the bare link commands ({n} runs, medians, GNU ld, 2 links)")
    print(f"   bare links, one by one   {median(bare) * 1000:8.1f} ms")
    print(f"   bare links, side by side {median(side) * 1000:8.1f} ms")
    print(f"   linkgate replay          {median(cli) * 1000:8.1f} ms  ratio {median(cli) / median(bare):.2f}x one by one "
          f"(goal <= 1.2x), {median(cli) / median(side):.2f}x side by side")
    print(f"   replay in-process        {median(inproc) * 1000:8.1f} ms  ratio {median(inproc) / median(bare):.2f}x, "
          f"{median(inproc) / median(side):.2f}x")

    sweep = [timed([*LINKGATE, "sweep", "smoke", "-q"], ws) for _ in range(max(1, n // 3))]
    build = ws / "build.rs"
    original = build.read_text()
    edits = []
    for line in DIRECTIVES:
        build.write_text(original.replace(line, "", 1))
        edits.append(timed([*LINKGATE, "run", "-q"], ws, ok=(0, 1)))
    build.write_text(original)
    timed([*LINKGATE, "run", "-q"], ws)
    k = len(DIRECTIVES) + 1  # + the rpath directive the sweep also judges
    by_hand = sum(edits) / len(edits) * k
    print(f"2. sweep of {k} directives vs {k} x (edit build.rs, linkgate run)")
    print(f"   {k} edit+run          {by_hand:8.2f} s  ({sum(edits) / len(edits):.2f} s each, measured {len(edits)})")
    print(f"   linkgate sweep       {median(sweep):8.2f} s  speed-up {by_hand / median(sweep):.1f}x  (goal >= 5x)")

    by_replay = [timed([*LINKGATE, "prove", "-q", "--control", "by-replay"], ws) for _ in range(max(1, n // 2))]
    by_file = [timed([*LINKGATE, "prove", "-q", "--control", "by-file"], ws) for _ in range(max(1, n // 2))]
    from linkgate.prove.run import prove

    in_process = []
    for _ in range(max(1, n // 2)):
        t0 = time.perf_counter()
        [outcome] = prove(cfg, ["smoke"], ["by-replay"])
        assert outcome.outcome == "caught", outcome.reason
        in_process.append(time.perf_counter() - t0)
    one_link = min(bare)
    print("3. prove: drop-directive (replay) vs the equivalent file control (full runs)")
    print(f"   file control         {median(by_file):8.2f} s")
    print(f"   drop-directive       {median(by_replay):8.2f} s  speed-up {median(by_file) / median(by_replay):.1f}x")
    print(f"   drop-directive, in-process {median(in_process):5.2f} s  vs the bare links "
          f"{median(in_process) / one_link:.2f}x  (goal <= 1.5x; CLI: {median(by_replay) / one_link:.2f}x)")


if __name__ == "__main__":
    main()
