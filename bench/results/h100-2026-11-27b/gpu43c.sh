#!/usr/bin/env bash
# session 43: CUDA class indices of multimargin, multilabel and onehot checked; every CUDA script
cd "$(dirname "$0")/.."
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
.carry/qhost tests/q/gpu/ktorch_cuda_faults.q 2>&1 | grep -v "^ktorch info" | tail -25
for s in tests/q/gpu/*.q; do QHOST_LEAKCHECK=1 .carry/qhost $s 2>&1 | tail -1; done
