#!/usr/bin/env bash
# Issue 21 on the GPU machine, from a carried folder DIR that scripts/gpu-prepare.sh DIR filled.
# Run from the checkout's root: `bash DIR/gpu-speed.sh DIR PART [options]`, PART one of
#   tests   the CUDA speed and mixed-precision checks (ktorch_cuda_speed.q, ktorch_cuda_amp.q
#           from DIR) and the other tests/q/gpu scripts;
#   gpt     the GPT benchmark (gpt.py: ktorch's qhost beside PyTorch eager; options go to it,
#           e.g. --rounds 2 --track 150 --text examples/ktorch/gpt/data/shakespeare.txt);
#   resnet  the wide ResNet benchmark (resnet.py; options go to it);
#   charq   examples/ktorch/gpt/char.q unmodified for SECONDS (default 60), then with one added
#           line turning the precision settings on (TF32, bf16 autocast), its own iter/sec;
#   all     tests, gpt, resnet, charq (no options).
# Writes logs into $OUT when set.
set -uo pipefail
D=${1:-.carry}; P=${2:-all}; shift 2 || true
export LD_LIBRARY_PATH="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
log() { tee -a ${OUT:+$OUT/$1.log}; }
status=0
tests() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
  for s in "$D/ktorch_cuda_speed.q" "$D/ktorch_cuda_amp.q" tests/q/gpu/*.q; do
    case $s in tests/q/gpu/ktorch_cuda_speed.q|tests/q/gpu/ktorch_cuda_amp.q) continue;; esac
    out=$(QHOST_LEAKCHECK=1 "$D/qhost" "$s" 2>&1); rc=$?
    echo "$s (exit $rc): $(echo "$out" | tail -1)"
    echo "$out" | grep -i "tracks\|max |diff|\|skipped" | head -8
    [ $rc -eq 0 ] || { status=1; echo "$out" | tail -20; }
  done
}
gpt() { python3 "$D/gpt.py" --qhost "$D/qhost" "$@" 2>&1 | grep -v -i "numpy"; }
resnet() { python3 "$D/resnet.py" --qhost "$D/qhost" "$@" 2>&1 | grep -v -i "numpy"; }
# char.q's msg writes its line to stderr, ending "\r" until an epoch's last iteration
charq() {
  local secs=${1:-60} g=examples/ktorch/gpt
  sed '1a setting`tf32,1b; setting`autocast,`bf16  / the one added line: TF32 and bf16 autocast' $g/char.q > $g/char_bf16.q
  for f in char char_bf16; do
    timeout "$secs" "$D/qhost" $g/$f.q > /tmp/$f.out 2>&1
    echo "$f.q (${secs}s): $(tr '\r' '\n' < /tmp/$f.out | grep 'iter/sec' | tail -1)"
    tr '\r' '\n' < /tmp/$f.out | grep -v 'iter/sec' | grep -v '^$' | tail -3
  done
  rm -f $g/char_bf16.q
}
case $P in
  tests) tests 2>&1 | log tests ;;
  gpt) gpt "$@" | log gpt ;;
  resnet) resnet "$@" | log resnet ;;
  charq) charq "$@" | log charq ;;
  all) { tests; gpt --rounds 2 --text examples/ktorch/gpt/data/shakespeare.txt; resnet --batch 512 --images 10240; charq; } 2>&1 | log all ;;
esac
exit $status
