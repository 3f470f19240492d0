#!/usr/bin/env bash
# The GPU run, on the device machine, from files built here: every q test script, the CUDA
# checks of tests/q/gpu/, the docs' examples with their `q cuda` blocks, and the spirals and
# digits examples with their models on cuda.
# Carry .carry/ with qhost, ktorch.so and digits.q (scripts/gpu-prepare.sh puts them there);
# the machine's own torch 2.11 (+cu130) supplies libtorch and its CUDA libraries.
set -uo pipefail
cd "$(dirname "$0")/.."
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
# the CUDA runtime beside it, for the docs test binary (linked to it directly, see build.rs)
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
Q=.carry/qhost
status=0
run() { # name, command..: print the last line, remember a failure
  local out; out=$("${@:2}" 2>&1); local rc=$?
  echo "$1 (exit $rc): $(echo "$out" | tail -n "${TAIL:-1}")"
  [ $rc -eq 0 ] || { status=1; echo "$out" | tail -20; }
}
for s in tests/q/ktorch_*.q tests/q/gpu/*.q; do
  QHOST_LEAKCHECK=1 run "$s" $Q "$s"
done
# the docs' examples, `q cuda` blocks included (the test binary reads docs/ from this checkout)
KTORCH_DOCS_CUDA=1 TAIL=3 run docs-cuda .carry/deps/docs --test-threads 1
TAIL=3 run spirals-cuda $Q examples/spirals.q 200 0 cuda
TAIL=2 run digits-cuda $Q examples/digits.q .carry/digits.q 30 0 cuda
exit $status
