# ktorch: build, test, run the example, benchmark. Every target first makes sure the libtorch
# virtualenv (PyPI torch==2.11.0, kept in ~/.cache/ktorch) exists.
SHELL := /bin/bash
VENV := $(shell scripts/torch-venv.sh)
ifeq ($(VENV),)
$(error libtorch set-up failed: see the messages above)
endif
export VIRTUAL_ENV := $(VENV)
export LIBTORCH_USE_PYTORCH := 1
export PATH := $(VENV)/bin:$(PATH)

RELEASE := target/release

.PHONY: build test conformance kx-libe soak example example-digits examples bench bench-build fuzz fuzz-build install clean example-pymodels bench-gpt

# q's `2:` looks for ktorch.so; cargo names the cdylib libktorch.so. The copy is renamed into
# place: a q process (or fuzz run) that has the old one mapped keeps it, where cp over it would
# truncate the mapped file (SIGBUS in that process).
build:
	cargo build --release -p ktorch -p qhost -p testext
	cp $(RELEASE)/libktorch.so $(RELEASE)/ktorch.so.new && mv -f $(RELEASE)/ktorch.so.new $(RELEASE)/ktorch.so

# Release profile for tests too: one build of tch's C++ wrapper serves build, test and example.
test: build
	cargo test --release --workspace --no-fail-fast

# ktorch's documentation replayed (every q) input of its .rst pages, from shared/ beside the
# clone or $KTORCH_SHARED): fails when fewer inputs match than tests/data/conformance_floor.txt
# says; the failures by cause land in target/conformance/report.md. About a minute.
conformance: build
	scripts/conformance.sh

# ktorch.so on KX's own k.h library (libe.so of PyPI's pykx wheel, pinned in the script, used
# unlicensed: no q evaluation) beside qhost: the calls of tests/kx/calls.q must give the same bytes
# on both, reference counts balanced, memory flat (docs/kdb.md). A few seconds.
kx-libe: build
	scripts/kx-libe.sh $(RELEASE)

# The soak alone, with its measures (a million tensor cycles, module and model cycles, resident
# memory before and after): tests/soak.rs.
soak: build
	cargo test --release -p ktorch --test soak -- --nocapture

example: build
	$(RELEASE)/qhost examples/spirals.q

# The digits CNN (scikit-learn's 8x8 digits, exported by scripts/digits.sh).
example-digits: build
	$(RELEASE)/qhost examples/digits.q $$(scripts/digits.sh)

# ktorch's example scripts (examples/ktorch, from github.com/ktorch/examples) unmodified on
# qhost, CPU, each for at most EXAMPLE_SECONDS (30) seconds: see scripts/examples.sh.
examples: build
	scripts/examples.sh $(RELEASE)
	cargo test --release -p qhost --test ktorch_examples -- --ignored --nocapture

# Models between PyTorch and q (examples/pymodels, docs/pymodels.md): PyTorch trains a scorer, q
# loads it, scores a table and trains a model of its own, which PyTorch then loads and runs.
PYMODELS_DIR ?= /tmp/ktorch-pymodels
example-pymodels: build
	mkdir -p $(PYMODELS_DIR)
	$(VENV)/bin/python examples/pymodels/train_scorer.py $(PYMODELS_DIR)
	$(RELEASE)/qhost examples/pymodels/score.q $(PYMODELS_DIR)
	$(VENV)/bin/python examples/pymodels/run_q_model.py $(PYMODELS_DIR)

# Prints one table (conversion vs memcpy, add overhead and training throughput vs tch / PyTorch /
# the qhost interpreter) and PASS/FAIL target lines; see docs/performance.md. About 75 seconds.
# Where a CUDA GPU is found (nvidia-smi), the GPU section follows: bench-gpt.
bench: bench-build
	$(RELEASE)/ktorch-bench $$(nvidia-smi -L >/dev/null 2>&1 && echo --device cuda)
	bench/tick/history.sh $(RELEASE)
	@if nvidia-smi -L >/dev/null 2>&1; then $(MAKE) --no-print-directory bench-gpt; else echo "no CUDA GPU: the GPU section (make bench-gpt) not run"; fi

# The GPU section (issue 21): the GPT of ktorch/examples gpt/char.q on qhost beside PyTorch eager
# (fp32, TF32, bf16 autocast + SDPA + fused AdamW, fp16 + GradScaler), then the wide ResNet
# (bench/cnn/resnet.py: fp32, TF32, bf16 and fp16 channels-last), with PASS/FAIL lines; needs a
# CUDA GPU. About ten minutes. On the device machine: scripts/gpu-prepare.sh DIR here, then
# `bash DIR/gpu-speed.sh DIR all` there (or one part: tests, gpt, resnet, charq).
bench-gpt: build
	$(VENV)/bin/python bench/gpt/gpt.py --qhost $(RELEASE)/qhost --text examples/ktorch/gpt/data/shakespeare.txt $(GPT_ARGS)
	$(VENV)/bin/python bench/cnn/resnet.py --qhost $(RELEASE)/qhost --batch 512 --images 10240 $(RESNET_ARGS)

bench-build: build
	cargo build --release -p ktorch-bench

# Every function of the fns table called with generated arguments (2000 calls each, in child
# processes): crashes, hangs and leaks fail it; see fuzz/src/main.rs. A few minutes on 2 cores.
# FUZZ_ARGS passes more, e.g. `make fuzz FUZZ_ARGS="--seed 7 --only tensor,cat"`.
fuzz: fuzz-build
	$(RELEASE)/ktorch-fuzz --calls 2000 $(FUZZ_ARGS)

fuzz-build: build
	cargo build --release -p ktorch-fuzz

# ktorch.so into $(QHOME)/l64 and the loader q/ktorch.q into $(QHOME) (default ~/q), the library's
# run path set to a torch 2.11 lib folder (KTORCH_TORCH_LIB, else this virtualenv's) so that q
# loads it with no LD_LIBRARY_PATH: scripts/install.sh.
QHOME ?= $(HOME)/q
install: build
	scripts/install.sh "$(QHOME)"

clean:
	cargo clean
