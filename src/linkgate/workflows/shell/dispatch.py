"""What statement handlers and the evaluator share, below both of them.

``interp.Evaluator.exec`` runs a statement by looking its node type up in
``HANDLERS``; the modules that handle statements (``interp`` for the plain
ones, ``commands``, ``control``) fill the table with ``@register`` when they
are imported (``shell/__init__`` imports them all). Handlers are written
against ``ShellEvaluator``, the part of the evaluator they use, so none of
them imports ``interp`` and ``interp`` imports none of them.

Bounds: ``MAX_STEPS`` statements per evaluation, ``MAX_DEPTH`` nested calls
(functions, scripts, make).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, get_args

from linkgate.workflows.shell.state import Frame, Recipe, State
from linkgate.workflows.shell.syntax import Stmt
from linkgate.workflows.shell.words import Scope, Val, Value

MAX_STEPS = 20_000
MAX_DEPTH = 8


class Host(Protocol):
    """The repository around the script: files to read, Makefiles to walk."""

    def read_script(self, rel: str) -> str | None: ...

    def peek(self, rel: str) -> str | None:
        """*rel*'s text, not yet counted as followed."""

    def take_refused(self) -> list[tuple[str, str]]:
        """(path, reason) of each file the host refused to read since the last call."""

    def make_recipes(
        self, argv: tuple[str, ...], cwd: str, env: Mapping[str, str], seen: set[tuple[str, str]]
    ) -> tuple[list[Recipe], list[tuple[str, bool]]]: ...

    def container_command(self, image: str, args: list[str]) -> list[str] | None:
        """What `docker run IMAGE ARGS` runs, when the image is one the workflow builds here."""

    def task_recipes(self, argv: tuple[str, ...], cwd: str,
                     env: Mapping[str, str]) -> tuple[list[Recipe], list[tuple[str, bool]]] | None:
        """The lines a task runner (just, cargo make, npm run) runs; None when *argv* is no task runner."""

    def checked_out_from(self, rel: str) -> str | None:
        """OWNER/REPO when *rel* lies in a directory the job checks out from another repository."""

    def pathnames(self, pattern: str, cwd: str) -> list[str] | None:
        """The pathname expansion of *pattern* in *cwd* (sorted; [] for no match), None when unknowable."""


class ShellEvaluator(Protocol):
    """What a handler may use of the evaluator (``interp.Evaluator`` is one)."""

    host: Host | None
    exprs: Sequence[Val]
    make_seen: set[tuple[str, str]] | None
    capture: list[list[str] | None]
    github_env: dict[str, str]
    github_output: dict[str, str]

    def run_text(self, text: str, frame: Frame, state: State) -> list[State]: ...

    def new_shell(self, env: Mapping[str, str] | Mapping[str, Value], cwd: str, cwd_unknown: bool,
                  conds: tuple[str, ...] = ()) -> State: ...

    def emit(self, argv: Sequence[Val], st: State, frame: Frame, line: int, prefix: Mapping[str, Value]) -> None: ...

    def problem(self, file: str, line: int, cause: str, message: str, cargo: bool, unread: str = "") -> None: ...

    def scope(self, st: State, frame: Frame, row: int = 0) -> Scope: ...

    def run(self, stmt: Stmt, states: list[State], frame: Frame) -> list[State]: ...

    def exec(self, stmt: Stmt, st: State, frame: Frame) -> list[State]: ...


Handler = Callable[[ShellEvaluator, Any, State, Frame], list[State]]
H = TypeVar("H", bound=Handler)

# Node type -> the function that runs a statement of that type.
HANDLERS: dict[type[Any], Handler] = {}


def register(*kinds: type[Any]) -> Callable[[H], H]:
    """Make the decorated function the handler of statements of *kinds*."""

    def add(fn: H) -> H:
        for kind in kinds:
            old = HANDLERS.get(kind)
            if old is not None and (old.__module__, old.__qualname__) != (fn.__module__, fn.__qualname__):
                raise ValueError(f"{kind.__name__} is handled by {old.__module__}.{old.__qualname__} already")
            HANDLERS[kind] = fn
        return fn

    return add


def unhandled() -> list[str]:
    """Statement types no handler is registered for (none once the handler modules are imported)."""
    return [kind.__name__ for kind in get_args(Stmt) if kind not in HANDLERS]
