# Quick start: `make demo` then `make test`. Both create .venv on first use:
# `make demo` with linkgate's runtime dependencies only; `make test` adds the
# test extras and installs the tools the suite runs (scripts/test-deps: apt
# packages when missing, the npm test oracles), then runs the suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: venv venv-runtime test-deps demo test lint bench clean

venv: $(VENV)/.installed-test
venv-runtime: $(VENV)/.installed-runtime

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# An editable install is not byte-compiled, and PYTHONDONTWRITEBYTECODE may be
# set: compile once so every linkgate start-up does not recompile its modules.
$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q src
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q src
	touch $@

test-deps:
	scripts/test-deps

demo: venv-runtime
	$(BIN)/linkgate demo

# A worker that crashes (a native extension's segfault) fails the run at once:
# pytest-xdist's replacement worker after a crash was seen to wait forever.
test: test-deps venv
	$(BIN)/python -m pytest -n 2 --dist loadfile --max-worker-restart=0

lint: venv
	$(BIN)/python -m mypy
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) build dist *.egg-info
