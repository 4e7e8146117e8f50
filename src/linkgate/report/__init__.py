"""Reporters as a registry: a format name maps to a render function.

Render functions take a Report and return text, except ``human``, which
writes to a rich Console (for colour and live terminals) and returns "".
Modules are imported only when their format is asked for.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any, Protocol

from linkgate.errors import EXIT_ERROR, LinkgateError, UsageError
from linkgate.report.model import Case, Finding, Report

__all__ = ["Case", "Finding", "Report", "FORMATS", "emit", "render", "write_atomic"]


class Renderer(Protocol):
    def __call__(self, report: Report, console: Any | None = None) -> str: ...


# name -> "module:function"
FORMATS: dict[str, str] = {
    "human": "linkgate.report.human:render",
    "json": "linkgate.report.jsonfmt:render",
    "markdown": "linkgate.report.markdown:render",
    "github": "linkgate.report.github:render",
    "junit": "linkgate.report.junit:render",
    "sarif": "linkgate.report.sarif:render",
}


def _load(fmt: str) -> Renderer:
    try:
        target = FORMATS[fmt]
    except KeyError:
        raise UsageError(
            f"unknown format {fmt!r}", hint="choose one of: " + ", ".join(FORMATS)
        ) from None
    module, func = target.split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        raise UsageError(f"format {fmt!r} is not available in this build") from None
    renderer: Renderer = getattr(mod, func)
    return renderer


def render(report: Report, fmt: str, console: Any | None = None) -> str:
    return _load(fmt)(report, console)


def write_atomic(path: str | Path, text: str) -> None:
    """Write via a temporary file in the same directory, then os.replace (the
    file a symlink names; a device or FIFO is written in place).

    mkstemp creates the file 0600; a report is for the whole team, so it gets
    the mode a plain ``open(path, "w")`` would: the existing file's mode, or
    0666 under the umask.
    """
    import stat
    import tempfile

    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        # A device, FIFO or terminal (/dev/stdout, /dev/null, a named pipe): written in
        # place. Renaming over it would put a regular file where the device was.
        _write_in_place(Path(path), text)
        return
    # A symlink stays one: the file it names is replaced, never the link itself.
    target = Path(os.path.realpath(path))
    mode = 0o666 & ~_umask() if st is None else stat.S_IMODE(st.st_mode)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise OutputError(target, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:  # disk full, read-only, the directory gone: nothing half-written
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(target, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_in_place(target: Path, text: str) -> None:
    try:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise OutputError(target, exc) from None


class OutputError(LinkgateError):
    """An output file that could not be written; the old one, if any, is as it was."""

    return_code = EXIT_ERROR

    def __init__(self, path: Path, exc: OSError) -> None:
        why = f"[Errno {exc.errno}] {exc.strerror}" if exc.errno else str(exc)
        super().__init__(f"cannot write {path}: {why}; nothing was written",
                         hint="free space or choose another path")


def _umask() -> int:
    # os.umask can only be read by setting it; put it straight back.
    current = os.umask(0o022)
    os.umask(current)
    return current


def emit(report: Report, fmt: str, output: str | None) -> None:
    """Render once, at the end, to stdout or atomically to *output*."""
    if fmt == "human" and output is None:
        from linkgate.console import stdout_console

        render(report, "human", stdout_console())
        return
    if fmt == "human":
        import io

        from linkgate.console import PlainConsole

        buf = io.StringIO()
        render(report, "human", PlainConsole(buf))
        text = buf.getvalue()
    else:
        text = render(report, fmt)
    if output is None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
        sys.stdout.flush()
    else:
        write_atomic(output, text)
