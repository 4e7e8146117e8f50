"""Thin command line: parse, dispatch, map errors to one message and an exit code.

Commands live in ``linkgate.commands.<verb>`` and are imported only when
invoked, so ``linkgate --version`` and ``should-run`` start fast.
"""

from __future__ import annotations

import sys

from linkgate import __version__
from linkgate.errors import EXIT_ERROR, EXIT_USAGE, Interrupted, LinkgateError

# Not `from typing import TYPE_CHECKING`: typing (with re and enum) is most of
# what `--version` would import; mypy reads this constant by its name.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

    import click

# Imported from here by older callers and tests; they live with the click group.
_FROM_GROUP = ("cli", "COMMANDS", "EXAMPLES", "READ_ONLY")


def __getattr__(name: str) -> object:
    if name in _FROM_GROUP:
        from linkgate.commands import group

        return getattr(group, name)
    raise AttributeError(name)



def main(argv: Sequence[str] | None = None, prog_name: str = "linkgate") -> int:
    """Entry point; takes argv explicitly so tests call it in-process."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        # click's own wording for version_option, without parsing anything.
        sys.stdout.write(f"linkgate, version {__version__}\n")
        return 0
    import click

    from linkgate.commands.group import cli

    try:
        rv: Any = cli.main(args=args, prog_name=prog_name, standalone_mode=False)
    except LinkgateError as exc:
        _print_error(exc.render())
        return exc.return_code
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        _print_error(exc.format_message())
        return EXIT_USAGE
    except click.exceptions.Abort:
        _print_error("interrupted")
        return 130
    except KeyboardInterrupt:
        _print_error("interrupted")
        return 130
    except Interrupted as exc:
        import signal

        _print_error(f"interrupted by {signal.Signals(exc.signum).name}; mutated files were restored")
        return exc.return_code
    except BrokenPipeError:
        return EXIT_ERROR
    except OSError as exc:
        # A path from the input that no file system takes (a name past NAME_MAX, a loop
        # of links) or may open: the input's fault, said as one line, not a crash.
        import errno

        if exc.filename is None or exc.errno not in (errno.ENAMETOOLONG, errno.ELOOP, errno.EACCES,
                                                      errno.ENOTDIR, errno.EISDIR):
            return _crash_or_raise(exc)
        _print_error(f"cannot use {exc.filename}: {exc.strerror}\n  hint: give a path this file system accepts")
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the one place a bug becomes one line, not a traceback
        return _crash_or_raise(exc)
    if rv is None:
        return 0
    return int(rv)


def _crash_or_raise(exc: BaseException) -> int:
    import os

    if os.environ.get("LINKGATE_DEBUG") == "1":
        raise exc
    return _crash(exc)


def cargo_main(argv: Sequence[str] | None = None) -> int:
    """``cargo linkgate ARGS``: cargo runs ``cargo-linkgate linkgate ARGS`` (the
    subcommand's name first, as for cargo-hack and cargo-nextest); drop it."""
    args = list(sys.argv[1:] if argv is None else argv)
    return main(args[1:] if args[:1] == ["linkgate"] else args, prog_name="cargo linkgate")


def entry() -> None:
    """The console script ``linkgate`` and ``python -m linkgate``: main, then a quick exit."""
    _fewer_collections()
    _exit_now(main())


def cargo_entry() -> None:
    """The console script ``cargo-linkgate``."""
    _fewer_collections()
    _exit_now(cargo_main())


def _fewer_collections() -> None:
    """Start-up makes a hundred modules' worth of objects and almost no garbage; at the
    default threshold (a collection every 700 allocations) the collector runs dozens of
    times for nothing, some 4 ms of every run (bench/run_overhead.py). It still runs,
    at a thirtieth of the rate, so long commands (audit) keep reclaiming cycles."""
    import gc

    gc.set_threshold(20_000, 10, 10)


def _exit_now(code: int) -> None:
    """Exit with *code* without tearing the interpreter down.

    When main has returned, every file linkgate wrote is closed and every context
    manager has run (locks released, journals removed, temporary directories
    deleted): what normal exit still does is free about a hundred modules one by
    one, some 9 ms on every run (bench/run_overhead.py), for nothing. linkgate
    registers no atexit handler and leaves no non-daemon thread behind. The
    standard streams are flushed first; a reader that went away is exit 1, as
    main reports a broken pipe."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or EXIT_ERROR
    os._exit(code)


def _crash(exc: BaseException) -> int:
    """Keep the traceback for the bug report, show the user one line."""
    import os
    import time
    import traceback

    from pathlib import Path

    text = (
        f"linkgate {__version__}, {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n"
        f"argv: {sys.argv!r}\ncwd: {os.getcwd()}\n\n" + "".join(traceback.format_exception(exc))
    )
    try:
        cwd = Path.cwd()
    except OSError:  # the working directory was deleted under us
        cwd = Path(tempfile_dir())
    log = _write_crash_log(cwd, text)
    first = (str(exc).strip().splitlines() or [""])[0]
    what = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    if log is not None:
        root = log.parent.parent  # <root>/.linkgate/crash.log
        inside = log.parent.name == ".linkgate" and cwd.is_relative_to(root)
        shown = os.path.relpath(log, cwd) if inside else str(log)
        _print_error(f"internal error: {what}, see `{shown}`")
    else:
        _print_error(f"internal error: {what} (the traceback could not be saved; rerun with LINKGATE_DEBUG=1)")
    return EXIT_ERROR


def tempfile_dir() -> str:
    import tempfile

    return tempfile.gettempdir()


def _write_crash_log(cwd: Path, text: str) -> Path | None:
    """``.linkgate/crash.log`` at the repository root; outside a repository (or
    when it is read-only) a file in the temp dir, never a stray ``.linkgate/``."""
    import os
    import tempfile
    from pathlib import Path

    from linkgate.config import repository_root
    from linkgate.statedir import STATE_DIR, open_file

    root = repository_root(cwd)
    if root is not None:
        # Never through a symlink or into a FIFO a repository committed as
        # .linkgate or .linkgate/crash.log: open_file refuses both.
        try:
            fd = open_file(root, "crash.log", os.O_WRONLY | os.O_CREAT)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.truncate(0)
                fh.write(text)
            return Path(root, STATE_DIR, "crash.log")
        except Exception:  # noqa: BLE001 - unsafe or unwritable: the temp dir below
            pass
    try:
        # mkstemp: a fresh file (O_EXCL), never one another user planted there.
        fd, name = tempfile.mkstemp(prefix=f"linkgate-crash-{os.getpid()}-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        return Path(name)
    except OSError:
        return None


def _print_error(message: str) -> None:
    sys.stderr.write(f"linkgate: error: {message}\n")
    sys.stderr.flush()
