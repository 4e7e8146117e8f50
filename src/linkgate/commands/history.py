"""`linkgate history import FILE...`: merge run documents from other runners."""

from __future__ import annotations

import json
from pathlib import Path

import click

from linkgate.commands.options import config_option, repo_option
from linkgate.errors import UsageError


@click.group("history")
def command() -> None:
    """The run history that `run` and `prove` append to and `cost` reads."""


@command.command("import", short_help="Add the runs of `linkgate run --format json` documents.")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--history", "history_file", type=click.Path(dir_okay=False), default=None,
              help="History database (default: $LINKGATE_HISTORY, else .linkgate/history.sqlite at the repository root).")
@config_option
@repo_option
def import_(files: tuple[str, ...], history_file: str | None, config_path: str | None,
            repo: str | None = None) -> int:
    """Add the runs of `linkgate run --format json` documents (e.g. CI artifacts).

    Keyed by run id: a run already in the history is skipped, so importing twice adds nothing.
    Every file is checked before anything is written.
    """
    from linkgate import repofs
    from linkgate.history.model import RunRecord
    from linkgate.history.record import DocumentError, from_document
    from linkgate.history.recorder import locate
    from linkgate.history.store import History

    records: list[RunRecord] = []
    for name in files:
        try:
            doc = json.loads(repofs.read_text(name, inside=None, limit=repofs.MAX_LOG))
            records.extend(from_document(doc))
        except OSError as exc:
            raise UsageError(f"{name}: cannot read: {exc.strerror or exc}") from None
        except RecursionError:  # json nests by recursion
            raise UsageError(f"{name}: nests too deeply to be a run document",
                             hint="import the output of `linkgate run --format json`; nothing was imported") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = f":{exc.lineno}:{exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise UsageError(f"{name}{where}: not a JSON document ({exc})",
                             hint="import the output of `linkgate run --format json`; nothing was imported") from None
        except DocumentError as exc:
            raise UsageError(f"{name}: {exc}",
                             hint="import the output of `linkgate run --format json`; nothing was imported") from None
    path = locate(history_file, config_path, repo)
    with History.open(path) as history:
        added = history.add(records)
    click.echo(f"imported {added} new run{'' if added == 1 else 's'} from {len(files)} "
               f"file{'' if len(files) == 1 else 's'} into {path} ({len(records) - added} already present)")
    return 0
