"""What the recorded run of a build script shows it did, for built mode.

The static reading of a script (``linkgate.surface.compiles``) sees every
branch: libz-sys names the zlib-ng sources whether or not its ``zlib-ng``
feature is on. Cargo's record of the run the gate made says which branch ran:

- the objects the script left in ``OUT_DIR``: the ``cc`` crate names them
  ``<16 hex digits>-<stem>.o`` (older releases mirrored the source path),
  CMake ``<stem>.c.o``, a script calling the compiler itself whatever it
  chose, usually ``<stem>.o``; a script that compiles a source straight into
  a library (``cc -shared x.c -o libx.so``) leaves no object, only the library,
  so ``lib<stem>.so``/``.a``/``.dylib`` (and versioned ``.so.N``) count too;
- ``OUT_DIR/build/CMakeCache.txt``, which the ``cmake`` crate's configure
  step always writes;
- the ``rerun-if-env-changed`` lines it printed: the ``pkg-config`` crate
  prints ``<LIB>_NO_PKG_CONFIG`` for every library it probes.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from linkgate.surface.compiles import ScriptInput, SystemLibrary, pkg_config_env

# Sources that become an object of their own; headers never do.
COMPILED_EXTENSIONS = frozenset({"c", "cc", "cpp", "cxx", "c++", "C", "s", "S", "asm", "m", "mm", "cu"})
_CC_HASH = re.compile(r"^[0-9a-f]{16}-")
_OBJECT_SUFFIXES = (".o", ".obj")
# A library built in one compiler call from one source: lib<stem>.so, .so.1.2, .a, .dylib.
_LIBRARY = re.compile(r"^lib(.+?)\.(?:so(?:\.[0-9]+)*|a|dylib)$")


@dataclass(frozen=True)
class RecordedRun:
    """One recorded run of a build script."""

    objects: Counter[str]  # stems of the object files in OUT_DIR, how many of each
    cmake_ran: bool
    env_vars: frozenset[str]  # its rerun-if-env-changed variables
    links: tuple[str, ...]  # its link directives, "key=value"
    # stems of lib<stem>.so/.a/.dylib with no object of that stem: a source compiled straight into a library
    libraries: frozenset[str] = frozenset()


def read_run(out_dir: Path, env_vars: tuple[str, ...], links: tuple[str, ...]) -> RecordedRun:
    objects: Counter[str] = Counter()
    libraries: set[str] = set()
    cmake_ran = (out_dir / "build" / "CMakeCache.txt").is_file()
    for _, _, files in os.walk(out_dir):
        for name in files:
            if name.endswith(_OBJECT_SUFFIXES):
                objects[_object_stem(name)] += 1
            elif (library := _LIBRARY.match(name)) is not None:
                libraries.add(library.group(1))
    # Only where no object says so already (libcore.a from core.o is one build).
    only_library = frozenset(stem for stem in libraries if objects[stem] == 0)
    return RecordedRun(objects, cmake_ran, frozenset(env_vars), links, only_library)


def _object_stem(name: str) -> str:
    stem = _CC_HASH.sub("", posixpath.splitext(name)[0])
    base, ext = posixpath.splitext(stem)  # CMake's adler32.c.o
    return base if ext[1:] in COMPILED_EXTENSIONS else stem


def _compiled_source(entry: ScriptInput) -> bool:
    return entry.role == "compiled" and not entry.directory and \
        posixpath.splitext(entry.path)[1][1:] in COMPILED_EXTENSIONS


def _source_stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


@dataclass(frozen=True)
class Verdicts:
    """Each scanned input judged against the run: kept, kept as possible, or left out."""

    possible: frozenset[int]  # indices into the inputs
    unused: frozenset[int]
    not_run: frozenset[str] = frozenset()  # files of the script (ScriptInput.file) that did not run

    @staticmethod
    def judge(inputs: list[ScriptInput], run: RecordedRun | None) -> Verdicts:
        if run is None:
            return Verdicts(frozenset(), frozenset())
        compiled = {i for i, e in enumerate(inputs) if _compiled_source(e)}
        stems = Counter(_source_stem(inputs[i].path) for i in compiled)
        matched = {i for i in compiled if run.objects[_source_stem(inputs[i].path)] > 0}
        if not matched:
            # No object matches any source the script names: the objects are named
            # some other way (or the script compiled nothing), so the run tells nothing
            # (a library named like one source is then no evidence for the others).
            return Verdicts(frozenset(), frozenset())
        if run.libraries:
            # Objects are named after their sources here, so a library named after a source
            # with no object of its own is that source compiled straight into it.
            objects = run.objects + Counter(dict.fromkeys(run.libraries, 1))
            run = RecordedRun(objects, run.cmake_ran, run.env_vars, run.links)
            matched = {i for i in compiled if run.objects[_source_stem(inputs[i].path)] > 0}
        # An object's name keeps only the source's stem, and libz-sys has an adler32.c in
        # src/zlib and in src/zlib-ng. A file of the script (build.rs, a module) ran when one
        # of its sources with a stem of its own was compiled, and did not when none was.
        ran: dict[str, bool] = {}
        for i in compiled:
            stem = _source_stem(inputs[i].path)
            if stems[stem] <= run.objects[stem] or stems[stem] == 1:
                ran[inputs[i].file] = ran.get(inputs[i].file, False) or i in matched
        built = {i for i in matched if ran.get(inputs[i].file) is not False}
        possible, unused = set(), set()
        for i, entry in enumerate(inputs):
            if i in compiled:
                if i not in built:
                    unused.add(i)
            elif entry.rule.startswith("cmake source dir"):
                if not run.cmake_ran:
                    unused.add(i)
            elif ran.get(entry.file) is False:
                unused.add(i)
            elif entry.file not in ran:
                possible.add(i)
        return Verdicts(frozenset(possible), frozenset(unused), frozenset(f for f, r in ran.items() if not r))


def probed(library: SystemLibrary, run: RecordedRun) -> bool:
    """Whether the run asked pkg-config for *library*."""
    return pkg_config_env(library.name)[0] in run.env_vars
