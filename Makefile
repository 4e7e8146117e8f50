# Quick start: `make demo` then `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: venv demo test lint bench clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# An editable install is not byte-compiled, and PYTHONDONTWRITEBYTECODE may be
	# set: compile once so every linkgate start-up does not recompile its modules.
	$(BIN)/python -m compileall -q src
	touch $@

demo: venv
	$(BIN)/linkgate demo

test: venv
	$(BIN)/python -m pytest -n 2 --dist loadfile

lint: venv
	$(BIN)/python -m mypy
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info
