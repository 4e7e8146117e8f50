"""Characters above U+FFFF in a script: the parser must neither crash the process nor
lose them from the words it reads (see the module docstring of shell/parse.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from linkgate.workflows.shell import evaluate

# Random scripts of shell statements and lines of random characters, half of them
# above U+FFFF: before the fix, a few thousand of these crashed the parser (SIGSEGV).
_HUNT = textwrap.dedent("""
    import random, sys
    from linkgate.workflows.shell.parse import parse_script
    STATEMENTS = ["cargo build {w}", "X={w}", "if [[ {w} == x ]]; then {w}; fi", "cat <<EOF\\n{w}\\nEOF",
                  "bash -c '{w}'", "{w} \\\\\\n  {w}", "case {w} in a) {w} ;; esac", "f() {{ {w}; }}"]
    WORDS = ["$1", '"$@"', "${X:-d}", "$(uname)", "`pwd`", "'q x'", "\\\\", "{", "}", "<<EOF", "${a[@]}"]
    rnd = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        lines = [rnd.choice(STATEMENTS).replace("{w}", rnd.choice(WORDS)) for _ in range(rnd.randint(0, 6))]
        lines.append("".join(chr(rnd.choice([rnd.randint(32, 126), rnd.randint(0x10000, 0x10FFFF)]))
                             for _ in range(rnd.randint(0, 40))))
        parse_script("\\n".join(lines) + "\\n")
""")


def test_scripts_with_characters_above_the_bmp_do_not_crash_the_parser() -> None:
    for seed in (1, 3, 4):
        done = subprocess.run([sys.executable, "-c", _HUNT, str(seed), "20000"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, (seed, done.returncode, done.stderr[-2000:])


def test_words_keep_their_characters_above_the_bmp() -> None:
    ev = evaluate("cargo build --features \U0001F980x,\U00020000 -p \U000F0000\n", "w.yml", 1, {})
    (cmd,) = ev.commands
    assert cmd.argv == ("cargo", "build", "--features", "\U0001F980x,\U00020000", "-p", "\U000F0000")
