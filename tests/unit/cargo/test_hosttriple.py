"""The host triple is asked of rustc once per binary, then read from the cache."""

from __future__ import annotations

import os
from pathlib import Path

from linkgate.cargo.hosttriple import cache_file, host_triple


def fake_rustc(bin_dir: Path, triple: str) -> Path:
    """A `rustc` that counts its calls in calls.txt and prints *triple* as its host."""
    bin_dir.mkdir(exist_ok=True)
    exe = bin_dir / "rustc"
    exe.write_text(f"#!/bin/sh\necho x >> {bin_dir}/calls.txt\necho 'rustc 9.9.9'\necho 'host: {triple}'\n")
    exe.chmod(0o755)
    return exe


def calls(bin_dir: Path) -> int:
    path = bin_dir / "calls.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_asks_once_then_reads_the_cache_until_the_binary_changes(tmp_path):
    bin_dir = tmp_path / "bin"
    exe = fake_rustc(bin_dir, "x86_64-unknown-linux-gnu")
    env = {"PATH": str(bin_dir), "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    assert host_triple("rustc", env) == "x86_64-unknown-linux-gnu"
    assert host_triple("rustc", env) == "x86_64-unknown-linux-gnu"
    assert calls(bin_dir) == 1
    assert cache_file(env).is_file()
    # A new rustc at the same path: a new key.
    fake_rustc(bin_dir, "aarch64-unknown-linux-gnu")
    st = exe.stat()
    os.utime(exe, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert host_triple("rustc", env) == "aarch64-unknown-linux-gnu"
    assert calls(bin_dir) == 2
    # Another toolchain chosen through the environment: asked again.
    assert host_triple("rustc", {**env, "RUSTUP_TOOLCHAIN": "nightly"}) == "aarch64-unknown-linux-gnu"
    assert calls(bin_dir) == 3


def test_an_unwritable_cache_still_answers(tmp_path):
    bin_dir = tmp_path / "bin"
    fake_rustc(bin_dir, "x86_64-unknown-linux-gnu")
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory would go")
    env = {"PATH": str(bin_dir), "XDG_CACHE_HOME": str(blocker), "HOME": str(tmp_path)}
    assert host_triple("rustc", env) == "x86_64-unknown-linux-gnu"
    assert host_triple("rustc", env) == "x86_64-unknown-linux-gnu"
    assert calls(bin_dir) == 2
