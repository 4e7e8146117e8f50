"""Negative controls in linker time: drop a directive from the recorded links.

A ``drop-directive`` control is judged by two replays of the gate's last
recorded links, one without the directive (the mutated run) and one as
recorded (the restored run), with ``prove``'s own judge. With no usable
recording, the gate runs first (a full run), then the same replays follow.

A ``static`` library rustc bundles into its package's rlib (see
:mod:`linkgate.replay.directives`) is only half on the recorded lines: a
replay that still links proves nothing about dropping it, so
:class:`ReplayedControl` carries why it is not judged instead.

Which copy of a library each package put on each line is read from the
rlibs that line names (:mod:`linkgate.replay.copies`), never from the order
the build scripts ran in. A package whose crate is on none of the lines
cannot be caught by dropping its directive: the links stay as recorded, and
the control is not reproduced with that as its explanation (a full build of
the same mutation says the same).

When a control is not reproduced, :func:`explain` sweeps the directive it
removed and returns the sweep's one sentence for the evidence.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from linkgate.config import Config, Control, Gate
from linkgate.gate.run import GateResult, run_gate
from linkgate.replay import command, copies, directives
from linkgate.replay.directives import SourceDirective
from linkgate.replay.run import Recorded, ReplayRefused, attempt, load, require_fresh, result_of

Matcher = Callable[[SourceDirective], bool]


def matcher(control: Control) -> Matcher:
    if control.drop_lib is not None:
        lib, package = control.drop_lib, control.drop_package
        return lambda d: (d.key == "rustc-link-lib" and (d.value == lib or d.argument == directives.lib_argument(lib))
                          and (package is None or d.package == package))
    arg = control.drop_directive
    return lambda d: d.argument == arg


def recording(config: Config, gate: Gate, linker: str, notes: list[str], on_build: Any) -> Recorded:
    """The gate's replayable recording under *linker*, running the gate first when there is none."""
    try:
        recorded = load(config, gate, linker)
        require_fresh(recorded)
        if recorded.units is None:
            raise ReplayRefused("it does not say which package each rlib belongs to (made by an older linkgate)")
        return recorded
    except ReplayRefused as exc:
        notes.append(f"no replayable recording ({exc.message}); linkgate ran the gate first")
    res = run_gate(config, gate, linker, force_link=True, progress=on_build)
    if res.verdict != "linked":
        raise ReplayRefused(f"the gate does not link as it stands ({res.verdict}), so no control can be judged",
                            hint=f"fix the gate first: linkgate run {gate.name} --linker {linker}")
    recorded = load(config, gate, linker)
    require_fresh(recorded)
    return recorded


class ReplayedControl(NamedTuple):
    mutated: GateResult
    restored: GateResult
    mutation: str       # "drop -lhelper (build.rs:12)"
    build_script: str   # relative to the repository root when inside it
    unjudged: str | None  # why a mutated replay that links proves nothing (a bundled static library)
    absent: str | None = None  # why no recorded link carries the directive (its crate is on none)


def relative(config: Config, path: str | None) -> str:
    """*path* relative to the repository root, as file controls name their file; as given when outside."""
    if not path:
        return ""
    try:
        return Path(path).resolve().relative_to(config.root.resolve()).as_posix()
    except ValueError:
        return path


def replay_control(
    config: Config, gate: Gate, linker: str, match: Matcher, notes: list[str], on_build: Any = None,
    control: Control | None = None,
) -> ReplayedControl:
    """Two GateResults from replays: without the directives *match* selects, and as recorded.
    *control*, a ``drop-directive = { lib = ... }`` control, must say which package's
    directive it drops when several packages print it."""
    recorded = recording(config, gate, linker, notes, on_build)
    found = directives.from_build_scripts(recorded.build_scripts)
    chosen = [i for i, d in enumerate(found) if match(d)]
    if not chosen:
        raise ReplayRefused(f"no build script of gate {gate.name!r} prints that directive "
                            f"(under {linker}: {', '.join(sorted({d.label for d in found})) or 'none'})")
    packages = sorted({found[i].package for i in chosen})
    if control is not None and control.drop_lib is not None and control.drop_package is None and len(packages) > 1:
        from linkgate.errors import ConfigError

        # Dropping every package's copy tests a defect nobody can make by editing one build script.
        raise ConfigError(
            f"{control.drop_lib!r} is printed by the build scripts of {len(packages)} packages: "
            + ", ".join(packages),
            file=str(config.path), line=control.line_of("drop-directive"),
            key=f"gate.{gate.name}.control.{control.name}.drop-directive",
            hint=f'name the one to drop: drop-directive = {{ lib = "{control.drop_lib}", package = "{packages[0]}" }}',
        )
    label = ", ".join(sorted({found[i].label for i in chosen}))
    where = sorted({relative(config, found[i].build_script) + (f":{found[i].line}" if found[i].line else "")
                    for i in chosen})
    unjudged = next((why for i in chosen if (why := found[i].unjudged)), None)
    script = next((relative(config, found[i].build_script) for i in chosen if found[i].build_script), "")
    mutation = f"drop {label} ({', '.join(where)})"
    # A copy goes only when every directive that puts it there is dropped (a package
    # that prints a library twice keeps it while one line stays).
    whole = {i for i in chosen if set(copies.siblings(found, i)) <= set(chosen)}
    lines = []
    for link in recorded.links:
        args = command.arguments(link.record)
        claims = copies.claim(found, args, recorded.units, link.record.output, link.record.cwd)
        doubt = next((claims.doubt[i] for i in chosen if i in claims.doubt), None)
        if doubt is not None:
            raise ReplayRefused(f"cannot drop {label} on the recorded link of {link.target}: {doubt}",
                                hint="use a file control that deletes the line printing it (a full build judges it)")
        lines.append((link, args, claims))
    with tempfile.TemporaryDirectory(prefix="linkgate-control-") as tmp:
        scratch = Path(tmp)
        t0 = time.monotonic()
        dropped = []
        carrying = []
        for link, args, claims in lines:
            gone = {claims.where[i] for i in whole if i in claims.where}
            if not gone:
                continue  # this link never had the directive: its verdict cannot change
            carrying.append(link)
            dropped.append(attempt(link, scratch, args=[a for j, a in enumerate(args) if j not in gone], tag=".drop"))
            if not dropped[-1].ok:
                break  # the defect is caught; the remaining links add nothing to the verdict
        if not carrying:
            absent = _absent(found, chosen, lines, recorded)
            if absent is not None:
                # Nothing the gate links carries it: dropping it leaves every link as recorded.
                base = [attempt(link, scratch, tag=".base") for link, _, _ in lines]
                same = result_of(recorded, base, t0)
                return ReplayedControl(same, same, mutation, script, None, absent)
            if unjudged:
                raise ReplayRefused(f"not judged: {label} is on no recorded link line: {unjudged}",
                                    hint=directives.UNJUDGED_REMEDY)
            raise ReplayRefused(f"{label} is printed by {', '.join(where)} but is on no recorded link line",
                                hint="use a file control instead")
        mutated = result_of(recorded, dropped, t0)
        t1 = time.monotonic()
        restored = result_of(recorded, [attempt(link, scratch, tag=".base") for link in carrying], t1)
    return ReplayedControl(mutated, restored, mutation, script, unjudged)


def _absent(found: list[SourceDirective], chosen: list[int], lines: list[tuple[Any, Any, copies.Claims]],
            recorded: Recorded) -> str | None:
    """Why dropping the *chosen* library directives changes no recorded link: their packages'
    crates are on none of the lines (read from the rlibs each line names); None when that
    cannot be said (an older recording, a rustc-link-arg, or a crate that is on a line)."""
    if recorded.units is None or any(found[i].key != "rustc-link-lib" for i in chosen):
        return None
    packages = {found[i].package_id for i in chosen}
    if any(packages & claims.present for _, _, claims in lines):
        return None
    names = ", ".join(sorted({found[i].package for i in chosen}))
    label = ", ".join(sorted({found[i].argument for i in chosen}))
    targets = ", ".join(dict.fromkeys(link.target for link, _, _ in lines))
    where = "the gate's link line" if len(lines) == 1 else f"any of the gate's {len(lines)} link lines"
    return (f"{names}'s crate is not on {where} ({targets}): no rlib of it is linked there and no target of "
            f"it is linked, so no link carries its {label}, and dropping it changes nothing the gate links")


def explain(config: Config, gate: Gate, linker: str, match: Matcher) -> str | None:
    """The sweep's sentence for the directives *match* selects, or None when there is nothing to say."""
    from linkgate.replay.sweep import NOT_JUDGED, LinkerSweep

    try:
        recorded = load(config, gate, linker)
        require_fresh(recorded)
        with tempfile.TemporaryDirectory(prefix="linkgate-explain-") as tmp:
            ls = LinkerSweep(recorded, Path(tmp))
            judged = [ls.judge(i) for i, d in enumerate(ls.directives) if match(d)]
            # A full run that did not reproduce rebuilt the rlib: replay's "cannot tell" explains nothing there.
            sentences = [j.detail for j in judged if j.status != NOT_JUDGED]
    except ReplayRefused:
        return None
    return " ".join(dict.fromkeys(s for s in sentences if s)) or None
