"""Acceptance: a build script with recipes selected by $ACMERT_DIST (A) and $ACMERT_HOME (B),
a gate that sets only A, real cargo runs, real SQLite history, documents from another runner."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from linkgate.cli import main
from recipesws import SELECTORS, gate_only_config, head, make_workspace

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("coverage") / "ws")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, ws: Path) -> None:
    for var in SELECTORS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(ws)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    rc = main(list(args))
    captured = capsys.readouterr()
    return rc, captured.out + captured.err


def test_suggest_proposes_both_env_recipes_from_the_build_script_alone(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(gate_only_config(ws))
    assert not (ws / "target").exists()   # nothing built: the proposal is from source only
    rc, out = cli(capsys, "coverage", "--suggest", "--config", config, "--format", "json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["schema"] == "linkgate.coverage-suggest/1"
    got = {s["name"]: (s["when-env"], s["unless-env"], s["when-target"], s["file"], s["line"], s["confirmed_by"])
           for s in doc["suggestions"]}
    assert got == {
        "acmert-dist": (["ACMERT_DIST"], [], None, "build.rs", 33, []),
        "acmert-home": (["ACMERT_HOME"], ["ACMERT_DIST"], None, "build.rs", 36, []),
        "apple-darwin": ([], ["ACMERT_DIST", "ACMERT_HOME"], "*-apple-darwin", "build.rs", 40, []),
    }
    assert doc["scripts"] == [{"file": "build.rs", "package": "acmert-sys", "recipes": 3, "notes": [],
                               "unconditional": [], "helpers": []}]
    rc, toml = cli(capsys, "coverage", "--suggest", "--config", config)
    assert rc == 0
    assert '[[recipe]]\nname = "acmert-home"\nwhen-env = ["ACMERT_HOME"]\nunless-env = ["ACMERT_DIST"]\n' \
           'file = "build.rs"\nline = 36\n' in toml
    assert "# build.rs:38: rustc-link-lib=static=acmert_home" in toml


def test_a_run_that_sets_only_a_covers_a_and_leaves_b_never_linked(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = cli(capsys, "run", "-q")
    assert rc == 0, out
    rc, out = cli(capsys, "coverage", "--format", "json")
    assert rc == 0
    doc = json.loads(out)
    host = socket.gethostname()
    assert (doc["schema"], doc["runs"], doc["runners"]) == ("linkgate.coverage/1", 1, [host])
    status = {r["name"]: r for r in doc["recipes"]}
    assert {n: r["status"] for n, r in status.items()} == {
        "dist": "covered", "home": "never-linked", "macos-framework": "never-selected"}
    (by,) = status["dist"]["linked_by"]
    assert (by["gate"], by["linker"], by["runner"], by["commit"]) == ("rt", "default", host, head(ws))
    assert status["home"]["selectable_by"] == ["rt"] and status["home"]["selected_by"] == []

    rc, comment = cli(capsys, "coverage", "--comment")
    assert rc == 0
    lines = comment.splitlines()
    assert lines[0] == f"linkgate coverage: 2 of 3 link recipes have no recorded link (1 recorded run from `{host}`)."
    home = next(line for line in lines if line.startswith("- `home`"))
    assert home.startswith("- `home` (`build.rs:36`): never-linked: ")
    assert "recorded gap" in home and "$ACMERT_HOME set, $ACMERT_DIST unset" in home
    assert "`dist`" not in comment

    rc, human = cli(capsys, "coverage")
    assert rc == 0
    assert f"linked by rt [default] on {host}" in human
    assert "never-linked   home  build.rs:36" in human

    rc, gh = cli(capsys, "coverage", "--format", "github")
    assert "::warning file=build.rs,line=36" in gh


def test_suggest_is_confirmed_by_the_built_records(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = cli(capsys, "coverage", "--suggest", "--format", "json")
    assert rc == 0
    by = {s["name"]: s for s in json.loads(out)["suggestions"]}
    (confirmed,) = by["acmert-dist"]["confirmed_by"]
    assert (confirmed["gate"], confirmed["linker"], confirmed["directive"]) == (
        "rt", "default", "rustc-link-lib=static=acmert_dist")
    assert confirmed["output"].startswith("target/linkgate/rt/default/debug/build/acmert-sys-")
    assert by["acmert-dist"]["configured"] == "dist"
    assert by["acmert-home"]["confirmed_by"] == [] and by["acmert-home"]["configured"] == "home"


def test_documents_from_another_runner_show_both_runners(
    ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RUNNER_NAME", "ci-arm64")
    docs = []
    for i in range(2):
        docs.append(str(tmp_path / f"run{i}.json"))
        rc, out = cli(capsys, "run", "-q", "--format", "json", "--output", docs[-1],
                      "--history", str(tmp_path / "runner.sqlite"))
        assert rc == 0, out
    monkeypatch.delenv("RUNNER_NAME")
    rc, out = cli(capsys, "history", "import", *docs)
    assert rc == 0 and "imported 2 new runs" in out
    rc, out = cli(capsys, "coverage", "--format", "json")
    doc = json.loads(out)
    host = socket.gethostname()
    assert doc["runs"] == 3 and doc["runners"] == sorted(["ci-arm64", host])
    dist = next(r for r in doc["recipes"] if r["name"] == "dist")
    assert [(b["runner"], b["linker"]) for b in dist["linked_by"]] == sorted([("ci-arm64", "default"),
                                                                               (host, "default")])
    rc, out = cli(capsys, "history", "import", *docs)
    assert rc == 0 and "imported 0 new runs" in out
    rc, again = cli(capsys, "coverage", "--format", "json")
    assert json.loads(again) == doc


def test_no_recipe_configured_is_a_usage_error(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = cli(capsys, "coverage", "--config", str(gate_only_config(ws)))
    assert rc == 2
    assert "no [[recipe]] is configured" in out and "linkgate coverage --suggest" in out
