"""Terminal output: rich is imported only when something is printed."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=None)
def stdout_console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@lru_cache(maxsize=None)
def stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def is_interactive() -> bool:
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb" and not os.environ.get("CI")
