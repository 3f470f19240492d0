#!/usr/bin/env bash
# Issue 34: sharded optimizer state (`distmodel` option `shard`, ZeRO as PyTorch's
# ZeroRedundancyOptimizer) beside unsharded, on the GPT of char.q (bench/dist/gpt_dist.q: 25.3M
# parameters, AdamW, char.q's step: nograd, backward, clip 1, step), one rank per GPU over NCCL,
# a global batch of ROWS sequences split over the ranks, dropout off. For each number of GPUs it
# runs the same steps from the same start unsharded, sharded, and sharded with the gradients
# reduce-scattered as bfloat16 (`compress`bf16`), and prints:
#   - the losses side by side (every step's, all ranks' mean) and their largest difference from
#     the unsharded run's (sharded: float tolerance; bf16: the compression's effect);
#   - whether every rank ends with the same parameters, and the largest difference across ranks;
#   - each rank's optimizer state (`bytes` of the model's optimizer: AdamW's two moments, 8 bytes
#     a parameter, and its step counts) and its share of the unsharded state (about 1/N), with the
#     GPU memory the caching allocator holds for tensors after the steps and at its peak;
#   - it/s over the timed steps (after WARMUP steps).
# Usage, from the checkout's root (the device machine's torch on the path):
#   bash scripts/gpu-dist-zero.sh [QHOST] ["2 4"] [STEPS] [WARMUP] [cuda|cpu]
# cpu: the same on this machine's CPU with Gloo at small sizes (SMALL=1 in gpt_dist.q), as many
# ranks as asked (a smoke test of the script: its times mean nothing). Defaults: target/release/
# qhost, "2 4", 20, 5, cuda; ROWS=200 (a multiple of every N), PRECISION=fp32 (or bf16: autocast).
set -u
Q=${1:-target/release/qhost}; GPUS=${2:-"2 4"}; K=${3:-20}; WU=${4:-5}; DEV=${5:-cuda}
ROWS=${ROWS:-200}; PREC=${PRECISION:-fp32}
TEXT=examples/ktorch/gpt/data/shakespeare.txt
tl=$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))' 2>/dev/null) && export LD_LIBRARY_PATH="$tl/lib:${LD_LIBRARY_PATH:-}"
export OMP_NUM_THREADS=1 KTORCH_Q=$Q
case $DEV in
  cuda) nvidia-smi --query-gpu=name --format=csv,noheader | head -1 ;;
  cpu) export SMALL=1; echo "CPU, Gloo, small sizes (a smoke test)" ;;
  *) echo "gpu-dist-zero: device cuda or cpu, given $DEV" >&2; exit 2 ;;
esac
res=$(mktemp); port=$((29900 + RANDOM % 500)); rc=0
for n in $GPUS; do
  for opts in "" "shard" "shard bf16"; do
    port=$((port + 10))
    out=$(DISTOPTS="$opts" bash scripts/dist-launch.sh -n "$n" -p $port bench/dist/gpt_dist.q "$PREC" "$ROWS" "$K" "$WU" $TEXT 2>&1)
    if ! grep -q "^\[rank 0\] mem " <<< "$out"; then
      echo "run of $n ranks, options '${opts:-none}' failed:"; tail -8 <<< "$out"; rc=1; continue
    fi
    key=${opts:-unsharded}; key=${key// /+}
    grep -E "^\[rank 0\] (dist|mem|pdiff) " <<< "$out" | sed "s/^\[rank 0\] /$key /" >> "$res"
  done
done
python3 - "$res" "$K" "$WU" <<'PY'
import sys
K, WU = int(sys.argv[2]), int(sys.argv[3])
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    key, what, n = f[0], f[1], int(f[2])
    r = runs.setdefault((n, key), {})
    if what == "pdiff":
        r["pdiff"] = float(f[3])
    elif what == "dist":
        r["secs"], r["same"], r["L"] = float(f[5]), f[6], [float(x) for x in f[7:]]
    else:  # mem: for each rank, state bytes, allocated and peak allocated bytes
        v = [int(float(x)) for x in f[3:]]
        r["mem"] = [v[i:i + 3] for i in range(0, len(v), 3)]
MiB = 1 << 20
for n in sorted({n for n, _ in runs}):
    base = runs.get((n, "unsharded"))
    print(f"\n== {n} ranks: {K} timed steps after {WU} warm-up steps")
    keys = [k for k in ("unsharded", "shard", "shard+bf16") if (n, k) in runs]
    print("step  " + "  ".join(f"{k:>12}" for k in keys))
    L = [runs[(n, k)]["L"] for k in keys]
    for i in range(len(L[0])):
        if i < 3 or i >= len(L[0]) - 3:
            print(f"{i:4}  " + "  ".join(f"{l[i]:12.7f}" for l in L))
        elif i == 3:
            print("  ..")
    for k in keys:
        r = runs[(n, k)]
        dl = max(abs(a - b) for a, b in zip(r["L"], base["L"])) if base else float("nan")
        state = [m[0] for m in r["mem"]]
        full = base["mem"][0][0] if base else 0
        share = f"; of the unsharded state: {' '.join(f'{s / full:.3f}' for s in state)} (1/N = {1 / n:.3f})" if full else ""
        print(f"{k:>12}: {K / r['secs']:.2f} it/s; largest loss difference from unsharded {dl:.3g}; "
              f"parameters identical on every rank: {'yes' if r['same'] == '1' else 'NO'} "
              f"(largest difference across ranks {r['pdiff']:.3g})")
        print(f"{'':>12}  optimizer state MiB per rank: {' '.join(f'{s / MiB:.1f}' for s in state)}{share}")
        if any(m[2] for m in r["mem"]):
            print(f"{'':>12}  GPU MiB per rank, allocated after / peak: "
                  + "  ".join(f"{m[1] / MiB:.0f}/{m[2] / MiB:.0f}" for m in r["mem"]))
PY
rm -f "$res"
exit $rc
