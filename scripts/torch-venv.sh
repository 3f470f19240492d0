#!/usr/bin/env bash
# Make sure the project's virtualenv exists and holds exactly the packages of
# scripts/python-lock.txt (libtorch 2.11.0 from the PyPI wheel torch==2.11.0, the CUDA headers,
# and what the tests, examples and benchmarks import); print its path. Kept outside the clone so
# clean clones and CI reruns reuse it. The check compares `pip freeze` with the lock exactly: a
# package added by hand or missing is removed or installed here, so a green run cannot hide a
# missing install step (issue 30: numpy was once only there by accident).
set -euo pipefail
TORCH_VERSION=2.11.0
VENV="${KTORCH_VENV:-$HOME/.cache/ktorch/torch-$TORCH_VERSION}"
LOCK="$(cd "$(dirname "$0")" && pwd)/python-lock.txt"

# name==version lines, names normalised as PEP 503 does (case, _ and . as -)
norm() { sed -e 's/[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' |
  awk -F'==' '{ n = tolower($1); gsub(/[_.]+/, "-", n); print n "==" $2 }' | sort; }
want() { norm <"$LOCK"; }
got() { "$VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null | norm; }
pip_() { "$VENV/bin/python" -m pip -q --disable-pip-version-check "$@" >&2; }

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  echo "setting up the Python environment: a virtualenv at $VENV with scripts/python-lock.txt" \
    "(torch==$TORCH_VERSION and its CUDA libraries: about 2 minutes, 5 GB)" >&2
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV"
fi
if [ "$(got)" != "$(want)" ]; then
  extra=$(comm -23 <(got | cut -d= -f1 | sort -u) <(want | cut -d= -f1 | sort -u))
  if [ -n "$extra" ]; then
    echo "removing packages not in scripts/python-lock.txt from $VENV:" $extra >&2
    # shellcheck disable=SC2086
    pip_ uninstall -y $extra
  fi
  missing=$(comm -13 <(got) <(want) | tr '\n' ' ')
  if [ -n "$missing" ]; then
    echo "installing into $VENV: $missing" >&2
    # --no-deps: the lock is complete, so pip resolves nothing and installs the pins alone
    pip_ install --no-deps -r "$LOCK"
  fi
  if [ "$(got)" != "$(want)" ]; then
    echo "torch-venv: $VENV still differs from scripts/python-lock.txt:" >&2
    diff <(got) <(want) >&2 || true
    exit 1
  fi
fi
echo "$VENV"
