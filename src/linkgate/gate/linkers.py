"""How each linker is selected on x86_64 Linux with rustc 1.95.

Facts this rests on (see FACTS.md, "Which linker runs"):
- rustc links through rust-lld by default here (it passes ``-B<sysroot>/.../gcc-ld
  -fuse-ld=lld`` to cc); ``-Clinker-features=-lld`` turns that off, so cc's own
  default, GNU ld (bfd), runs.
- A user ``-Clink-arg`` comes after rustc's own arguments, so ``-fuse-ld=X`` wins.
  We also turn rust-lld off for gold/mold/lld, otherwise ``-fuse-ld=lld`` would
  find rust-lld's wrapper in the ``-B`` directory instead of the system ld.lld.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from linkgate import repofs
from linkgate.errors import LinkerMissing


@dataclass(frozen=True)
class Linker:
    """A linker linkgate can select: its rustc flags and the program it needs."""

    name: str
    rustflags: tuple[str, ...]
    program: str | None  # executable that must be on PATH, if any
    package: str | None  # Debian package that provides it


LINKERS: dict[str, Linker] = {
    "default": Linker("default", (), None, None),
    # bfd names itself too: a -fuse-ld earlier in the user's flags would otherwise win (gate/overrides.py).
    "bfd": Linker("bfd", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=bfd"), "ld.bfd", "binutils"),
    "gold": Linker("gold", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=gold"), "ld.gold", "binutils"),
    "lld": Linker("lld", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=lld"), "ld.lld", "lld"),
    "mold": Linker("mold", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=mold"), "mold", "mold"),
}


def require(name: str, env: Mapping[str, str]) -> Linker:
    linker = LINKERS[name]
    if linker.program and shutil.which(linker.program, path=env.get("PATH")) is None:
        raise LinkerMissing(
            f"linker-missing: linker {name!r} needs {linker.program}, which is not on PATH",
            hint=f"install it (apt-get install {linker.package}, as the job `linkgate ci github` writes does) "
                 f"or drop {name!r} from the gate's linkers",
        )
    return linker


def require_all(legs: Iterable[tuple[Mapping[str, str], str]]) -> None:
    """Raise one ``linker-missing`` naming every linker of *legs* ((env, linker) pairs,
    the env a leg builds with) that is not installed, before anything builds."""
    missing: dict[str, Linker] = {}
    for env, name in legs:
        linker = LINKERS[name]
        if linker.program and name not in missing and shutil.which(linker.program, path=env.get("PATH")) is None:
            missing[name] = linker
    if not missing:
        return
    if len(missing) == 1:
        require(next(iter(missing)), {"PATH": ""})
    packages = " ".join(sorted({str(ln.package) for ln in missing.values()}))
    raise LinkerMissing(
        "linker-missing: " + "; ".join(f"linker {n!r} needs {ln.program}" for n, ln in missing.items())
        + ", which are not on PATH",
        hint=f"install them (apt-get install {packages}, as the job `linkgate ci github` writes does) "
             "or drop them from the gates' linkers",
    )


_SEP = "\x1f"


def rustflags_env(linker: Linker, env: Mapping[str, str]) -> dict[str, str]:
    """Return env updates that add the linker's flags to whatever flags are set.

    CARGO_ENCODED_RUSTFLAGS takes precedence over RUSTFLAGS in cargo, so we
    extend whichever the environment already uses and always hand cargo the
    encoded form (no word-splitting surprises). With no flags to add we change
    nothing, so the default linker sees exactly the user's configuration.
    """
    if not linker.rustflags:
        return {}
    encoded = env.get("CARGO_ENCODED_RUSTFLAGS")
    if encoded is not None:
        base = [f for f in encoded.split(_SEP) if f]
    else:
        base = env.get("RUSTFLAGS", "").split()
    return {"CARGO_ENCODED_RUSTFLAGS": _SEP.join([*base, *linker.rustflags])}


def config_rustflags_files(start: str) -> list[str]:
    """Cargo config files on the way up that set rustflags (which env flags override)."""
    found = []
    here = os.path.abspath(start)
    while True:
        for name in ("config.toml", "config"):
            path = os.path.join(here, ".cargo", name)
            try:
                if "rustflags" in repofs.read_text(path, inside=None, errors="replace"):
                    found.append(path)
            except OSError:
                pass
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent


def _is_rust_lld_dir(arg: str) -> bool:
    return arg.startswith("-B") and arg.rstrip("/").endswith("gcc-ld")


def sysroot_lib(args: Sequence[str]) -> str | None:
    """``<sysroot>/lib/rustlib/<triple>/lib``: rustc names it with ``-L`` on every link."""
    for i, arg in enumerate(args):
        path = args[i + 1] if arg == "-L" and i + 1 < len(args) else arg[2:] if arg.startswith("-L") else ""
        if path.rstrip("/").endswith("/lib") and "/lib/rustlib/" in path:
            return path.rstrip("/")
    return None


def driver_flags(linker: str, args: Sequence[str]) -> list[str] | None:
    """The compiler-driver flags rustc passes to select *linker*, or None when
    *args* do not show where rust-lld lives (needed for ``default``).

    rustc 1.95 on x86_64 Linux: ``default`` adds ``-B<sysroot>/lib/rustlib/<triple>/bin/gcc-ld
    -fuse-ld=lld``; ``-Clinker-features=-lld`` drops both (cc's own default, GNU ld);
    a ``-Clink-arg=-fuse-ld=X`` comes after everything rustc adds (FACTS.md).
    """
    if linker == "default":
        lib = sysroot_lib(args)
        return None if lib is None else [f"-B{lib[: -len('/lib')]}/bin/gcc-ld", "-fuse-ld=lld"]
    flags = LINKERS[linker].rustflags
    return [f.split("=", 1)[1] for f in flags if f.startswith("-Clink-arg=")]


def retarget(args: Sequence[str], linker: str) -> list[str] | None:
    """*args* of a recorded link (any linker) as rustc would have written them for
    *linker*: every linker-selecting flag removed, then *linker*'s own added where
    rustc puts them. None when it cannot tell (``default`` without a sysroot ``-L``)."""
    flags = driver_flags(linker, args)
    if flags is None:
        return None
    kept: list[str] = []
    at: int | None = None
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg == "-B" and i + 1 < len(args) and args[i + 1].rstrip("/").endswith("gcc-ld"):
            at, skip = (len(kept) if at is None else at), True
            continue
        if _is_rust_lld_dir(arg) or arg.startswith("-fuse-ld="):
            if at is None and _is_rust_lld_dir(arg):
                at = len(kept)
            continue
        kept.append(arg)
    if linker == "default":
        # rustc writes them after the libraries it adds, before -Wl,--eh-frame-hdr.
        pos = at if at is not None else next((j for j, a in enumerate(kept) if a == "-Wl,--eh-frame-hdr"), len(kept))
        return [*kept[:pos], *flags, *kept[pos:]]
    return [*kept, *flags]
