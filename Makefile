VENV ?= .venv
PY := $(VENV)/bin/python
ARGS ?= score "[WWWW,1][444s]45m678pFF6m" --explain

.PHONY: run test lint bench clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/majiang $(ARGS)

test: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests benchmarks
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) benchmarks/score_bench.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
