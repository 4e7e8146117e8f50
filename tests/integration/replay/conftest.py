from __future__ import annotations

import shutil
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[3] / "src" / "linkgate" / "data" / "demo"

# Added to a copy of the demo: two static archives that need each other
# (ringa's entry calls ringb, ringb calls back into ringa's other member), so
# GNU ld needs `-lringa -lringb -lringa`; and an extra `-lc`, which rustc's
# own arguments already name.
RING_C = {
    "ring_entry.c": "int ring_mid(int);\nint ring_entry(int x) { return ring_mid(x) + 1; }\n",
    "ring_leaf.c": "int ring_leaf(int x) { return 2 * x; }\n",
    "ring_mid.c": "int ring_leaf(int);\nint ring_mid(int x) { return ring_leaf(x) + 3; }\n",
}
ARCHIVE_OF = '''
fn archive_of(out: &str, lib: &str, names: &[&str]) {
    let mut objs = Vec::new();
    for name in names {
        let obj = format!("{out}/{name}.o");
        cc(&["-c", "-fPIC", "-O2", &format!("native/{name}.c"), "-o", &obj]);
        objs.push(obj);
    }
    let path = format!("{out}/lib{lib}.a");
    let _ = std::fs::remove_file(&path);
    let status = Command::new("ar").arg("crs").arg(&path).args(&objs).status().expect("cannot run ar");
    assert!(status.success(), "ar failed for {lib}");
}
'''


def copy_demo(dest: Path) -> Path:
    shutil.copytree(DEMO, dest, ignore=shutil.ignore_patterns("target"))
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def ring_workspace(tmp_path: Path) -> Path:
    ws = copy_demo(tmp_path / "ws")
    for name, text in RING_C.items():
        (ws / "native" / name).write_text(text)
    build = ws / "build.rs"
    _edit(build, '    "-ldeep", // core.c calls deep_value() itself: GNU ld wants it named here\n',
          '    "-ldeep", // core.c calls deep_value() itself: GNU ld wants it named here\n'
          '    "-lringa",\n    "-lringb",\n    "-lringa", // ringb calls back into ringa\n    "-lc",\n')
    _edit(build, "fn main() {", ARCHIVE_OF + "\nfn main() {")
    _edit(build, '    archive(&out, "nutil");\n',
          '    archive(&out, "nutil");\n    archive_of(&out, "ringa", &["ring_entry", "ring_leaf"]);\n'
          '    archive_of(&out, "ringb", &["ring_mid"]);\n')
    smoke = ws / "tests" / "link_smoke.rs"
    _edit(smoke, "extern \"C\" {\n", "extern \"C\" {\n    fn ring_entry(x: i32) -> i32;\n")
    _edit(smoke, "    assert_eq!(", "    assert_eq!(unsafe { ring_entry(1) }, 2 + 3 + 1);\n    assert_eq!(")
    return ws
