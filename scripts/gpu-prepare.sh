#!/usr/bin/env bash
# Put what the GPU scripts need into a folder to carry to the device machine (default .carry/,
# ignored by git; `scripts/gpu-prepare.sh DIR` for another, e.g. a helper's folder in the main
# checkout, which is what the device tool sends): the release qhost and ktorch.so, the benchmark
# binary (scripts/gpu-bench.sh), the fuzzer (scripts/gpu-fuzz.sh; NOFUZZ=1 leaves it out), the digits data,
# the docs test's binary in DIR/deps/ (it finds qhost and ktorch.so one folder up, as in
# target/release) to run the docs' `q cuda` examples there, and the GPT and layer-norm benchmarks and CUDA speed
# checks (bench/gpt/, bench/ln/, tests/q/gpu/ktorch_cuda_speed.q, ktorch_fused_ln.q, scripts/gpu-speed.sh) so that a carried
# folder runs them whatever checkout it travels with.
# Cargo runs here with the Makefile's environment (the libtorch virtualenv): outside make, cargo
# would not find libtorch. NODOCS=1 leaves the docs binary out.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$(realpath -m "${1:-.carry}")
VENV=$(scripts/torch-venv.sh)
export VIRTUAL_ENV=$VENV LIBTORCH_USE_PYTORCH=1 PATH=$VENV/bin:$PATH
make bench-build >/dev/null
[ -n "${NOFUZZ:-}" ] || make fuzz-build >/dev/null
R=${CARGO_TARGET_DIR:-target}/release
mkdir -p "$dest/deps"
cp -f $R/qhost $R/ktorch.so $R/ktorch-bench "$dest/"
[ -n "${NOFUZZ:-}" ] || cp -f $R/ktorch-fuzz "$dest/"
cp -f "$(scripts/digits.sh)" "$dest/digits.q"
cp -f bench/gpt/gpt.q bench/gpt/gpt.py bench/cnn/resnet.q bench/cnn/resnet.py bench/ln/ln.q tests/q/gpu/ktorch_cuda_speed.q tests/q/gpu/ktorch_cuda_amp.q tests/q/gpu/ktorch_fused_ln.q tests/q/gpu/ktorch_lncast.q tests/q/gpu/ktorch_dropadd.q tests/q/gpu/ktorch_lnres.q scripts/gpu-speed.sh "$dest/"
if [ -z "${NODOCS:-}" ]; then
docs=$(cargo test --release -p ktorch --test docs --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m.get("target",{}).get("name")=="docs" and m.get("executable"): print(m["executable"])')
cp -f "$docs" "$dest/deps/docs"
fi
ls -la "$dest"
