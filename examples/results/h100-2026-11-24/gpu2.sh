#!/bin/bash
# examples3's third GPU call: time/nbeats.q's test loss after its first 100 epochs. Three runs of
# the unmodified script side by side, then three of time/ex3_diag.q (the script's model and data,
# the loss of single epochs printed), side by side. Logs under $OUT.
C=$(cd "$(dirname "$0")" && pwd)
torch_lib="$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib"
export LD_LIBRARY_PATH="$torch_lib:$torch_lib/../../nvidia/cu13/lib:${LD_LIBRARY_PATH:-}"
mkdir -p /tmp/qh/l64 && cp "$C/ktorch.so" /tmp/qh/l64/ && export QHOME=/tmp/qh
rm -rf /tmp/ex; cp -r "$C/ktorch" /tmp/ex; cd /tmp/ex
for i in 1 2 3; do (timeout 200 "$C/qhost" time/nbeats.q </dev/null > $OUT/nbeats_$i.log 2>&1; echo "nbeats run $i: exit $?" >> $OUT/summary.txt) & done; wait
for i in 1 2 3; do (timeout 150 "$C/qhost" time/ex3_diag.q </dev/null > $OUT/diag_$i.log 2>&1; echo "diag run $i: exit $?" >> $OUT/summary.txt) & done; wait
cat $OUT/summary.txt; head -3 $OUT/nbeats_*.log; cat $OUT/diag_*.log
