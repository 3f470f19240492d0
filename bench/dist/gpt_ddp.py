"""The peer of bench/dist/gpt_dist.q: PyTorch DistributedDataParallel at its best on the same GPT
(bench/gpt/gpt.py's model, dropout off), one process per GPU under torchrun: bf16 autocast with
TF32 (or fp32), SDPA, fused AdamW with char.q's two groups, DDP with gradient_as_bucket_view and
static_graph, foreach clipping to norm 1, the token list on the GPU, losses read once after the
loop. Rank r trains on rows r, r+N, ... of every global batch of ROWS.

    torchrun --standalone --nproc_per_node N bench/dist/gpt_ddp.py PRECISION ROWS STEPS WARMUP [TEXT]

Rank 0 prints `ddp N PRECISION ROWS SECONDS SAME LOSSES..` as gpt_dist.q does. PROFILE=file: after
the timed steps, 5 more on every rank, rank 0's under torch.profiler, written as gpt_dist.q's
KTORCH_PROFILE (name, device, calls, total microseconds; file.events, every event) for
bench/gpt/profile_compare.py and profile_gaps.py.
"""
import math
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpt"))
import gpt  # noqa: E402

gpt.P = 0.0
prec, G, k, wu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
small = bool(os.environ.get("SMALL"))
dist.init_process_group("gloo" if small else "nccl")
me, N = dist.get_rank(), dist.get_world_size()
dev = torch.device("cpu") if small else torch.device("cuda", int(os.environ["LOCAL_RANK"]))
if dev.type == "cuda":
    torch.cuda.set_device(dev)
torch.backends.cuda.matmul.allow_tf32 = prec == "bf16"
torch.backends.cudnn.allow_tf32 = prec == "bf16"
torch.manual_seed(1)
m = gpt.GPT().to(dev)
for name, mod in m.named_modules():
    if isinstance(mod, (torch.nn.Linear, torch.nn.Embedding)):
        torch.nn.init.normal_(mod.weight, 0, 0.02)
        if getattr(mod, "bias", None) is not None:
            torch.nn.init.zeros_(mod.bias)
no = [p for n, p in m.named_parameters() if n.endswith("bias") or "norm" in n or n in ("tok.weight", "pos")]
decay = [p for n, p in m.named_parameters() if not (n.endswith("bias") or "norm" in n or n in ("tok.weight", "pos"))]
o = torch.optim.AdamW([{"params": no, "weight_decay": 0.0}, {"params": decay, "weight_decay": 0.1}], lr=6e-4, betas=(0.9, 0.95), fused=dev.type == "cuda")
dm = DDP(m, device_ids=[dev.index] if dev.type == "cuda" else None, gradient_as_bucket_view=True, static_graph=True)
if len(sys.argv) > 5:
    raw = open(sys.argv[5], encoding="utf8").read()
    ix = {c: i for i, c in enumerate(sorted(set(raw)))}
    t = torch.tensor([ix[c] for c in raw]) % gpt.V
else:
    t = torch.randint(0, gpt.V, (200000,), generator=torch.Generator().manual_seed(1))
g = torch.Generator().manual_seed(2)
starts = torch.stack([torch.randint(0, len(t) - 1 - gpt.N, (G,), generator=g) for _ in range(wu + k)])[:, me::N].to(dev)
td, ar = t.to(dev), torch.arange(gpt.N + 1, device=dev)
sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
losses = []


def step(i):
    x = td[starts[i][:, None] + ar]
    o.zero_grad(set_to_none=True)
    with torch.autocast(dev.type, torch.bfloat16, enabled=prec == "bf16"):
        loss = F.cross_entropy(dm(x[:, :-1]), x[:, 1:].reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, foreach=True)
    o.step()
    return loss.detach()


for i in range(wu + k):
    if i == wu:
        sync()
        t0 = time.perf_counter()
    losses.append(step(i))
sync()
t1 = time.perf_counter()
pf = os.environ.get("PROFILE")
if pf:
    from torch.profiler import ProfilerActivity, profile

    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
    if me == 0:
        with profile(activities=acts) as pr:
            for i in range(5):
                step(wu + i)
            sync()
        gpt.write_profile(pr, pf, events=True)
    else:
        for i in range(5):
            step(wu + i)
        sync()
L = torch.stack(losses).float()
dist.all_reduce(L)
L /= N
flat = torch.cat([p.detach().float().flatten() for p in m.parameters()])
every = [torch.zeros_like(flat) for _ in range(N)]
dist.all_gather(every, flat)
same = int(all(torch.equal(e, flat) for e in every))
if me == 0:
    print("ddp", N, prec, G, t1 - t0, same, " ".join(f"{v:.7g}" for v in L.tolist()), flush=True)
dist.destroy_process_group()
