#!/usr/bin/env bash
# How the CUDA check of issue 23 ran: copy target/release/qhost and ktorch.so,
# tests/py/pymodels_cuda_refs.py (as cuda_refs.py) and tests/pymodels/cuda.q into .carry/pymodels/
# of the checkout the device tool sends, then run `bash .carry/pymodels/cuda_check.sh` there
# (this file, copied as cuda_check.sh). Result on an H100 (2026-11-24): every check ok, TorchScript
# outputs bit-equal to PyTorch on CUDA, AOTInductor CUDA package within 6e-8.
# On the device machine: PyTorch on CUDA makes the references, ktorch (qhost) checks against them.
set -uo pipefail
C=.carry/pymodels  # qhost, ktorch.so, tests/py/pymodels_cuda_refs.py as cuda_refs.py, tests/pymodels/cuda.q
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi -L
D=/tmp/pym; mkdir -p $D
timeout 200 python3 $C/cuda_refs.py $D 2>&1 | grep -v Warning | tail -5
cd $C && timeout 120 ./qhost cuda.q $D 2>&1 | tail -30
