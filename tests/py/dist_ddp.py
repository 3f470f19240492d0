"""PyTorch's DistributedDataParallel on two CPU ranks (Gloo): the reference of tests/dist/ddp.q.

tests/dist.rs starts one process per rank with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT
set, as for qhost. Each rank trains a model wrapped in DDP (defaults: broadcast_buffers=True,
bucket_cap_mb=25) on its shard of every step's 16 samples (rank r: rows r, r+2, ...), and writes
DIR/CASE-RANK.txt: a first line of parameter names, then one line a step of every parameter
(in named_parameters order, flattened row-major) followed by every buffer, as repr floats.

  python dist_ddp.py CASE DIR
    bn   float64: linear 4 8, batchnorm1d 8, tanh, linear 8 2; mse; sgd .1 momentum .9
    amp  float32: linear 4 16, tanh, linear 16 2 under torch.autocast("cpu", bfloat16); mse;
         gradients clipped to norm .05 after DDP's average; sgd .1 momentum .9
    fp32 the amp case without autocast (tests/dist/ddp.q checks the amp run differs from it)
    bf16 the fp32 case with DDP's bf16_compress_hook: gradients all-reduced as bfloat16

Inputs and initial parameters are exact binary fractions, written the same way in ddp.q.
"""
import os
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP

STEPS = 6


def model(case):
    if case == "bn":
        m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
        return m.double()
    return torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))


def init(m):
    # parameter j (named_parameters order), element k: (((7k + 3j) mod 13) - 6) / 16
    with torch.no_grad():
        for j, (_, p) in enumerate(m.named_parameters()):
            k = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_(((((7 * k + 3 * j) % 13) - 6) / 16).reshape(p.shape))


def data(i, dtype):
    k = torch.arange(64, dtype=torch.float64)
    x = ((((5 * k + 3 * i) % 17) - 8) / 8).reshape(16, 4)
    k = torch.arange(32, dtype=torch.float64)
    y = ((((3 * k + 7 * i) % 11) - 5) / 4).reshape(16, 2)
    return x.to(dtype), y.to(dtype)


def main():
    case, out = sys.argv[1], sys.argv[2]
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(rank)
    m = model(case)
    if rank == 0:
        init(m)  # DDP's constructor gives every rank rank 0's parameters and buffers
    ddp = DDP(m)
    if case == "bf16":
        ddp.register_comm_hook(None, default_hooks.bf16_compress_hook)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    dtype = torch.float64 if case == "bn" else torch.float32
    lines = [" ".join(n for n, _ in m.named_parameters())]
    norms = []
    for i in range(STEPS):
        x, y = data(i, dtype)
        x, y = x[rank::2], y[rank::2]
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=case == "amp"):
            loss = F.mse_loss(ddp(x), y)
        loss.backward()
        if case != "bn":
            norms.append(float(torch.nn.utils.clip_grad_norm_(m.parameters(), 0.05)))
        opt.step()
        vals = [p.detach().double().reshape(-1) for p in m.parameters()]
        vals += [b.detach().double().reshape(-1) for b in m.buffers()]
        lines.append(" ".join(repr(v) for v in torch.cat(vals).tolist()))
    # the clipping must bite, or the test would not check it
    assert case == "bn" or max(norms) > 0.05, f"gradient norms {norms} never above the clip"
    with open(os.path.join(out, f"{case}-{rank}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
