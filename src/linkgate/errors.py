"""One error hierarchy; each fatal class carries its own stable exit code.

Exit codes (documented in docs/exit-codes.md, stable across releases):
  0  everything passed
  1  a finding: a link failed, a control was not caught, a filter misses the surface
  2  usage or configuration error (nothing was built or changed)
  3  compile failure or tool error, without a link failure
  4  another linkgate holds this repository's lock
  5  a linker a gate names is not installed (linker-missing): nothing was judged
"""

from __future__ import annotations

import errno as _errno

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_ERROR = 3
EXIT_LOCKED = 4
EXIT_LINKER_MISSING = 5


class LinkgateError(Exception):
    """Base of every error linkgate reports to the user as one message."""

    return_code = EXIT_ERROR

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def render(self) -> str:
        if self.hint:
            return f"{self.message}\n  hint: {self.hint}"
        return self.message


class ConfigError(LinkgateError):
    """Bad configuration: always names file, line and key."""

    return_code = EXIT_USAGE

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = ""
        if file:
            where = file + (f":{line}" if line else "")
            if key:
                where += f": {key}"
            where += ": "
        elif key:
            where = f"{key}: "
        super().__init__(where + message, hint=hint)
        self.file = file
        self.line = line
        self.key = key


class UsageError(LinkgateError):
    return_code = EXIT_USAGE


class UndecidedChange(UsageError):
    """What changed cannot be told: an event value that is not a commit or a ref,
    a commit git does not know, a payload that names no base. ``should-run``
    answers "run" on it (fail closed); ``changed`` reports it as a usage error."""


class ToolNotFound(LinkgateError):
    """A program linkgate needs (cargo, git, a linker) is not installed."""

    return_code = EXIT_ERROR


class LinkerMissing(ToolNotFound):
    """``linker-missing``: a linker a selected gate names is not installed here. An
    environment error, never a link verdict: nothing links or is judged."""

    return_code = EXIT_LINKER_MISSING


class CommandFailed(LinkgateError):
    """A helper command failed; carries everything needed to reproduce it."""

    return_code = EXIT_ERROR

    def __init__(self, argv: list[str], returncode: int, stdout: str, stderr: str) -> None:
        shown = " ".join(argv)
        body = f"command failed (exit {returncode}): {shown}"
        for name, text in (("stdout", stdout), ("stderr", stderr)):
            text = text.strip()
            if text:
                body += f"\n  {name}:\n" + "\n".join("    " + ln for ln in text.splitlines()[-20:])
        super().__init__(body)
        self.argv = argv
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


class LockHeld(LinkgateError):
    return_code = EXIT_LOCKED


class RecoveryError(LinkgateError):
    """A journal exists but the file cannot be restored safely."""

    return_code = EXIT_ERROR


class HistoryError(LinkgateError):
    """The history file is not ours (garbage, another program's database, a newer
    schema) or cannot be opened; it is never modified or deleted."""

    return_code = EXIT_USAGE


class Interrupted(BaseException):
    """A signal (SIGINT, SIGTERM, SIGHUP) stopped a run that mutates files.

    Raised instead of KeyboardInterrupt while files are journalled: CPython
    3.11 remembers a KeyboardInterrupt that escapes any exec() (dataclasses
    and lazy imports run some) and then kills itself with SIGINT at exit even
    after it was handled, which would hide the documented exit status.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def return_code(self) -> int:
        return 128 + self.signum


class RefusedFile(LinkgateError, OSError):
    """A file linkgate will not read: it resolves outside the repository, is not a
    regular file (a FIFO, a device, a directory), or is over the size limit for
    its kind (docs/configuration.md, "Files linkgate reads"). Nothing of it was read.

    It is an OSError too, with the reason as ``strerror``: every reader that
    already treats an unreadable file as one (a message, or absent) fails closed
    on a refused one without knowing of it."""

    return_code = EXIT_USAGE

    def __init__(self, shown: str, reason: str, *, why: str, hint: str | None = None) -> None:
        super().__init__(f"{shown}: {reason}; not read",
                         hint=hint or "linkgate reads only regular files inside the repository")
        self.errno = _errno.EPERM
        self.strerror = reason
        self.filename = shown
        self.shown = shown
        self.reason = reason
        self.why = why  # "outside", "directory", "not-regular" or "too-large"


class UnsafeState(LinkgateError):
    """linkgate's own state (``.linkgate/`` and what it writes there) is not a
    regular file inside a real directory: a symlink, a FIFO, a device. Nothing
    was written through it."""

    return_code = EXIT_USAGE
