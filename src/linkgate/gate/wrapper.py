"""Put the recording linker wrapper between rustc and the linker it would have run.

The wrapper (``data/wrapper/linkgate-link.c``) is compiled once per target
directory into ``<target-dir>/linkgate-links/bin/linkgate-link``. That path
never changes, and cargo hashes the linker path into every unit's
fingerprint (FACTS.md, "What rebuilds on a warm tree"), so warm runs stay
warm; a new wrapper source is recompiled in place, at the same path.

It is installed as the target's linker through ``CARGO_TARGET_<TRIPLE>_LINKER``
rather than through rustflags: rustflags set in the environment make cargo
ignore those in ``.cargo/config.toml``, and the ``default`` linker must see
exactly the user's configuration. The linker rustc would otherwise have run
(the configured one, else ``cc``) goes to the wrapper in
``$LINKGATE_REAL_LINKER``. rustc picks the linker *flavour* from the target,
not from this unknown file name, so rust-lld, ``-fuse-ld=...`` and
``-Clinker-features=-lld`` behave as before.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from linkgate import proc, repofs, statedir
from linkgate.errors import CommandFailed, ToolNotFound
from linkgate.gate.linkrecord import LINKS_DIR

WRAPPER_NAME = "linkgate-link"
_SEP = "\x1f"


# Read beside the package rather than through importlib.resources, whose
# imports (tempfile, zipfile, ...) cost every run a few milliseconds: linkgate
# is installed as files (it hands this one to a C compiler), never run from a zip.
_SOURCE = Path(__file__).resolve().parents[1] / "data" / "wrapper" / "linkgate-link.c"


def source() -> bytes:
    return _SOURCE.read_bytes()


def wrapper_path(tdir: Path) -> Path:
    return tdir / LINKS_DIR / "bin" / WRAPPER_NAME


def ensure(tdir: Path, env: Mapping[str, str]) -> Path:
    """The compiled wrapper for *tdir*, compiled now when missing or outdated."""
    exe = wrapper_path(tdir)
    src = source()
    digest = hashlib.sha256(src).hexdigest()
    stamp = exe.with_name(WRAPPER_NAME + ".sha256")
    try:
        if exe.is_file() and stamp.read_text().strip() == digest:
            return exe
    except OSError:
        pass
    exe.parent.mkdir(parents=True, exist_ok=True)
    c_file = exe.with_name(f".{WRAPPER_NAME}.{os.getpid()}.c")
    tmp = exe.with_name(f".{WRAPPER_NAME}.{os.getpid()}")
    statedir.create_fresh(c_file, src)
    import shlex

    cc = env.get("CC") or "cc"
    try:
        proc.run([*shlex.split(cc), "-O2", "-o", str(tmp), str(c_file)], env=env)
    except (CommandFailed, ToolNotFound) as exc:
        raise ToolNotFound(
            f"cannot compile linkgate's link recorder with {cc}: {exc.message.splitlines()[0]}",
            hint="install a C compiler (rustc needs one to link on Linux anyway), or set CC",
        ) from None
    finally:
        c_file.unlink(missing_ok=True)
    # Another linkgate may compile the same file at once: replace atomically.
    os.replace(tmp, exe)
    statedir.replace_with(stamp, digest + "\n")
    return exe


@functools.lru_cache(maxsize=4)
def host_triple(rustc: str = "rustc") -> str:
    from linkgate.cargo import hosttriple

    return hosttriple.host_triple(rustc)


def target_triple(cargo_args: Sequence[str], env: Mapping[str, str]) -> str:
    for i, arg in enumerate(cargo_args):
        if arg == "--target" and i + 1 < len(cargo_args):
            return cargo_args[i + 1]
        if arg.startswith("--target="):
            return arg.split("=", 1)[1]
    return env.get("CARGO_BUILD_TARGET") or host_triple(env.get("RUSTC", "rustc"))


def _linker_env_var(triple: str) -> str:
    return "CARGO_TARGET_" + re.sub(r"[^A-Za-z0-9]", "_", triple).upper() + "_LINKER"


def _rustflags(env: Mapping[str, str]) -> list[str]:
    encoded = env.get("CARGO_ENCODED_RUSTFLAGS")
    if encoded is not None:
        return [f for f in encoded.split(_SEP) if f]
    return env.get("RUSTFLAGS", "").split()


def _rustflags_linker(flags: Sequence[str]) -> str | None:
    found = None
    for i, flag in enumerate(flags):
        if flag.startswith("-Clinker="):
            found = flag.split("=", 1)[1]
        elif flag in ("-C", "--codegen") and i + 1 < len(flags) and flags[i + 1].startswith("linker="):
            found = flags[i + 1].split("=", 1)[1]
    return found


def _config_linker(triple: str, cwd: Path, env: Mapping[str, str]) -> str | None:
    """``target.<triple>.linker`` from the nearest cargo config that sets it.

    Cargo resolves a value containing a slash against the directory that
    holds ``.cargo/``; a bare name is looked up on PATH.
    """
    dirs = [cwd.resolve(), *cwd.resolve().parents]
    home = Path(env.get("CARGO_HOME") or Path.home() / ".cargo")
    candidates = [d / ".cargo" / n for d in dirs for n in ("config.toml", "config")]
    candidates += [home / "config.toml", home / "config"]
    for path in candidates:
        try:
            data = tomllib.loads(repofs.read_text(path, inside=None))
        except (OSError, ValueError):
            continue
        value = data.get("target", {}).get(triple, {}).get("linker")
        if isinstance(value, str) and value:
            return str(path.parent.parent / value) if "/" in value else value
    return None


def real_linker(triple: str, cwd: Path, env: Mapping[str, str]) -> str:
    """The linker rustc would run here without linkgate (cargo's precedence order)."""
    return (
        _rustflags_linker(_rustflags(env))
        or env.get(_linker_env_var(triple))
        or _config_linker(triple, cwd, env)
        or "cc"
    )


def wrap_env(tdir: Path, cargo_args: Sequence[str], cwd: Path, env: Mapping[str, str]) -> dict[str, str]:
    """Env updates that route this target's links through the recording wrapper."""
    exe = ensure(tdir, env)
    triple = target_triple(cargo_args, env)
    flags = _rustflags(env)
    updates = {
        "LINKGATE_REAL_LINKER": real_linker(triple, cwd, env),
        "LINKGATE_LINKS_DIR": str(tdir / LINKS_DIR),
    }
    if _rustflags_linker(flags) is not None:
        # A -Clinker in rustflags beats the target's linker setting, so ours
        # must go there too, after the user's (rustc takes the last one).
        updates["CARGO_ENCODED_RUSTFLAGS"] = _SEP.join([*flags, f"-Clinker={exe}"])
    else:
        updates[_linker_env_var(triple)] = str(exe)
    return updates
