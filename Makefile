# Two commands do all set-up on a fresh Debian machine:
#   make demo   - install, then explain the bundled examples and build a multi-model report
#   make test   - install, then run the test suite
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

.PHONY: all install system-deps test-deps demo test perf doctor clean

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

$(STAMP): setup.cfg pyproject.toml
	$(MAKE) system-deps
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
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

test: install test-deps
	$(PY) -m pytest -q -p no:cacheprovider

# Speed figures, then the scaling table (1 and N workers, Ray, peak memory at 1k and 50k records:
# steady rates), then the end-to-end figures (start-up included: one record, 3,040 and 300 records
# with 1 and 2 workers). PERF_ARGS=--quick for smaller inputs.
perf: install
	$(PY) -m benchmarks.perf $(PERF_ARGS)
	$(PY) -m benchmarks.scaling $(PERF_ARGS)
	$(PY) -m benchmarks.endtoend $(PERF_ARGS)

doctor: install
	$(CECE) doctor

clean:
	rm -rf $(VENV) build *.egg-info
