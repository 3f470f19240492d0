#!/usr/bin/env bash
# `make conformance`: replays every q) input of the C++ ktorch documentation (shared/conformance/
# ktorch-docs, beside the clone; KTORCH_SHARED overrides where shared/ is) on the release build,
# prints the replay's summary, writes the failures by cause to target/conformance/report.md and
# fails when the number of matching inputs is below the floor kept in
# tests/data/conformance_floor.txt (raise it when a fix makes more match; never lower it to pass).
# docs/conformance.md explains every remaining failure.
set -euo pipefail
root=$(git rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/.." && pwd))
shared=${KTORCH_SHARED:-$root/../shared}
run="$shared/conformance/ktorch-docs/run.sh"
if [[ ! -x $run ]]; then
    echo "conformance: $run not found: shared/ must sit beside the clone, or set KTORCH_SHARED" >&2
    exit 2
fi
out="$root/target/conformance"
rm -rf "$out" && mkdir -p "$out"
OUT="$out" "$run" "$root/target/release" | tee "$out/summary.txt"
python3 "$shared/conformance/ktorch-docs/report.py" "$out/results.json" > "$out/report.md"
# the failures by cause, as docs/conformance.md lists them; a failure no cause explains is named
if ! python3 "$root/scripts/conformance-causes.py" "$out/results.json" > "$out/causes.md"; then
    echo "conformance: failures no cause in scripts/conformance-causes.py explains: see $out/causes.md" >&2
fi
sed -n '3,/^$/p' "$out/causes.md" | sed -n '/^|/p' 
floor=$(grep -v '^#' "$root/tests/data/conformance_floor.txt" | head -1)
read -r passed failed < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out/summary.txt")
pct=$(python3 -c "print(f'{100*$passed/($passed+$failed):.1f}')")
echo "conformance: $passed of $((passed+failed)) checkable inputs match ($pct%), floor $floor; failures by cause: $out/causes.md, by the replay's classes: $out/report.md"
if (( passed < floor )); then
    echo "conformance: FAIL: $passed matches, below the floor of $floor" >&2
    exit 1
fi
