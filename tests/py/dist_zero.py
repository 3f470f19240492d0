"""PyTorch's ZeroRedundancyOptimizer with DistributedDataParallel on two CPU ranks (Gloo): the
reference of tests/dist/zero.q (ktorch's `distmodel` option `shard`).

tests/dist.rs starts one process per rank with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT
set, as for qhost. Each rank trains a float64 MLP (linear 6 16, tanh, three times linear 16 16 and
tanh, linear 16 3; mse) wrapped in DDP, its optimizer a ZeroRedundancyOptimizer (each rank keeps
the state of its partition of the parameters only, and broadcasts them after its step), with the
gradients clipped to norm .05 after DDP's average, on its shard of every step's 32 samples (rank
r: rows r, r+2, ...). It writes DIR/CASE-RANK.txt: a first line with the elements of this rank's
optimizer state (every state tensor but `step`) and the number of parameters that have state,
then one line a step of every parameter (named_parameters order, flattened row-major), as repr
floats.

  python dist_zero.py CASE DIR
    adam   torch.optim.Adam, lr .01
    sgd    torch.optim.SGD, lr .1, momentum .9

Inputs and initial parameters are exact binary fractions, written the same way in zero.q.
"""
import os
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

STEPS = 5


def model():
    layers = [torch.nn.Linear(6, 16), torch.nn.Tanh()]
    for _ in range(3):
        layers += [torch.nn.Linear(16, 16), torch.nn.Tanh()]
    layers.append(torch.nn.Linear(16, 3))
    return torch.nn.Sequential(*layers).double()


def init(m):
    # parameter j (named_parameters order), element k: (((7k + 3j) mod 13) - 6) / 16
    with torch.no_grad():
        for j, (_, p) in enumerate(m.named_parameters()):
            k = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_(((((7 * k + 3 * j) % 13) - 6) / 16).reshape(p.shape))


def data(i):
    k = torch.arange(192, dtype=torch.float64)
    x = ((((5 * k + 3 * i) % 17) - 8) / 8).reshape(32, 6)
    k = torch.arange(96, dtype=torch.float64)
    y = ((((3 * k + 7 * i) % 11) - 5) / 4).reshape(32, 3)
    return x, y


def main():
    case, out = sys.argv[1], sys.argv[2]
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(rank)
    m = model()
    if rank == 0:
        init(m)  # DDP's constructor gives every rank rank 0's parameters
    ddp = DDP(m)
    if case == "adam":
        opt = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.Adam, lr=0.01)
    else:
        opt = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.SGD, lr=0.1, momentum=0.9)
    lines, norms = [], []
    for i in range(STEPS):
        x, y = data(i)
        x, y = x[rank::world], y[rank::world]
        opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(ddp(x), y)
        loss.backward()
        norms.append(float(torch.nn.utils.clip_grad_norm_(m.parameters(), 0.05)))
        opt.step()
        vals = [p.detach().reshape(-1) for p in m.parameters()]
        lines.append(" ".join(repr(v) for v in torch.cat(vals).tolist()))
    # the clipping must bite, or the test would not check it
    assert max(norms) > 0.05, f"gradient norms {norms} never above the clip"
    state = opt.optim.state  # this rank's local optimizer: its partition only
    elements = sum(t.numel() for s in state.values() for k, t in s.items() if k != "step" and torch.is_tensor(t))
    first = f"{elements} {len(state)}"
    with open(os.path.join(out, f"{case}-{rank}.txt"), "w") as f:
        f.write(first + "\n" + "\n".join(lines) + "\n")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
