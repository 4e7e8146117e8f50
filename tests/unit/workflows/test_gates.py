"""`linkgate run` lines and the linkgate action, read as the gates' cargo commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from linkgate.workflows.gates import RunLine, run_line
from linkgate.workflows.invocations import scan_workflow
from linkgate.workflows.model import parse_workflow
from linkgate.workflows.yamlnodes import load_text

CONFIG = """\
[[gate]]
name = "a"
cargo = ["test", "--features", "x", "--no-run"]
linkers = ["default", "bfd"]
working-directory = "crates/app"
env = { LEVEL = "gate" }

[[gate]]
name = "b"
cargo = ["+nightly", "build", "--bins"]

[[gate]]
name = "m"
command = ["make", "link"]
"""


@pytest.mark.parametrize(("argv", "expected"), [
    ("linkgate run", RunLine((), (), (), None, None)),
    ("linkgate run a b --format=json -o out.json --no-force-link -q", RunLine(("a", "b"), (), (), None, None)),
    ("/venv/bin/linkgate run --only a:bfd --linker lld --config ci/l.toml --repo .. a",
     RunLine(("a",), (("a", "bfd"),), ("lld",), "ci/l.toml", "..")),
    ("python3 -m linkgate run --history h.sqlite b", RunLine(("b",), (), (), None, None)),
    ("linkgate should-run a", None),
    ("linkgate matrix a", None),
    ("linkgate ci github a --write", None),
    ("cargo run", None),
])
def test_run_line(argv: str, expected: RunLine | None) -> None:
    assert run_line(argv.split()) == expected


def scan(tmp_path: Path, steps: str, config: str | None = CONFIG) -> tuple[list[tuple[object, ...]], list[str]]:
    if config is not None:
        (tmp_path / "linkgate.toml").write_text(config)
    (tmp_path / "crates" / "app").mkdir(parents=True, exist_ok=True)
    text = "on: push\nenv:\n  LEVEL: workflow\njobs:\n  j:\n    runs-on: ubuntu-latest\n" \
           "    strategy:\n      matrix:\n        leg: ${{ fromJSON(needs.plan.outputs.matrix) }}\n" \
           "    steps:\n" + steps
    result = scan_workflow(tmp_path, parse_workflow(tmp_path / "w.yml", "w.yml", load_text(text)))
    rows = [(i.line, i.argv, i.cwd, i.env.get("LEVEL"), i.env.get("CARGO_TARGET_DIR"), i.conditions)
            for i in result.invocations]
    return rows, [message for _, _, message in result.problems]


def test_every_gate_when_none_is_named_with_its_directory_env_and_target_dir(tmp_path: Path) -> None:
    rows, notes = scan(tmp_path, "      - run: |\n          linkgate should-run a\n          linkgate run\n")
    assert rows == [
        (13, ("cargo", "test", "--features", "x", "--no-run"), "crates/app", "gate", "target/linkgate/a", ()),
        (13, ("cargo", "+nightly", "build", "--bins"), "", "workflow", "target/linkgate/b/default", ()),
    ]
    assert notes == ["gate 'm' runs `make link`, not cargo: what it links is not audited"]


def test_only_selects_pairs_and_follows_cargo_target_dir(tmp_path: Path) -> None:
    rows, notes = scan(tmp_path, "      - env: { CARGO_TARGET_DIR: /ci/t }\n        run: linkgate run --only a:bfd\n")
    assert rows == [(12, ("cargo", "test", "--features", "x", "--no-run"), "crates/app", "gate",
                     "/ci/t/linkgate/a/bfd", ())]
    assert notes == []


def test_a_matrix_leg_runs_any_gate_conditionally(tmp_path: Path) -> None:
    rows, notes = scan(tmp_path, "      - run: linkgate run --only '${{ matrix.leg.gate }}:${{ matrix.leg.linker }}'\n")
    cond = ("`linkgate run` selects its gates by ${{ matrix.leg.gate }}: taken as any gate of linkgate.toml",)
    assert [(r[1][1], r[5]) for r in rows] == [("test", cond), ("+nightly", cond)]
    assert notes == ["gate 'm' runs `make link`, not cargo: what it links is not audited"]


def test_unknown_gate_and_missing_configuration_are_notes(tmp_path: Path) -> None:
    rows, notes = scan(tmp_path, "      - run: linkgate run a nope\n")
    assert [r[1][1] for r in rows] == ["test"]
    assert notes == ["`linkgate run` names no gate 'nope' of linkgate.toml"]
    (tmp_path / "linkgate.toml").unlink()
    rows, notes = scan(tmp_path, "      - run: linkgate run a\n", config=None)
    assert rows == []
    assert notes == ["`linkgate run` reads no usable linkgate configuration (no linkgate.toml, nor a linkgate "
                     "table in Cargo.toml metadata); the gates it runs are not audited"]


def test_gates_from_cargo_toml_metadata(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "p"\nversion = "0.1.0"\n\n[[package.metadata.linkgate.gate]]\n'
        'name = "p-link"\ncargo = ["test", "--no-run"]\n')
    rows, _ = scan(tmp_path, "      - run: linkgate run p-link\n", config=None)
    assert [r[1] for r in rows] == [("cargo", "test", "--no-run")]


def test_the_linkgate_action_runs_its_gates_input(tmp_path: Path) -> None:
    rows, _ = scan(tmp_path, "      - uses: acme/linkgate@0123456789abcdef\n        with: { gates: b }\n")
    assert [(r[0], r[1]) for r in rows] == [(11, ("cargo", "+nightly", "build", "--bins"))]
    assert rows[0][5] == ("w.yml:11 uses: acme/linkgate@0123456789abcdef links a gate only when its causal "
                          "surface changed",)
