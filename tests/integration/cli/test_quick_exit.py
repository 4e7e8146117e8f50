"""The console entry exits without interpreter teardown (cli._exit_now): what was
written still arrives whole, exit codes are main's, and a reader that goes away
early gives exit 1 and one quiet end, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _log(tmp_path: Path, n: int = 3000) -> Path:
    lines = [f"/usr/bin/ld: main.o: in function `f{i}':\nmain.c:(.text+0x{i:x}): undefined reference to `sym_{i}'"
             for i in range(n)]
    log = tmp_path / "link.log"
    log.write_text("\n".join(lines) + "\ncollect2: error: ld returned 1 exit status\n")
    return log


def test_a_large_json_document_arrives_whole_through_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "linkgate", "explain", "--format", "json", str(_log(tmp_path))],
                          capture_output=True, text=True)
    doc = json.loads(done.stdout)  # the whole document, flushed before the quick exit
    assert done.returncode == 1 and len(done.stdout) > 65536
    assert len(doc["diagnostics"]) > 100 and doc["diagnostics"][0]["symbol"] == "sym_0"


def test_exit_codes_are_mains(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "linkgate", "no-such-verb"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 2 and "no such command" in done.stderr


def test_a_reader_that_goes_away_gives_exit_1_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "linkgate", "explain", "--format", "json", str(_log(tmp_path))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(100)
    proc.stdout.close()  # the reader leaves, as `| head -c 100` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and "Exception ignored" not in err, err
