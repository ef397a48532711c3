# The two quick-start commands: `make run` (the main job) and `make test` (the whole suite).
VENV ?= .venv
FAST ?= .venv-compiled
PY := $(VENV)/bin/python
ARGS ?= serve --db sqlite:///majiang.db

.PHONY: run test lint pytest test-compiled bench clean

$(VENV)/.installed: pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,play,ray,plot,e2e,test]'
	touch $@

# The same sources compiled by mypyc (MAJIANG_COMPILE=1), installed into a second virtualenv.
$(FAST)/.installed: pyproject.toml setup.py $(shell find src -name '*.py')
	rm -rf build $(FAST)
	python3 -m venv $(FAST)
	$(FAST)/bin/python -m pip install -q --upgrade pip
	MAJIANG_COMPILE=1 $(FAST)/bin/python -m pip install -q --force-reinstall '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/majiang $(ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy src/majiang

pytest: $(VENV)/.installed
	$(PY) -m pytest

# The scorer's tests again, against the compiled build (it must score exactly like the source).
test-compiled: $(FAST)/.installed
	$(FAST)/bin/python -c "import majiang.rules.guobiao.scoring as s; assert s.__file__.endswith('.so'), s.__file__"
	$(FAST)/bin/python -m pytest -p no:cacheprovider tests/test_examples.py tests/test_reference.py \
		tests/test_fans.py tests/test_exclusions.py tests/test_options.py tests/test_notation.py \
		tests/test_errors.py tests/test_properties.py tests/test_analysis.py tests/test_batch_fast.py

test: lint pytest test-compiled

bench: $(VENV)/.installed $(FAST)/.installed
	$(PY) benchmarks/score_bench.py
	$(FAST)/bin/python benchmarks/score_bench.py
	$(PY) benchmarks/shanten_bench.py

clean:
	rm -rf $(VENV) $(FAST) build src/*.egg-info .pytest_cache
	find src -name '*.so' -delete
