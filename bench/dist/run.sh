#!/usr/bin/env bash
# Issue 34 on a machine of several GPUs: the GPT of char.q trained data-parallel by ktorch
# (bench/dist/gpt_dist.q: distmodel, launched by scripts/dist-launch.sh) beside PyTorch DDP at its
# best (bench/dist/gpt_ddp.py under torchrun), on 1..N GPUs, fp32 and bf16, strong scaling (a
# global batch of 200 rows split over the GPUs) and weak scaling (200 rows a GPU). Prints every
# run, then a table: it/s, tokens/s, scaling against the same side's one GPU, the losses of the
# strong runs against one GPU's (the same global batches: equal within float tolerance), whether
# every rank ends with the same parameters; and the targets as PASS/FAIL lines.
#   bash bench/dist/run.sh QHOST "1 2 4" [STEPS] [WARMUP] [ROUNDS]   (from the checkout's root)
# ROUNDS (default 1) repeats every run, rounds interleaved, and the table takes each run's median
# time: one machine's runs move by several percent between calls, more than the sides differ.
# PROFILE=DIR: each run also profiles 5 more steps on rank 0 (gpt_dist.q's KTORCH_PROFILE,
# gpt_ddp.py's PROFILE) into DIR/{ktorch,ddp}-PREC-N-MODE.tsv, and after the runs prints, for each
# pair, bench/gpt/profile_compare.py (kernel by kernel, a step) and profile_gaps.py (the GPU's
# idle time) for both sides: where ktorch's data-parallel step differs from DDP's.
set -u
Q=$1; GPUS=${2:-"1 2"}; K=${3:-20}; WU=${4:-5}; ROUNDS=${5:-1}
TEXT=examples/ktorch/gpt/data/shakespeare.txt
export LD_LIBRARY_PATH="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 KTORCH_Q=$Q
res=$(mktemp); port=29800
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for round in $(seq "$ROUNDS"); do
for prec in ${PRECS:-fp32 bf16}; do
  for n in $GPUS; do
    for mode in strong weak; do
      [ "$n" = 1 ] && [ "$mode" = weak ] && continue
      rows=200; [ "$mode" = weak ] && rows=$((200 * n))
      port=$((port + 10))
      hk=0; hd=0; case "${HIGH:-}" in both) hk=1; hd=1 ;; dist) hk=1 ;; ddp) hd=1 ;; esac
      pk=; pd=
      if [ -n "${PROFILE:-}" ]; then mkdir -p "$PROFILE"; pk="$PROFILE/ktorch-$prec-$n-$mode.tsv"; pd="$PROFILE/ddp-$prec-$n-$mode.tsv"; fi
      k=$(KTORCH_PROFILE=$pk TORCH_NCCL_HIGH_PRIORITY=$hk bash scripts/dist-launch.sh -n "$n" -p $port bench/dist/gpt_dist.q $prec $rows $K $WU $TEXT 2>&1 | grep "^\[rank 0\] dist " | sed 's/^\[rank 0\] //')
      echo "$mode $k" | tee -a "$res" | cut -c1-100
      d=$(PROFILE=$pd TORCH_NCCL_HIGH_PRIORITY=$hd torchrun --standalone --nproc_per_node "$n" bench/dist/gpt_ddp.py $prec $rows $K $WU $TEXT 2>/dev/null | grep "^ddp ")
      echo "$mode $d" | tee -a "$res" | cut -c1-100
    done
  done
done
done
python3 - "$res" "$K" <<'PY'
import statistics
import sys
K = int(sys.argv[2])
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 7:
        continue
    mode, side, n, prec, rows, secs, same = f[0], f[1], int(f[2]), f[3], int(f[4]), float(f[5]), f[6]
    r = runs.setdefault((side, prec, n, mode), dict(rows=rows, all=[], same="1", L=[float(x) for x in f[7:]]))
    r["all"].append(secs)
    r["same"] = same if same != "1" else r["same"]
for r in runs.values():
    r["secs"] = statistics.median(r["all"])
print(f"rounds: {max(len(r['all']) for r in runs.values())} (each run's median time)")
side_name = {"dist": "ktorch distmodel", "ddp": "PyTorch DDP"}
print()
print("| side | precision | GPUs | scaling | rows/GPU | it/s | tokens/s | vs 1 GPU (tokens/s) | step vs 1 GPU | max abs loss diff vs 1 GPU | same parameters |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
scal = {}
for (side, prec, n, mode), r in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][3], kv[0][2])):
    one = runs.get((side, prec, 1, "strong"))
    it = K / r["secs"]
    tok = r["rows"] * 128 * K / r["secs"]
    s = tok / (one["rows"] * 128 * K / one["secs"]) if one else float("nan")
    step = (r["secs"] / one["secs"]) if one else float("nan")
    dl = max(abs(a - b) for a, b in zip(r["L"], one["L"])) if one and mode == "strong" and n > 1 else None
    scal[(side, prec, n, mode)] = (s, step)
    print(f"| {side_name[side]} | {prec} | {n} | {mode} | {r['rows'] // n} | {it:.2f} | {tok:,.0f} | {s:.2f}x | {step:.2f}x | {'' if dl is None else f'{dl:.2e}'} | {r['same']} |")
print()
for (side, prec, n, mode), (s, step) in sorted(scal.items()):
    if side != "dist" or n == 1 or mode != "weak":
        continue
    want = {2: 1.9, 4: 3.7}.get(n, 0.95 * n)
    print(f"{'PASS' if s >= want else 'FAIL'} ktorch {prec} weak scaling on {n} GPUs: {s:.2f}x the tokens/s of one GPU (target >= {want}x)")
    print(f"{'PASS' if step <= 1.1 else 'FAIL'} ktorch {prec} step on {n} GPUs at 200 rows a GPU: {step:.2f}x one GPU's (target <= 1.1x)")
    p = scal.get(("ddp", prec, n, mode))
    if p:
        print(f"{'PASS' if s >= p[0] else 'FAIL'} ktorch {prec} weak scaling on {n} GPUs {s:.2f}x vs PyTorch DDP's {p[0]:.2f}x")
    ps = scal.get(("ddp", prec, n, "strong")); ks = scal.get(("dist", prec, n, "strong"))
    if ps and ks:
        print(f"{'PASS' if ks[0] >= ps[0] else 'FAIL'} ktorch {prec} strong scaling on {n} GPUs {ks[0]:.2f}x vs PyTorch DDP's {ps[0]:.2f}x")
PY
rm -f "$res"
if [ -n "${PROFILE:-}" ]; then
  for f in "$PROFILE"/ktorch-*.tsv; do
    [ -f "$f" ] || continue
    g="$PROFILE/ddp-${f##*/ktorch-}"
    echo; echo "== ${f##*/} against ${g##*/}: 5 steps on rank 0, a step =="
    python3 bench/gpt/profile_compare.py "$f" "$g" 5
    for h in "$f" "$g"; do
      echo; echo "== ${h##*/}: the GPU's idle time =="
      python3 bench/gpt/profile_gaps.py "$h.events" 5
    done
  done
fi
