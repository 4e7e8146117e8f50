"""`linkgate run`: link each configured gate under each of its linkers."""

from __future__ import annotations

import click

from linkgate import config as config_mod
from linkgate.commands.options import config_option, format_options, history_options, repo_option
from linkgate.errors import UsageError
from linkgate.gate.run import GateResult, require_linkers, run_gate
from linkgate.progress import Progress
from linkgate.report import emit
from linkgate.gate.report import build_report


@click.command("run")
@click.argument("gates", nargs=-1)
@click.option("--linker", "only_linkers", multiple=True, help="Run only under this linker (repeatable).")
@click.option("--only", "only_pairs", multiple=True, metavar="GATE:LINKER",
              help="Run only this (gate, linker) pair, e.g. one leg of a CI matrix (repeatable).")
@click.option(
    "--force-link/--no-force-link",
    default=True,
    show_default=True,
    help="When cargo finds nothing to relink, delete the cheapest linked executable so "
    "the pass rests on a real link.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr.")
@config_option
@repo_option
@format_options
@history_options
def command(
    gates: tuple[str, ...],
    only_linkers: tuple[str, ...],
    only_pairs: tuple[str, ...],
    force_link: bool,
    quiet: bool,
    config_path: str | None,
    repo: str | None,
    fmt: str,
    output: str | None,
    history_file: str | None,
    no_history: bool,
) -> int:
    """Link the configured gates (all by default) and fail on a link failure."""
    from linkgate.prove.journal import Repository, recover

    cfg = config_mod.load(config_path, root=repo)
    pairs = _only(cfg, only_pairs)
    selected = cfg.select(gates or tuple(dict.fromkeys(g for g, _ in pairs)))
    for name in only_linkers:
        if name not in config_mod.LINKERS:
            from linkgate.tomlsource import did_you_mean

            raise UsageError(f"unknown linker {name!r}", hint=did_you_mean(name, config_mod.LINKERS)
                             or "choose from: " + ", ".join(config_mod.LINKERS))
    selected = _with_linkers(selected, only_linkers)
    from linkgate.history.recorder import Recorder

    results: list[GateResult] = []
    recover(cfg.root)  # a no-op unless a killed prove left a journal (e.g. --repo from elsewhere)
    # Shared: runs coexist, but none builds while a prove holds files mutated.
    with Repository(cfg.root).locked(shared=True) as state, \
            Recorder(cfg.root, history_file, not no_history) as history, \
            Progress(enabled=not quiet) as progress:
        if state.journal.exists():
            from linkgate.errors import RecoveryError

            raise RecoveryError(
                f"an interrupted prove left files mutated in {cfg.root} ({state.journal})",
                hint="run `linkgate recover`, then run again",
            )
        plan = [(gate, [ln for ln in gate.linkers
                        if not (only_linkers and ln not in only_linkers) and not (pairs and (gate.name, ln) not in pairs)])
                for gate in selected]
        require_linkers((gate, ln) for gate, lns in plan for ln in lns)
        for gate, linkers in plan:
            if not linkers:
                continue
            legs = _run_linkers(cfg, gate, linkers, force_link, progress)
            if any(res.links for res in legs):
                # Only this run's links are judged (lto-skipped, divergence): a run that
                # linked nothing imports neither the ELF reader nor the classifier.
                from linkgate.divergence.judge import judge

                judge(gate, legs)
            for res in legs:
                if cfg.recipes and res.build_scripts:
                    from linkgate.coverage.printed import indistinct_warning, printed_recipes

                    # Coverage rests on what the build scripts printed, not on the prediction.
                    printed = printed_recipes(cfg, res.build_scripts, res.recipes)
                    res.recipes, res.recipes_indistinct = printed.active, printed.indistinct
                    res.warnings += [indistinct_warning(cfg, name) for name in printed.indistinct]
                progress.note(f"{gate.name} [{res.linker}]: {res.verdict} ({res.duration_s:.1f} s)")
                results.append(res)
        history.add_results(results)
    if not results:
        raise UsageError("no (gate, linker) pair selected", hint="check the gate names and --linker")
    report = build_report(results)
    emit(report, fmt, output)
    from linkgate.report import annotate as ci

    ci.annotate(report, fmt, output)
    if history.warning:
        click.echo(f"linkgate: warning: {history.warning}", err=True)
    return report.exit_code


def _with_linkers(selected: tuple[config_mod.Gate, ...], only_linkers: tuple[str, ...]) -> tuple[config_mod.Gate, ...]:
    """The gates that link with any of *only_linkers*; each gate left out is
    named on stderr, and none left at all is a usage error (exit 2): a run that
    links nothing must not pass."""
    if not only_linkers:
        return selected
    wanted = ", ".join(repr(n) for n in only_linkers)
    kept = tuple(g for g in selected if set(g.linkers) & set(only_linkers))
    skipped = [g for g in selected if g not in kept]
    if not kept:
        raise UsageError(f"--linker {' --linker '.join(only_linkers)}: no selected gate links with {wanted}",
                         hint="; ".join(f"gate {g.name!r} links with {', '.join(g.linkers)}" for g in skipped))
    for g in skipped:
        click.echo(f"linkgate: note: skipped gate {g.name!r}: it does not link with {wanted} "
                   f"(its linkers: {', '.join(g.linkers)})", err=True)
    return kept


def _run_linkers(
    cfg: config_mod.Config, gate: config_mod.Gate, linkers: list[str], force_link: bool, progress: Progress
) -> list[GateResult]:
    on_build = lambda d, log: progress.update(d, log)  # noqa: E731
    if len(linkers) == 1:  # no matrix: keep a single-linker run's imports to the gate's floor
        progress.phase(f"{gate.name} [{linkers[0]}]: building")
        return [run_gate(cfg, gate, linkers[0], force_link=force_link, progress=on_build)]
    from linkgate.replay.matrix import run_linkers

    return run_linkers(cfg, gate, linkers, force_link=force_link, phase=progress.phase, progress=on_build)


def _only(cfg: config_mod.Config, values: tuple[str, ...]) -> set[tuple[str, str]]:
    if not values:
        return set()
    from linkgate.ci.matrix import parse_only

    pairs = set(parse_only(values))
    for gate, linker in pairs:
        if linker not in cfg.gate(gate).linkers:
            raise UsageError(f"--only {gate}:{linker}: gate {gate!r} does not link with {linker!r}",
                             hint="its linkers: " + ", ".join(cfg.gate(gate).linkers))
    return pairs
