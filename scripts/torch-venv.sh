#!/usr/bin/env bash
# Make sure the libtorch 2.11.0 virtualenv exists (from the PyPI wheel torch==2.11.0) and print
# its path. Kept outside the clone so clean clones and CI reruns reuse it; checked by version.
set -euo pipefail
TORCH_VERSION=2.11.0
VENV="${KTORCH_VENV:-$HOME/.cache/ktorch/torch-$TORCH_VERSION}"
have() {
  [ -x "$VENV/bin/python" ] &&
    [ "$("$VENV/bin/python" -c 'import torch;print(torch.__version__.split("+")[0])' 2>/dev/null)" = "$TORCH_VERSION" ]
}
if ! have; then
  echo "setting up libtorch: pip install torch==$TORCH_VERSION into $VENV (about 2 minutes, 4.7 GB)" >&2
  rm -rf "$VENV.tmp"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV.tmp"
  "$VENV.tmp/bin/pip" install -q --disable-pip-version-check "torch==$TORCH_VERSION" >&2
  rm -rf "$VENV"
  mv "$VENV.tmp" "$VENV"
  # A venv records its own path in scripts; moving it keeps python itself working, which is all
  # torch-sys needs (it runs python -c to find include and lib dirs).
  have || { echo "torch $TORCH_VERSION is not importable from $VENV" >&2; exit 1; }
fi
# The CUDA headers ATen's CUDA API (streams, events, graphs: src/cxx/cuda.cpp) includes beyond
# what the wheel's runtime package ships: crt/ (nvcc's host headers) and CCCL (nv/target). Small
# header-only wheels of the CUDA 13.0 the torch wheel is built with.
CUDA_HEADERS="nvidia-cuda-crt==13.0.88 nvidia-cuda-cccl==13.0.85"
if ls -d "$VENV"/lib/python3*/site-packages/nvidia/cu13 >/dev/null 2>&1; then
  if ! ls "$VENV"/lib/python3*/site-packages/nvidia/cu13/include/crt/host_config.h >/dev/null 2>&1 ||
     ! ls -d "$VENV"/lib/python3*/site-packages/nvidia/cu13/include/cccl >/dev/null 2>&1; then
    echo "adding CUDA headers to $VENV: $CUDA_HEADERS" >&2
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check $CUDA_HEADERS >&2
  fi
fi
# Python's safetensors (Hugging Face's reference implementation), for the tests and examples of
# models moving between PyTorch and q (issue 23): a small wheel from its maintainers.
if ! "$VENV/bin/python" -c 'import safetensors' >/dev/null 2>&1; then
  echo "adding safetensors to $VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "safetensors==0.8.0" >&2
fi
echo "$VENV"
