#!/usr/bin/env bash
# Start N q processes (qhost, or kdb+'s q) on this host, one per rank of a data-parallel job
# (docs/dist.md), as torchrun does for Python: each gets RANK, LOCAL_RANK, WORLD_SIZE,
# MASTER_ADDR and MASTER_PORT in its environment, which `distinit`gloo` or `distinit`nccl` reads.
# For several hosts, run it on each with the same address and port, the number of hosts and this
# host's index: ranks are host index * N + local rank.
#
#   scripts/dist-launch.sh [-n N] [-a ADDR] [-p PORT] [-H HOSTS -i INDEX] [-r RESTARTS] [-q QBIN] script.q [args..]
#
#   -n  processes on this host (default 2)
#   -a  rendezvous address: the host of rank 0 (default 127.0.0.1)
#   -p  rendezvous port (default 29500)
#   -H  number of hosts (default 1), -i this host's index, 0 to H-1 (default 0)
#   -r  restarts: after a failure, start every rank of this host again, up to RESTARTS times
#       (torchrun's --max-restarts; default 0). Start k (0 the first) gives each rank
#       KTORCH_RESTART=k, so that the script can resume from what it saved, and the rendezvous
#       port PORT+k: the ranks of every host meet again in a fresh store (a host whose own ranks
#       did not fail restarts too: theirs fail at their next collective, within its timeout).
#   -q  the q binary (default: $KTORCH_Q, else target/release/qhost of this checkout, else q)
#
# Each line a rank prints comes out prefixed "[rank r] ". The launcher waits for every rank and
# exits with the first failing rank's status; when one fails it ends the others (they would
# otherwise fail at their next collective, after the timeout).
set -u
n=2 addr=127.0.0.1 port=29500 hosts=1 index=0 restarts=0
here=$(cd "$(dirname "$0")/.." && pwd)
qbin=${KTORCH_Q:-}
if [ -z "$qbin" ]; then
  if [ -x "$here/target/release/qhost" ]; then qbin=$here/target/release/qhost; else qbin=q; fi
fi
usage() { sed -n 8,8p "$0" | sed 's/^#  *//' >&2; exit 2; }
while getopts "n:a:p:H:i:r:q:h" o; do
  case $o in
    n) n=$OPTARG ;; a) addr=$OPTARG ;; p) port=$OPTARG ;; H) hosts=$OPTARG ;;
    i) index=$OPTARG ;; r) restarts=$OPTARG ;; q) qbin=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
for v in "$n" "$port" "$hosts" "$index" "$restarts"; do
  case $v in '' | *[!0-9]*) echo "dist-launch: $v is not a whole number" >&2; exit 2 ;; esac
done
[ "$n" -ge 1 ] && [ "$hosts" -ge 1 ] && [ "$index" -lt "$hosts" ] || { echo "dist-launch: need N>=1, HOSTS>=1, 0<=INDEX<HOSTS" >&2; exit 2; }

world=$((n * hosts))

# One start of every rank of this host; its status is the first failing rank's (0: all ended well).
start() {
  local attempt=$1 pids=() status=0 left rc p r l
  shift
  for ((l = 0; l < n; l++)); do
    r=$((index * n + l))
    RANK=$r LOCAL_RANK=$l WORLD_SIZE=$world MASTER_ADDR=$addr MASTER_PORT=$((port + attempt)) \
      KTORCH_RESTART=$attempt "$qbin" "$@" > >(sed -u "s/^/[rank $r] /") 2>&1 &
    pids+=($!)
  done
  # Wait for all; on the first failure end the others (by their own process ids).
  left=${#pids[@]}
  while [ "$left" -gt 0 ]; do
    wait -n "${pids[@]}" 2>/dev/null
    rc=$?
    left=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
    if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then
      status=$rc
      for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && kill "$p" 2>/dev/null; done
    fi
  done
  wait
  return $status
}

for ((attempt = 0; ; attempt++)); do
  start "$attempt" "$@"
  status=$?
  [ "$status" -eq 0 ] && exit 0
  if [ "$attempt" -ge "$restarts" ]; then
    [ "$restarts" -gt 0 ] && echo "dist-launch: a rank failed (exit $status) after $restarts restart(s): giving up" >&2
    exit $status
  fi
  echo "dist-launch: a rank failed (exit $status): restart $((attempt + 1)) of $restarts" >&2
done
