# The only commands a newcomer needs: make demo, make test (both run make install first).
SHELL := /bin/bash
PY ?= python3.11
UV_VERSION := 0.13.8
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON_PREFERENCE := only-system
export DAGSTER_DISABLE_TELEMETRY := 1

.PHONY: install demo test test-quick lint bench clean ui

$(UV):
	$(PY) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

install: $(UV)
	$(UV) sync --frozen --python $(PY) --quiet
	@echo "installed into $(VENV) (run commands as $(VENV)/bin/docorbit ...)" >&2

# The Dagster UI + daemon on this project (docs/operations.md); PORT=3001 make ui to move it.
ui: install
	$(VENV)/bin/docorbit ui --port $${PORT:-3000}

demo: install
	$(VENV)/bin/python scripts/demo.py

test: install
	$(VENV)/bin/python -m pytest -q

# Everything but the tests marked slow or e2e (real ingests, subprocess servers; tests/conftest.py
# marks them): ~42 s of CPU, under a minute of wall time on this 2-core machine (README).
test-quick: install
	$(VENV)/bin/python -m pytest -q -m "not slow and not e2e"

lint: install
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy docorbit_assets docorbit_serve
	$(VENV)/bin/lint-imports --no-cache

bench: install
	$(VENV)/bin/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(TOOLS) .docorbit
