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
	touch $@

demo: venv
	$(BIN)/linkgate demo

test: venv
	$(BIN)/python -m pytest -n 2 --dist loadfile

lint: venv
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV) build *.egg-info
