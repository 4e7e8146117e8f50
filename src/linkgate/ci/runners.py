"""Runner labels: which are custom, and declaring them for actionlint.

actionlint knows GitHub's hosted labels and the self-hosted defaults
(``self-hosted``, ``linux``, ``x64``, ``arm64``, ...); any other label, such
as a GPU runner's ``gb10``, is reported as ``runner-label`` unless declared
in ``.github/actionlint.yaml`` under ``self-hosted-runner.labels``.
"""

from __future__ import annotations

import io
import re

from linkgate import yamlemit
from linkgate.ci.splice import SpliceError

_KNOWN = {"self-hosted", "linux", "macos", "windows", "x64", "arm", "arm64"}
_HOSTED = re.compile(r"^(ubuntu|windows|macos)-(latest|\d[\w.-]*)$")


def custom_labels(labels: tuple[str, ...]) -> list[str]:
    if "self-hosted" not in labels:
        return []
    return [label for label in labels if label.lower() not in _KNOWN and not _HOSTED.match(label)]


def declare_labels(text: str | None, labels: list[str], where: str = ".github/actionlint.yaml") -> str:
    """*text* (or a new file) with *labels* added to ``self-hosted-runner.labels``,
    everything else, comments included, kept (ruamel.yaml round trip). A file that is
    not YAML, or not of actionlint's shape, is refused with one message (SpliceError)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.error import YAMLError

    hint = "fix it (actionlint reads self-hosted-runner: {labels: [...]}) or move it aside, then write again"
    yaml = YAML()
    yaml.preserve_quotes = True
    try:
        data = yaml.load(text) if text and text.strip() else None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpliceError(f"{where}{f':{mark.line + 1}' if mark else ''}: not valid YAML "
                          f"({getattr(exc, 'problem', None) or exc})", hint=hint) from None
    if data is None:
        data = CommentedMap()
    if not isinstance(data, CommentedMap):
        raise SpliceError(f"{where}: the top level is not a mapping", hint=hint)
    runner = data.setdefault("self-hosted-runner", CommentedMap())
    if runner is None:
        runner = data["self-hosted-runner"] = CommentedMap()
    if not isinstance(runner, CommentedMap):
        raise SpliceError(f"{where}: self-hosted-runner is not a mapping", hint=hint)
    current = runner.setdefault("labels", CommentedSeq())
    if current is None:
        current = runner["labels"] = CommentedSeq()
    if not isinstance(current, CommentedSeq):
        raise SpliceError(f"{where}: self-hosted-runner.labels is not a list", hint=hint)
    missing = [label for label in labels if label not in current]
    if not missing and text is not None:
        return text
    # A label such as `on` or `12:30`, plain, is a boolean or a number to YAML 1.1.
    current.extend(yamlemit.styled(label, "self-hosted-runner.labels") for label in missing)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()
