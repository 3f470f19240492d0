#!/bin/bash
# examples3's GPU run: ktorch/examples scripts UNMODIFIED on qhost with CUDA, plus the docs replay
# with CUDA. Everything lives in .carry/examples3 (qhost, ktorch.so from branch examples3's
# release build, the vendored scripts with the MNIST subset of scripts/mnist.sh, docs-replay/).
# Usage: bash gpu.sh smoke | bash gpu.sh full  (WALL=seconds for full, ALONE=seconds char.q runs alone)
set -u
C=$(cd "$(dirname "$0")" && pwd)
MODE=${1:-full}
T0=$(date +%s); END=$((T0 + ${WALL:-540}))
left() { echo $(( END - $(date +%s) )); }
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
mkdir -p /tmp/qh/l64 && cp "$C/ktorch.so" /tmp/qh/l64/ && export QHOME=/tmp/qh
Q="$C/qhost"
L=/tmp/logs; mkdir -p $L
{ nvidia-smi -L; python3 -c 'import torch;print(torch.__version__, torch.cuda.is_available())'; nproc; } > $L/device.txt 2>&1
rm -rf /tmp/ex; cp -r "$C/ktorch" /tmp/ex; mkdir -p /tmp/ex/mnist/out /tmp/ex/gpt/out
cd /tmp/ex
run1() { # script secs: run with a limit, log name from script
  local f=$1 s=$2 n; n=$(echo "$f" | tr / _)
  local t=$(date +%s)
  (cd /tmp/ex && timeout -k 5 "$s" "$Q" "$f" </dev/null > $L/$n.log 2>&1); local rc=$?
  echo "$f: exit $rc after $(( $(date +%s) - t ))s (started at $(( t - T0 ))s)" >> $L/summary.txt
}
lane() { # script...: each with what is left
  for f in "$@"; do local s; s=$(left); [ $s -gt 5 ] || { echo "$f: no time left" >> $L/summary.txt; continue; }; run1 $f $s; done
}
if [ "$MODE" = smoke ]; then
  cat $L/device.txt
  printf '{key[x]set'"'"'x}(`ktorch 2:`fns,1)[];\nshow device[]\nshow cudadevices()\nshow version()\nt:tensor(1 2 3e;`cuda);show tensor t\n\\\\\n' > /tmp/smoke.q
  "$Q" /tmp/smoke.q 2>&1
  END=$((T0 + ${WALL:-50}))
  lane mnist/conv.q & lane mnist/gan.q & wait
  cat $L/summary.txt; tail -c 1500 $L/mnist_conv.q.log; echo; tail -c 800 $L/mnist_gan.q.log
  cd /tmp && tar czf $OUT/logs.tgz logs; exit 0
fi
# gpt/char.q alone first (its iterations/s undisturbed), kept running beside the rest until the end
( run1 gpt/char.q $(( $(left) - 5 )) ) &
sleep ${ALONE:-60}
echo "others start at $(( $(date +%s) - T0 ))s" >> $L/summary.txt
lane mnist/conv.q mnist/swa.q mnist/simple.q &
lane mnist/cct.q mnist/wsimple.q mnist/lbfgs.q &
lane time/nbeats.q &
lane mnist/gan.q mnist/cgan.q mnist/cgan1.q mnist/lstm.q mnist/linear.q mnist/logit.q &
( cd "$C/docs-replay" && OUT=/tmp/docs DOCS_TIMEOUT=60 timeout -k 5 $(( $(left) - 10 )) ./run.sh "$C" > $L/docs_replay.txt 2>&1; echo "docs replay: exit $? at $(( $(date +%s) - T0 ))s" >> $L/summary.txt
  python3 report.py /tmp/docs/results.json > $L/docs_report.md 2>&1 ) &
wait
cp /tmp/docs/results.json $L/docs_results.json 2>/dev/null
cd /tmp && tar czf $OUT/logs.tgz logs 2>/dev/null
cp $L/summary.txt $L/docs_replay.txt $OUT/ 2>/dev/null
cat $L/summary.txt; tail -3 $L/docs_replay.txt
