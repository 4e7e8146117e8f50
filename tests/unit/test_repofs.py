"""The path guard on real files: containment by resolved path (not by string
prefix), regular files only, the limit checked before reading."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from linkgate import repofs
from linkgate.errors import RefusedFile


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.txt").write_text("inside\r\nline\n")
    (tmp_path / "repo2").mkdir()
    (tmp_path / "repo2" / "b.txt").write_text("beside\n")
    return root


def test_a_sibling_sharing_the_prefix_is_outside(repo: Path) -> None:
    with pytest.raises(RefusedFile) as exc:
        repofs.read_text("../repo2/b.txt", inside=repo)
    assert exc.value.why == "outside" and "outside the repository" in exc.value.render()


def test_a_symlink_inside_that_leads_out_is_outside(repo: Path) -> None:
    (repo / "link.txt").symlink_to(repo.parent / "repo2" / "b.txt")
    with pytest.raises(RefusedFile, match="outside the repository"):
        repofs.read_bytes("link.txt", inside=repo)


def test_a_symlink_that_stays_inside_is_read(repo: Path) -> None:
    (repo / "link.txt").symlink_to("a.txt")
    assert repofs.read_text("link.txt", inside=repo) == "inside\nline\n"


def test_a_directory_named_on_the_command_line_is_inside_too(repo: Path) -> None:
    assert repofs.read_text(repo.parent / "repo2" / "b.txt", inside=repo, also=(repo.parent / "repo2",)) == "beside\n"


def test_a_fifo_is_refused_without_blocking(repo: Path) -> None:
    os.mkfifo(repo / "pipe")
    with pytest.raises(RefusedFile) as exc:
        repofs.read_bytes("pipe", inside=repo)
    assert exc.value.why == "not-regular" and "a FIFO, not a regular file" in exc.value.reason


def test_a_device_is_never_opened(repo: Path) -> None:
    with pytest.raises(RefusedFile, match="a character device"):
        repofs.read_bytes("/dev/zero", inside=None)


def test_the_limit_is_checked_before_reading(repo: Path) -> None:
    with open(repo / "big", "wb") as fh:
        fh.truncate(3 << 30)  # sparse: reading it would take 3 GB
    with pytest.raises(RefusedFile) as exc:
        repofs.read_bytes("big", inside=repo)
    assert exc.value.why == "too-large" and "3,221,225,472 bytes" in exc.value.reason


def test_a_refusal_is_an_oserror_with_the_reason(repo: Path) -> None:
    with pytest.raises(OSError) as exc:
        repofs.read_bytes("/dev/zero", inside=None)
    assert exc.value.strerror == "it is a character device, not a regular file"


def test_a_missing_file_is_file_not_found(repo: Path) -> None:
    with pytest.raises(FileNotFoundError):
        repofs.read_bytes("none.txt", inside=repo)
