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


def format_options(f: F) -> F:
    f = click.option(
        "--output",
        "-o",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        help="Write the report to FILE (atomically) instead of stdout.",
    )(f)
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(FORMAT_CHOICES),
        default="human",
        show_default=True,
        help="Report format.",
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
