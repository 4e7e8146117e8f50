"""When to run: paths-filter semantics, git diff, gate filters."""
