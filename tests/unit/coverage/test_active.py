"""Which recipes a run selects: env, target glob and features, as the gate's build sees them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from linkgate import config
from linkgate.config import Recipe
from linkgate.gate import recipes as rc
from linkgate.gate.recipes import Features, RunContext, recipe_active

LINUX = "x86_64-unknown-linux-gnu"


def ctx(env: dict[str, str] | None = None, target: str = LINUX, features: Features = Features()) -> RunContext:
    return RunContext(env or {}, target, features)


@pytest.mark.parametrize(
    ("recipe", "context", "active"),
    [
        (Recipe("a", when_env=("A",)), ctx({"A": ""}), True),           # set but empty: env::var(..).is_ok()
        (Recipe("a", when_env=("A",)), ctx({"AA": "1"}), False),
        (Recipe("ab", when_env=("A", "B")), ctx({"A": "1"}), False),
        (Recipe("b", when_env=("B",), unless_env=("A",)), ctx({"A": "1", "B": "1"}), False),
        (Recipe("b", when_env=("B",), unless_env=("A",)), ctx({"B": "1"}), True),
        (Recipe("v", when_env=("MODE=dist",)), ctx({"MODE": "dist"}), True),
        (Recipe("v", when_env=("MODE=dist",)), ctx({"MODE": "dev"}), False),
        (Recipe("nv", when_target="*", unless_env=("MODE=dist",)), ctx({"MODE": "dev"}), True),
        (Recipe("mac", when_target="*-apple-darwin"), ctx(target="aarch64-apple-darwin"), True),
        (Recipe("mac", when_target="*-apple-darwin"), ctx(), False),
        (Recipe("mac", when_target="*-APPLE-darwin"), ctx(target="aarch64-apple-darwin"), False),
        (Recipe("nomac", unless_target="*-apple-darwin"), ctx(), True),
        (Recipe("arm", when_target="aarch64*-linux-*"), ctx(target="aarch64-unknown-linux-gnu"), True),
        (Recipe("f", when_features=("cuda",)), ctx(features=Features(frozenset({"app/cuda"}))), True),
        (Recipe("f", when_features=("cuda",)), ctx(features=Features(frozenset({"cudart"}))), False),
        (Recipe("f", when_features=("cuda", "xla")), ctx(features=Features(all=True)), True),
    ],
)
def test_recipe_active(recipe: Recipe, context: RunContext, active: bool) -> None:
    assert recipe_active(recipe, context) is active


def load(tmp_path: Path, gate: str, manifest: str | None = None) -> config.Config:
    (tmp_path / "linkgate.toml").write_text(gate)
    if manifest is not None:
        (tmp_path / "Cargo.toml").write_text(manifest)
    return config.load(tmp_path / "linkgate.toml", root=tmp_path)


MANIFEST = '[package]\nname = "app"\nversion = "0.1.0"\n\n[features]\ndefault = ["metal"]\nmetal = []\ncuda = []\n'


def test_features_come_from_the_gate_args_and_the_manifest_defaults(tmp_path: Path) -> None:
    cfg = load(tmp_path, '[[gate]]\nname = "g"\ncargo = ["test", "-F", "cuda", "--no-run"]\n', MANIFEST)
    assert rc.gate_features(cfg, cfg.gates[0]) == Features(frozenset({"cuda", "metal"}))
    cfg = load(tmp_path, '[[gate]]\nname = "g"\ncargo = ["test", "--features", "cuda", "--no-default-features"]\n')
    assert rc.gate_features(cfg, cfg.gates[0]) == Features(frozenset({"cuda"}))
    cfg = load(tmp_path, '[[gate]]\nname = "g"\ncargo = ["build", "--all-features"]\n')
    assert rc.gate_features(cfg, cfg.gates[0]).all


def test_target_is_the_gate_flag_then_cargo_build_target_then_the_host(tmp_path: Path) -> None:
    host = next(line.split(":", 1)[1].strip()
                for line in subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout.splitlines()
                if line.startswith("host:"))
    cfg = load(tmp_path, '[[gate]]\nname = "g"\ncargo = ["build", "--target", "aarch64-apple-darwin"]\n'
               '[[gate]]\nname = "h"\ncargo = ["build"]\n[[gate]]\nname = "m"\ncommand = ["make"]\n')
    g, h, m = cfg.gates
    assert rc.gate_target(g, {}) == "aarch64-apple-darwin"
    assert rc.gate_target(h, {"CARGO_BUILD_TARGET": "wasm32-wasip1"}) == "wasm32-wasip1"
    assert rc.gate_target(h, {}) == host
    assert rc.gate_target(m, {}) == host


def test_active_for_run_and_what_the_configuration_selects(tmp_path: Path) -> None:
    cfg = load(tmp_path, '[[gate]]\nname = "only-a"\ncargo = ["test", "--no-run"]\nenv = { A = "1" }\n\n'
               '[[gate]]\nname = "mac"\ncargo = ["test", "--target", "aarch64-apple-darwin"]\n\n'
               '[[recipe]]\nname = "a"\nwhen-env = ["A"]\n\n'
               '[[recipe]]\nname = "b"\nwhen-env = ["B"]\nunless-env = ["A"]\n\n'
               '[[recipe]]\nname = "metal"\nwhen-target = "*-apple-darwin"\n\n'
               '[[recipe]]\nname = "win"\nwhen-target = "*-windows-*"\n', MANIFEST)
    only_a = cfg.gate("only-a")
    assert rc.active_for_run(cfg, only_a, {"A": "1", "PATH": "/bin"}) == ("a",)
    # The process environment counts at run time: a runner that exports B selects b.
    assert rc.active_for_run(cfg, only_a, {"B": "1"}) == ("b",)
    by_name = {r.name: r for r in cfg.recipes}
    assert rc.selected_by(cfg, by_name["a"]) == ["only-a"]
    assert rc.selected_by(cfg, by_name["b"]) == []             # no gate's env sets B
    assert rc.selectable_by(cfg, by_name["b"]) == ["only-a", "mac"]
    assert rc.selectable_by(cfg, by_name["metal"]) == ["mac"]
    assert rc.selectable_by(cfg, by_name["win"]) == []
