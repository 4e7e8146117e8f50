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

_KNOWN = {"self-hosted", "linux", "macos", "windows", "x64", "arm", "arm64"}
_HOSTED = re.compile(r"^(ubuntu|windows|macos)-(latest|\d[\w.-]*)$")


def custom_labels(labels: tuple[str, ...]) -> list[str]:
    if "self-hosted" not in labels:
        return []
    return [label for label in labels if label.lower() not in _KNOWN and not _HOSTED.match(label)]


def declare_labels(text: str | None, labels: list[str]) -> str:
    """*text* (or a new file) with *labels* added to ``self-hosted-runner.labels``,
    everything else, comments included, kept (ruamel.yaml round trip)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    yaml = YAML()
    yaml.preserve_quotes = True
    data = yaml.load(text) if text and text.strip() else None
    if data is None:
        data = CommentedMap()
    runner = data.setdefault("self-hosted-runner", CommentedMap())
    if runner is None:
        runner = data["self-hosted-runner"] = CommentedMap()
    current = runner.setdefault("labels", CommentedSeq())
    if current is None:
        current = runner["labels"] = CommentedSeq()
    missing = [label for label in labels if label not in current]
    if not missing and text is not None:
        return text
    # A label such as `on` or `12:30`, plain, is a boolean or a number to YAML 1.1.
    current.extend(yamlemit.styled(label, "self-hosted-runner.labels") for label in missing)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()
