"""The run schema's history fields: what `run` writes validates, wrong shapes do not."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from linkgate.history.record import DocumentError, from_document

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "src/linkgate/data/schemas/run-1.json").read_text())

RESULT = {
    "gate": "g", "linker": "bfd", "verdict": "linked", "forced_relink": False, "proven": True, "linked": [],
    "diagnostics": [], "duration_s": 2.0, "run_id": "0f3c", "started_at": "2026-12-01T02:23:23Z",
    "runner": "gpu-7", "host": "box", "commit": "abc", "branch": "main", "cold": True, "units_compiled": 4,
    "units_fresh": 0, "link_s": 0.5, "compile_s": 1.5, "recipes": ["cuda"], "directives_digest": "49de9e2baf7d3a04",
    "links": [{"output": "/t/x", "seconds": 0.5, "exit_status": 0}],
}


def doc(**changes: object) -> dict:
    return {"schema": "linkgate.run/1", "status": "pass", "results": [{**RESULT, **changes}]}


def test_a_full_result_validates_and_imports() -> None:
    jsonschema.validate(doc(), SCHEMA, cls=jsonschema.Draft202012Validator)
    [rec] = from_document(doc())
    assert (rec.run_id, rec.runner, rec.cold, rec.link_s, rec.compile_s, rec.recipes, rec.units_rebuilt) == (
        "0f3c", "gpu-7", True, 0.5, 1.5, ("cuda",), 4)
    assert rec.wall_s == 2.0 and rec.kind == "run"


@pytest.mark.parametrize(
    ("key", "value"),
    [("started_at", "yesterday"), ("cold", "yes"), ("link_s", -1), ("run_id", ""), ("recipes", [1])],
)
def test_schema_rejects(key: str, value: object) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc(**{key: value}), SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [("run_id", None, "results[0].run_id: missing"), ("run_id", "", "results[0].run_id: empty"), ("cold", "yes", "results[0].cold: not a boolean"),
     ("link_s", True, "results[0].link_s: not a"), ("duration_s", "2", "results[0].duration_s"),
     ("recipes", [1], "results[0].recipes")],
)
def test_import_names_the_bad_key(key: str, value: object, message: str) -> None:
    with pytest.raises(DocumentError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_document(doc(**{key: value}))
