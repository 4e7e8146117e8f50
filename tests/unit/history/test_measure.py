"""Link time from the wrapper's record files, and the link-directive digest from cargo's output files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkgate.gate.linkrecord import LINKS_DIR, read_records
from linkgate.gate.recording import link_times
from linkgate.gate.measure import directives_digest, is_cold, link_seconds


def write_record(tdir: Path, name: str, started: float, ended: float, output: str = "/t/x") -> None:
    folder = tdir / LINKS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(
        {"argv": ["cc", "-o", output], "cwd": "/", "env": {}, "started": started, "ended": ended,
         "exit_status": 0, "output": output}))


def test_parallel_links_count_once(tmp_path: Path) -> None:
    write_record(tmp_path, "a", 100.0, 104.0)
    write_record(tmp_path, "b", 102.0, 106.0)   # overlaps a: together 100..106
    write_record(tmp_path, "c", 108.0, 109.0)
    links = link_times(read_records(tmp_path, since=99.0), [])
    assert sorted(link["seconds"] for link in links) == [1.0, 4.0, 4.0]
    total = link_seconds(links, 99.0, 120.0)
    assert total == pytest.approx(7.0) and total < sum(link["seconds"] for link in links)


def test_link_time_is_clipped_to_the_run(tmp_path: Path) -> None:
    write_record(tmp_path, "a", 100.0, 130.0)
    assert link_seconds(link_times(read_records(tmp_path), []), 100.0, 110.0) == pytest.approx(10.0)


def test_no_link_in_the_run_is_zero(tmp_path: Path) -> None:
    assert link_seconds([], 0.0, 10.0) == 0.0


def test_cold_means_missing_or_empty(tmp_path: Path) -> None:
    assert is_cold(tmp_path / "absent")
    assert is_cold(tmp_path)
    (tmp_path / LINKS_DIR / "bin").mkdir(parents=True)  # the wrapper, compiled before cargo ran
    (tmp_path / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    (tmp_path / ".rustc_info.json").write_text("{}")
    assert is_cold(tmp_path)
    (tmp_path / "debug").mkdir()
    assert not is_cold(tmp_path)


def build_output(tdir: Path, pkg_dir: str, lines: list[str]) -> tuple[str, str]:
    out_dir = tdir / "release" / "build" / "zsys-0123abcd" / "out"
    out_dir.mkdir(parents=True)
    (out_dir.parent / "output").write_text("\n".join(lines) + "\n")
    return f"path+file://{pkg_dir}#0.1.0", str(out_dir)


def test_digest_ignores_where_the_tree_and_target_dir_are(tmp_path: Path) -> None:
    def digest(base: Path, extra: list[str] = []) -> str | None:  # noqa: B006
        tdir = base / "target"
        lines = [f"cargo:rustc-link-search=native={tdir}/release/build/zsys-0123abcd/out",
                 "cargo:rustc-link-lib=static=zlite", f"cargo:rerun-if-changed={base}/src/zsys/build.rs",
                 f"cargo::rustc-link-arg=-Wl,-rpath,{base}/src/zsys/lib", *extra]
        return directives_digest([build_output(tdir, f"{base}/src/zsys", lines)], str(tdir))

    first = digest(tmp_path / "a")
    assert first is not None and first.startswith("v2:") and len(first) == 19
    assert digest(tmp_path / "b") == first
    assert digest(tmp_path / "c", ["cargo:rustc-link-lib=dylib=stdc++"]) != first
    assert digest(tmp_path / "d", ["cargo:rerun-if-env-changed=CC", "cargo:warning=hi"]) == first


def test_digest_keeps_order_and_repeats(tmp_path: Path) -> None:
    # -lb -la fails under GNU ld where -la -lb links: not the same recipe.
    def digest(base: Path, libs: list[str]) -> str | None:
        tdir = base / "target"
        lines = ["cargo:rustc-link-search=native=/opt/x", *(f"cargo:rustc-link-lib=static={x}" for x in libs)]
        return directives_digest([build_output(tdir, f"{base}/src/zsys", lines)], str(tdir))

    ab = digest(tmp_path / "a", ["a", "b"])
    assert digest(tmp_path / "b", ["b", "a"]) != ab
    assert digest(tmp_path / "c", ["a", "b", "a"]) != ab
    assert digest(tmp_path / "d", ["a", "b"]) == ab


def test_no_link_directive_means_no_digest(tmp_path: Path) -> None:
    run = build_output(tmp_path, "/src/zsys", ["cargo:rerun-if-changed=build.rs"])
    assert directives_digest([run], str(tmp_path)) is None
    assert directives_digest([], str(tmp_path)) is None


def test_digest_is_the_same_under_every_linker_and_checkout(tmp_path: Path) -> None:
    """Each linker has its own target dir, and cargo names a build script's out dir
    with a hash of the rustflags, so the same recipe's -L path differs per linker."""
    def digest(base: Path, linker: str, unit_hash: str) -> str | None:
        tdir = base / "target" / "linkgate" / "calls" / linker
        out_dir = tdir / "debug" / "build" / f"zsys-{unit_hash}" / "out"
        out_dir.mkdir(parents=True)
        (out_dir.parent / "output").write_text(
            f"cargo:rustc-link-search=native={out_dir}\n"
            f"cargo:rustc-link-search=native={base}/vendor/prebuilt\n"  # in the checkout, outside the package
            f"cargo:rustc-link-arg=-Wl,-rpath,{tdir}/debug/build/other-{unit_hash[::-1]}/out\n"
            "cargo:rustc-link-lib=static=zlite\n"
        )
        run = (f"path+file://{base}/zsys#0.1.0", str(out_dir))
        return directives_digest([run], str(tdir), str(base))

    first = digest(tmp_path / "a", "default", "c4a0ae64a44d1b06")
    assert first is not None
    assert digest(tmp_path / "a", "bfd", "561c82e2045efbf9") == first
    assert digest(tmp_path / "elsewhere", "bfd", "0123456789abcdef") == first
    # A path outside the checkout and the target dir is part of the recipe.
    other = tmp_path / "b"
    assert digest(other, "default", "c4a0ae64a44d1b06") == first
    (other / "target/linkgate/calls/gold/debug/build/zsys-aaaaaaaaaaaaaaaa").mkdir(parents=True)
    out = other / "target/linkgate/calls/gold/debug/build/zsys-aaaaaaaaaaaaaaaa"
    (out / "output").write_text("cargo:rustc-link-search=native=/opt/zlite/lib\ncargo:rustc-link-lib=static=zlite\n")
    changed = directives_digest([(f"path+file://{other}/zsys#0.1.0", str(out / "out"))],
                                str(other / "target/linkgate/calls/gold"), str(other))
    assert changed != first
