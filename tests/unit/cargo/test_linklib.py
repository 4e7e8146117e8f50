"""rustc-link-lib values as rustc reads them: [KIND[:MODIFIERS]=]NAME[:RENAME]."""

from __future__ import annotations

import pytest

from linkgate.cargo.linklib import parse


@pytest.mark.parametrize(
    ("value", "kind", "archive", "bundled"),
    [
        ("static=z", "static", "libz.a", True),
        ("z", "", "libz.a", False),
        ("static:+verbatim=libext.a", "static", "libext.a", True),
        ("static:+whole-archive,+verbatim=libext.a", "static", "libext.a", True),
        ("static:-bundle=helper", "static", "libhelper.a", False),
        ("static:-bundle,+bundle=helper", "static", "libhelper.a", True),
        ("static:+verbatim,-verbatim=ext", "static", "libext.a", True),
        ("dylib=foo:bar", "dylib", "libbar.a", False),
        ("static=foo:bar", "static", "libbar.a", True),
    ],
)
def test_the_file_and_the_bundling_follow_every_modifier(value, kind, archive, bundled):
    lib = parse(value)
    assert (lib.kind, lib.archive_file, lib.bundled) == (kind, archive, bundled)


def test_only_static_and_the_default_kind_may_come_from_an_archive():
    assert [parse(v).may_be_archive for v in ("static=a", "a", "dylib=a", "framework=a")] == [True, True, False, False]
