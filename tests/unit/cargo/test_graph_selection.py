"""The packages a command builds, as cargo selects them: `--manifest-path` of a member's manifest
selects that member alone, not the workspace's default members (cargo build, "Package Selection")."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.cargo import graph

PKG = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n{deps}'


@pytest.mark.parametrize("offline_registry", [False, True])
def test_a_members_manifest_selects_that_member(tmp_path: Path, offline_registry: bool) -> None:
    (tmp_path / "Cargo.toml").write_text('[workspace]\nmembers = ["app", "cli", "lib"]\nresolver = "2"\n')
    # A registry dependency cannot resolve offline: the --no-deps reading is taken, and must agree.
    registry = 'serde = "1"\n' if offline_registry else ""
    for name, deps in (("app", f'[dependencies]\nlib = {{ path = "../lib" }}\n{registry}'), ("cli", ""), ("lib", "")):
        (tmp_path / name / "src").mkdir(parents=True)
        (tmp_path / name / "Cargo.toml").write_text(PKG.format(name=name, deps=deps))
        (tmp_path / name / "src" / "lib.rs").write_text("")

    def built(*args: str) -> list[str]:
        g = graph.load(tmp_path, args)
        return sorted(p.name for p in g.reachable_packages())

    assert built("--manifest-path", str(tmp_path / "cli" / "Cargo.toml")) == ["cli"]
    assert built("--manifest-path", "app/Cargo.toml") == ["app", "lib"]
    assert built("--manifest-path", str(tmp_path / "Cargo.toml")) == ["app", "cli", "lib"]
