"""Which linker the recording wrapper runs, and how it is put in place (cargo's precedence)."""

from __future__ import annotations

import os
from pathlib import Path

from linkgate.gate import wrapper

TRIPLE = "x86_64-unknown-linux-gnu"
VAR = "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER"


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO_TARGET_", "CARGO_ENCODED", "RUSTFLAGS"))}
    env["CARGO_HOME"] = str(tmp_path / "cargo-home")
    env.update(extra)
    return env


def test_default_is_cc_through_the_target_linker_variable(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    up = wrapper.wrap_env(tmp_path / "t", ["test", "--target", TRIPLE], ws, env_for(tmp_path))
    assert up["LINKGATE_REAL_LINKER"] == "cc"
    assert up[VAR] == str(wrapper.wrapper_path(tmp_path / "t"))
    assert os.access(up[VAR], os.X_OK)
    assert "CARGO_ENCODED_RUSTFLAGS" not in up  # the user's config rustflags stay in force


def test_config_linker_relative_to_the_directory_holding_dot_cargo(tmp_path):
    ws = tmp_path / "ws"
    (ws / "crate").mkdir(parents=True)
    (ws / ".cargo").mkdir()
    (ws / ".cargo" / "config.toml").write_text(f'[target.{TRIPLE}]\nlinker = "tools/mycc"\n')
    up = wrapper.wrap_env(tmp_path / "t", ["test", f"--target={TRIPLE}"], ws / "crate", env_for(tmp_path))
    assert up["LINKGATE_REAL_LINKER"] == str(ws / "tools/mycc")


def test_environment_beats_config_and_rustflags_beat_both(tmp_path):
    ws = tmp_path / "ws"
    (ws / ".cargo").mkdir(parents=True)
    (ws / ".cargo" / "config.toml").write_text(f'[target.{TRIPLE}]\nlinker = "from-config"\n')
    env = env_for(tmp_path, **{VAR: "clang"})
    args = ["build", "--target", TRIPLE]
    assert wrapper.wrap_env(tmp_path / "t", args, ws, env)["LINKGATE_REAL_LINKER"] == "clang"
    env["CARGO_ENCODED_RUSTFLAGS"] = "-Copt-level=1\x1f-Clinker=gcc-12"
    up = wrapper.wrap_env(tmp_path / "t", args, ws, env)
    assert up["LINKGATE_REAL_LINKER"] == "gcc-12"
    # rustflags' -Clinker wins over the target setting, so ours goes last there
    flags = up["CARGO_ENCODED_RUSTFLAGS"].split("\x1f")
    assert flags == ["-Copt-level=1", "-Clinker=gcc-12", f"-Clinker={wrapper.wrapper_path(tmp_path / 't')}"]


def test_wrapper_is_compiled_once_and_recompiled_when_stale(tmp_path):
    exe = wrapper.ensure(tmp_path / "t", os.environ)
    mtime = exe.stat().st_mtime_ns
    assert wrapper.ensure(tmp_path / "t", os.environ) == exe and exe.stat().st_mtime_ns == mtime
    stamp = exe.with_name("linkgate-link.sha256")
    stamp.write_text("old\n")
    assert wrapper.ensure(tmp_path / "t", os.environ) == exe
    assert stamp.read_text().strip() != "old"
