#!/usr/bin/env bash
# The fuzzer on the device machine (scripts/gpu-prepare.sh here, carry .carry/): every function
# of ktorch.so's table with CUDA fixtures (tensors, modules, streams, events, graphs) and the
# docs' `q cuda` blocks among its seeds. CALLS (default 500) and SEED (default 1) pass on;
# JOBS workers (default 12 of the machine's 16 cores).
set -uo pipefail
cd "$(dirname "$0")/.."
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
exec .carry/ktorch-fuzz --cuda --lib .carry/ktorch.so --jobs "${JOBS:-12}" \
  --calls "${CALLS:-500}" --seed "${SEED:-1}" "$@"
