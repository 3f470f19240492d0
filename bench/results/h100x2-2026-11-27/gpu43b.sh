#!/usr/bin/env bash
# session 43: a read of a CUDA value after a data-parallel peer died (tests/dist/gpu_kill_read.q)
# with this build, then the killed-rank run of session 40 (gpu_kill.q), then the read with the
# build before the change (.carry/old), bounded by `timeout`: it waited without end
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== read after the peer died, this build"
SCRIPT=tests/dist/gpu_kill_read.q timeout 120 bash scripts/gpu-dist-kill.sh .carry/qhost 20
echo "== gpu_kill.q, this build"
timeout 120 bash scripts/gpu-dist-kill.sh .carry/qhost 20
echo "== read after the peer died, the build before (killed after 75 s)"
s=$(date +%s); SCRIPT=tests/dist/gpu_kill_read.q timeout -s KILL 75 bash scripts/gpu-dist-kill.sh .carry/old/qhost 20; echo "exit $? after $(( $(date +%s) - s )) s"
pkill -9 -f "old/qhost" ; true
