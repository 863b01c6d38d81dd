# Two-GPU Lab. The two commands: `make lab` (set up and open the course) and `make test` (set up and test).
# Set-up makes .venv unless a virtual or conda environment is already active, installs the exact pins of
# requirements.txt and the `utils` package (editable), and registers the course's Jupyter kernel.
# A stamp keyed on the requirements makes a second run install nothing.
SHELL := /bin/bash
.DEFAULT_GOAL := help

ifdef VIRTUAL_ENV
  ENV_DIR := $(VIRTUAL_ENV)
else ifdef CONDA_PREFIX
  ENV_DIR := $(CONDA_PREFIX)
else
  ENV_DIR := .venv
endif
PY        := $(ENV_DIR)/bin/python
KERNEL    := twogpu-lab
REQ_HASH  := $(shell cat requirements.txt pyproject.toml | sha256sum | cut -c1-12)
STAMP     := $(ENV_DIR)/.twogpu-lab-$(REQ_HASH)
HOST      ?= 127.0.0.1
PORT      ?= 8888
PYTEST_ARGS ?=
# Jupyter refuses to run as root (containers, CI) unless told it is meant.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: help setup lab test bench execute student site gpu-check gpu-wheels clean

help:
	@echo "make lab        set up (first time only) and start JupyterLab on the course"
	@echo "make test       set up (first time only) and run every test, notebooks included"
	@echo "make bench      run the benchmarks, write results/bench-<mode>.md and .json"
	@echo "make execute    re-run every notebook top to bottom in place and clean its metadata"
	@echo "make student    build the student copies of the labs into labs/student/"
	@echo "make site       build the course's website into build/site/ (committed outputs, no network)"
	@echo "make gpu-check  one short run of GPU probes, GPU tests and notebooks (1gpu), report in results/ (or \$$OUT)"
	@echo "make gpu-wheels download the wheels the GPU check needs on a torch-only CUDA image into .whl/"

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || python3 -m venv $(ENV_DIR)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Two-GPU Lab (Python 3)" >/dev/null
	@# JupyterLab without its "news" pop-up and update check (settings overrides, merged into any already there).
	@$(PY) -c 'import json, pathlib, sys; p = pathlib.Path(sys.prefix, "share/jupyter/lab/settings/overrides.json"); \
	    o = json.loads(p.read_text()) if p.is_file() else {}; p.parent.mkdir(parents=True, exist_ok=True); \
	    o.setdefault("@jupyterlab/apputils-extension:notification", {}).update(fetchNews="false", checkForUpdates=False); \
	    p.write_text(json.dumps(o, indent=2) + "\n")'
	@rm -f $(ENV_DIR)/.twogpu-lab-*
	@touch $@
	@echo "set-up done: $(ENV_DIR) (kernel '$(KERNEL)')"

lab: setup student
	$(PY) -m jupyterlab --no-browser --ip=$(HOST) --port=$(PORT) $(LAB_FLAGS) \
	    --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb

test: setup
	$(PY) -m pytest $(PYTEST_ARGS)

bench: setup
	$(PY) -m utils.benchmarks --all --out results

execute: setup
	$(PY) -m utils.tools.nbtools execute notebooks/*.ipynb $(wildcard labs/*.ipynb)

# Student copies go to labs/student/ (generated, git-ignored: the lab sources are the one truth).
student: setup
	@$(PY) -m utils.tools.nbtools student labs

# The course as a website: lessons with their committed outputs (never executed), labs as student copies,
# built with no network (site/build.py). Open build/site/index.html. `site` is also a folder: hence .PHONY.
site: setup
	$(PY) site/build.py

gpu-check: setup
	$(PY) -m utils.tools.gpucheck

# The GPU check on a machine with a CUDA torch but no Jupyter stack (and no network): these wheels, for
# CPython 3.12 on x86-64 Linux, with what they need, at the versions requirements.txt pins.
GPU_WHEEL_PINS := $(shell grep -E '^(nbclient|nbformat|ipykernel|ipywidgets|nvitop|nbval)==' requirements.txt)
GPU_PLATFORMS  := $(foreach p,manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64,--platform $(p))
gpu-wheels:
	rm -rf .whl && mkdir -p .whl
	python3 -m pip download --quiet --only-binary=:all: --python-version 3.12 --implementation cp \
	    $(GPU_PLATFORMS) -d .whl $(GPU_WHEEL_PINS)
	@echo "gpu-wheels: $$(ls .whl | wc -l) wheels, $$(du -sh .whl | cut -f1) in .whl/ (carried to the GPU machine)"

clean:
	rm -rf build results/*.tmp .pytest_cache
