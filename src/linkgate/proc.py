"""The one place linkgate starts other programs.

Every subprocess goes through here so that missing tools, failures and
streaming are handled the same way everywhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from linkgate.errors import CommandFailed, ToolNotFound

_INSTALL_HINTS = {
    "cargo": "install Rust with rustup (https://rustup.rs) or put cargo on PATH",
    "git": "install git (apt-get install git)",
    "npm": "install Node.js and npm",
}


@dataclass(frozen=True)
class Completed:
    """A finished command: its argv, exit status and captured output."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


def which(program: str, env: Mapping[str, str] | None = None) -> str:
    """Resolve *program* on PATH or raise ToolNotFound with an install hint."""
    path = (env or os.environ).get("PATH")
    found = shutil.which(program, path=path)
    if found is None:
        raise ToolNotFound(
            f"{program} is not installed or not on PATH",
            hint=_INSTALL_HINTS.get(program, f"install {program} and retry"),
        )
    return found


def run(
    argv: Sequence[str],
    *,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = True,
    stdin: str | None = None,
) -> Completed:
    """Run to completion, capturing text output; raise CommandFailed if check."""
    exe = which(argv[0], env)
    try:
        cp = subprocess.run(
            [exe, *argv[1:]],
            cwd=cwd,
            env=dict(env) if env is not None else None,
            input=stdin,
            capture_output=True,
            text=True,
            errors="replace",
        )
    except OSError as exc:  # e.g. not executable
        raise ToolNotFound(f"cannot start {argv[0]}: {exc}") from exc
    done = Completed(tuple(argv), cp.returncode, cp.stdout, cp.stderr)
    if check and cp.returncode != 0:
        raise CommandFailed(list(argv), cp.returncode, cp.stdout, cp.stderr)
    return done


@dataclass(frozen=True)
class Job:
    """One command for ``run_many``."""
    argv: tuple[str, ...]
    cwd: str | Path | None = None
    env: Mapping[str, str] | None = None


def run_many(jobs: Sequence[Job], workers: int | None = None) -> list[tuple[Completed, float, float]]:
    """Run independent commands side by side, at most *workers* (the CPU count) at once,
    as cargo links independent units; each one's result, wall-clock start (time.time())
    and seconds, in the order given. A command that cannot start raises as ``run`` does,
    once the others have finished.

    Written on threading rather than concurrent.futures, which imports logging: some
    5 ms more start-up for every replay, whose whole budget is a fifth of its links
    (bench/replay_cost.py). threading is loaded already (click imports it)."""
    import threading
    import time

    results: list[tuple[Completed, float, float] | BaseException | None] = [None] * len(jobs)
    slots = threading.BoundedSemaphore(max(1, workers or os.cpu_count() or 1))

    def work(i: int, job: Job) -> None:
        try:
            began, t0 = time.time(), time.monotonic()
            results[i] = (run(job.argv, cwd=job.cwd, env=job.env, check=False), began, time.monotonic() - t0)
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            results[i] = exc
        finally:
            slots.release()

    threads = []
    for i, job in enumerate(jobs):
        slots.acquire()
        if len(jobs) == 1:
            work(i, job)  # one command: no thread to start
            continue
        thread = threading.Thread(target=work, args=(i, job), daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return [r for r in results if isinstance(r, tuple)]


class Stream:
    """A running process whose stdout is read line by line as it arrives.

    stderr is collected in full on a background thread so a chatty stderr can
    never block the child while we wait on stdout.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        import threading

        exe = which(argv[0], env)
        self.argv = tuple(argv)
        try:
            self._proc = subprocess.Popen(
                [exe, *argv[1:]],
                cwd=cwd,
                env=dict(env) if env is not None else None,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                text=True,
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as exc:
            raise ToolNotFound(f"cannot start {argv[0]}: {exc}") from exc
        self._stderr_chunks: list[str] = []
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr_chunks.append(line)

    def lines(self) -> Iterator[str]:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            yield line.rstrip("\n")

    def wait(self) -> int:
        rc = self._proc.wait()
        self._stderr_thread.join()
        return rc

    @property
    def stderr(self) -> str:
        return "".join(self._stderr_chunks)

    def terminate(self) -> None:
        """Stop the child and its process group (cargo spawns rustc and linkers)."""
        import signal

        if self._proc.poll() is None:
            try:
                os.killpg(self._proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                self._proc.wait()
