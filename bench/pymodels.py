"""Models for the inference rows of `make bench` (bench/src/pyinfer.rs): a small scoring MLP
(4 -> 32 relu -> 32 relu -> 1, as examples/pymodels), saved as TorchScript (scorer.pt), as a
state dict (scorer.safetensors, which bench/peer.py's eager model loads) and as AOTInductor
packages for a batch of 1 and of 64 (kernels compiled for one thread) (export fixes each batch size: a dynamic size starts at 2).
Compiling the packages takes a minute or two, so the files are kept in DIR and made only when
missing. usage: python bench/pymodels.py DIR
"""
import os
import sys

import torch
from torch import nn
from safetensors.torch import save_file

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(7)
m = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)).eval()
if not os.path.exists(os.path.join(out, "scorer.pt")):
    torch.jit.script(m).save(os.path.join(out, "scorer.pt"))
    save_file(m.state_dict(), os.path.join(out, "scorer.safetensors"))
# one thread in the compiled kernels, as every side of the bench (torch threads 1): inductor
# otherwise compiles OpenMP regions for the cores it sees, which fight for 2 shared cores here
torch._inductor.config.cpp.threads = 1
for b in (1, 64):
    p = os.path.join(out, f"scorer_b{b}_t1.pt2")
    if not os.path.exists(p):
        ep = torch.export.export(m, (torch.randn(b, 4),))
        torch._inductor.aoti_compile_and_package(ep, package_path=p[:-4] + ".tmp.pt2")
        os.replace(p[:-4] + ".tmp.pt2", p)
print("ok")
