#!/usr/bin/env bash
# Issue 34 on a machine of two GPUs: a rank killed mid-run (tests/dist/gpu_kill.q). Rank 1 is
# SIGKILLed once it has printed "step 5"; rank 0's output shows the q error, how long it took
# against the timeout, and the group started again. Usage (from the checkout's root, the
# device machine's torch on the path): bash scripts/gpu-dist-kill.sh QHOST [TIMEOUT]
# SCRIPT=tests/dist/gpu_kill_read.q: rank 1 kills itself between steps and rank 0 reads a CUDA
# value back (its q error at the timeout, not a read without end); nothing is killed from here.
set -u
Q=${1:-target/release/qhost}; T=${2:-20}
export LD_LIBRARY_PATH="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib:${LD_LIBRARY_PATH:-}"
port=$((29600 + RANDOM % 1000)); d=$(mktemp -d)
for r in 0 1; do
  RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    "$Q" "${SCRIPT:-tests/dist/gpu_kill.q}" "$T" > "$d/r$r.log" 2>&1 &
  eval p$r=$!
done
if [ -z "${SCRIPT:-}" ] || [ "$SCRIPT" = tests/dist/gpu_kill.q ]; then
  for _ in $(seq 600); do grep -q "^step 5$" "$d/r1.log" && break; sleep 0.1; done
  kill -9 "$p1"; echo "killed rank 1 (pid $p1) after: $(grep -c '^step' "$d/r1.log") steps"
else
  wait "$p1"; echo "rank 1 (pid $p1) ended itself (exit $?) after: $(grep -c '^step' "$d/r1.log") steps"
fi
s=$(date +%s); wait "$p0"; rc=$?
echo "rank 0 exit $rc, $(( $(date +%s) - s )) s after the kill; its last lines:"
grep -v "^step" "$d/r0.log" | tail -6
echo "rank 0 steps before the error: $(grep -c '^step' "$d/r0.log")"
exit $rc
