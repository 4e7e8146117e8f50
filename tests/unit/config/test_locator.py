"""Line numbers from the raw TOML text, found by index (loading is linear in the gates)."""

from __future__ import annotations

from linkgate.tomlsource import Locator

TEXT = """# top
[[gate]]
name = "a"
cargo = ["build"]

[[gate.control]]
name = "c1"
delete = "x"

[[gate.control]]
name = "c2"
delete = "y"

[[gate]]
name = "b"
paths = ["x"]

[[ gate . control ]]
name = "c3"

[audit]
severity = {}
"""


def test_gates_controls_and_tables_by_index():
    loc = Locator(TEXT, "")
    assert loc.gate(0) == 2 and loc.gate(1) == 14 and loc.gate(2) is None
    assert loc.gate(0, "cargo") == 4 and loc.gate(1, "paths") == 16
    assert loc.gate(1, "cargo") == 14  # a key the gate lacks: its header
    assert loc.control(0, 0) == 6 and loc.control(0, 1, "delete") == 12
    assert loc.control(1, 0, "name") == 19
    assert loc.control(0, 2) == loc.gate(0, "control") == 2  # no third control in gate 0
    assert loc.control(1, 1) == 14
    assert loc.table("audit", "severity") == 22 and loc.table("ci") is None


def test_twenty_thousand_gates_each_found_where_it_is():
    text = "".join(f'[[gate]]\nname = "g{k}"\ncargo = ["build"]\n\n' for k in range(20_000))
    loc = Locator(text, "")
    for k in (0, 1, 9_999, 19_999):
        assert loc.gate(k) == 4 * k + 1
        assert loc.gate(k, "cargo") == 4 * k + 3
    assert loc.gate(20_000) is None


def test_a_prefix_names_the_tables_under_a_manifest_section():
    loc = Locator('[package]\nname = "p"\n\n[[package.metadata.linkgate.gate]]\nname = "g"\n', "package.metadata.linkgate.")
    assert loc.gate(0, "name") == 5


class _NoScan(list):  # type: ignore[type-arg]
    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a lookup scanned every header (quadratic over a file of gates)")


def test_a_lookup_never_scans_every_header():
    text = "".join(f'[[gate]]\nname = "g{k}"\ncargo = ["build"]\n\n[[gate.control]]\nname = "c"\n\n' for k in range(50))
    loc = Locator(text, "")
    loc.headers = _NoScan(loc.headers)
    assert loc.gate(49, "cargo") == 49 * 7 + 3
    assert loc.control(49, 0, "name") == 49 * 7 + 6


def test_gates_written_as_an_inline_array_have_their_lines():
    text = 'ci = {}\ngate = [\n  { name = "a", cargo = ["build"] },\n\n  { name = "b", linkers = ["x", { y = 1 }] },\n]\n'
    loc = Locator(text, "")
    assert loc.gate(0) == 3 and loc.gate(1, "linkers") == 5 and loc.gate(2) is None
    assert Locator('gate = [{ name = "a" }, { name = "b" }]\n', "").gate(1) == 1


def test_inline_gates_in_cargo_metadata_have_their_lines():
    text = ('[package]\nname = "p"\n\n[package.metadata.linkgate]\ngate = [\n'
            '  { name = "a" },\n  { name = "b", linkers = "bfd" },\n]\n\n[dependencies]\n')
    loc = Locator(text, "package.metadata.linkgate.")
    assert loc.gate(0) == 6 and loc.gate(1, "linkers") == 7
    assert Locator(text, "workspace.metadata.linkgate.").gate(0) is None
