"""Scoring latency in PyTorch called from Python (issue 33): the floor of a PyKX user scoring
each update, the rows already a numpy array (the table's conversion not counted). The same
network as `make bench`'s ktorch and q sides, 8 -> 32 -> 1 with relu, float32, one torch thread;
each call is `m(torch.from_numpy(x))` under torch.inference_mode(), the output read back to
numpy, timed one by one with perf_counter_ns. Prints one JSON line:
{"torch": version, "rows": {"1": [p50_ns, p99_ns, min_ns, max_ns, calls], "100": [...]}}.
Usage: score.py CALLS"""
import json
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)
torch.manual_seed(7)
calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
m = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).eval()
out = {"torch": torch.__version__, "rows": {}}
for rows in (1, 100):
    x = np.random.default_rng(rows).random((rows, 8), dtype=np.float32)
    t = []
    with torch.inference_mode():
        for _ in range(calls // 10):  # warm up
            m(torch.from_numpy(x)).numpy()
        for _ in range(calls):
            s = time.perf_counter_ns()
            m(torch.from_numpy(x)).numpy()
            t.append(time.perf_counter_ns() - s)
    t.sort()
    out["rows"][str(rows)] = [t[len(t) // 2], t[int(len(t) * 0.99)], t[0], t[-1], calls]
print(json.dumps(out))
