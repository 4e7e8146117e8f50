"""Bash, read as bash reads it: a tree-sitter grammar (``parse``) and an
abstract evaluator (``interp``) that lists the commands a script runs, per
path through its conditions, without running anything."""

from __future__ import annotations

from linkgate.workflows.shell.interp import Evaluator, Host, evaluate
from linkgate.workflows.shell.state import Frame, Recipe, ShellCommand, ShellProblem
from linkgate.workflows.shell.words import Val

__all__ = ["Evaluator", "evaluate", "Frame", "Host", "Recipe", "ShellCommand", "ShellProblem", "Val"]
