"""`linkgate report html` over a real history (cold and warm runs, a negative control, runs
imported from another runner), opened in headless Chromium: the DOM it builds and the pixels it paints."""

from __future__ import annotations

import shutil
import socket
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from linkgate.cli import main
from pngpixels import near, pixels
from recipesws import SELECTORS, make_workspace

pytestmark = pytest.mark.slow


class Dom(HTMLParser):
    """Start tags with attributes and the text directly under each, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append((len(self.tags) - 1, data.strip()))

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def text_of(self, tag: str, **attrs: str) -> list[str]:
        idx = [i for i, (t, a) in enumerate(self.tags) if t == tag
               and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]
        return [" ".join(s for j, s in self.text if j == i) for i in idx]


def chromium(args: list[str], profile: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("chromium")
    assert exe, "chromium is required (make test installs it: scripts/test-deps)"
    return subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=180, check=True,
    )


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("report")
    ws = make_workspace(base / "ws")
    with pytest.MonkeyPatch.context() as mp:
        for var in SELECTORS:
            mp.delenv(var, raising=False)
        mp.chdir(ws)
        for _ in range(3):
            assert main(["run", "-q"]) == 0
        assert main(["prove", "-q"]) == 0
        mp.setenv("RUNNER_NAME", "ci-arm64")
        doc = str(base / "arm.json")
        assert main(["run", "-q", "--format", "json", "-o", doc, "--history", str(base / "arm.sqlite")]) == 0
        mp.delenv("RUNNER_NAME")
        assert main(["history", "import", doc]) == 0
        out = base / "out" / "report.html"
        out.parent.mkdir()
        assert main(["report", "html", "--output", str(out), "--title", "acme <rt> & co"]) == 0
    return out


def test_chromium_builds_the_chart_and_the_matrix(page: Path, tmp_path: Path) -> None:
    dom = Dom()
    dom.feed(chromium(["--dump-dom", page.as_uri()], tmp_path / "profile").stdout)
    assert dom.text_of("title")[0] == "acme <rt> & co"   # the page's; the others are SVG tooltips
    # Cost chart: one series for (rt, default); one mark per recorded run: the first cold, the rest warm.
    assert len(dom.find("svg", id="cost-chart")) == 1
    assert dom.find("g", **{"class": "series"}) == [
        {"class": "series", "data-gate": "rt", "data-linker": "default", "stroke": "#4e79a7", "fill": "#4e79a7"}]
    marks = [a["class"] for a in dom.find("circle") if a["class"].startswith("point")]
    # Start times have one-second resolution, so runs in the same second have no order to check.
    assert sorted(marks) == ["point cold", "point warm", "point warm", "point warm"]
    assert [a["data-cold"] for a in dom.find("g", **{"class": "bar"})] == ["warm", "cold"]
    # Compile vs link: the recording wrapper measured every link, so each bar has both parts.
    assert len(dom.find("rect", **{"class": "compile"})) == 2 and len(dom.find("rect", **{"class": "link"})) == 2
    # Coverage matrix: a row per recipe, a column per (gate, linker, runner), gaps marked.
    host = socket.gethostname()
    assert [a["data-runner"] for a in dom.find("th", scope="col")] == sorted(["ci-arm64", host])
    rows = [(a["data-recipe"], a["class"]) for a in dom.find("tr") if "data-recipe" in a]
    assert rows == [("dist", "recipe"), ("home", "recipe gap"), ("macos-framework", "recipe gap")]
    assert dom.text_of("td", **{"class": "cell linked"})[0].startswith("linked 20")
    assert len(dom.find("td", **{"class": "cell linked"})) == 2
    assert len(dom.find("td", **{"class": "cell not-selected"})) == 4
    assert dom.text_of("td", **{"class": "status never-linked"}) == ["never-linked"]
    # Latest verdict per runner, and the negative control's outcome.
    assert dom.text_of("td", **{"class": "status ok"}) == ["linked", "linked"]
    assert dom.find("tr", data_control="drop-dist-archive") == [{"data-gate": "rt", "data-control": "drop-dist-archive"}]
    assert dom.text_of("td", **{"class": "status caught"}) == ["caught"]


def test_chromium_paints_the_chart_and_the_gaps(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    chromium(["--window-size=1100,1500", f"--screenshot={shot}", page.as_uri()], tmp_path / "profile")
    width, height, counts = pixels(shot)
    assert (width, height) == (1100, 1500)
    assert near(counts, "#4e79a7") > 100      # the series: its line, dots and legend swatch
    assert near(counts, "#f28e2b") > 100      # the link part of the compile vs link bars
    assert near(counts, "#fdecea") > 2000     # the red background of the two gap rows
    assert near(counts, "#e6f4e7") > 500      # the green of the covered row
