"""The click group behind ``linkgate``: verbs imported when invoked, and the
start-up recovery of files a killed ``prove`` left mutated."""

from __future__ import annotations

import importlib
import sys

import click

from linkgate import __version__

# verb -> (module, one-line help). Keep the help here so `--help` imports nothing.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("linkgate.commands.init", "Write linkgate.toml: one gate per package whose build script links natively."),
    "run": ("linkgate.commands.run", "Link the configured gates and fail on a link failure."),
    "prove": ("linkgate.commands.prove", "Reintroduce known defects and check that the gate catches them."),
    "recover": ("linkgate.commands.recover", "Restore files left mutated by an interrupted prove."),
    "explain": ("linkgate.commands.explain", "Classify the linker errors in any build log."),
    "changed": ("linkgate.commands.changed", "List changed files as dorny/paths-filter sees them."),
    "should-run": ("linkgate.commands.should_run", "Say whether a gate's path filter matches the change."),
    "surface": ("linkgate.commands.surface", "List the files and variables that can change a gate's link line."),
    "audit": ("linkgate.commands.audit", "Show which feature sets CI checks but never links."),
    "demo": ("linkgate.commands.demo", "Run linkgate on an embedded example workspace."),
    "cost": ("linkgate.commands.cost", "Show what each gate costs and the job timeout to set."),
    "history": ("linkgate.commands.history", "Import run documents from other runners into the history."),
    "replay": ("linkgate.commands.replay", "Link a gate's recorded link commands again, without cargo."),
    "sweep": ("linkgate.commands.sweep", "Find which build-script link directives are load-bearing."),
    "coverage": ("linkgate.commands.coverage", "Show which link recipes recorded runs linked and which none did."),
    "report": ("linkgate.commands.report", "Render reports over the run history (html) or merge legs (merge)."),
    "ci": ("linkgate.commands.ci", "Write a gate's CI job into a workflow (ci github)."),
    "matrix": ("linkgate.commands.matrix", "Print the (gate, linker, runs-on) legs for a CI matrix."),
    "env-from": ("linkgate.commands.env_from", "Write a script's `export VAR=value` lines to $GITHUB_ENV."),
    "vendor": ("linkgate.commands.vendor", "Keep this linkgate's wheel in the repository for the CI job to install."),
}


# command path -> examples shown at the end of its --help (every command has some).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "init": ("linkgate init", "linkgate init --force"),
    "run": ("linkgate run", "linkgate run xla-link --linker bfd", "linkgate run --only xla-link:mold -f json -o run.json"),
    "prove": ("linkgate prove", "linkgate prove xla-link --control drop-runtime-archive -f markdown -o evidence.md"),
    "recover": ("linkgate recover", "linkgate recover --repo . --force"),
    "explain": ("cargo build 2>&1 | linkgate explain", "linkgate explain build.log -f sarif -o linker.sarif"),
    "changed": ("linkgate changed --base origin/main", "linkgate changed --base HEAD~3 -f json"),
    "should-run": ("linkgate should-run xla-link --base origin/main", "linkgate should-run xla-link"),
    "surface": ("linkgate surface xla-link --static", "linkgate surface xla-link --check-filter --repo ../rtcore"),
    "audit": ("linkgate audit", "linkgate audit --repo ../rtcore -f markdown -o audit.md"),
    "demo": ("linkgate demo", "linkgate demo --keep", "linkgate demo --copy nativelink"),
    "vendor": ("linkgate vendor", "linkgate vendor --check"),
    "cost": ("linkgate cost", "linkgate cost xla-link --budget-minutes-per-pr 10 -f markdown"),
    "history": ("linkgate history import legs/*/linkgate-leg.json",),
    "history import": ("linkgate history import legs/*/linkgate-leg.json",
                       "linkgate history import run.json --history ci-history.sqlite"),
    "replay": ("linkgate replay xla-link", "linkgate replay xla-link --linker bfd -f json -o replay.json"),
    "sweep": ("linkgate sweep xla-link", "linkgate sweep xla-link --linker bfd -j 2 -f markdown -o sweep.md"),
    "coverage": ("linkgate coverage", "linkgate coverage --suggest", "linkgate coverage --comment"),
    "report": ("linkgate report html", "linkgate report merge --expect \"$LINKGATE_MATRIX\" legs/*/linkgate-leg.json"),
    "report html": ("linkgate report html", "linkgate report html -o linkgate.html --title 'rtcore links'"),
    "report merge": ("linkgate report merge --expect \"$LINKGATE_MATRIX\" legs/*/linkgate-leg.json",
                     "linkgate report merge legs/*.json -f json -o verdict.json"),
    "ci": ("linkgate ci github xla-link", "linkgate ci github xla-link --trigger paths --write"),
    "ci github": ("linkgate ci github xla-link", "linkgate ci github xla-link --trigger paths --write",
                  "linkgate ci github xla-link --matrix --check"),
    "matrix": ("linkgate matrix", "linkgate matrix xla-link --repo ../rtcore"),
    "env-from": ("linkgate env-from -- bash scripts/setup-cuda.sh --env", "bash scripts/setup-cuda.sh --env | linkgate env-from"),
}


def _with_examples(command: click.Command, path: str) -> click.Command:
    """Give *command* (and a group's subcommands) its examples as the epilog."""
    examples = EXAMPLES.get(path)
    if examples and not command.epilog:
        command.epilog = "\b\nExamples:\n" + "".join(f"  {e}\n" for e in examples)
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            _with_examples(sub, f"{path} {name}")
    return command


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (mod, _) in COMMANDS.items() if _exists(mod)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        try:
            module = importlib.import_module(entry[0])
        except ModuleNotFoundError as exc:
            if exc.name == entry[0]:
                return None  # a verb this installation does not ship
            raise
        command: click.Command = module.command
        return _with_examples(command, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from linkgate.tomlsource import did_you_mean

            close = did_you_mean(name, self.list_commands(ctx))
            ctx.fail(f"no such command {name!r}" + (f" ({close})" if close else "")
                     + f": `{ctx.command_path} --help` lists the commands")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _exists(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="linkgate")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """linkgate: link what `cargo check` never links, and prove the gate works.

    \b
    Exit codes:
      0  everything passed
      1  a finding: a link failed, a control was not caught, a filter misses the surface
      2  usage or configuration error
      3  compile failure or tool error, without a link failure
      4  another linkgate process holds this repository's lock
    """
    if ctx.invoked_subcommand != "recover":
        _recover_interrupted(read_only=ctx.invoked_subcommand in READ_ONLY)


# Commands that change nothing in the tree. A journal left by a killed `prove`
# neither blocks them nor is recovered by them: recovering writes the user's
# files, and a journal that cannot be replayed (a file edited since) would make
# a question such as `audit` fail with exit 3. They say it is there instead.
READ_ONLY = frozenset({"audit", "surface", "explain", "should-run", "cost", "coverage", "report",
                       "changed", "matrix"})


def _recover_interrupted(read_only: bool = False) -> None:
    """Restore any file a killed `prove` left mutated, before doing anything else
    (for a read-only command: say that a journal is there, and how to recover).

    Only a few stat calls when there is no journal: the journal module (and
    hashlib, signal handling) is imported only when one exists.
    """
    import os

    here = os.getcwd()
    while True:
        journal = os.path.join(here, ".linkgate", "journal.json")
        if os.path.isfile(journal):
            if read_only:
                shown = os.path.relpath(journal)
                sys.stderr.write(
                    f"linkgate: note: an interrupted prove left a journal ({shown}): files it changed may still be "
                    "changed, and this command reads the tree as it is; run `linkgate recover` to restore them\n")
                return
            from linkgate.prove.journal import recover_at_startup

            recover_at_startup()
            return
        if os.path.exists(os.path.join(here, ".git")):
            return
        parent = os.path.dirname(here)
        if parent == here:
            return
        here = parent
