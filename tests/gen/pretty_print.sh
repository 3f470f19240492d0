#!/usr/bin/env bash
# Builds tests/gen/pretty_print.cpp against the virtualenv's libtorch (scripts/torch-venv.sh) and
# writes libtorch's own module strings to tests/data/libtorch_pretty_print.txt (about a minute).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$("$root/scripts/torch-venv.sh")
torch=$("$venv/bin/python" -c 'import torch,os;print(os.path.dirname(torch.__file__))')
out=$(mktemp -d)
g++ -std=c++17 -O0 -w "$root/tests/gen/pretty_print.cpp" -o "$out/pp" \
  -I"$torch/include" -I"$torch/include/torch/csrc/api/include" \
  -L"$torch/lib" -Wl,-rpath,"$torch/lib" -ltorch -ltorch_cpu -lc10 -D_GLIBCXX_USE_CXX11_ABI=1
"$out/pp" > "$root/tests/data/libtorch_pretty_print.txt"
rm -rf "$out"
