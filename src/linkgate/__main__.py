from __future__ import annotations

from linkgate.cli import entry

entry()
