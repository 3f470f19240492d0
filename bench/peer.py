"""PyTorch peer of `make bench`, run by the ktorch-bench binary with the virtualenv's python.

A small server, so that its batches run interleaved with the Rust side's, round by round: it
prints one JSON line {"torch": version, "threads": n} when ready, then answers each request line
with the seconds it took, one line each (or a line starting "error"), until stdin closes. One
torch thread, as on the Rust side. Requests:

- "add N ITERS": ITERS calls of torch.add(a, b) under timeit (a and b float64 tensors of N
  elements, made once per N).
- "train NET PATH N BATCH EPOCHS": EPOCHS training epochs, the standard eager loop (per batch
  zero_grad, forward, F.cross_entropy, backward, step; batch losses kept detached and averaged
  once per epoch, as ktorch's `run` does), over the data in file PATH: N samples, float32 inputs
  then int64 classes, written by the Rust side so every side trains on the same values, taken in
  order (no shuffle) in batches of BATCH. NET: "mlp" (2 -> 100 relu -> 3, SGD lr .2 momentum .9,
  as examples/spirals.q) or "cnn" (examples/digits.q's network on 1x8x8 inputs, Adam lr .005).
  The model and optimizer are made on the first request for (NET, PATH) and kept: training goes
  on from one request to the next, as on the Rust side.
- "infer PATH BATCH ITERS": ITERS eager forward calls under torch.no_grad() of the scoring MLP of
  bench/pymodels.py (4 -> 32 -> 32 -> 1), its state loaded from the safetensors file PATH, on a
  float32 batch of BATCH rows made once: PyTorch eager beside ktorch's TorchScript and
  AOTInductor rows (bench/src/pyinfer.rs).
"""
import json
import sys
import time
import timeit

import torch
import torch.nn.functional as F
from torch import nn


def network(name):
    """The model and optimizer of NET, and one sample's shape."""
    torch.manual_seed(42)
    if name == "mlp":
        model = nn.Sequential(nn.Linear(2, 100), nn.ReLU(), nn.Linear(100, 3))
        return model, torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9), (2,)
    if name == "cnn":
        model = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(128, 10))
        return model, torch.optim.Adam(model.parameters(), lr=0.005), (1, 8, 8)
    raise ValueError(f"unknown network {name}")


DEVICE = torch.device(sys.argv[1] if len(sys.argv) > 1 else "cpu")


def network_opt(name, model):
    if name == "mlp":
        return torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    return torch.optim.Adam(model.parameters(), lr=0.005)


class Trainer:
    def __init__(self, name, path, n):
        model, _, shape = network(name)
        self.model = model.to(DEVICE)
        # the optimizer after the move, on the parameters where they live
        self.opt = network_opt(name, self.model)
        with open(path, "rb") as f:
            raw = f.read()
        size = n
        for d in shape:
            size *= d
        self.x = torch.frombuffer(bytearray(raw[:4 * size]), dtype=torch.float32).reshape((n,) + shape)
        self.y = torch.frombuffer(bytearray(raw[4 * size:]), dtype=torch.int64)
        if self.y.numel() != n:
            raise ValueError(f"{path}: {self.y.numel()} classes for {n} samples")
        self.x, self.y = self.x.to(DEVICE), self.y.to(DEVICE)

    def epoch(self, batch):
        model, opt, x, y = self.model, self.opt, self.x, self.y
        losses = []
        for i in range(0, len(y), batch):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i:i + batch]), y[i:i + batch])
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        return torch.stack(losses).mean().item()


def main():
    torch.set_num_threads(1)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)
    timers = {}
    trainers = {}
    for line in sys.stdin:
        words = line.split()
        try:
            if words[0] == "add":
                n, iters = int(words[1]), int(words[2])
                if n not in timers:
                    a = torch.full((n,), 1.0, dtype=torch.float64)
                    b = torch.full((n,), 2.0, dtype=torch.float64)
                    timers[n] = timeit.Timer("torch.add(a, b)", globals={"torch": torch, "a": a, "b": b})
                secs = timers[n].timeit(iters)
            elif words[0] == "train":
                net, path, n, batch, epochs = words[1], words[2], int(words[3]), int(words[4]), int(words[5])
                if (net, path) not in trainers:
                    trainers[(net, path)] = Trainer(net, path, n)
                t = trainers[(net, path)]
                start = time.perf_counter()
                for _ in range(epochs):
                    t.epoch(batch)
                secs = time.perf_counter() - start
            elif words[0] == "infer":
                path, batch, iters = words[1], int(words[2]), int(words[3])
                if ("infer", path, batch) not in timers:
                    from safetensors.torch import load_file
                    m = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)).eval()
                    m.load_state_dict(load_file(path))
                    x = torch.randn(batch, 4)

                    def call(m=m, x=x):
                        with torch.no_grad():
                            return m(x)
                    timers[("infer", path, batch)] = timeit.Timer("call()", globals={"call": call})
                secs = timers[("infer", path, batch)].timeit(iters)
            else:
                raise ValueError(f"unknown request {words[0]}")
            print(repr(secs), flush=True)
        except Exception as e:  # the Rust side shows the reason in the table
            print("error " + repr(e).replace("\n", " "), flush=True)


if __name__ == "__main__":
    main()
