"""Options shared by several verbs, declared once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

FORMAT_CHOICES = ("human", "json", "markdown", "github", "junit", "sarif")


def config_option(f: F) -> F:
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False),
        default=None,
        help="Configuration file (default: linkgate.toml or Cargo.toml metadata, found upwards).",
    )(f)


def repo_option(f: F) -> F:
    return click.option(
        "--repo",
        "repo",
        type=click.Path(file_okay=False),
        default=None,
        help="Repository root (default: the git top-level of the current directory). "
        "Configuration paths are relative to it.",
    )(f)


def positive_finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Refuse a number that is not finite or not above zero. click's FloatRange(min=0)
    lets ``nan`` and ``inf`` through (every comparison with nan is false), and a
    budget of nan minutes makes every later comparison false too."""
    import math

    if value is not None and (not math.isfinite(value) or value <= 0):
        raise click.BadParameter(f"{value!r} is not a finite number above zero", ctx, param)
    return value


def check_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an unwritable --output while parsing, before any build starts:
    finding out after a twenty-minute link would waste the link."""
    if value is None:
        return value
    import os

    from linkgate.errors import UsageError

    path = os.path.abspath(value)
    parent = os.path.dirname(path)
    if os.path.isdir(path):
        raise UsageError(f"--output {value}: is a directory", hint="name a file inside it")
    if not os.path.isdir(parent):
        raise UsageError(f"--output {value}: directory {parent} does not exist", hint="create it first")
    try:
        limit = os.pathconf(parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.path.basename(path).encode("utf-8", "surrogateescape")) > limit:
        raise UsageError(f"--output {value}: the file name is longer than this file system allows ({limit} bytes)",
                         hint="choose a shorter name")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"--output {value}: directory {parent} is not writable", hint="choose another path")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError(f"--output {value}: file is not writable", hint="choose another path")
    return value


# What `-o FILE` without `-f` means, by FILE's suffix: `-o report.json` that wrote
# text would be read by the next tool in the pipeline as a broken JSON document.
_SUFFIX_FORMATS = {".json": "json", ".md": "markdown", ".markdown": "markdown", ".sarif": "sarif", ".xml": "junit"}


def format_for(output: str | None) -> str | None:
    """The format `-o OUTPUT` asks for by its suffix, if it asks for one."""
    if output is None:
        return None
    import os

    return _SUFFIX_FORMATS.get(os.path.splitext(output)[1].lower())


def _format_from_output(f: F) -> F:
    import functools

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context(silent=True)
        inferred = format_for(kwargs.get("output"))
        if (ctx is not None and inferred is not None
                and ctx.get_parameter_source("fmt") is click.core.ParameterSource.DEFAULT):
            kwargs["fmt"] = inferred
        return f(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def format_options(f: F) -> F:
    f = _format_from_output(f)
    f = click.option(
        "--output",
        "-o",
        type=click.Path(dir_okay=False),
        default=None,
        callback=check_output,
        help="Write the report to FILE (atomically) instead of stdout.",
    )(f)
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(FORMAT_CHOICES),
        default="human",
        show_default=True,
        help="Report format (default: from -o FILE's suffix, .json .md .sarif .xml, else human).",
    )(f)


def history_options(f: F) -> F:
    f = click.option(
        "--no-history",
        is_flag=True,
        help="Do not record this run in the history database.",
    )(f)
    return click.option(
        "--history",
        "history_file",
        type=click.Path(dir_okay=False),
        default=None,
        help="History database (default: $LINKGATE_HISTORY, else .linkgate/history.sqlite at the repository root).",
    )(f)
