"""Values that reach git from an event payload or the command line, checked first.

An event payload is written by whoever opened the pull request or pushed the
branch: a ``before`` of ``--output=/tmp/x`` is an option to ``git diff``, not a
commit. So a value named as a commit must be one (40 hex digits for SHA-1, 64
for SHA-256), a branch must be a name ``git check-ref-format`` accepts, and a
revision from ``--base``/``--head`` must not look like an option; every one is
still passed to git after ``--end-of-options``.
"""

from __future__ import annotations

import re

from linkgate.errors import UndecidedChange

COMMIT_ID = re.compile(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}")
# git check-ref-format's rules (Documentation/git-check-ref-format.txt): no
# control character, space, ~ ^ : ? * [ \ or DEL anywhere; no "..", "@{" or "//";
# no component that starts with "." or ends with ".lock"; not "@"; no leading
# "-" (an option to git) or "/", no trailing "/" or ".".
_REF_BAD = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//")
_REF_MAX = 1024


def _shown(value: str) -> str:
    return repr(value if len(value) <= 80 else value[:80] + "...")


def commit_id(value: str, what: str) -> str:
    """*value* when it is a full commit id, else UndecidedChange naming *what*."""
    if not COMMIT_ID.fullmatch(value):
        raise UndecidedChange(f"{what} is {_shown(value)}, not a commit id (40 or 64 hex digits)")
    return value


def is_ref_name(value: str) -> bool:
    if not value or len(value) > _REF_MAX or value == "@" or _REF_BAD.search(value):
        return False
    if value[0] in "-/" or value[-1] in "/.":
        return False
    return all(part and not part.startswith(".") and not part.endswith(".lock") for part in value.split("/"))


def ref_name(value: str, what: str) -> str:
    """*value* when git would accept it as a ref name, else UndecidedChange naming *what*."""
    if not is_ref_name(value):
        raise UndecidedChange(f"{what} is {_shown(value)}, not a valid git ref name")
    return value


def revision(value: str, what: str) -> str:
    """A revision given on the command line (``origin/main``, ``HEAD~1``, a commit id):
    anything git may parse, except what reads as an option or holds a control character."""
    if not value or value.startswith("-") or re.search(r"[\x00-\x1f\x7f]", value):
        raise UndecidedChange(f"{what} is {_shown(value)}, which git would not read as a revision")
    return value
