"""Archive order, told as order: under GNU ld (a failure) and under lld (a warning).

The fixture (tests/fixtures/ordersys) is a -sys crate whose build script
archives two C files itself and links them unbundled in the wrong order:
libhelper.a before libshim.a, which needs it. Real cargo, cc, ar, GNU ld and
rust-lld.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lgtest import git, git_repo

from linkgate.cli import main

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "ordersys"
WRONG = (
    'println!("cargo:rustc-link-lib=static:-bundle=helper");\n'
    '    println!("cargo:rustc-link-lib=static:-bundle=shim");'
)
RIGHT = (
    'println!("cargo:rustc-link-lib=static:-bundle=shim");\n'
    '    println!("cargo:rustc-link-lib=static:-bundle=helper");'
)


@pytest.fixture
def ordersys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ordersys"
    shutil.copytree(FIXTURE, root)
    git_repo(root)
    monkeypatch.chdir(root)
    return root


def _line_of(path: Path, text: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), start=1) if text in ln)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    rc = main(["run", "-q", "--no-history", "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def test_gnu_ld_fails_with_archive_order_naming_the_directive_and_lld_warns(ordersys, capsys):
    script = ordersys / "ordsys/build.rs"
    helper_line = _line_of(script, "static:-bundle=helper")
    shim_line = _line_of(script, "static:-bundle=shim")

    rc, doc = _run(capsys, "--linker", "bfd")
    (res,) = doc["results"]
    assert rc == 1 and res["verdict"] == "link-failed"
    (d,) = res["diagnostics"]
    assert d["kind"] == "archive-order" and d["level"] == "error"
    assert "Nothing" not in d["message"] + d["hint"]
    assert "`-lhelper` (libhelper.a) then `-lshim` (libshim.a)" in d["message"]
    # The directive to move, by its build-script line, and where it goes.
    assert f"`cargo:rustc-link-lib=static:-bundle=helper` ({script}:{helper_line}) after" in d["hint"]
    assert f"({script}:{shim_line})" in d["hint"]
    assert [Path(a).name for a in d["archives"]] == ["libhelper.a", "libshim.a"]

    # The default linker (rust-lld) links it, and says the order is wrong.
    rc, doc = _run(capsys, "--linker", "default")
    (res,) = doc["results"]
    assert rc == 0 and res["verdict"] == "linked" and res["proven"]
    (w,) = res["diagnostics"]
    assert w["kind"] == "archive-order" and w["level"] == "warning"
    assert f"({script}:{helper_line})" in w["hint"] and "lld searches archives in any order" in w["hint"]
    assert any(x.startswith("archive-order:") for x in res["warnings"])

    # Replay judges the recorded links the same way, under both linkers.
    assert main(["replay", "calls", "--linker", "bfd", "--format", "json"]) == 1
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert [d["kind"] for d in res["diagnostics"]] == ["archive-order"]
    assert main(["replay", "calls", "--linker", "default", "--format", "json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    assert [(d["kind"], d["level"]) for d in res["diagnostics"]] == [("archive-order", "warning")]
    assert f"({script}:{helper_line})" in res["diagnostics"][0]["hint"]


def test_archive_order_fail_makes_the_lld_link_a_failure(ordersys, capsys):
    cfg = ordersys / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace('linkers = ["default", "bfd"]', 'linkers = ["default"]\narchive-order = "fail"'))
    rc, doc = _run(capsys)
    (res,) = doc["results"]
    assert rc == 1 and res["verdict"] == "link-failed"
    assert res["failed_targets"] == ["calls (archive order)"]
    assert [(d["kind"], d["level"]) for d in res["diagnostics"]] == [("archive-order", "error")]


def test_right_order_carries_no_archive_order(ordersys, capsys, tmp_path, monkeypatch):
    script = ordersys / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    # Committed, so the only warning a run could give is about the order (an uncommitted
    # build script is a dirty input, rightly named in a warning of its own).
    git(ordersys, "commit", "-qam", "right order")
    digests = {}
    for linker in ("default", "bfd"):
        rc, doc = _run(capsys, "--linker", linker)
        (res,) = doc["results"]
        assert rc == 0 and res["verdict"] == "linked", (linker, res)
        assert res["diagnostics"] == [] and res["warnings"] == [], linker
        digests[linker] = res["directives_digest"]
    # The same recipe, the same digest: under both linkers (each has its own
    # target dir, and the out dir's hash differs) and in another checkout.
    assert digests["default"] is not None and digests["default"] == digests["bfd"]
    other = tmp_path / "second-checkout"
    shutil.copytree(ordersys, other, ignore=shutil.ignore_patterns("target"))
    monkeypatch.chdir(other)
    rc, doc = _run(capsys, "--linker", "default")
    assert doc["results"][0]["directives_digest"] == digests["default"]


@pytest.mark.parametrize("linkers", ['linkers = ["bfd"]', 'linkers = ["default"]\narchive-order = "fail"'])
def test_control_expecting_archive_order_is_caught(ordersys, capsys, linkers):
    """Under GNU ld the swapped archives fail the link; under the default linker alone,
    a gate with archive-order = "fail" catches them too (lld's --warn-backrefs)."""
    script = ordersys / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    subprocess.run(["git", "-C", str(ordersys), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qam", "right order"], check=True)
    cfg = ordersys / "linkgate.toml"
    cfg.write_text(
        cfg.read_text().replace('linkers = ["default", "bfd"]', linkers)
        + "\n[[gate.control]]\nname = \"swap-archives\"\nfile = \"ordsys/build.rs\"\n"
        # The two -l directives swapped: the defect of the fixture as shipped.
        "replace = { pattern = 'bundle=shim(\"\\);\\n.*-)bundle=helper', with = 'bundle=helper\\1bundle=shim' }\n"
        'expect-kind = "archive-order"\n'
    )
    rc = main(["prove", "-q", "--no-history", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    (c,) = doc["controls"]
    assert c["outcome"] == "caught", (c["reason"], c.get("mutated"))
    assert rc == 0


def test_explain_reads_the_order_from_the_link_line_in_the_log(ordersys, tmp_path, capsys):
    env = {"CARGO_TARGET_DIR": str(tmp_path / "t"), "RUSTFLAGS": "-Clinker-features=-lld"}
    import os

    for fmt, name in ((["--message-format=json"], "json.log"), ([], "human.log")):
        done = subprocess.run(["cargo", "test", "-p", "app", "--test", "calls", "--no-run", *fmt],
                              capture_output=True, text=True, env={**os.environ, **env})
        assert done.returncode != 0
        log = tmp_path / name
        log.write_text(done.stdout + done.stderr)
        main(["explain", str(log), "--format", "json"])
        kinds = [d["kind"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
        assert kinds == ["archive-order"], name


def test_archive_order_fail_under_a_matrix_relinks_the_other_linkers(ordersys, capsys):
    """archive-order = "fail" fails a link cargo completed: the other linkers relink every
    recorded link (mold links them: a pass of its own), none builds in its own directory."""
    cfg = ordersys / "linkgate.toml"
    cfg.write_text(cfg.read_text().replace(
        'linkers = ["default", "bfd"]', 'linkers = ["default", "bfd", "mold"]\narchive-order = "fail"'))
    rc, doc = _run(capsys)
    by = {r["linker"]: r for r in doc["results"]}
    assert rc == 1
    assert by["default"]["verdict"] == "link-failed"
    assert [d["kind"] for d in by["bfd"]["diagnostics"]] == ["archive-order"]
    assert by["mold"]["verdict"] == "linked", by["mold"]["warnings"]
    for linker in ("bfd", "mold"):
        assert by[linker]["matrix"]["replayed"] is True and by[linker]["matrix"]["fallback"] is None, by[linker]


def test_the_wrong_order_and_the_fixed_order_are_different_recipes(ordersys, capsys):
    # The tree whose -lhelper -lshim fails under GNU ld and the tree that fixed it
    # must not share a directives digest (it hashed a sorted set once).
    rc, doc = _run(capsys, "--linker", "bfd")
    wrong = doc["results"][0]
    assert rc == 1 and wrong["verdict"] == "link-failed"
    script = ordersys / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    rc, doc = _run(capsys, "--linker", "bfd")
    right = doc["results"][0]
    assert rc == 0 and right["verdict"] == "linked"
    assert wrong["directives_digest"].startswith("v2:") and right["directives_digest"].startswith("v2:")
    assert wrong["directives_digest"] != right["directives_digest"]


@pytest.mark.parametrize("mode", ["rebuild", "replay"])
def test_a_control_under_bfd_with_mold_in_rustflags_is_judged_by_bfd(ordersys, capsys, monkeypatch, mode):
    """RUSTFLAGS selecting mold made every leg link with mold: under bfd the swapped
    archives linked and prove called the control not-reproduced. bfd's own choice must
    win there, and the default leg, which the setting does override, is no verdict."""
    script = ordersys / "ordsys/build.rs"
    script.write_text(script.read_text().replace(WRONG, RIGHT))
    subprocess.run(["git", "-C", str(ordersys), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qam", "right order"], check=True)
    cfg = ordersys / "linkgate.toml"
    cfg.write_text(
        cfg.read_text().replace('linkers = ["default", "bfd"]', f'linkers = ["default", "bfd"]\nlinker-matrix = "{mode}"')
        + "\n[[gate.control]]\nname = \"swap-archives\"\nfile = \"ordsys/build.rs\"\n"
        "replace = { pattern = 'bundle=shim(\"\\);\\n.*-)bundle=helper', with = 'bundle=helper\\1bundle=shim' }\n"
        'expect-kind = "archive-order"\n'
    )
    monkeypatch.setenv("RUSTFLAGS", "-C link-arg=-fuse-ld=mold")
    main(["prove", "-q", "--no-history", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    by = {c["linker"]: c for c in doc["controls"]}
    assert by["bfd"]["outcome"] == "caught", by["bfd"]
    assert by["default"]["outcome"] == "error" and "RUSTFLAGS" in by["default"]["reason"], by["default"]
