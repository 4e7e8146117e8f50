"""scripts/test-deps, which `make test` runs first, on machines that lack the
suite's tools. The system packages of this machine cannot be removed (other
work needs them), so each test gives the script a PATH that holds only the
tools it means the machine to have: the real ones, linked in, with apt-get,
sudo and npm as recorders that "install" by adding the commands a package
provides."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BASH = shutil.which("bash") or "/bin/bash"
# A machine of this kind before scripts/test-deps: Rust, gcc, binutils, git, node; no mold, lld, Chromium.
PRESENT = ["cargo", "rustc", "cc", "ar", "ld.bfd", "ld.gold", "readelf", "git", "node", "npm"]
PROVIDES = {"mold": ["mold"], "lld": ["ld.lld"], "chromium": ["chromium"], "binutils": ["ld.gold", "ld.bfd",
            "readelf", "ar"], "git": ["git"], "gcc": ["cc"], "nodejs": ["node"], "npm": ["npm"]}


class Machine:
    def __init__(self, tmp_path: Path, present: list[str], uid: int = 0) -> None:
        self.repo = tmp_path / "repo"
        (self.repo / "scripts").mkdir(parents=True)
        shutil.copy2(ROOT / "scripts" / "test-deps", self.repo / "scripts" / "test-deps")
        oracle = self.repo / "tests" / "oracle"
        oracle.mkdir(parents=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(ROOT / "tests" / "oracle" / name, oracle / name)
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.log = tmp_path / "calls"
        self.log.write_text("")
        for tool in present:
            real = shutil.which(tool)
            assert real, f"{tool} is required on this machine"
            (self.bin / tool).symlink_to(real)
        self.stub("id", f'echo {uid}\n')
        self.stub("sudo", 'echo "sudo $*" >> "$CALLS"\n'
                          'while [[ "$1" == *=* ]]; do export "$1"; shift; done\nexec "$@"\n')
        provides = "\n".join(f"      {pkg}) cmds=({' '.join(cmds)}) ;;" for pkg, cmds in PROVIDES.items())
        self.stub("apt-get", 'echo "apt-get $* (DEBIAN_FRONTEND=$DEBIAN_FRONTEND)" >> "$CALLS"\n'
                             '[ "$1" = install ] || exit 0\n'
                             'for arg in "$@"; do\n  cmds=()\n  case "$arg" in\n'
                             f'{provides}\n  esac\n'
                             '  for c in "${cmds[@]}"; do printf "#!/bin/bash\\nexit 0\\n" > "$STUBS/$c"; '
                             '/bin/chmod +x "$STUBS/$c"; done\ndone\n')
        if "npm" in present:
            (self.bin / "npm").unlink()
            self.stub("npm", 'echo "npm $*" >> "$CALLS"\n/bin/mkdir -p "$3/node_modules"\n'
                             ': > "$3/node_modules/.package-lock.json"\n')

    def stub(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text("#!/bin/bash\n" + body)
        path.chmod(0o755)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {"PATH": str(self.bin), "CALLS": str(self.log), "STUBS": str(self.bin), "HOME": str(self.repo)}
        return subprocess.run([BASH, str(self.repo / "scripts" / "test-deps"), *args], cwd=self.repo.parent,
                              env=env, capture_output=True, text=True, timeout=60)

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()


def test_dry_run_lists_what_a_machine_without_them_would_install(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    done = machine.run("--dry-run")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "scripts/test-deps: missing mold ld.lld chromium: installing mold lld chromium",
        "would run: apt-get update -qq",
        "would run: apt-get install -y -qq mold lld chromium",
        "would run: npm ci --prefix tests/oracle --no-audit --no-fund --silent",
    ]
    assert machine.calls() == []


def test_as_root_it_installs_them_then_has_nothing_left_to_do(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert machine.calls() == [
        "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)",
        "apt-get install -y -qq mold lld chromium (DEBIAN_FRONTEND=noninteractive)",
        "npm ci --prefix tests/oracle --no-audit --no-fund --silent",
    ]
    again = machine.run()
    assert again.returncode == 0, again.stderr
    assert again.stdout == "scripts/test-deps: nothing to install: every tool the suite runs is present\n"
    assert len(machine.calls()) == 3


def test_a_changed_lock_file_runs_npm_ci_again(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    assert machine.run().returncode == 0
    lock = machine.repo / "tests" / "oracle" / "package-lock.json"
    stamp = machine.repo / "tests" / "oracle" / "node_modules" / ".package-lock.json"
    os.utime(lock, (stamp.stat().st_mtime + 10, stamp.stat().st_mtime + 10))
    assert machine.run().returncode == 0
    assert machine.calls()[-1] == "npm ci --prefix tests/oracle --no-audit --no-fund --silent"


def test_not_root_it_goes_through_sudo(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT, uid=1000)
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert machine.calls()[:2] == ["sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq",
                                   "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)"]


def test_not_root_and_no_sudo_is_one_clear_message(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT, uid=1000)
    (machine.bin / "sudo").unlink()
    done = machine.run()
    assert done.returncode == 1
    assert "apt-get needs root: run as root or install sudo, or install mold lld chromium yourself" in done.stderr
    assert machine.calls() == []


@pytest.mark.parametrize("dry_run", [True, False])
def test_without_rust_it_says_so_and_fails(tmp_path: Path, dry_run: bool) -> None:
    machine = Machine(tmp_path, [t for t in PRESENT if t not in ("cargo", "rustc")])
    done = machine.run(*(["--dry-run"] if dry_run else []))
    assert done.returncode == 1
    assert "cargo is missing: install Rust (rustup)" in done.stderr
    assert "rustc is missing" in done.stderr


def test_a_bare_machine_gets_every_package(tmp_path: Path) -> None:
    machine = Machine(tmp_path, ["cargo", "rustc"])
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert machine.calls()[1] == ("apt-get install -y -qq mold lld binutils gcc git chromium nodejs npm "
                                  "(DEBIAN_FRONTEND=noninteractive)")


def test_the_real_machine_needs_nothing(tmp_path: Path) -> None:
    """On this machine, after `make test` ran it: a dry run plans nothing."""
    done = subprocess.run([BASH, str(ROOT / "scripts" / "test-deps"), "--dry-run"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "scripts/test-deps: nothing to install: every tool the suite runs is present\n"


def _lock_held_for(machine: Machine, refusals: int) -> None:
    """apt-get refuses as apt does while another process holds dpkg's lock, `refusals` times."""
    real = machine.bin / "apt-get"
    real.rename(machine.bin / "apt-get-real")
    machine.stub("apt-get", f'n=0\n[ -f "$STUBS/refused" ] && n=$(< "$STUBS/refused")\n'
                            f'if [ "$n" -lt {refusals} ]; then\n'
                            '  echo $((n + 1)) > "$STUBS/refused"\n'
                            '  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 '
                            '(unattended-upgr)" >&2\n'
                            '  exit 100\nfi\n'
                            'exec "$STUBS/apt-get-real" "$@"\n')


def test_it_waits_for_apts_lock_and_says_who_holds_it(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    _lock_held_for(machine, 2)
    done = subprocess.run([BASH, str(machine.repo / "scripts" / "test-deps")], cwd=machine.repo.parent,
                          env={"PATH": str(machine.bin), "CALLS": str(machine.log), "STUBS": str(machine.bin),
                               "HOME": str(machine.repo), "TEST_DEPS_APT_POLL": "0"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    waits = [line for line in done.stderr.splitlines() if line.startswith("scripts/test-deps: another process")]
    assert waits == ["scripts/test-deps: another process holds apt's lock (held by process 4242 (unattended-upgr)): "
                     "waiting 0s (0s of at most 600s so far)"] * 2
    assert machine.calls()[:2] == ["apt-get update -qq (DEBIAN_FRONTEND=noninteractive)",
                                   "apt-get install -y -qq mold lld chromium (DEBIAN_FRONTEND=noninteractive)"]


def test_a_lock_held_past_the_bound_is_one_clear_message(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    _lock_held_for(machine, 1000)
    done = subprocess.run([BASH, str(machine.repo / "scripts" / "test-deps")], cwd=machine.repo.parent,
                          env={"PATH": str(machine.bin), "CALLS": str(machine.log), "STUBS": str(machine.bin),
                               "HOME": str(machine.repo), "TEST_DEPS_APT_POLL": "1", "TEST_DEPS_APT_WAIT": "2"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 100
    assert done.stderr.splitlines()[-1] == (
        "scripts/test-deps: apt's lock was still held after 2s: let the other package manager finish "
        "(or stop it), then run make test again")
    assert machine.calls() == []


def test_another_apt_failure_is_not_waited_on(tmp_path: Path) -> None:
    machine = Machine(tmp_path, PRESENT)
    machine.stub("apt-get", 'echo "E: Unable to locate package mold" >&2\nexit 100\n')
    done = machine.run()
    assert done.returncode == 100
    assert "another process holds" not in done.stderr
    assert "E: Unable to locate package mold" in done.stderr
