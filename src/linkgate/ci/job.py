"""Build the GitHub Actions jobs for a gate as YAML text.

The shape follows what a maintainer writes by hand for a link gate on a
shared runner: read-only token, credentials not persisted, a concurrency
group per pull request that never cancels default-branch runs, a repository
guard so forks never queue on a self-hosted runner, a target directory of
its own (persistent on self-hosted runners, ``actions/cache`` on hosted
ones), provisioning, then ``linkgate run`` with its JSON report kept as an
artifact.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from linkgate import yamlemit
from linkgate.ci import pins
from linkgate.ci.linkersteps import linker_steps
from linkgate.config import Gate

_JOB_ID = re.compile(r"[^A-Za-z0-9_-]")
# What GitHub reads after a `.` in an expression (and accepts as a job id).
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class JobSpec:
    gate: Gate
    trigger: str                  # every-pr | paths | schedule
    install: str                  # what `pip install` installs linkgate from (ci/install.py)
    repository: str | None        # owner/name for the self-hosted guard
    timeout_minutes: int
    filter_job: str | None = None  # the job whose outputs carry the paths filter
    submodules: bool = False       # the repository has submodules the build may need
    lockfile_tracked: bool = True  # a Cargo.lock is committed, so it can key the cache
    install_sha256: str | None = None  # a vendored wheel (a path in the checkout): its hash, checked first
    setup_python: bool = True      # a Python >= 3.11 step first ([ci] setup-python = false: the runner has one)


def job_id(gate: Gate) -> str:
    """The gate's job id, GitHub's ``^[A-Za-z_][A-Za-z0-9_-]*$``: ``.`` becomes
    ``-`` and a leading digit gets ``gate-`` (two gates that meet in one id are
    refused by ``github.plan``)."""
    jid = _JOB_ID.sub("-", gate.name)
    return jid if jid[0].isalpha() or jid[0] == "_" else f"gate-{jid}"


def output_ref(prefix: str, name: str) -> str:
    """``prefix.name``, or ``prefix['name']`` when *name* is no identifier:
    GitHub reads ``outputs.my.gate`` as the property ``gate`` of ``outputs.my``
    (null, so the condition is false and the job never runs) and cannot
    read ``outputs.1st`` at all."""
    if IDENTIFIER.fullmatch(name):
        return f"{prefix}.{name}"
    # Lower-cased: GitHub looks property names up case-insensitively, and actionlint
    # checks `outputs['9ABC']` against the lower-cased names it keeps, so an
    # upper-case index would be reported as undefined.
    return f"{prefix}['{name.lower().replace(chr(39), chr(39) * 2)}']"


def python_steps(spec: JobSpec) -> list[dict[str, Any]]:
    """linkgate needs Python 3.11 or newer; ubuntu-22.04's python3 is 3.10, and a
    self-hosted runner's may be anything: a pinned actions/setup-python step, unless
    the configuration says the runners have one (``[ci] setup-python = false``)."""
    if not spec.setup_python:
        return []
    return [{"name": "Python for linkgate (3.11 or newer)",
             "uses": pins.uses("actions/setup-python"), "with": {"python-version": "3.11"}}]


def install_step(install: str, sha256: str | None = None) -> dict[str, Any]:
    # A venv of its own: Debian's system Python refuses `pip install` (PEP 668)
    # and a self-hosted runner's Python is shared with other jobs. The spec is
    # shell-quoted; config.install_spec_problem already refused `${{`, line
    # breaks and a leading `-`, which quoting cannot defuse. A vendored wheel
    # (ci/vendor.py: a checked file name under the checkout) is installed only
    # after its bytes match the lock's sha256.
    check = ""
    spec = shlex.quote(install)
    if sha256 is not None:
        check = f'echo "{sha256}  {install}" | sha256sum --check --strict -\n'
        spec = shlex.quote(f"./{install}")
    return {
        "name": "Install linkgate",
        "run": check + 'python3 -m venv "$RUNNER_TEMP/linkgate"\n'
        f'"$RUNNER_TEMP/linkgate/bin/pip" install --quiet {spec}\n'
        'echo "$RUNNER_TEMP/linkgate/bin" >> "$GITHUB_PATH"\n',
    }


def checkout_step(fetch_depth: int | None = None, submodules: bool = False) -> dict[str, Any]:
    with_: dict[str, Any] = {"persist-credentials": False}
    if fetch_depth is not None:
        with_["fetch-depth"] = fetch_depth
    if submodules:
        # `recursive`, not `true`: with no nested submodules both fetch the same,
        # and whether a submodule has its own is known only once it is fetched
        # (its .gitmodules lives in the submodule's commit, not in this index).
        with_["submodules"] = "recursive"
    return {"uses": pins.uses("actions/checkout"), "with": with_}


def _repo_name(repository: str | None) -> str:
    return repository.split("/", 1)[1] if repository and "/" in repository else "repo"


def target_dir_steps(spec: JobSpec) -> list[dict[str, Any]]:
    gate, jid = spec.gate, job_id(spec.gate)
    if gate.self_hosted:
        # Persistent and shared with no other job: a check-only or release job
        # would evict the link artifacts, and cargo hashes the linker into
        # every unit, so sharing across linkers rebuilds everything.
        path = f"$HOME/.cargo-target/{_repo_name(spec.repository)}-{jid}"
        return [{"name": "Use a target directory of this job's own",
                 "run": f'echo "CARGO_TARGET_DIR={path}" >> "$GITHUB_ENV"\n'}]
    # hashFiles of no file is the empty string: with Cargo.lock git-ignored (a
    # library's habit) the key would never change and the cache never update.
    hashed = "'**/Cargo.lock'" if spec.lockfile_tracked else "'**/Cargo.toml', '**/Cargo.lock'"
    return [{
        "name": "Restore the link gate's target directory",
        "uses": pins.uses("actions/cache"),
        "with": {
            # The directory the gate builds in: its own target-dir when it sets one
            # (relative to the workspace, or absolute), else linkgate's default.
            "path": gate.target_dir or f"target/linkgate/{gate.name}",
            "key": f"linkgate-{jid}-${{{{ runner.os }}}}-${{{{ hashFiles({hashed}) }}}}",
            "restore-keys": f"linkgate-{jid}-${{{{ runner.os }}}}-\n",
        },
    }]


def provision_steps(gate: Gate) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for cmd in gate.provision:
        # A multi-line script names its step by its first line.
        first = cmd.strip().split("\n")[0] if cmd.strip() else cmd
        steps.append({"name": f"Provision ({first})", "run": cmd + "\n"})
    for cmd in gate.provision_env:
        # env-from parses the exports as bash would and writes $GITHUB_ENV,
        # multi-line values included (a `sed 's/^export //'` pipe keeps quotes).
        steps.append({"name": f"Provision the environment ({cmd})", "run": f"linkgate env-from -- {cmd}\n"})
    return steps


def _condition(spec: JobSpec) -> str | None:
    parts = []
    if spec.gate.self_hosted and spec.repository:
        parts.append(f"github.repository == '{spec.repository}'")
    if spec.trigger == "paths" and spec.filter_job:
        parts.append(f"{output_ref(f'needs.{spec.filter_job}.outputs', spec.gate.name)} == 'true'")
    return " && ".join(parts) or None


def gate_job(spec: JobSpec, matrix: bool = False) -> dict[str, Any]:
    gate, jid = spec.gate, job_id(spec.gate)
    job: dict[str, Any] = {"name": f"link gate {gate.name}"}
    if spec.trigger == "paths" and spec.filter_job:
        job["needs"] = spec.filter_job
    cond = _condition(spec)
    if cond:
        job["if"] = cond
    job["runs-on"] = list(gate.runner) if len(gate.runner) > 1 else gate.runner[0]
    job["timeout-minutes"] = spec.timeout_minutes
    job["permissions"] = {"contents": "read"}
    job["concurrency"] = {
        "group": f"linkgate-{jid}-${{{{ github.event.pull_request.number || github.sha }}}}",
        # Only pull-request runs are superseded; a default-branch run always finishes.
        "cancel-in-progress": "${{ github.event_name == 'pull_request' }}",
    }
    if gate.env:
        job["env"] = dict(gate.env)
    report = f"linkgate-{jid}.json"
    steps = [checkout_step(submodules=spec.submodules), *python_steps(spec),
             install_step(spec.install, spec.install_sha256),
             *linker_steps(gate, matrix=matrix).steps, *target_dir_steps(spec),
             *provision_steps(gate),
             {"name": f"Link {gate.name}",
              "run": f"linkgate run {gate.name} --format json --output {report}\n"},
             {"name": "Keep the link report",
              "if": "always()",
              "uses": pins.uses("actions/upload-artifact"),
              "with": {"name": f"linkgate-{jid}", "path": report, "if-no-files-found": "ignore"}}]
    job["steps"] = steps
    return job


def changes_job(filters_block: str) -> dict[str, Any]:
    """A `changes` job running dorny/paths-filter, for workflows that have none."""
    return {
        "name": "changed paths",
        "runs-on": "ubuntu-latest",
        "permissions": {"contents": "read", "pull-requests": "read"},
        "outputs": {},
        "steps": [checkout_step(),
                  {"id": "filter", "uses": pins.uses("dorny/paths-filter"),
                   "with": {"filters": filters_block}}],
    }


def dump(mapping: dict[str, Any], indent: int) -> str:
    """YAML text for ``{key: value}`` mappings, indented by *indent* spaces,
    with the pinned actions' versions as end-of-line comments."""
    return yamlemit.dump(mapping, indent, _version_comment)


def _version_comment(key: str, value: Any) -> str | None:
    if key == "uses" and isinstance(value, str) and (action := pins.pinned_action(value)):
        return pins.version_comment(action)
    return None


def matrix_jobs(spec: JobSpec) -> dict[str, Any]:
    """Plan, leg and merge jobs: one leg per linker, each on the gate's runner."""
    gate, jid = spec.gate, job_id(spec.gate)
    plan_id, merge_id = f"{jid}-plan", f"{jid}-merge"
    plan: dict[str, Any] = {"name": f"link gate {gate.name}: plan"}
    if spec.trigger == "paths" and spec.filter_job:
        plan["needs"] = spec.filter_job
    cond = _condition(spec)
    if cond:
        plan["if"] = cond
    plan.update({
        "runs-on": "ubuntu-latest",
        "permissions": {"contents": "read"},
        "outputs": {"matrix": "${{ steps.plan.outputs.matrix }}"},
        "steps": [checkout_step(), *python_steps(spec), install_step(spec.install, spec.install_sha256),
                  {"id": "plan", "run": f'echo "matrix=$(linkgate matrix {gate.name})" >> "$GITHUB_OUTPUT"\n'}],
    })
    leg = gate_job(spec, matrix=True)
    leg["name"] = f"link gate {gate.name} (${{{{ matrix.linker }}}})"
    leg["needs"] = plan_id
    leg.pop("if", None)  # the plan carries the guard and the trigger; skipped plan, skipped legs
    leg = {**{k: leg[k] for k in ("name", "needs")},
           "strategy": {"fail-fast": False, "matrix": f"${{{{ fromJSON(needs.{plan_id}.outputs.matrix) }}}}"},
           "runs-on": "${{ matrix.runs-on }}",
           **{k: v for k, v in leg.items() if k not in ("name", "needs", "runs-on")}}
    leg["concurrency"] = dict(leg["concurrency"])
    leg["concurrency"]["group"] = (f"linkgate-{jid}-${{{{ matrix.linker }}}}-"
                                   "${{ github.event.pull_request.number || github.sha }}")
    leg["env"] = {**leg.get("env", {}), "LINKGATE_LEG": "${{ matrix.gate }}:${{ matrix.linker }}"}
    for step in leg["steps"]:
        if step.get("name") == f"Link {gate.name}":
            step["run"] = 'linkgate run --only "$LINKGATE_LEG" --format json --output linkgate-leg.json\n'
        if step.get("name") == "Restore the link gate's target directory":
            # Each leg builds with its own linker into its own directory: one key
            # for all legs would let the first leg's save win and leave the rest cold.
            with_ = dict(step["with"])
            with_["path"] = f"{with_['path']}/${{{{ matrix.linker }}}}"
            for k in ("key", "restore-keys"):
                with_[k] = with_[k].replace(f"linkgate-{jid}-", f"linkgate-{jid}-${{{{ matrix.linker }}}}-", 1)
            step["with"] = with_
        if step.get("name") == "Keep the link report":
            step["with"] = {"name": f"linkgate-{jid}-${{{{ matrix.linker }}}}", "path": "linkgate-leg.json",
                            "if-no-files-found": "ignore"}
    merge = {
        "name": f"link gate {gate.name}: verdict",
        "needs": [plan_id, jid],
        # Runs when legs failed too: a failed or missing leg must turn the verdict red. It
        # runs when the plan failed or was cancelled as well, and fails: a skipped job
        # reports success, so a required verdict skipped after a broken plan would pass.
        # Only a plan skipped on purpose (the trigger, the fork guard) skips the verdict.
        "if": f"always() && needs.{plan_id}.result != 'skipped'",
        "runs-on": "ubuntu-latest",
        "permissions": {"contents": "read"},
        "env": {"LINKGATE_MATRIX": f"${{{{ needs.{plan_id}.outputs.matrix }}}}",
                "LINKGATE_PLAN": f"${{{{ needs.{plan_id}.result }}}}"},
        # A vendored wheel is a file of the checkout: this job checks it out too.
        "steps": [{"name": "The plan must have succeeded",
                   "run": 'if [ "$LINKGATE_PLAN" != success ]; then\n'
                   f'  echo "::error::the plan job {plan_id} ended $LINKGATE_PLAN: no leg was planned, so nothing '
                   'was linked"\n  exit 1\nfi\n'},
                  *([checkout_step()] if spec.install_sha256 else []),
                  *python_steps(spec), install_step(spec.install, spec.install_sha256),
                  {"uses": pins.uses("actions/download-artifact"),
                   "with": {"pattern": f"linkgate-{jid}-*", "path": "legs"}},
                  {"name": "One verdict from every leg",
                   "run": 'shopt -s nullglob\n'
                   'linkgate report merge --expect "$LINKGATE_MATRIX" --format json --output linkgate-verdict.json '
                   'legs/*/linkgate-leg.json\n'},
                  {"if": "always()", "uses": pins.uses("actions/upload-artifact"),
                   "with": {"name": f"linkgate-{jid}-verdict", "path": "linkgate-verdict.json",
                            "if-no-files-found": "ignore"}}],
    }
    return {plan_id: plan, jid: leg, merge_id: merge}
