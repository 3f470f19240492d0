#!/usr/bin/env bash
# The benchmark on the GPU machine (issue #8), from files built here: the training benchmarks
# with every side's model and data on cuda (ktorch's `run m`, tch directly, the machine's own
# PyTorch 2.11 through bench/peer.py); the add and conversion cases on that machine's CPU.
# Here: `scripts/gpu-prepare.sh` (it also copies the bench binary). There: `bash scripts/gpu-bench.sh`
# with .carry/ carried (the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
exec .carry/ktorch-bench --lib .carry/ktorch.so --device cuda "$@"
