"""What a generated CI job pip-installs linkgate from.

In order: ``--install SPEC``, else ``[ci] install`` in the configuration, else
the wheel ``linkgate vendor`` keeps in the repository (ci/vendor.py), checked
by its sha256 before it is installed, else how the running linkgate was installed, as pip recorded it in the
distribution's ``direct_url.json`` (PEP 610). A job must install a source that
exists and cannot move: a git install becomes its commit id (never the branch
or tag that was asked for), an archive keeps its hash, and an install from a
package index is pinned to its version. A local directory, an editable
install or a file on this machine is nothing a CI runner can fetch: refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linkgate.config import INSTALL_SPEC_HINT, Config, install_spec_problem
from linkgate.errors import UsageError

_HOW_TO_CHOOSE = ("set [ci] install = \"SPEC\" in {config} or pass --install SPEC, with SPEC what "
                  "`pip install` takes, pinned: e.g. git+https://github.com/OWNER/linkgate@<commit id>")


@dataclass(frozen=True)
class InstallSource:
    spec: str     # the argument to `pip install`
    origin: str   # "--install", "[ci] install", "vendored", or how this linkgate was installed
    sha256: str | None = None  # a vendored wheel's hash: the job checks it before installing


def resolve(cfg: Config, option: str | None) -> InstallSource:
    if option is not None:
        problem = install_spec_problem(option)
        if problem is not None:
            raise UsageError(f"--install {option!r}: {problem}", hint=INSTALL_SPEC_HINT)
        return InstallSource(option, "--install")
    if cfg.ci.install is not None:
        return InstallSource(cfg.ci.install, "[ci] install")
    from linkgate.ci.vendor import read_lock

    vendored = read_lock(cfg.root)
    if vendored is not None:
        return InstallSource(vendored.path, "vendored", vendored.sha256)
    installed = installed_distribution()
    hint = _HOW_TO_CHOOSE.format(config=cfg.path.name)
    if installed is None:
        raise UsageError("the running linkgate is not an installed distribution (no linkgate metadata "
                         "was found), so there is no source a CI job could install it from", hint=hint)
    direct_url, version = installed
    spec, origin = from_direct_url(direct_url, version, hint)
    problem = install_spec_problem(spec)
    if problem is not None:
        raise UsageError(f"this linkgate was installed from {spec!r}, which a CI job cannot install: {problem}",
                         hint=hint)
    return InstallSource(spec, origin)


def installed_distribution() -> tuple[str | None, str] | None:
    """(the text of ``direct_url.json`` or None, the version) of the linkgate
    distribution Python imports, or None when there is none. The one seam
    the tests replace a real installation through."""
    from importlib import metadata

    try:
        dist = metadata.distribution("linkgate")
    except metadata.PackageNotFoundError:
        return None
    return dist.read_text("direct_url.json"), dist.version


def from_direct_url(text: str | None, version: str, hint: str) -> tuple[str, str]:
    """The pip argument that installs what *text* (a ``direct_url.json``) records, and how it was installed."""
    if text is None:
        # No direct_url.json: pip installed it from a package index.
        return f"linkgate=={version}", f"a package index (version {version})"
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"the linkgate distribution's direct_url.json is not JSON ({exc})", hint=hint) from None
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str) or not url:
        raise UsageError("the linkgate distribution's direct_url.json has no url", hint=hint)
    fragment = _subdirectory(data)
    if isinstance(vcs := data.get("vcs_info"), dict):
        commit = vcs.get("commit_id")
        if not isinstance(commit, str) or not commit:
            raise UsageError(f"linkgate was installed from {url} with no commit id recorded", hint=hint)
        # The commit, never requested_revision: a branch or tag moves.
        return f"{vcs.get('vcs', 'git')}+{url}@{commit}{fragment}", f"{vcs.get('vcs', 'git')} commit {commit}"
    if isinstance(archive := data.get("archive_info"), dict):
        pin = _hash(archive)
        if pin is None:
            raise UsageError(f"linkgate was installed from {url} with no hash recorded, so a CI job could "
                             "install different bytes from the same URL", hint=hint)
        return f"{url}#{pin}{fragment.replace('#', '&')}", "an archive pinned by its hash"
    if isinstance(dir_info := data.get("dir_info"), dict):
        how = "an editable install of" if dir_info.get("editable") else "an install of"
        raise UsageError(f"this linkgate is {how} the local directory {_path(url)}, which a CI runner "
                         "cannot install from", hint=hint)
    raise UsageError(f"the linkgate distribution's direct_url.json records {url} in a form linkgate does "
                     "not know (no vcs_info, archive_info or dir_info)", hint=hint)


def _subdirectory(data: dict[str, Any]) -> str:
    sub = data.get("subdirectory")
    return f"#subdirectory={sub}" if isinstance(sub, str) and sub else ""


def _hash(archive: dict[str, Any]) -> str | None:
    hashes = archive.get("hashes")
    if isinstance(hashes, dict) and hashes:
        algo = "sha256" if "sha256" in hashes else sorted(hashes)[0]
        return f"{algo}={hashes[algo]}"
    legacy = archive.get("hash")  # PEP 610's older single "<algo>=<hex>"
    return legacy if isinstance(legacy, str) and "=" in legacy else None


def _path(url: str) -> str:
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    return str(Path(unquote(parts.path))) if parts.scheme == "file" else url


def index_risk(spec: str) -> str | None:
    """Why installing *spec* from a package index may not install this linkgate, or None.

    linkgate is published on no package index (FACTS.md, 2026-12-01): a job that runs
    ``pip install linkgate==V`` fails today, and would install whatever anyone later
    uploads under the name. Only a spec pinned to the running version of a linkgate
    that pip itself installed from an index is known to name a real distribution."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(spec)
    except InvalidRequirement:
        return None  # a URL: pinned by commit or hash (config.install_spec_problem)
    if req.url or req.name.lower() != "linkgate":
        return None
    installed = installed_distribution()
    pins = [s for s in req.specifier if s.operator in ("==", "===")]
    if installed is not None and installed[0] is None and pins and all(s.version == installed[1] for s in pins):
        return None
    running = installed[1] if installed is not None else "unknown"
    if not pins:
        return (f"not pinned to one version (this linkgate is {running}): the job would install whatever "
                "the index holds under the name linkgate, which nobody here has published")
    return (f"names a package index release that cannot be shown to be this linkgate ({running}, not installed "
            "from an index): the job fails if no such release exists, or installs whoever registers the name")


def build_source() -> tuple[str, str]:
    """(what to hand `pip wheel`, how to say it) for the running linkgate (`linkgate vendor`):
    the source tree of an editable or local install, else the pinned spec a job would install."""
    installed = installed_distribution()
    if installed is None:
        raise UsageError("the running linkgate is not an installed distribution, so there is nothing to build "
                         "a wheel from", hint="install linkgate (pip install -e . in its checkout), then vendor")
    direct_url, version = installed
    if direct_url is None:
        return f"linkgate=={version}", f"linkgate {version} from the package index"
    try:
        data = json.loads(direct_url)
    except json.JSONDecodeError:
        data = None
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str):
        raise UsageError("the linkgate distribution's direct_url.json has no url: cannot tell what to build")
    if isinstance(data, dict) and isinstance(data.get("dir_info"), dict) and url.startswith("file://"):
        from urllib.parse import unquote, urlsplit

        source = str(Path(unquote(urlsplit(url).path)))
        return source, "a local linkgate source tree"
    spec, origin = from_direct_url(direct_url, version, "reinstall linkgate from a pinned source")
    return spec, origin
