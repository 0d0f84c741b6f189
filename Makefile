# flashlab: `make book` builds the HTML book, `make test` runs every test. Both start from nothing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BUILD_ENV := _build/.doctrees/environment.pickle
CHROMIUM ?= /usr/bin/chromium
export NUMBA_CACHE_DIR := $(CURDIR)/.cache/numba
export PYTHONHASHSEED := 0
# Bytecode is cached (under .cache, not in the tree) even where the environment sets
# PYTHONDONTWRITEBYTECODE: every test process otherwise recompiles the package and re-runs
# pytest's assertion rewriting of hypothesis' ~100 modules (collection 15 s CPU per process vs 9).
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX := $(CURDIR)/.cache/pycache
CHECKED_CACHE := $(CURDIR)/.cache/numba-boundscheck
# pytest-xdist workers for the test stages (CI has 2 cores); TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= 2
XDIST := -n $(TEST_WORKERS)

.PHONY: help env book book-student pdf test test-stages test-engine test-clean-env test-boundscheck test-notebooks \
	test-browser kernels kernels-plain kernels-checked lab serve bench clean

help:
	@echo "make book   build the HTML book into _build/html (creates $(VENV) first)"
	@echo "make book-student   the student edition, without solutions, into $(STUDENT)/_build/html"
	@echo "make pdf    the print edition: the built book as one PDF, _build/flashlab.pdf"
	@echo "make test   run engine, notebook, build and browser tests"
	@echo "make lab    JupyterLab with the chapters opening as notebooks"
	@echo "make serve  serve the built book on http://127.0.0.1:8000"
	@echo "make bench  print benchmark figures"

$(STAMP): pyproject.toml
	$(BEGIN)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,lab]"
	touch $(STAMP)
	$(END)

env: $(STAMP)

book: $(STAMP)
	$(BEGIN)
	rm -rf _build/html   # no stale pages; executed notebooks stay cached in _build/.jupyter_cache
	@# The execution cache keys on chapter text only: drop it when the engine has changed since.
	@if [ -f $(BUILD_ENV) ] && [ -n "$$(find flashlab book/_ext -name '*.py' -newer $(BUILD_ENV))" ]; then \
		echo "flashlab changed since the last build: re-executing every chapter"; rm -rf _build/.jupyter_cache _build/.doctrees _build/jupyter_execute; fi
	FLASHLAB_COMPILE_NOTICE=0 $(BIN)/jupyter-book build . --warningiserror --keep-going
	$(END)
	@echo "Open file://$(CURDIR)/_build/html/index.html"

# The student edition: no solutions in its pages, sources, notebooks or search index. It runs no
# chapter: the instructor build (made first, so the cache is current) has the results cached.
STUDENT := _build/student
book-student: book
	$(BEGIN)
	rm -rf $(STUDENT)
	FLASHLAB_EDITION=student FLASHLAB_COMPILE_NOTICE=0 $(BIN)/jupyter-book build . --path-output $(STUDENT) --warningiserror --keep-going
	$(END)
	@echo "Open file://$(CURDIR)/$(STUDENT)/_build/html/index.html"

# The print edition: the built pages printed by headless chromium into one PDF with an outline.
pdf: book $(CHROMIUM)
	$(BIN)/python tools/print_pdf.py --html _build/html --out _build/flashlab.pdf --chromium $(CHROMIUM)

$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

# `make test`: the plain kernels compiled once, up front, then every stage as one graph that
# make runs three at a time (CI has 2 cores), each stage as soon as what it reads is built: the
# book chain (instructor build, student build, browser checks) is the longest path, so it runs at
# normal priority and the other stages (engine, bounds-checked kernels and tests, clean
# environment, nbval) niced, on the core it leaves and in its gaps. nbval starts once the
# instructor build is done, beside the student build. --output-sync prints each stage's output
# whole when it ends; every stage's log starts and ends with its wall-clock time.
test: $(STAMP) $(CHROMIUM)
	$(BEGIN)
	$(MAKE) kernels-plain
	$(MAKE) -j3 --output-sync=target IN_MAKE_TEST=1 test-stages
	$(END)

# In `make test` only: what each stage reads is built first, and all but the book chain niced.
ifeq ($(IN_MAKE_TEST),1)
test-notebooks: book
test-browser: book-student
test-boundscheck: kernels-checked
NICE := nice -n 10
endif
test-stages: book book-student test-browser test-engine test-notebooks kernels-checked test-boundscheck test-clean-env

# A stage's first and last lines: its name and the wall-clock time (and, at the end, its seconds).
STAGE = $(if $(filter $(STAMP),$@),env,$@)
BEGIN = @mkdir -p .cache && date +%s > .cache/stage-$(STAGE).t0 && echo "== $(STAGE): started $$(date +%T)"
END = @echo "== $(STAGE): done $$(date +%T), $$(( $$(date +%s) - $$(cat .cache/stage-$(STAGE).t0) )) s"

# The browser checks of both built editions (tests marked book).
test-browser: $(STAMP) $(CHROMIUM)
	$(BEGIN)
	$(BIN)/python -m pytest tests -m book -q $(XDIST) --durations=15
	$(END)

test-engine: $(STAMP)
	$(BEGIN)
	$(NICE) $(BIN)/python -m pytest tests -m "not book and not clean_env" -q $(XDIST) --durations=25
	$(END)

# One chapter in a new virtual environment holding only `pip install` of the repository (as Colab
# has it): minutes of installing and compiling, so a stage of its own, beside the other stages.
test-clean-env: $(STAMP)
	$(BEGIN)
	$(NICE) $(BIN)/python -m pytest tests -m clean_env -q
	$(END)

# Fill the numba caches (plain and bounds-checked) before the tests: tools/compile_kernels.py
# compiles each kernel group in one process, the four jobs side by side, so that no two processes
# compile the same kernel cold (both xdist workers did, for the SSD engine, minutes of CPU each).
kernels: $(STAMP)
	$(MAKE) -j2 kernels-plain kernels-checked

# Each kernel group compiled in a process of its own, the groups side by side.
COMPILE_GROUPS = set -e; pids=""; \
	for group in ssd cells; do $(BIN)/python tools/compile_kernels.py $$group & pids="$$pids $$!"; done; \
	for p in $$pids; do wait $$p; done
kernels-plain: $(STAMP)
	$(BEGIN)
	@$(COMPILE_GROUPS)
	$(END)
kernels-checked: $(STAMP)
	$(BEGIN)
	@export NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CHECKED_CACHE); $(NICE) bash -c '$(COMPILE_GROUPS)'
	$(END)

# Kernels run without bounds checks (an index that escapes corrupts memory silently): run the tests
# that drive every kernel (cell pulses and ISPP, Monte Carlo reads, FTL, SSD events, array layouts and host I/Os, the OLTP buffer pool) once more with
# numba's bounds checks on, in their own cache (the checked kernels are different machine code),
# so such an index fails a test instead.
BOUNDSCHECK_TESTS := tests/test_cell_physics.py tests/test_cell_errors.py tests/test_ftl.py \
	tests/test_ftl_reference.py tests/test_timing.py tests/test_safety.py tests/test_ssd_cache.py tests/test_ssd_slc_engine.py \
	tests/test_array.py tests/test_db_oltp.py tests/test_ssd_trim.py tests/test_ssd_mapcache.py
test-boundscheck: $(STAMP)
	$(BEGIN)
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(CHECKED_CACHE) $(NICE) $(BIN)/python -m pytest $(BOUNDSCHECK_TESTS) -q $(XDIST)
	$(END)

# nbval re-runs each chapter (as the book build executed it, outputs included) in a fresh kernel;
# cells marked NBVAL_CHECK_OUTPUT must reproduce (tests/test_pinned_outputs.py pins them).
# With xdist, --dist loadscope keeps all cells of a notebook on one worker (they share its kernel).
test-notebooks: $(STAMP)
	@test -d _build/jupyter_execute/chapters || (echo "Run 'make book' first" && exit 1)
	$(BEGIN)
	rm -rf _build/nbval && mkdir -p _build/nbval
	cp _build/jupyter_execute/chapters/*.ipynb _build/nbval/
	$(NICE) $(BIN)/python -m pytest --nbval-lax -q _build/nbval $(XDIST) --dist loadscope
	$(END)

lab: $(STAMP)
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp binder/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	$(BIN)/jupyter lab chapters

serve:
	@test -d _build/html || (echo "Run 'make book' first" && exit 1)
	$(BIN)/python -m http.server 8000 --bind 127.0.0.1 --directory _build/html

bench: $(STAMP)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f; done

clean:
	rm -rf _build .cache
