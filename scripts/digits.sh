#!/usr/bin/env bash
# The 8x8 digits data set that scikit-learn ships (1797 images, 10 classes), exported as a q
# script (X: 1797 rows of 64 pixel values 0-16 as reals, Y: labels) for examples/digits.q.
# scikit-learn is in the project's virtualenv (scripts/python-lock.txt); the export is cached with it.
# Prints the path of the q script.
set -euo pipefail
VENV="$(dirname "$0")/torch-venv.sh"
VENV="$("$VENV")"
OUT="$(dirname "$VENV")/digits.q"
if [ ! -s "$OUT" ]; then
  "$VENV/bin/python" - "$OUT.tmp" <<'PY'
import sys
from sklearn.datasets import load_digits
d = load_digits()
with open(sys.argv[1], "w") as f:
    f.write("/ scikit-learn's 8x8 digits (load_digits): X pixel values 0-16, Y labels 0-9\n")
    f.write("X:\"e\"$(" + ";".join(" ".join(str(int(v)) for v in row) for row in d.data) + ")\n")
    f.write("Y:" + " ".join(str(int(y)) for y in d.target) + "\n")
PY
  mv "$OUT.tmp" "$OUT"
fi
echo "$OUT"
