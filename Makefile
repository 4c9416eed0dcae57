# schema-compat developer tasks (GNU make). `make help` lists the targets.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Reinstall when the package's __init__.py appears or changes: an editable install made while
# it was missing maps schema_compat as a namespace package and keeps doing so.
INIT := $(wildcard schema_compat/__init__.py)

.DEFAULT_GOAL := help
.PHONY: help install test test-slow test-compiled lint typecheck demo docs bench bench-quick bench-memory \
	clean conformance conformance-docs fidelity interop playground site
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed

help: ## List the targets
	@echo "schema-compat make targets:"
	@grep -E '^[a-z][a-z_-]*:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "}; {printf "  %-17s %s\n", $$1, $$2}'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml $(INIT) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# xai-sdk pins `packaging<26`, which the dev extra's pre-commit (virtualenv) cannot share: it
# gets a venv of its own, where tests/test_requests_bodies.py hands it xai's tools.
XAI_VENV := .cache/xai-sdk
XAI_STAMP := $(XAI_VENV)/.installed
export XAI_SDK_PYTHON := $(CURDIR)/$(XAI_VENV)/bin/python

$(XAI_STAMP):
	$(PYTHON) -m venv $(XAI_VENV)
	$(XAI_VENV)/bin/python -m pip install --quiet 'xai-sdk==1.21.0'
	@touch $(XAI_STAMP)

install: $(STAMP) $(XAI_STAMP) ## Create .venv (if missing) and install the package with dev extras
	@echo "schema-compat is at $(CURDIR)/$(BIN)/schema-compat (not on PATH; README, Install: pipx install '.[live]' puts it there)"

# The suite runs on every core (pytest-xdist; PYTEST_WORKERS=1 for one process). Tests marked
# `slow` (pyproject.toml) are left to `make test-slow`, which CI runs too. A module whose
# fixtures start servers runs on one worker (tests/conftest.py, ONE_WORKER).
# The suite starts several hundred Python processes (the CLI, test servers) and each worker
# imports every test module through pytest's assertion rewriting: with PYTHONDONTWRITEBYTECODE
# set (some shells and containers set it), nothing is cached, and every process compiles again
# what it imports, and every worker rewrites every test module (~4 s of CPU each). The
# caches go to __pycache__ (ignored by git), as they do where the variable is unset.
PYTEST_WORKERS ?= auto
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS)

test: install ## Run the test suite (in parallel, without the slow tests), then ruff and mypy
	$(PYTEST) -m "not slow"
	$(BIN)/ruff check schema_compat tests interop conformance benchmarks setup.py
	$(BIN)/mypy

test-slow: install ## The slow tests: corpus-wide oracle, long property runs, real installs (~3 min)
	SCHEMA_COMPAT_SHARED=$(SHARED) $(PYTEST) -m slow

# The compiled build (setup.py: mypyc, opt-in with SCHEMA_COMPAT_COMPILE=1) is tested in a copy
# of the tree, never in place: a compiled module beside its source would shadow later edits.
# The copy runs the same suite with the same venv; its own directory comes first on sys.path, in
# the tests and in the CLI processes they start. The copy is a git repository of its own for the
# pre-commit test, which installs the tree it runs in as a hook.
COMPILED_TREE := .cache/compiled
SHARED := $(abspath $(CURDIR)/../shared)

test-compiled: install ## Run the test suite on the compiled build (mypyc; ~1 min more to build)
	rm -rf $(COMPILED_TREE) && mkdir -p $(COMPILED_TREE)
	tar -c --exclude=./.git --exclude=./.venv --exclude=./.venv-bench --exclude=./.cache \
		--exclude=./build --exclude=__pycache__ --exclude='*.so' . | tar -x -C $(COMPILED_TREE)
	cd $(COMPILED_TREE) && SCHEMA_COMPAT_COMPILE=1 $(CURDIR)/$(BIN)/python setup.py --quiet \
		build_ext --inplace >build.log 2>&1 || { tail -20 build.log; exit 1; }
	cd $(COMPILED_TREE) && git init -q && git add -A && \
		git -c user.name=make -c user.email=make@localhost commit -qm "tree under test"
	cd $(COMPILED_TREE) && $(CURDIR)/$(BIN)/python -c \
		'import schema_compat.engine as e; assert not e.__file__.endswith(".py"), e.__file__'
	cd $(COMPILED_TREE) && SCHEMA_COMPAT_SHARED=$(SHARED) $(CURDIR)/$(BIN)/python -m pytest -q \
		-n $(PYTEST_WORKERS) -m "not slow" -p no:cacheprovider

# The semantic oracle (tests/oracle) with many more sampled arguments per schema pair than
# `make test` draws: every tool of both corpora, every profile, with and without lossless-only.
fidelity: install ## Check each change's declared effect against sampled arguments (~10x make test's samples)
	SCHEMA_COMPAT_SHARED=$(SHARED) FIDELITY_EXAMPLES=300 $(PYTEST) \
		-p no:cacheprovider tests/test_fidelity_oracle.py tests/test_fidelity_corpus.py

lint: install ## Run ruff on the package, the tests, the benchmarks and the conformance scripts
	$(BIN)/ruff check schema_compat tests interop conformance benchmarks setup.py

typecheck: install ## Run mypy (strict) on the package
	$(BIN)/mypy

demo: install ## Check the example MCP server against Gemini and show the diff for read_files
	$(BIN)/schema-compat check --server "$(BIN)/python examples/fs_server.py" || true
	$(BIN)/schema-compat diff read_files --server "$(BIN)/python examples/fs_server.py"

docs: install ## Generate docs/rules/, docs/breaking/ (a page per rule, per check), docs/cli.md and docs/providers.md
	$(BIN)/python -m schema_compat.docs

# The benchmarks use their own venv with a regular (not editable) install of the compiled build
# (setup.py), plus the converters they are compared with (the `bench` extra). The throughput
# benchmark also loads the pure-Python source tree beside it. Not part of `make test`.
$(BENCH_VENV)/bin/python:
	$(PYTHON) -m venv $(BENCH_VENV)

$(BENCH_STAMP): pyproject.toml setup.py $(wildcard schema_compat/*.py schema_compat/*/*.py) | $(BENCH_VENV)/bin/python
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip mypy 'setuptools>=68'
	# mypyc type-checks the package against its dependencies, so they come first (a pure
	# install brings them), then the compiled build replaces the package alone.
	$(BENCH_VENV)/bin/python -m pip install --quiet --no-build-isolation '.[bench]'
	SCHEMA_COMPAT_COMPILE=1 $(BENCH_VENV)/bin/python -m pip install --quiet \
		--no-build-isolation --no-deps --force-reinstall .
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) ## Benchmarks: speed, scale, memory, start-up against other converters (~4 min)
	cd $(CURDIR) && $(BENCH_VENV)/bin/python -m benchmarks.run $(BENCH_ARGS)

bench-quick: $(BENCH_STAMP) ## The benchmarks with fewer repeats and at most 1,000 tools (~1 min; CI runs it)
	cd $(CURDIR) && $(BENCH_VENV)/bin/python -m benchmarks.run --quick $(BENCH_ARGS)

bench-memory: install ## Peak memory of check/transform on 100 MB inputs against the README's bound
	$(BIN)/python benchmarks/memory.py

# Conformance with the converters clients run (conformance/README.md): the pinned npm packages
# are installed with `npm ci` into a cache folder inside the checkout (gitignored).
CONF := .cache/conformance
CONF_STAMP := $(CONF)/node_modules/.installed

$(CONF_STAMP): conformance/package.json conformance/package-lock.json
	mkdir -p $(CONF)
	cp conformance/package.json conformance/package-lock.json $(CONF)/
	cd $(CONF) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $(CONF_STAMP)

conformance: install $(CONF_STAMP) ## Feed corpus + cases through LangChain's and the AI SDK's Gemini converters
	$(BIN)/python conformance/prepare.py $(CONF)
	CONFORMANCE_DIR=$(CONF) node --test conformance/conformance.test.mjs
	$(BIN)/python conformance/table.py $(CONF)/results.json $(CONF)/conformance.md
	@cmp -s $(CONF)/conformance.md docs/conformance.md || \
		{ echo "docs/conformance.md is out of date: run 'make conformance-docs'"; exit 1; }

conformance-docs: install $(CONF_STAMP) ## Rerun the conformance suite and rewrite docs/conformance.md
	$(BIN)/python conformance/prepare.py $(CONF)
	CONFORMANCE_DIR=$(CONF) node --test conformance/conformance.test.mjs
	$(BIN)/python conformance/table.py $(CONF)/results.json docs/conformance.md

# Interop with the real ecosystem (interop/README.md): pinned TypeScript-SDK servers and the
# official TypeScript client from npm, Python-SDK servers from PyPI in venvs of their own (they
# pin their own mcp), all installed under .cache/interop/ (gitignored). Not part of `make test`.
INTEROP := .cache/interop
INTEROP_NODE_STAMP := $(INTEROP)/node/node_modules/.installed

$(INTEROP_NODE_STAMP): interop/package.json interop/package-lock.json
	rm -rf $(INTEROP)/node && mkdir -p $(INTEROP)/node
	cp interop/package.json interop/package-lock.json $(INTEROP)/node/
	cd $(INTEROP)/node && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

$(INTEROP)/py/.installed: interop/requirements.txt
	rm -rf $(@D) && $(PYTHON) -m venv $(@D)
	$(@D)/bin/python -m pip install --quiet -r interop/requirements.txt
	@touch $@

$(INTEROP)/py-mcp1/.installed: interop/requirements-mcp1.txt
	rm -rf $(@D) && $(PYTHON) -m venv $(@D)
	$(@D)/bin/python -m pip install --quiet -r interop/requirements-mcp1.txt
	@touch $@

interop: install $(INTEROP_NODE_STAMP) $(INTEROP)/py/.installed $(INTEROP)/py-mcp1/.installed ## Check live servers from npm and PyPI against the official SDK clients (~6 min)
	$(BIN)/python -m pytest -q interop

# The web playground (`schema-compat serve`) in a real browser: tests/browser, with Debian's
# Chromium driven by Playwright for Python. Playwright is pointed at that Chromium; its own
# browser download (`playwright install`) is never used. Not part of `make test`, which runs
# the playground's HTTP and security tests without a browser.
CHROMIUM ?= /usr/bin/chromium
# The static build of the same page (site/): the engine runs in the browser in Pyodide, whose
# runtime comes from the pinned npm package (site-build/package-lock.json, `npm ci` into
# .cache/site); the project's Python and the pure-Python packages it imports are zipped in.
SITE_NODE := .cache/site
SITE_STAMP := $(SITE_NODE)/node_modules/.installed

$(SITE_STAMP): site-build/package.json site-build/package-lock.json
	rm -rf $(SITE_NODE) && mkdir -p $(SITE_NODE)
	cp site-build/package.json site-build/package-lock.json $(SITE_NODE)/
	cd $(SITE_NODE) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

site: install $(SITE_STAMP) ## Build site/: the playground as a static page, the engine in Pyodide
	$(BIN)/python site-build/build_site.py --pyodide $(SITE_NODE)/node_modules/pyodide --out site

playground: install site ## Test the web playground and the static site in headless Chromium (installs it with apt when root)
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		elif [ -n "$$CI" ] && command -v sudo >/dev/null; then \
			sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "make playground: no Chromium at $(CHROMIUM); install it (sudo apt-get install chromium) or set CHROMIUM="; exit 1; \
		fi; \
	fi
	$(BIN)/python -c "import playwright" 2>/dev/null || $(BIN)/python -m pip install --quiet 'playwright>=1.45,<2'
	SCHEMA_COMPAT_BROWSER=1 SCHEMA_COMPAT_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -q \
		-p no:cacheprovider tests/browser

clean: ## Remove .venv, .venv-bench, caches and build output
	rm -rf $(VENV) $(BENCH_VENV) .cache/pipx .cache/pipx-venv $(CONF) $(INTEROP) $(COMPILED_TREE) .cache/bench .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
