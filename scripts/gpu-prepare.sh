#!/usr/bin/env bash
# Put what scripts/gpu-run.sh needs into .carry/ (ignored by git, carried to the device machine):
# the release qhost and ktorch.so, the benchmark binary (scripts/gpu-bench.sh), and the digits data.
set -euo pipefail
cd "$(dirname "$0")/.."
make bench-build >/dev/null
mkdir -p .carry
cp -f target/release/qhost target/release/ktorch.so target/release/ktorch-bench .carry/
cp -f "$(scripts/digits.sh)" .carry/digits.q
ls -la .carry
