"""The small files the examples of docs/pymodels.md load (kept in tests/data/pymodels/; rerun
to remake them: python tests/py/pymodels_fixtures.py). Weights are set by hand, so the outputs
the docs show can be checked by eye: y = x0 + 2*x1 + 0.5."""
import os

import torch
from torch import nn
from safetensors.torch import save_file

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "pymodels")
os.makedirs(out, exist_ok=True)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)

    def forward(self, x):
        return self.lin(x)


m = Tiny()
with torch.no_grad():
    m.lin.weight.copy_(torch.tensor([[1.0, 2.0]]))
    m.lin.bias.fill_(0.5)
torch.jit.script(m).save(os.path.join(out, "tiny.pt"))
sd = {"0.weight": m.lin.weight.detach().clone(), "0.bias": m.lin.bias.detach().clone()}
torch.save(sd, os.path.join(out, "tiny_sd.pt"))
save_file(sd, os.path.join(out, "tiny.safetensors"))
print("written to", os.path.normpath(out))
