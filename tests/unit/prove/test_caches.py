"""Which fingerprints a restore invalidates, on target dirs laid out as cargo 1.95 lays them out."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

from linkgate.prove.caches import EVERY_PACKAGE, CacheScope, invalidate, scope_for
from linkgate.prove.journal import Repository, recover

RUN = "run-build-script-build-script-build.json"


def unit(profile: Path, name: str, files: dict[str, str]) -> Path:
    d = profile / ".fingerprint" / name
    d.mkdir(parents=True)
    for f, text in files.items():
        (d / f).write_text(text)
    return d


def run_record(local: list[object]) -> dict[str, str]:
    return {RUN: json.dumps({"rustc": 1, "local": local})}


def workspace(tmp_path: Path, zsys_local: list[object]) -> tuple[Path, Path, dict[str, Path]]:
    """A repo with packages zsys (cc-style) and app, and one warm target dir."""
    root = tmp_path / "repo"
    for pkg in ("zsys", "app"):
        (root / pkg).mkdir(parents=True)
        (root / pkg / "Cargo.toml").write_text(f'[package]\nname = "{pkg}"\nversion = "0.1.0"\n')
    (root / "zsys/vendor").mkdir()
    (root / "zsys/vendor/a.c").write_text("int a;\n")
    (root / "shared.h").write_text("\n")
    profile = tmp_path / "target/release"
    units = {
        "zsys-lib": unit(profile, "zsys-1111111111111111", {"lib-zsys.json": "{}"}),
        "zsys-build": unit(profile, "zsys-2222222222222222", {"build-script-build-script-build.json": "{}"}),
        "zsys-run": unit(profile, "zsys-3333333333333333", run_record(zsys_local)),
        "app-lib": unit(profile, "app-4444444444444444", {"lib-app.json": "{}"}),
        "app-run": unit(profile, "app-5555555555555555", run_record([{"RerunIfChanged": {"paths": ["build.rs"]}}])),
    }
    return root, tmp_path / "target", units


ENV_ONLY = [{"RerunIfEnvChanged": {"var": "CC", "val": None}}]


def gone(units: dict[str, Path]) -> set[str]:
    return {k for k, d in units.items() if not d.exists()}


def test_blind_build_script_loses_every_unit_of_its_package_only(tmp_path):
    root, tdir, units = workspace(tmp_path, ENV_ONLY)
    scope = scope_for(root, "zsys/vendor/a.c", [tdir])
    assert (scope.package, scope.package_dir) == ("zsys", str((root / "zsys").resolve()))
    invalidate(scope)
    assert gone(units) == {"zsys-lib", "zsys-build", "zsys-run"}


def test_a_watched_file_invalidates_nothing(tmp_path):
    for local in ([{"RerunIfChanged": {"paths": ["vendor"]}}],  # a directory is scanned recursively
                  [{"RerunIfChanged": {"paths": ["vendor/a.c"]}}],
                  [{"Precalculated": "x"}]):  # no rerun-if-* line: any file of the package
        root, tdir, units = workspace(tmp_path / str(len(list(tmp_path.iterdir()))), local)
        assert invalidate(scope_for(root, "zsys/vendor/a.c", [tdir])) == []
        assert gone(units) == set()


def test_a_file_outside_every_package_invalidates_every_blind_build_script(tmp_path):
    root, tdir, units = workspace(tmp_path, ENV_ONLY)
    scope = scope_for(root, "shared.h", [tdir])
    assert scope.package == EVERY_PACKAGE
    invalidate(scope)
    # app's script watches only its own build.rs, so it is blind to shared.h too.
    assert gone(units) == set(units)


def test_recover_restores_then_invalidates_and_old_journals_still_read(tmp_path):
    root, tdir, units = workspace(tmp_path, ENV_ONLY)
    repo = Repository(root)
    c_file = root / "zsys/vendor/a.c"
    original = c_file.read_bytes()
    repo.mutate("zsys/vendor/a.c", b"int renamed;\n", scope_for(root, "zsys/vendor/a.c", [tdir]))
    doc = json.loads(repo.journal.read_text())
    assert doc["entries"][0]["caches"]["package"] == "zsys"
    # What a build from the mutated tree left behind after the kill:
    assert recover(root, announce=False) == ["zsys/vendor/a.c"]
    assert c_file.read_bytes() == original
    assert gone(units) == {"zsys-lib", "zsys-build", "zsys-run"}
    # A journal written before caches existed is restored as before.
    repo.mutate("zsys/vendor/a.c", b"x\n")
    doc = json.loads(repo.journal.read_text())
    del doc["entries"][0]["caches"]
    repo.journal.write_text(json.dumps(doc))
    assert recover(root, announce=False) == ["zsys/vendor/a.c"]
    assert c_file.read_bytes() == original


def test_waits_for_a_cargo_still_holding_the_build_directory(tmp_path):
    """An orphaned cargo writes fingerprints when it ends; they must go too."""
    root, tdir, units = workspace(tmp_path, ENV_ONLY)
    lock = tdir / "release" / ".cargo-lock"
    lock.write_text("")
    late = tdir / "release/.fingerprint/zsys-6666666666666666"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(lock)!r}, os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True); time.sleep(1.0)\n"
        f"os.makedirs({str(late)!r}); open({str(late / 'lib-zsys.json')!r}, 'w').close()\n"
    )], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    removed = invalidate(scope_for(root, "zsys/vendor/a.c", [tdir]))
    holder.wait()
    assert str(late) in removed and not late.exists()
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released again
    os.close(fd)


def test_scope_round_trips_through_json(tmp_path):
    s = CacheScope("/r/z/a.c", "zsys", "/r/z", ("/t/default", "/t/bfd"))
    assert CacheScope.from_json(json.loads(json.dumps(s.to_json()))) == s
