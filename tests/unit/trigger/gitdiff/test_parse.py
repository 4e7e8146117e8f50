from __future__ import annotations

from linkgate.trigger.gitdiff import Change, parse_name_status


def test_parse_name_status_z() -> None:
    out = "M\0src/a.rs\0A\0new file.txt\0D\0old\0T\0link\0"
    assert parse_name_status(out) == [
        Change("src/a.rs", "M", "modified"),
        Change("new file.txt", "A", "added"),
        Change("old", "D", "deleted"),
        Change("link", "T", None),
    ]
