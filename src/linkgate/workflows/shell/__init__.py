"""Bash, read as bash reads it: a tree-sitter grammar (``parse``) and an
abstract evaluator (``interp``) that lists the commands a script runs, per
path through its conditions, without running anything.

``interp`` runs each statement through the handler registered for its node
type in ``dispatch``; importing ``commands`` and ``control`` here registers
theirs (``interp`` registers its own)."""

from __future__ import annotations

from linkgate.workflows.shell import commands, control  # so that they register their handlers
from linkgate.workflows.shell.dispatch import Host, unhandled
from linkgate.workflows.shell.interp import Evaluator, evaluate
from linkgate.workflows.shell.state import Frame, Recipe, ShellCommand, ShellProblem
from linkgate.workflows.shell.words import Val

if unhandled():
    raise ImportError(f"no shell handler registered for {', '.join(unhandled())}")

__all__ = ["Evaluator", "evaluate", "Frame", "Host", "Recipe", "ShellCommand", "ShellProblem", "Val"]
