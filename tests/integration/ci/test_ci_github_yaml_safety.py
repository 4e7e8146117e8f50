"""`ci github` writes YAML that is what it looks like: no value can end its line
(U+2028, U+2029 and NEL are line breaks to YAML 1.1 parsers), every scalar reads
back the same under YAML 1.1 and 1.2, every gate job's `if:` can be true
whatever the gate's name, and a cron string is checked before it is written."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml
from gateruns import gate_jobs_that_cannot_run
from lgtest import toml_str
from ruamel.yaml import YAML
from workflow_lint import actionlint

from linkgate.cli import main
from linkgate.history.model import RunRecord
from linkgate.history.store import History

WF = Path(".github/workflows/ci.yml")
CI = '[ci]\ninstall = "git+https://github.com/rtlab/linkgate@3f1c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"\n'
SEPARATORS = {"U+2028 LINE SEPARATOR": "\u2028", "U+2029 PARAGRAPH SEPARATOR": "\u2029", "NEL (U+0085)": "\x85"}


def configure(repo: Path, *gates: str) -> None:
    (repo / "linkgate.toml").write_text(CI + "".join(f'\n[[gate]]\n{g}\n' for g in gates))


def gate(name: str, extra: str = "") -> str:
    return f'name = {toml_str(name)}\ncargo = ["build"]\npaths = ["src/**"]\n{extra}'


def both(path: Path) -> tuple[dict, dict]:
    text = path.read_text(encoding="utf-8")
    one, two = yaml.safe_load(text), YAML(typ="safe", pure=True).load(text)
    one["on"] = one.pop(True)  # `on:` is the boolean true to YAML 1.1: the one key every workflow has
    return one, two


def digests(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


@pytest.mark.parametrize("name", list(SEPARATORS))
def test_a_why_holding_a_line_separator_injects_no_job(repo: Path, name: str) -> None:
    sep = SEPARATORS[name]
    why = f"x{sep}  evil:{sep}    runs-on: ubuntu-latest{sep}    steps:{sep}      - run: echo PWNED{sep}#"
    configure(repo, gate("g", f"why = {toml_str(why)}\n"))
    before = set(yaml.safe_load((repo / WF).read_text())["jobs"])
    assert main(["ci", "github", "g", "--write"]) == 0
    one, two = both(repo / WF)
    assert one == two
    assert set(one["jobs"]) == before | {"g"}
    text = (repo / WF).read_text(encoding="utf-8")
    assert sep not in text and f"# Why this target: x\\u{ord(sep):04X}  evil:" in text.replace("\\x85", "\\u0085")


@pytest.mark.parametrize("name", list(SEPARATORS))
@pytest.mark.parametrize(("line", "key"), [
    ('env = {{ A = "a{}b" }}', "gate.g.env.A"),
    ('provision = ["echo a{}b"]', "gate.g.provision[0]"),
    ('provision-env = ["bash env.sh a{}b"]', "gate.g.provision-env[0]"),
    ('runner = ["ubuntu-latest", "a{}b"]', "gate.g.runner[1]"),
    ('target-dir = "t/a{}b"', "gate.g.target-dir"),
])
def test_a_value_holding_a_line_separator_is_refused_by_key(repo: Path, capsys: pytest.CaptureFixture[str],
                                                            name: str, line: str, key: str) -> None:
    escape = f"\\u{ord(SEPARATORS[name]):04X}"
    configure(repo, gate("g", line.format(escape) + "\n"))
    before = digests(repo)
    assert main(["ci", "github", "g", "--trigger", "paths", "--write"]) == 2
    err = capsys.readouterr().err
    assert f"linkgate.toml:4: {key}: holds {name}" in err, err
    assert "Traceback" not in err and digests(repo) == before


@pytest.mark.parametrize("name", list(SEPARATORS))
def test_a_paths_pattern_holding_a_line_separator_is_refused_by_key(repo: Path, capsys: pytest.CaptureFixture[str],
                                                                    name: str) -> None:
    escape = f"\\u{ord(SEPARATORS[name]):04X}"
    configure(repo, f'name = "g"\ncargo = ["build"]\npaths = ["src/**{escape}- evil"]\n')
    before = digests(repo)
    assert main(["ci", "github", "g", "--trigger", "paths", "--write"]) == 2
    err = capsys.readouterr().err
    assert f"gate.g.paths[0]: holds {name}" in err, err
    assert digests(repo) == before


def test_an_install_spec_holding_a_line_separator_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(repo, gate("g"))
    assert main(["ci", "github", "g", "--install", "linkgate==0.1\u2028evil: 1"]) == 2
    assert "must be one line with no control characters" in capsys.readouterr().err


def test_values_yaml_1_1_would_misread_read_back_as_written(repo: Path) -> None:
    env = {"A": "yes", "B": "on", "C": "12:30", "D": "0o17", "E": "1e3", "F": "n", "G": "2026-12-03", "H": "~"}
    table = ", ".join(f"{k} = {toml_str(v)}" for k, v in env.items())
    configure(repo, gate("g", f"env = {{ {table} }}\nrunner = [\"self-hosted\", \"on\", \"a,b\"]\n"))
    assert main(["ci", "github", "g", "--repository", "rtlab/rtcore", "--write"]) == 0
    one, two = both(repo / WF)
    assert one == two
    assert one["jobs"]["g"]["env"] == env
    assert one["jobs"]["g"]["runs-on"] == ["self-hosted", "on", "a,b"]
    # Declared for actionlint too, as strings to both readers.
    declared = (repo / ".github" / "actionlint.yaml").read_text()
    assert yaml.safe_load(declared) == YAML(typ="safe", pure=True).load(declared) == {
        "self-hosted-runner": {"labels": ["gb10", "on", "a,b"]}}  # gb10: the fixture's own


def test_the_matrix_plan_is_one_ascii_line_carrying_each_label_exactly(repo: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`echo "matrix=$(linkgate matrix g)" >> "$GITHUB_OUTPUT"`: one line, or the
    rest would be read as outputs of its own."""
    import json

    labels = ["self-hosted", "a\u2028b", "c\u0085d", 'x\\"y', "on", "$(id)"]
    configure(repo, gate("g", f"runner = [{', '.join(f'{chr(34)}{label}{chr(34)}' for label in labels)}]\n"
                              'linkers = ["default", "bfd"]\n'))
    assert main(["matrix", "g"]) == 0
    out = capsys.readouterr().out
    assert out.isascii() and out.count("\n") == 1 and out.endswith("\n")
    legs = json.loads(out)["include"]
    assert [leg["runs-on"] for leg in legs] == [["self-hosted", "a\u2028b", "c\x85d", 'x"y', "on", "$(id)"]] * 2


def test_runner_and_branch_names_from_the_history_cannot_end_a_comment_line(repo: Path) -> None:
    configure(repo, gate("g"))
    evil = "gb10\u2028  evil:\u2028    runs-on: x\u2028#"
    with History.open(repo / ".linkgate" / "history.sqlite") as history:
        history.add([
            RunRecord(run_id="r1", kind="run", gate="g", linker="default", verdict="linked",
                      started_at="2026-11-30T10:00:00Z", wall_s=60.0, cold=True, runner=evil),
            RunRecord(run_id="p1", kind="prove", gate="g", linker="default", verdict="caught",
                      started_at="2026-11-30T11:00:00Z", wall_s=3.0, control="c\x85evil: 1", commit="ab" * 20,
                      branch="main\u2029evil: 2"),
        ])
    assert main(["ci", "github", "g", "--write"]) == 0
    one, two = both(repo / WF)
    assert one == two and "evil" not in one["jobs"]
    text = (repo / WF).read_text(encoding="utf-8")
    assert "gb10\\u2028  evil:" in text and "main\\u2029evil: 2" in text


NAMES = ["1st", "my.gate", "v1.2", "0", "9.9.9", "true", "on", "a_b-c", "9FXWY", "Up.Case"]


@pytest.mark.parametrize("matrix", [False, True])
def test_every_gate_job_can_run_whatever_its_name(repo: Path, matrix: bool) -> None:
    configure(repo, *(gate(n) for n in NAMES))
    for name in NAMES:
        assert main(["ci", "github", name, "--trigger", "paths", "--write", *(["--matrix"] if matrix else [])]) == 0
    one, two = both(repo / WF)
    assert one == two
    filters = yaml.safe_load(one["jobs"]["changes"]["steps"][1]["with"]["filters"])
    assert set(NAMES) <= set(filters)
    assert gate_jobs_that_cannot_run(one) == {}
    text = (repo / WF).read_text()
    assert "outputs['my.gate']" in text and "outputs['1st']" in text and "outputs.my.gate" not in text
    assert [f for f in actionlint(repo, repo / WF) if f["kind"] != "runner-label"] == []


def test_gates_whose_names_meet_in_one_job_id_are_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(repo, gate("my.gate"), gate("my-gate"))
    before = digests(repo)
    assert main(["ci", "github", "my-gate", "--write"]) == 2
    err = capsys.readouterr().err
    assert "gate.my.gate.name: gates 'my-gate' and 'my.gate' would both be the job 'my-gate'" in err, err
    assert digests(repo) == before


BAD_CRONS = {
    "a b c d e": "the minute field: 'a' is not *, a value, a range or a step",
    "17 3 * *": "five fields separated by spaces",
    "17 3 * * * *": "five fields separated by spaces",
    "17 3 * * 1'": "the day of the week field: \"1'\" is not *, a value, a range or a step",
    "60 3 * * *": "the minute field: '60' is outside 0-59",
    "0 24 * * *": "the hour field: '24' is outside 0-23",
    "0 0 0 * *": "the day of the month field: '0' is outside 1-31",
    "0 0 * 13 *": "the month field: '13' is outside 1-12 or JAN-DEC",
    "0 0 * * 7": "the day of the week field: '7' is outside 0-6 or SUN-SAT",
    "*/0 * * * *": "'*/0' has a step of 0",
    "5/15 * * * *": "'5/15' steps from a single value; write 5-59/15",
    "30-10 * * * *": "the range '30-10' runs backwards",
    "0 0 ? * *": "'?' is not *, a value, a range or a step",
    "@daily": "five fields",
    "0 0 * * SUN#2": "is not *, a value, a range or a step",
    "0 0 * FOO *": "'FOO' is outside 1-12 or JAN-DEC",
    "0 0 * * 1\u2028": "is not *, a value, a range or a step",
    "0\t0 * * *": "five fields",
}


@pytest.mark.parametrize("cron", list(BAD_CRONS))
def test_a_cron_github_would_not_read_is_refused(repo: Path, capsys: pytest.CaptureFixture[str], cron: str) -> None:
    configure(repo, gate("g"))
    before = digests(repo)
    assert main(["ci", "github", "g", "--trigger", f"schedule:{cron}", "--write"]) == 2
    err = capsys.readouterr().err
    assert BAD_CRONS[cron] in err and "hint: five fields" in err, err
    assert digests(repo) == before


@pytest.mark.parametrize(("cron", "written"), [
    ("17 3 * * *", "17 3 * * *"), ("0,30 */6 1-15 JAN-MAR mon-fri", "0,30 */6 1-15 JAN-MAR mon-fri"),
    (" 5  4 * * 0 ", "5 4 * * 0"), ("0 0 1-31/2 * SUN", "0 0 1-31/2 * SUN"),
])
def test_a_valid_cron_is_written_as_a_quoted_scalar(repo: Path, cron: str, written: str) -> None:
    configure(repo, gate("g"))
    assert main(["ci", "github", "g", "--trigger", f"schedule:{cron}", "--write"]) == 0
    path = repo / ".github" / "workflows" / "linkgate-g.yml"
    one, two = both(path)
    assert one == two and one["on"]["schedule"] == [{"cron": written}]
    assert actionlint(repo, path) == []
