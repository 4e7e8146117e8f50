"""Actions known to run cargo, turned into the command line they run.

Understood (inputs as documented in each action's action.yml):
- ``actions-rs/cargo`` and its maintained fork ``clechasseur/rs-cargo``:
  ``command``, ``args``, ``toolchain``, ``use-cross``;
- ``actions-rs/clippy-check``: ``cargo clippy`` with ``args``, ``toolchain``;
- ``giraffate/clippy-action``: ``cargo clippy`` with ``clippy_flags``;
- ``actions-rs/tarpaulin``: ``cargo tarpaulin`` with ``args`` (links and runs tests);
- ``houseabsolute/actions-rust-cross``: ``command`` (build/test/both),
  ``target``, ``args``, ``toolchain``; runs cross or cargo.
Other actions are not looked into; they are listed nowhere as cargo runs.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import Any


def _words(value: Any) -> list[str]:
    if not isinstance(value, str) or not value.strip():
        return []
    try:
        return shlex.split(value, comments=True)
    except ValueError:
        return value.split()


def _toolchain(inputs: Mapping[str, Any]) -> list[str]:
    tc = inputs.get("toolchain")
    return [f"+{tc}"] if isinstance(tc, str) and tc.strip() else []


def _cargo_action(inputs: Mapping[str, Any]) -> list[list[str]]:
    program = "cross" if str(inputs.get("use-cross", "")).lower() == "true" else "cargo"
    command = inputs.get("command")
    if not isinstance(command, str) or not command.strip():
        return []
    return [[program, *_toolchain(inputs), *_words(command), *_words(inputs.get("args"))]]


def _clippy_check(inputs: Mapping[str, Any]) -> list[list[str]]:
    return [["cargo", *_toolchain(inputs), "clippy", *_words(inputs.get("args"))]]


def _giraffate_clippy(inputs: Mapping[str, Any]) -> list[list[str]]:
    return [["cargo", "clippy", *_words(inputs.get("clippy_flags"))]]


def _tarpaulin(inputs: Mapping[str, Any]) -> list[list[str]]:
    return [["cargo", "tarpaulin", *_words(inputs.get("args"))]]


def _rust_cross(inputs: Mapping[str, Any]) -> list[list[str]]:
    command = str(inputs.get("command") or "build")
    target = inputs.get("target")
    extra = [*(["--target", target] if isinstance(target, str) else []), *_words(inputs.get("args"))]
    subs = ["build", "test"] if command == "both" else [command]
    return [["cargo", *_toolchain(inputs), sub, *extra] for sub in subs]


KNOWN: dict[str, Callable[[Mapping[str, Any]], list[list[str]]]] = {
    "actions-rs/cargo": _cargo_action,
    "clechasseur/rs-cargo": _cargo_action,
    "actions-rs/clippy-check": _clippy_check,
    "giraffate/clippy-action": _giraffate_clippy,
    "actions-rs/tarpaulin": _tarpaulin,
    "houseabsolute/actions-rust-cross": _rust_cross,
}


def cargo_commands(uses: str, inputs: Mapping[str, Any]) -> list[list[str]]:
    """The cargo command lines a ``uses:`` step runs, or [] for other actions."""
    name = uses.split("@", 1)[0].strip().lower().rstrip("/")
    handler = KNOWN.get(name)
    return handler(inputs) if handler else []
