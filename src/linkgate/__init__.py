"""linkgate: make link-only regressions in Cargo projects impossible to miss."""

from __future__ import annotations

__version__ = "0.1.0"
