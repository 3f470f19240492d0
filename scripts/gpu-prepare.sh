#!/usr/bin/env bash
# Put what scripts/gpu-run.sh needs into .carry/ (ignored by git, carried to the device machine):
# the release qhost and ktorch.so, the benchmark binary (scripts/gpu-bench.sh), the fuzzer
# (scripts/gpu-fuzz.sh), the digits data,
# and the docs test's binary in .carry/deps/ (it finds qhost and ktorch.so one folder up, as in
# target/release) to run the docs' `q cuda` examples there.
set -euo pipefail
cd "$(dirname "$0")/.."
make bench-build fuzz-build >/dev/null
mkdir -p .carry
cp -f target/release/qhost target/release/ktorch.so target/release/ktorch-bench target/release/ktorch-fuzz .carry/
cp -f "$(scripts/digits.sh)" .carry/digits.q
docs=$(cargo test --release -p ktorch --test docs --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m.get("target",{}).get("name")=="docs" and m.get("executable"): print(m["executable"])')
mkdir -p .carry/deps
cp -f "$docs" .carry/deps/docs
ls -la .carry
