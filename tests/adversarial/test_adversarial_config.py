"""Class: configuration. Every value that would fail at use (a crash in run, a
broken workflow, a file outside the repository) is refused at load with exit 2
naming file, line and key; documents that nest past tomllib's stack are one
message; generated documents of hostile pieces load or are refused, never crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GATE = '[[gate]]\nname = "g"\ncommand = ["true"]\n'


def load(sandbox: tuple[Path, Path], text: str | bytes) -> tuple[int, str, str]:
    outside, repo = sandbox
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    (repo / "linkgate.toml").write_bytes(data)
    result = run(["matrix"], repo, outside=outside, repo=repo)
    return result.code, result.out, result.err


REFUSED = {
    "env name with a space": (GATE + 'env = { "A B" = "1" }\n', "gate.g.env"),
    "env name with =": (GATE + 'env = { "=x" = "1" }\n', "gate.g.env"),
    "env name starting with a digit": (GATE + 'env = { "1A" = "1" }\n', "gate.g.env"),
    "empty env name": (GATE + 'env = { "" = "1" }\n', "gate.g.env"),
    "env value with NUL": (GATE + 'env = { A = "x\\u0000y" }\n', "gate.g.env.A"),
    "command with NUL": ('[[gate]]\nname = "g"\ncommand = ["true\\u0000"]\n', "gate.g.command[0]"),
    "cargo argument with NUL": ('[[gate]]\nname = "g"\ncargo = ["build", "--features=\\u0000"]\n', "gate.g.cargo[1]"),
    "provision with NUL": (GATE + 'provision = ["echo \\u0000"]\n', "gate.g.provision[0]"),
    "a 5,000-character name": ('[[gate]]\nname = "' + "g" * 5000 + '"\ncommand = ["true"]\n', ".name"),
    "a 101-character name": ('[[gate]]\nname = "' + "g" * 101 + '"\ncommand = ["true"]\n', ".name"),
    "a name ending in a newline": ('[[gate]]\nname = "g\\n"\ncommand = ["true"]\n', ".name"),
    "a name with a slash": ('[[gate]]\nname = "../g"\ncommand = ["true"]\n', ".name"),
    "a paths pattern with a control character": (GATE + 'paths = ["src/\\u0001"]\n', "gate.g.paths[0]"),
    "a paths pattern with a newline": (GATE + 'paths = ["src/**\\nfoo"]\n', "gate.g.paths[0]"),
    "why with a newline": (GATE + 'why = "one\\ntwo"\n', "gate.g.why"),
    "why with an escape sequence": (GATE + 'why = "\\u001b[31mred"\n', "gate.g.why"),
    "paths-from outside (absolute)": (GATE + 'paths-from = { workflow = "/etc/passwd", filter = "x" }\n',
                                      "paths-from.workflow"),
    "paths-from outside (relative)": (GATE + 'paths-from = { workflow = "../../../x.yml", filter = "x" }\n',
                                      "paths-from.workflow"),
    "working-directory outside": (GATE + 'working-directory = "../.."\n', "working-directory"),
    "working-directory absolute": (GATE + 'working-directory = "/tmp"\n', "working-directory"),
    "control patch outside": (GATE + '[[gate.control]]\nname = "c"\nfile = "build.rs"\npatch = "../../etc/x.patch"\n',
                              "control.c.patch"),
    "control file outside": (GATE + '[[gate.control]]\nname = "c"\nfile = "/etc/passwd"\ndelete = "root"\n',
                             "control.c.file"),
    "5,000 nested arrays": (GATE + "x = " + "[" * 5000 + "]" * 5000 + "\n", "nests"),
    "2,000 nested inline tables": (GATE + "x = " + "{a = " * 2000 + "1" + "}" * 2000 + "\n", "nests"),
    "not UTF-8": (GATE.encode() + b'why = "\xff"\n', "UTF-8"),
    "not TOML": ("[[gate\n", "invalid TOML"),
    "a gate that is not a table": ('gate = ["x"]\n', "gate"),
    "env that is not a table": (GATE + 'env = "A=1"\n', "env"),
    "a duplicate gate": (GATE + GATE, "duplicate"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_value_that_would_fail_at_use_is_refused_at_load(sandbox, case):
    text, key = REFUSED[case]
    code, _, err = load(sandbox, text)
    assert code == 2, err
    assert key in err, err
    assert len(err.strip().splitlines()) <= 3, err


def test_a_symlinked_control_file_out_of_the_repository_is_refused(sandbox):
    outside, repo = sandbox
    (repo / "build.rs").symlink_to(outside / "sentinel.txt")
    code, _, err = load(sandbox, GATE + '[[gate.control]]\nname = "c"\nfile = "build.rs"\ndelete = "must"\n')
    assert code == 2 and "control.c.file" in err


ACCEPTED = {
    "env value with quotes and $": GATE + 'env = { A = "it\'s \\"x\\" $HOME $(id)" }\n',
    "env value with a newline": GATE + 'env = { A = "one\\ntwo" }\n',
    "a 100-character name": '[[gate]]\nname = "' + "g" * 100 + '"\ncommand = ["true"]\n',
    "paths with unicode": GATE + 'paths = ["src/ü/**", "日本/*.rs"]\n',
    "working-directory inside": GATE + 'working-directory = "sub/../sub"\n',
    "target-dir outside (documented)": GATE + 'target-dir = "/ci/cache/g"\n',
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_hostile_but_valid_values_load(sandbox, case):
    code, out, err = load(sandbox, ACCEPTED[case])
    assert code == 0, err
    assert json.loads(out)["include"][0]["gate"].startswith("g")


PIECES = st.sampled_from([
    "g", "", " ", "x" * 200, "\\u0000", "\\u0001", "\\n", "\\t", "${{ x }}", "../..", "/etc/passwd", "=", "A B",
    "'", '\\"', "$(id)", "`id`", "*", "**", "!", "#", "\\\\", "ü", "\\u202e", "-", "--target-dir=x",
])
KEYS = st.sampled_from(["name", "command", "cargo", "env", "paths", "why", "working-directory", "target-dir",
                        "provision", "provision-env", "linkers", "runner", "predicate-quantifier", "paths-from"])


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = ["[[gate]]", f'name = "{draw(st.sampled_from(["g", "g-1", "G_2"]))}"', 'command = ["true"]']
    for key in draw(st.lists(KEYS, max_size=5, unique=True)):
        if key in ("name", "command"):
            continue
        value = "".join(draw(st.lists(PIECES, min_size=1, max_size=3)))
        if key == "env":
            name = "".join(draw(st.lists(PIECES, min_size=1, max_size=2)))
            lines.append(f'env = {{ "{name}" = "{value}" }}')
        elif key == "paths-from":
            lines.append(f'paths-from = {{ workflow = "{value}", filter = "f" }}')
        elif key in ("cargo", "paths", "provision", "provision-env", "linkers", "runner"):
            lines.append(f'{key} = ["{value}"]')
        else:
            lines.append(f'{key} = "{value}"')
    text = "\n".join(lines) + "\n"
    return text.replace('command = ["true"]\ncargo', "cargo") if "\ncargo =" in text else text


@pytest.mark.timeout(300)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(text=documents())
def test_generated_configurations_load_or_are_refused(tmp_path_factory, text):
    base = tmp_path_factory.mktemp("cfg")
    outside, repo = base / "outside", base / "outside" / "repo"
    repo.mkdir(parents=True)
    (outside / "sentinel.txt").write_text("x")
    code, out, err = load((outside, repo), text)
    assert code in (0, 2), err
    if code == 0:
        assert json.loads(out)["include"]
    else:
        assert err.startswith("linkgate: error: ") and "linkgate.toml" in err
