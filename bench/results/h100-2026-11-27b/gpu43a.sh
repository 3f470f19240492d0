#!/usr/bin/env bash
# session 43: lnres without a fused dropout, parameterless modules on their inputs' device;
# the 1-GPU dist step (dropout off) with lnres on and off; then the whole GPU run
cd "$(dirname "$0")/.."
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
export OMP_NUM_THREADS=1 KTORCH_Q=.carry/qhost
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== lnres"; .carry/qhost tests/q/gpu/ktorch_lnres.q 2>&1 | tail -40
echo "== cuda_nn"; .carry/qhost tests/q/gpu/ktorch_cuda_nn.q 2>&1 | tail -8
echo "== 1-GPU dist step, lnres on / off (xr)"
port=29600
for round in 1 2 3; do for prec in fp32 bf16; do for o in "" " xr"; do
  port=$((port+10))
  r=$(DISTOPTS="noread views first1$o" bash scripts/dist-launch.sh -n 1 -p $port bench/dist/gpt_dist.q $prec 200 20 5 examples/ktorch/gpt/data/shakespeare.txt 2>&1 | grep "^\[rank 0\] dist " | cut -c1-90)
  echo "round $round $prec lnres${o:- on}: $r"
done; done; done
echo "== gpu-run"; bash scripts/gpu-run.sh
