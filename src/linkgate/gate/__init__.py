"""Run one gate under one linker: verdicts, linker flags, target-dir layout, run report."""
