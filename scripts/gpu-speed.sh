#!/usr/bin/env bash
# Issue 21 on the GPU machine, from a carried folder DIR that scripts/gpu-prepare.sh DIR filled:
# the CUDA speed checks (ktorch_cuda_speed.q), the other tests/q/gpu scripts, and the GPT
# benchmark (gpt.py: ktorch's qhost beside PyTorch eager) with its loss tracking. Run from the
# checkout's root: `bash DIR/gpu-speed.sh DIR [gpt.py options]`. Writes logs into $OUT when set.
set -uo pipefail
D=${1:-.carry}; shift || true
export LD_LIBRARY_PATH="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
status=0
for s in "$D/ktorch_cuda_speed.q" tests/q/gpu/*.q; do
  out=$(QHOST_LEAKCHECK=1 "$D/qhost" "$s" 2>&1); rc=$?
  echo "$s (exit $rc): $(echo "$out" | tail -1)"
  [ $rc -eq 0 ] || { status=1; echo "$out" | tail -20; }
done
# gpt.py runs gpt.q from its own folder
PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 python3 "$D/gpt.py" --qhost "$D/qhost" "$@" 2>&1 | grep -v -i "numpy" | tee ${OUT:+$OUT/gpt.log}
exit $status
