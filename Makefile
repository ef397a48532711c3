# The two quick-start commands: `make run` (the main job) and `make test` (the whole suite).
# `make run` installs only what the server needs; `make run PORT=18105` serves on another port,
# `make run ARGS='analyze 345s1122234789p'` runs any other majiang command.
VENV ?= .venv
FAST ?= .venv-compiled
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
DB ?= sqlite:///majiang.db
ARGS ?= serve --host $(HOST) --port $(PORT) --db $(DB)

.PHONY: run test lint pytest test-compiled bench clean

# The server extra only (an editable, pure-Python install): what `make run` needs.
$(VENV)/.server: pyproject.toml setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server]'
	touch $@

# Every extra, for the whole suite (Ray, Playwright, matplotlib, the test tools).
$(VENV)/.installed: $(VENV)/.server
	$(PY) -m pip install -q -e '.[server,play,env,ray,plot,e2e,test]'
	touch $@

# The same sources compiled by mypyc (MAJIANG_COMPILE=1: compile, or fail without a C compiler),
# installed into a second virtualenv.
$(FAST)/.installed: pyproject.toml setup.py $(shell find src -name '*.py')
	rm -rf build $(FAST)
	python3 -m venv $(FAST)
	$(FAST)/bin/python -m pip install -q --upgrade pip
	MAJIANG_COMPILE=1 $(FAST)/bin/python -m pip install -q --force-reinstall '.[test]'
	touch $@

run: $(VENV)/.server
	$(VENV)/bin/majiang $(ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests benchmarks tools build_support
	$(VENV)/bin/mypy src/majiang

pytest: $(VENV)/.installed
	$(PY) -m pytest

# The scorer's, engine's, encoder's and bots' tests again, against the compiled build (it must
# score and play exactly like the source).
COMPILED_CHECK := import majiang.rules.guobiao.scoring, majiang.engine.table, majiang.env.encoding, \
	majiang.bots.efficient as m, sys; \
	bad = [n for n in ('notation', 'rules.guobiao.scoring', 'shanten', 'engine.table', 'env.encoding', \
	'bots.efficient') if not sys.modules['majiang.' + n].__file__.endswith('.so')]; assert not bad, bad
test-compiled: $(FAST)/.installed
	$(FAST)/bin/python -c "$(COMPILED_CHECK)"
	$(FAST)/bin/python -m pytest -p no:cacheprovider tests/test_examples.py tests/test_reference.py \
		tests/test_fans.py tests/test_exclusions.py tests/test_options.py tests/test_notation.py \
		tests/test_errors.py tests/test_properties.py tests/test_analysis.py tests/test_batch_fast.py \
		tests/test_pasted.py
	$(FAST)/bin/python -m pytest -p no:cacheprovider tests/test_table.py tests/test_table_huangyan.py \
		tests/test_match.py tests/test_match_huangyan.py tests/test_invariants.py \
		tests/test_invariants_huangyan.py tests/test_env.py tests/test_bots.py \
		tests/test_shanten_reference.py tests/test_botzone.py tests/test_botzone_wall.py \
		tests/test_frozen.py tests/test_blocks.py

test: lint pytest test-compiled

bench: $(VENV)/.installed $(FAST)/.installed
	$(PY) benchmarks/score_bench.py
	$(FAST)/bin/python benchmarks/score_bench.py
	$(PY) benchmarks/shanten_bench.py

clean:
	rm -rf $(VENV) $(FAST) build src/*.egg-info .pytest_cache
	find src -name '*.so' -delete
