"""A fingerprint record that is not what cargo writes is unread, never a crash and
never guessed from another shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.cargo.fingerprint import RUN_RECORD, read_run_record


def record(tmp_path: Path, text: str) -> Path:
    directory = tmp_path / "debug" / ".fingerprint" / "zsys-0123456789abcdef"
    directory.mkdir(parents=True)
    (directory / RUN_RECORD).write_text(text)
    return directory / RUN_RECORD


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"local": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}",
    json.dumps({"local": 5}),
    json.dumps({"local": "RerunIfChanged"}),
    json.dumps({"local": [{"RerunIfChanged": "paths"}]}),
    json.dumps({"local": [{"RerunIfChanged": {"paths": "build.rs", "output": "x"}}]}),
    json.dumps({"local": [{"RerunIfChanged": {"paths": [1, 2], "output": "x"}}]}),
    json.dumps({"local": [{"RerunIfChanged": {"paths": [], "output": 5}}]}),
    json.dumps({"local": [{"RerunIfEnvChanged": ["CC"]}]}),
    json.dumps({"local": [{"RerunIfEnvChanged": {"var": 5, "val": None}}]}),
    json.dumps({"local": [{"RerunIfEnvChanged": {"var": "CC", "val": 5}}]}),
])
def test_wrong_shapes_are_unread(tmp_path: Path, text: str) -> None:
    assert read_run_record(record(tmp_path, text), tmp_path) is None


def test_a_well_formed_record_is_read(tmp_path: Path) -> None:
    text = json.dumps({"local": [{"RerunIfChanged": {"paths": ["build.rs"], "output": "debug/build/zsys-0123456789abcdef/output"}},
                                 {"RerunIfEnvChanged": {"var": "CC", "val": None}}]})
    found = read_run_record(record(tmp_path, text), tmp_path)
    assert found is not None and (found.changed_paths, found.env_vars) == (("build.rs",), ("CC",))
