"""Run history: every run and prove, from every runner, in one SQLite file."""
