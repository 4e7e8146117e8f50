"""A cold run under five linkers against a cold run under one (linker-matrix = "replay").

Generates a workspace whose binary takes far longer to compile than to link
(FUNCS generated functions in one release crate, codegen-units = 1), then
alternates, PAIRS times, a cold `linkgate run` of the gate under
["default"] and under ["default", "bfd", "gold", "lld", "mold"] (each in a
fresh target directory). Prints the medians side by side and their ratio
(goal: at most 1.2x), the compile/link split of the one-linker run, and
checks every five-linker result: linked, proven, each binary's ELF marks
naming its own linker.

Usage: python bench/linker_matrix.py [PAIRS] [FUNCS]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import LINKGATE, median, timed

FIVE = ["default", "bfd", "gold", "lld", "mold"]


def generate(root: Path, funcs: int, linkers: list[str]) -> None:
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(
        '[package]\nname = "heavy"\nversion = "0.1.0"\nedition = "2021"\n\n'
        "[profile.release]\ncodegen-units = 1\n"
    )
    body = []
    for i in range(funcs):
        body.append(
            f"#[inline(never)]\npub fn f{i}(x: u64) -> u64 {{\n"
            f"    let mut a = x ^ {i};\n"
            f"    for k in 0..{i % 7 + 3}u64 {{\n"
            f"        a = a.wrapping_mul(6364136223846793005).wrapping_add(k ^ {i * 31});\n"
            f"        a ^= a >> {i % 13 + 7};\n"
            f"        if a % {i % 5 + 2} == 0 {{ a = a.rotate_left({i % 17 + 1}); }}\n"
            "    }\n    a\n}\n"
        )
    calls = "\n".join(f"    s = s.wrapping_add(f{i}(std::hint::black_box(s)));" for i in range(funcs))
    (root / "src" / "main.rs").write_text("".join(body) + f"fn main() {{\n    let mut s = 1u64;\n{calls}\n"
                                          '    println!("{s}");\n}\n')
    (root / "linkgate.toml").write_text(
        f'[[gate]]\nname = "heavy"\ncargo = ["build", "--release"]\nlinkers = {json.dumps(linkers)}\n'
    )


def cold_run(ws: Path, out: Path) -> float:
    shutil.rmtree(ws / "target", ignore_errors=True)
    return timed([*LINKGATE, "run", "-q", "--no-history", "--format", "json", "-o", str(out)], ws)


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    funcs = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    base = Path(tempfile.mkdtemp(prefix="linkgate-bench-matrix-"))
    one, five = base / "one", base / "five"
    generate(one, funcs, ["default"])
    generate(five, funcs, FIVE)
    subprocess.run(["cargo", "generate-lockfile", "--offline"], cwd=one, check=True, capture_output=True)
    shutil.copy(one / "Cargo.lock", five / "Cargo.lock")
    t_one, t_five = [], []
    for _ in range(pairs):
        t_one.append(cold_run(one, base / "one.json"))
        t_five.append(cold_run(five, base / "five.json"))
    single = json.loads((base / "one.json").read_text())["results"][0]
    results = json.loads((base / "five.json").read_text())["results"]
    print(f"cold run, {funcs} generated functions, release, codegen-units = 1 ({pairs} pairs, medians)")
    print(f"  1 linker  (default)               {median(t_one):7.2f} s")
    print(f"  5 linkers (linker-matrix=replay)  {median(t_five):7.2f} s")
    ratio = median(t_five) / median(t_one)
    print(f"  ratio                             {ratio:7.2f}x  (goal <= 1.2x: {'met' if ratio <= 1.2 else 'NOT met'})")
    link_s, compile_s = single["link_s"] or 0.0, single["compile_s"] or 0.0
    print(f"  one-linker run: compile {compile_s:.2f} s, link {link_s:.3f} s "
          f"(compile/link {compile_s / link_s if link_s else float('inf'):.0f}x)")
    ok = True
    for r in results:
        marks = "; ".join(f"{p['mark']} (names {r['linker']}: {p['names_linker']})" for p in r.get("proof", []))
        how = "relinked" if (r.get("matrix") or {}).get("replayed") else "built"
        print(f"  {r['linker']:8} {r['verdict']:8} proven={r['proven']!s:5} {how:8} link {r['link_s']} s  {marks}")
        ok &= r["verdict"] == "linked" and r["proven"] and bool(r.get("proof")) and all(
            p["names_linker"] for p in r["proof"])
    print("all five linked and proven, each binary marked by its own linker" if ok else "NOT all five proven")
    shutil.rmtree(base, ignore_errors=True)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
