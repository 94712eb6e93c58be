# Only python3 and make are assumed; every target bootstraps .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
NOTES  ?= 10000

.PHONY: run test bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/obsigate serve --vault demo=demo-vault --no-auth --data-dir ./data --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest -q

# Every issue-3 performance target (docs/benchmarks.md). NOTES=100000, or NOTES="10000 100000" for both.
bench: $(STAMP)
	$(BIN)/python -m bench.harness $(foreach n,$(NOTES),--notes $(n))

clean:
	rm -rf $(VENV) data .pytest_cache

# Rewrites the generated parts of the docs (the error-code table of docs/mcp.md).
docs: $(STAMP)
	$(BIN)/python -m obsigate.services.errors docs/mcp.md
