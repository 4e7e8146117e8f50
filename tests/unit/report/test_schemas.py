"""The shipped JSON Schemas are valid and reject what they should."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

SCHEMAS = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "schemas"

RUN_DOC = {
    "schema": "linkgate.run/1",
    "status": "pass",
    "results": [
        {"gate": "g", "linker": "bfd", "verdict": "linked", "forced_relink": True, "proven": True,
         "linked": [{"target": "t", "kind": "test", "path": "/x"}], "diagnostics": [], "duration_s": 1.5}
    ],
}


def load(name: str) -> dict:
    schema = json.loads((SCHEMAS / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def test_run_schema_accepts_a_document() -> None:
    jsonschema.validate(RUN_DOC, load("run-1.json"), cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize(
    ("path", "value"),
    [(("results", 0, "verdict"), "maybe"), (("results", 0, "linker"), "ld64"), (("status",), "ok"),
     (("schema",), "linkgate.run/2")],
)
def test_run_schema_rejects(path: tuple, value: str) -> None:
    doc = json.loads(json.dumps(RUN_DOC))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, load("run-1.json"), cls=jsonschema.Draft202012Validator)


def test_prove_schema_rejects_unknown_outcome() -> None:
    doc = {"schema": "linkgate.prove/1", "status": "fail", "controls": [
        {"name": "c", "gate": "g", "linker": "bfd", "outcome": "flaky", "mutated": None, "restored": None}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, load("prove-1.json"), cls=jsonschema.Draft202012Validator)
    doc["controls"][0]["outcome"] = "not-reproduced"
    jsonschema.validate(doc, load("prove-1.json"), cls=jsonschema.Draft202012Validator)
