#!/usr/bin/env bash
# `make examples`: ktorch's own example scripts (github.com/ktorch/examples, MIT licence, vendored
# unmodified in examples/ktorch/) run on qhost on the CPU, each for at most EXAMPLE_SECONDS
# (default 30) seconds. A script passes when it ends without an error or is still running at
# the limit (training runs for hours; the limit bounds the check, not the run); it fails when
# qhost stops on an error, whose first lines are shown. MNIST comes from scripts/mnist.sh.
# Usage: scripts/examples.sh <release dir> [script..] (scripts relative to examples/ktorch);
# QHOST=path runs another qhost build.
set -uo pipefail
REL="$(cd "$1" && pwd)"; shift
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECS="${EXAMPLE_SECONDS:-30}"
QH="$REL/examples-qhome"
mkdir -p "$QH/l64" && ln -sf "$REL/ktorch.so" "$QH/l64/ktorch.so"
"$ROOT/scripts/mnist.sh" >/dev/null
cd "$ROOT/examples/ktorch"
if [ $# -eq 0 ]; then
  set -- start/spirals.q start/run.q gpt/math.q gpt/char.q gpt/callback.q rnn/char.q \
    rnn/charsteps.q time/nbeats.q $(ls mnist/*.q | grep -v '^mnist/mnist.q$')
fi
fail=0
for f in "$@"; do
  out="$(mktemp)"
  start=$(date +%s)
  QHOME="$QH" timeout -k 5 "$SECS" "${QHOST:-$REL/qhost}" "$f" </dev/null >"$out" 2>&1
  rc=$?
  t=$(( $(date +%s) - start ))
  case $rc in
    0)   printf '%-22s ok: ran to the end (%ss)\n' "$f" "$t" ;;
    124|137) printf '%-22s ok: still running at the %ss limit\n' "$f" "$SECS" ;;
    *)   printf '%-22s FAIL (exit %s after %ss):\n' "$f" "$rc" "$t"
         grep -n -m1 -A2 "^'" "$out" | sed 's/^/    /' | cut -c1-200
         fail=$((fail + 1)) ;;
  esac
  rm -f "$out"
done
echo "examples: $(( $# - fail )) of $# passed"
[ "$fail" -eq 0 ]
