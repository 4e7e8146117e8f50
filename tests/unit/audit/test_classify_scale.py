"""An audit reads a workspace's members once, not once per cargo invocation
(a CI with a job per crate of a 1,000-crate workspace made it quadratic)."""

from __future__ import annotations

from pathlib import Path

from linkgate.audit import classify
from linkgate.cargo import manifests
from linkgate.cargo.cargoargs import parse


def workspace(root: Path, n: int) -> None:
    (root / "Cargo.toml").write_text('[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n')
    for i in range(n):
        d = root / "crates" / f"c{i}"
        (d / "src").mkdir(parents=True)
        (d / "Cargo.toml").write_text(f'[package]\nname = "c{i}"\nversion = "0.1.0"\nedition = "2021"\n')
        (d / "src" / "lib.rs").write_text("")


def test_members_are_listed_once_for_many_invocations(tmp_path, monkeypatch):
    workspace(tmp_path, 30)
    listed = []
    real = manifests.member_dirs

    def counting(root, patterns=None):  # type: ignore[no-untyped-def]
        listed.append(root.path)
        return real(root, patterns)

    monkeypatch.setattr(manifests, "member_dirs", counting)
    for i in range(30):
        call = parse(["cargo", "test", "-p", f"c{i}", "--no-run"])
        assert call is not None
        got = classify.selected_manifests(tmp_path, "", call)
        assert got is not None and [m.name for m in got] == [f"c{i}"]
    assert len(listed) == 1, len(listed)
