# Jitfish: `make run` starts the engine, `make web` the browser game, `make test` runs the tests;
# all set up .venv/ first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run web test test-slow bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/python -m jitfish.warmup
	touch $(STAMP)

run: $(STAMP)
	exec $(BIN)/jitfish

web: $(STAMP)
	exec $(BIN)/jitfish web

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

bench: $(STAMP)
	$(BIN)/jitfish bench --perft
	$(BIN)/jitfish bench

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
