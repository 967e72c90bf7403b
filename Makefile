# Everything a fresh machine needs: `make demo` and `make test` create .venv, install the package
# with its extras and the system speech engine, then run.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: demo test test-all speech-engine clean

demo: $(STAMP) speech-engine
	$(VENV)/bin/referee demo

test: $(STAMP) speech-engine
	$(PY) -m pytest $(PYTEST_ARGS)

# The heavier tests too (marked slow or speech).
test-all: $(STAMP) speech-engine
	$(PY) -m pytest -m "" $(PYTEST_ARGS)

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -c constraints.txt -e '.[test]'
	@touch $(STAMP)

speech-engine:
	@bash scripts/ensure-speech-engine.sh

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
