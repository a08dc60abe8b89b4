# rankedu: build the book, test the package and the chapters. Every target sets up .venv
# first, so `make book` and `make test` work from a fresh clone. `make help` lists the targets.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-created whenever the pinned requirements or the package metadata change.
STAMP := $(VENV)/.installed
HTML := _build/html
# The pinned reveal.js of the chapters' decks (tools/slides/package-lock.json), installed by
# `npm ci`; reinstalled whenever the pin changes.
REVEAL := tools/slides/node_modules/.installed
# The student edition: the same book without the solutions, in a folder of its own.
STUDENTS_HTML := _build/students/_build/html
PORT ?= 8000

# The chapters, in book order, read from _toc.yml (not globbed from book/), so that a chapter
# missing from the table of contents is reported by the notebook guard instead of being
# silently tested or silently skipped. Evaluated only where it is used, after the venv exists.
NOTEBOOKS = $(shell $(BIN)/python tests/test_notebooks.py)

# Set iteration order is salted per process; a fixed seed makes a chapter that prints a set
# of strings give the same output in nbval, in `make execute` and in the build.
export PYTHONHASHSEED := 0
# Silences the debugger's "frozen modules" warning that every kernel start prints to stderr.
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: help venv book book-students slides format test test-package test-notebooks test-build test-build-students test-site screenshots execute serve lab bench bench-per-list bench-logs clean distclean

help:
	@echo "make book     set up .venv, execute the chapters whose code changed since the last"
	@echo "              build (all of them the first time) and build the site into $(HTML)"
	@echo "make slides   a reveal.js deck of each chapter (book/slides.yml picks the cells) into"
	@echo "              $(HTML)/slides/, with reveal.js beside it; make book builds them too"
	@echo "make book-students  the same site without the solutions, into $(STUDENTS_HTML)"
	@echo "make test     package tests, notebook guard, nbval on every chapter, warning-free builds"
	@echo "              of both editions, then every page of both in headless Chromium (make test-site)"
	@echo "make screenshots  the site test on the main edition, saving a full-page screenshot"
	@echo "              of each page and deck in _build/screenshots/ for review"
	@echo "make execute  re-execute every chapter of _toc.yml in place (after changing rankedu);"
	@echo "              make execute CHAPTER=book/ndcg.ipynb re-executes that one chapter"
	@echo "make format   format every chapter's code cells with ruff at 88 columns"
	@echo "make serve    serve $(HTML) on http://localhost:$(PORT)/"
	@echo "make lab      open the chapters in JupyterLab"
	@echo "make bench    time rk.evaluate against pytrec_eval, trec_eval 10.0's binary (built from"
	@echo "              the C source in rankedu/data) and a pyarrow read of the files, on 1,000,000-"
	@echo "              and 10,000,000-line runs, each tool in its own process; then -m all_trec"
	@echo "make bench-per-list  time and memory of every per-list function (and rk.explain) at"
	@echo "              10^6 elements, each in its own process, and the import time of rankedu"
	@echo "make bench-logs  GAUC of a 10,000,000-row Parquet log: rankedu.logs on DuckDB and on"
	@echo "              Spark local[2] against rk.gauc and pandas + scikit-learn, time and memory"
	@echo "make clean    remove build output and caches (make distclean also removes .venv and"
	@echo "              reveal.js's node_modules)"

venv: $(STAMP)

$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m ipykernel install --sys-prefix
	touch $@

$(REVEAL): tools/slides/package.json tools/slides/package-lock.json
	@command -v npm >/dev/null || { \
		echo "The chapters' decks need reveal.js from npm. Install Debian's packages:"; \
		echo "    apt-get update && apt-get install -y nodejs npm    (.ci/run does this)"; \
		exit 1; }
	npm ci --prefix tools/slides --no-audit --no-fund
	touch $@

# _config.yml's execute_notebooks: cache. jupyter-cache knows a chapter by its code cells, not
# by the rankedu it imports, nor by the environment: a change to the package or to the pinned
# requirements empties the cache (through this stamp), so the next build executes every chapter
# again instead of showing outputs of the old code.
EXECUTION_CACHE := _build/.jupyter_cache
$(EXECUTION_CACHE)/.rankedu: $(STAMP) $(shell find rankedu -type f -not -path '*/__pycache__/*')
	rm -rf $(EXECUTION_CACHE)
	mkdir -p $(EXECUTION_CACHE)
	touch $@

# tools/sphinx_slides.py builds the decks into the site after its pages, and links each
# chapter page to its deck, so the book needs reveal.js too.
book: $(STAMP) $(REVEAL) $(EXECUTION_CACHE)/.rankedu
	$(BIN)/jupyter-book build .
	@echo
	@echo "The book is at: $(CURDIR)/$(HTML)/index.html"

# The same book without the solutions (sphinx-exercise's hide_solutions), executed from the same
# cache as `make book`, so after it nothing is executed again.
book-students: $(STAMP) $(REVEAL) $(EXECUTION_CACHE)/.rankedu
	$(call derived_config,_build/_config_students.yml,$(HIDE_SOLUTIONS))
	$(BIN)/jupyter-book build . --config _build/_config_students.yml --path-output _build/students
	@echo
	@echo "The student edition is at: $(CURDIR)/$(STUDENTS_HTML)/index.html"

$(HTML)/index.html:
	$(MAKE) book

# The decks alone, again, into the built site (after an edit of book/slides.yml, say): from
# the chapters' stored cells, without executing them, in seconds. They load the site's
# MathJax, so the site is built first if there is none.
slides: $(STAMP) $(REVEAL) $(HTML)/index.html
	$(BIN)/python tools/slides.py $(HTML)

# The steps of `make test` run two at a time (the machines have two cores), and the pytest
# steps each in two processes (pytest-xdist). The two builds (single-threaded Sphinx) start
# first, side by side; the other steps take a slot as one frees, the site test once both builds
# are done. --output-sync prints each step's output whole when the step ends, not interleaved
# with another's; --keep-going (as .ci/run gives it) reaches this make too, so every step still
# runs and every failure is reported. Each step alone is `make test-<step>`.
TEST_STEPS := test-build test-build-students test-site test-package test-notebooks
test:
	+$(MAKE) --jobs=2 --output-sync=target $(TEST_STEPS)

# (a) and (c): the package tests, and tests/test_notebooks.py, the guard on the stored chapters.
# tests/test_site.py needs the built site, so it runs in test-site, after the build, where
# nothing of it is skipped. tests/test_slides.py builds a deck, with the pinned reveal.js.
# Two processes (pytest-xdist) share out the test files, each file's tests kept in one of them
# (--dist loadfile), so that a costly module fixture (Spark's JVM, the atlas's matrix) is made
# once. (--dist loadgroup and xdist_group marks would do it test by test, but pytest-xdist 3.8.0
# does not group under pytest 9.2: both processes ran Spark tests, and made the fixtures twice.)
test-package: $(STAMP) $(REVEAL)
	$(BIN)/python -m pytest -n 2 --dist loadfile tests --ignore=tests/test_site.py

# (b) nbval re-executes each chapter of the toc and compares every output with the stored one
# (nbval_sanitize.cfg says what is compared and what is rewritten first). It runs on copies of
# the chapters in a fresh temporary folder, as a reader runs a chapter downloaded from the
# site: a chapter that reads a file of the repository (../tests, ../tools, the bibliography)
# fails here. No ini file is found there, so the options of pyproject.toml's addopts are
# given on the command line, and an empty one beside the copies stops pytest from looking
# further up. Two chapters at a time (pytest-xdist); --dist loadfile keeps each chapter's cells
# together, in order, in one kernel, as nbval requires. A single chapter (NOTEBOOKS=..., as
# tests/test_notebooks.py gives) runs in pytest's own process (-n 0): no worker to start.
test-notebooks: $(STAMP)
	@if [ -z "$(NOTEBOOKS)" ]; then \
		echo "nbval: _toc.yml lists no notebook yet, nothing to re-execute"; \
	else \
		folder=$$(mktemp -d) && trap 'rm -rf "$$folder"' EXIT && \
		mkdir "$$folder/chapters" && cp $(NOTEBOOKS) "$$folder/chapters" && \
		printf '[pytest]\n' > "$$folder/pytest.ini" && \
		echo "pytest --nbval, in $$folder/chapters: $(notdir $(NOTEBOOKS))" && \
		cd "$$folder/chapters" && \
		$(abspath $(BIN))/python -m pytest --nbval --nbval-current-env \
			--nbval-sanitize-with="$(CURDIR)/nbval_sanitize.cfg" -p no:cacheprovider \
			-n $(if $(word 2,$(NOTEBOOKS)),2,0) --dist loadfile \
			-c "$$folder/pytest.ini" --rootdir="$$folder/chapters" $(notdir $(NOTEBOOKS)); \
	fi

# A copy of _config.yml that the other builds use with --config: $(call derived_config,FILE,EDITS)
# writes FILE from _config.yml through sed with the expressions EDITS, and checks each edit took.
# Jupyter Book 1.x resolves the source files, the toc and bibtex_bibfiles against the source
# folder (.), not against the folder of the --config file, so the copy can live in _build/; only
# the local extensions' path is relative to the config file, so tools becomes ../tools.
EXECUTION_OFF := -e 's/^\( *execute_notebooks:\).*/\1 "off"/'
# sphinx-exercise's own option: the solution directives produce nothing.
HIDE_SOLUTIONS := -e 's/^\(  config:\)$$/\1\n    hide_solutions: true/'
define derived_config
	mkdir -p _build
	sed -e 's|^\( *sphinx_[a-z_]*:\) tools$$|\1 ../tools|' $(2) _config.yml > $(1)
	# every local extension's path rewritten (one left at tools would not be found)
	! grep -q '^ *sphinx_[a-z_]*: tools$$' $(1)
	grep -q '^ *sphinx_[a-z_]*: ../tools$$' $(1)
	$(if $(findstring execute_notebooks,$(2)),grep -q '^ *execute_notebooks: "off"$$' $(1))
	$(if $(findstring hide_solutions,$(2)),grep -q '^    hide_solutions: true$$' $(1))
endef

# (d) A warning-free build: -W makes every warning an error, -n also reports every reference
# that does not resolve, --keep-going reports them all before failing, and --all re-reads every
# page (an incremental build would stay silent about the warnings of unchanged pages).
# nbval (b) executes every chapter in the same `make test` (beside this build, two steps run
# at a time), and the stored outputs are the ones it checks, so this build must not execute
# them a second time (that would double the time of `make test`):
# it uses a copy of _config.yml with execution turned off. Its output goes to _build/test/,
# apart from the executed site in $(HTML).
test-build: $(STAMP) $(REVEAL)
	$(call derived_config,_build/_config_test.yml,$(EXECUTION_OFF))
	$(BIN)/jupyter-book build . --config _build/_config_test.yml --path-output _build/test \
		--all -W -n --keep-going

# (d') The student edition, built as (d) is (execution off, warnings as errors), into
# _build/test-students/.
test-build-students: $(STAMP) $(REVEAL)
	$(call derived_config,_build/_config_test_students.yml,$(EXECUTION_OFF) $(HIDE_SOLUTIONS))
	$(BIN)/jupyter-book build . --config _build/_config_test_students.yml \
		--path-output _build/test-students --all -W -n --keep-going

# (e) The site as readers get it: the builds of (d) and (d') served on 127.0.0.1 and every page
# of both editions opened in headless Chromium (Debian's package, driven by Playwright), with
# every request that leaves this machine blocked: formulas typeset by the site's own MathJax,
# figures loaded, no console error, no broken internal link or anchor, search answers;
# no repository, issues, Binder or Colab button unless RANKEDU_REPOSITORY_URL is set (for
# the build and this test alike), and then the launch buttons open the chapter's notebook;
# exercises numbered within their chapter, solutions in the main edition only. Two processes
# (pytest-xdist), each with its own Chromium, share out the pages. No screenshots: make
# screenshots takes them.
test-site: test-build test-build-students
	@command -v chromium >/dev/null || { \
		echo "make test-site: Chromium is missing. Install Debian's package:"; \
		echo "    apt-get update && apt-get install -y chromium    (.ci/run does this)"; \
		exit 1; }
	RANKEDU_SITE_DIR=_build/test/_build/html \
	RANKEDU_STUDENTS_SITE_DIR=_build/test-students/_build/html \
		$(BIN)/python -m pytest -n 2 tests/test_site.py

# The same checks of the main edition, saving a full-page screenshot of each page and deck in
# _build/screenshots/ for review (they check nothing themselves, and cost make test time).
screenshots: test-build
	RANKEDU_SITE_DIR=_build/test/_build/html RANKEDU_SCREENSHOTS=_build/screenshots \
		$(BIN)/python -m pytest -n 2 tests/test_site.py
	@echo "The screenshots are in $(CURDIR)/_build/screenshots/"

# record_timing=False: no run timestamps in the cells' metadata, so a re-execution that changes
# no output leaves the notebook unchanged (the guard rejects stored timestamps). A kernel splits
# what a cell prints into pieces where it flushes, differently each run: a second pass of
# nbconvert (CoalesceStreamsPreprocessor, which runs before execution in the first) stores each
# stream whole, as the guard requires.
# CHAPTER=book/ndcg.ipynb re-executes that chapter alone (it must be one of _toc.yml's).
execute: $(STAMP)
	@if [ -n "$(CHAPTER)" ] && ! echo " $(NOTEBOOKS) " | grep -q " $(CHAPTER) "; then \
		echo "CHAPTER=$(CHAPTER) is not a chapter of _toc.yml: $(NOTEBOOKS)"; exit 2; \
	fi
	@for nb in $(or $(CHAPTER),$(NOTEBOOKS)); do \
		echo "executing $$nb"; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=600 \
			--ExecutePreprocessor.record_timing=False "$$nb" \
			&& $(BIN)/jupyter nbconvert --to notebook --inplace --log-level=WARN \
			--CoalesceStreamsPreprocessor.enabled=True "$$nb" \
			|| exit 1; \
	done

# ruff formats the code cells of every chapter of _toc.yml at 88 columns (pyproject.toml's
# [tool.ruff]), the width the page shows without a scrollbar; tests/test_readable_chapters.py
# fails on a chapter it would change. It leaves outputs as they are: re-execute what it changed
# (make execute CHAPTER=...) and read the diff before committing.
format: $(STAMP)
	$(BIN)/ruff format $(NOTEBOOKS)

serve: $(HTML)/index.html
	@echo "Serving the book at http://localhost:$(PORT)/ (Ctrl-C to stop)"
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory $(HTML)

# JupyterLab refuses to run as root unless told to (containers, CI machines run as root).
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=book $(if $(filter 0,$(shell id -u)),--allow-root)

# Times rk.evaluate against pytrec_eval, trec_eval 10.0's binary (built from the source that
# rankedu ships, rankedu/data/trec_eval_source, by its own Makefile first) and a floor,
# pyarrow reading the two files, from TREC files on disk,
# each tool in its own process, on realistic generated runs (queries q0, q1, ... in numeric
# order, 1,000 MS MARCO-like docnos per query drawn from a 50M-document collection) of 1,000,000
# and 10,000,000 lines (written once under /tmp/rankedu-bench); first the measures rankedu and
# trec_eval share, then trec_eval's all_trec set; see benchmarks/bench_evaluate.py (--tools ...
# ranx adds ranx). Not part of `make test`: timings depend on the machine and its load, so it
# reports, never fails.
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_evaluate.py --lines 1000000
	$(BIN)/python benchmarks/bench_evaluate.py --lines 10000000
	$(BIN)/python benchmarks/bench_evaluate.py --lines 1000000 --measures all_trec
	$(BIN)/python benchmarks/bench_evaluate.py --lines 10000000 --measures all_trec

# Every per-list function and its explanation at 10^6 elements (goal: under 2 s and 1 GiB each),
# cutoffs far past the end of a list, and the import time of rankedu beside pandas'; see
# benchmarks/bench_per_list.py. Not part of `make test`: it reports, never fails.
bench-per-list: $(STAMP)
	$(BIN)/python benchmarks/bench_per_list.py

# GAUC of a generated 10M-row, 100,000-user log in Parquet (written under /tmp once): logs.gauc
# on DuckDB and on Spark local[2], rk.gauc, and pandas groupby + scikit-learn, each in its own
# process, capped; see benchmarks/bench_logs.py (--rows 100000000 --users 1000000 for the
# 100M-row run). Not part of `make test`: it reports, never fails.
bench-logs: $(STAMP)
	-$(BIN)/python benchmarks/bench_logs.py --rows 10000000

clean:
	rm -rf _build .pytest_cache .hypothesis .jupyter_cache *.egg-info
	find . -path ./$(VENV) -prune -o -type d \( -name __pycache__ -o -name .ipynb_checkpoints \) -print \
		| xargs rm -rf

distclean: clean
	rm -rf $(VENV) tools/slides/node_modules
