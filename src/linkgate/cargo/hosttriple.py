"""The host triple of a rustc, cached per binary so a run does not start rustc.

``rustc -vV`` costs about 30 ms, on every run, for one line that only changes
when the binary does. The answer is kept in the user cache directory
(``$XDG_CACHE_HOME/linkgate/host-triples.json``, else ``~/.cache/...``), keyed on
the resolved rustc path, its size and mtime, and ``RUSTUP_TOOLCHAIN``: a new
toolchain behind the same path (a rustup proxy) is a new key when it comes from
the environment; a host-foreign toolchain chosen by ``rust-toolchain.toml`` behind
an unchanged proxy is not seen (such a toolchain cannot run here anyway).
A cache that cannot be read or written is ignored: rustc is asked instead.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from linkgate import proc, repofs, statedir
from linkgate.errors import ToolNotFound

_FILE = "host-triples.json"


def cache_file(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(base) / "linkgate" / _FILE


def _key(rustc: str, env: Mapping[str, str]) -> str | None:
    exe = shutil.which(rustc, path=env.get("PATH"))
    if exe is None:
        return None
    try:
        st = os.stat(exe)
    except OSError:
        return None
    return f"{os.path.realpath(exe)}\0{st.st_size}\0{st.st_mtime_ns}\0{env.get('RUSTUP_TOOLCHAIN', '')}"


def _ask(rustc: str, env: Mapping[str, str]) -> str:
    out = proc.run([rustc, "-vV"], env=dict(env)).stdout
    for line in out.splitlines():
        if line.startswith("host:"):
            return line.split(":", 1)[1].strip()
    raise ToolNotFound(f"{rustc} -vV printed no host triple", hint="check the Rust installation")


def host_triple(rustc: str = "rustc", env: Mapping[str, str] | None = None) -> str:
    """*rustc*'s host triple, from the cache when the binary is unchanged."""
    env = os.environ if env is None else env
    key = _key(rustc, env)
    path = cache_file(env)
    cached: dict[str, str] = {}
    if key is not None:
        try:
            data = json.loads(repofs.read_text(path, inside=None))
            cached = {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            cached = {}
        if key in cached:
            return cached[key]
    triple = _ask(rustc, env)
    if key is not None:
        cached[key] = triple
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            statedir.replace_with(path, json.dumps(dict(list(cached.items())[-32:]), indent=1) + "\n")
        except OSError:
            pass  # a read-only home still gets its answer
    return triple
