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
from collections.abc import Mapping
from dataclasses import dataclass

from linkgate.errors import ToolNotFound


@dataclass(frozen=True)
class Linker:
    name: str
    rustflags: tuple[str, ...]
    program: str | None  # executable that must be on PATH, if any
    package: str | None  # Debian package that provides it


LINKERS: dict[str, Linker] = {
    "default": Linker("default", (), None, None),
    "bfd": Linker("bfd", ("-Clinker-features=-lld",), "ld.bfd", "binutils"),
    "gold": Linker("gold", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=gold"), "ld.gold", "binutils"),
    "lld": Linker("lld", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=lld"), "ld.lld", "lld"),
    "mold": Linker("mold", ("-Clinker-features=-lld", "-Clink-arg=-fuse-ld=mold"), "mold", "mold"),
}


def require(name: str, env: Mapping[str, str]) -> Linker:
    linker = LINKERS[name]
    if linker.program and shutil.which(linker.program, path=env.get("PATH")) is None:
        raise ToolNotFound(
            f"linker {name!r} needs {linker.program}, which is not on PATH",
            hint=f"install it (apt-get install {linker.package}) or drop {name!r} from the gate's linkers",
        )
    return linker


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
                with open(path, encoding="utf-8") as fh:
                    if "rustflags" in fh.read():
                        found.append(path)
            except OSError:
                pass
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent
