"""PyTorch peer of `make bench`, run by the ktorch-bench binary with the virtualenv's python.

A small server, so that its batches run interleaved with the Rust side's, round by round: it
prints one JSON line {"torch": version, "threads": n} when ready, then answers each request line
"add N ITERS" with the seconds that ITERS calls of torch.add(a, b) took under timeit (a and b
float64 tensors of N elements, made once per N), one line each, until stdin closes. One torch
thread, as on the Rust side.
"""
import json
import sys
import timeit

import torch


def main():
    torch.set_num_threads(1)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)
    timers = {}
    for line in sys.stdin:
        op, n, iters = line.split()
        n, iters = int(n), int(iters)
        if op != "add":
            print("error unknown op", flush=True)
            continue
        if n not in timers:
            a = torch.full((n,), 1.0, dtype=torch.float64)
            b = torch.full((n,), 2.0, dtype=torch.float64)
            timers[n] = timeit.Timer("torch.add(a, b)", globals={"torch": torch, "a": a, "b": b})
        print(repr(timers[n].timeit(iters)), flush=True)


if __name__ == "__main__":
    main()
