"""The few actions linkgate writes into workflows, pinned by commit.

zizmor's default policy reports every action not pinned to a full commit SHA
(``unpinned-uses``, high severity), tags included: a tag can be moved, a
commit cannot. Each pin carries the release it corresponds to, written as
the ``# vX.Y.Z`` comment reviewers and Dependabot read.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Pin(NamedTuple):
    sha: str
    version: str


PINS: dict[str, Pin] = {
    "actions/checkout": Pin("11bd71901bbe5b1630ceea73d27597364c9af683", "v4.2.2"),
    "actions/cache": Pin("5a3ec84eff668545956fd18022155c47e93e2684", "v4.2.3"),
    "actions/upload-artifact": Pin("ea165f8d65b6e75b540449e92b4886f43607fa02", "v4.6.2"),
    "actions/download-artifact": Pin("d3f86a106a0bac45b974a628896c90dbdf5c8093", "v4.3.0"),
    "actions/setup-python": Pin("a26af69be951a213d495a4c3e4e4022e16d87065", "v5.6.0"),
    "dorny/paths-filter": Pin("de90cc6fb38fc0963ad72b210f1f284cd68cea36", "v3.0.2"),
}

_USES = re.compile(r"^(?P<action>[\w.-]+/[\w.-]+)@(?P<ref>[0-9a-f]{40})$")


def uses(action: str) -> str:
    """The ``uses:`` value for *action*; its version goes in a trailing comment."""
    return f"{action}@{PINS[action].sha}"


def version_comment(action: str) -> str:
    return PINS[action].version


def pinned_action(value: str) -> str | None:
    """The action name when *value* is one of our pinned references, else None."""
    m = _USES.match(value)
    if m and m["action"] in PINS and PINS[m["action"]].sha == m["ref"]:
        return m["action"]
    return None
