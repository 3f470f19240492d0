#!/usr/bin/env bash
# Training from another process's history over q IPC beside the same dates held in memory
# (issue 33: "batches from another q process's handle"), with the trainer's peak memory: two qhost
# processes, bench/tick/hdb.q serving N rows a date for 20 dates, bench/tick/train.q training.
# usage: bench/tick/history.sh [target/release] [N rows a date, 100000] [epochs, 3]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rel=${1:-$root/target/release}
n=${2:-100000}
epochs=${3:-3}
cd "$root"
coproc hdb { exec "$rel/qhost" bench/tick/hdb.q "$n" -p 0W; }
pid=$hdb_PID
read -r port <&"${hdb[0]}"
"$rel/qhost" bench/tick/train.q "$port" "$epochs" || { kill "$pid" 2>/dev/null; exit 1; }
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
