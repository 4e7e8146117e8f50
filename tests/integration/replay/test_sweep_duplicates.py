"""Two packages print the same `-lhelper`: each is redundant alone, the link fails without both.

Real cargo, cc, ar and rust-lld on the ordersys fixture (archives in the right
order), with `app`'s build script printing ordsys's `-lhelper` a second time.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lgtest import git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ordersys"
WRONG = "static:-bundle=helper\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=shim"
RIGHT = "static:-bundle=shim\");\n    println!(\"cargo:rustc-link-lib=static:-bundle=helper"


def test_duplicate_directives_are_reported_together(tmp_path, monkeypatch, capsys):
    root = tmp_path / "ordersys"
    shutil.copytree(FIXTURE, root)
    script = root / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    (root / "app/build.rs").write_text('fn main() {\n    println!("cargo:rustc-link-lib=static:-bundle=helper");\n}\n')
    cfg = root / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["default"]'))
    git_repo(root)
    monkeypatch.chdir(root)
    assert main(["run", "-q", "--no-history"]) == 0
    capsys.readouterr()
    assert main(["sweep", "calls", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    helper = {d["package"]: d["linkers"]["default"] for d in doc["directives"] if d["argument"] == "-lhelper"}
    assert set(helper) == {"app", "ordsys"}
    for package, other in (("app", "ordsys"), ("ordsys", "app")):
        j = helper[package]
        assert j["status"] == "duplicate", j
        assert (j["kind"], j["symbol"]) == ("undefined-symbol", "helper_fn")
        assert f"redundant only while {other}'s `-lhelper` (build.rs:" in j["detail"]
        assert "stays: dropping all 2 fails" in j["detail"]
