"""The PyTorch side of the reverse direction (issue 23): what tests/pymodels/roundtrip.q wrote is
read here and checked against PyTorch's own modules.

usage: python pymodels_check.py DIR    (DIR: the folder of pymodels_make.py and roundtrip.q)

- qtrained.safetensors (a ktorch sequential trained in q, its state with PyTorch's names) loads
  strictly into torch.nn.Sequential(Linear(4,8), ReLU(), Linear(8,1)) and gives q's outputs
  (qtrained_out.safetensors: the inputs x and q's outputs y);
- ft_q.pt (the TorchScript module fine-tuned in q, saved by savescript) loads with torch.jit.load
  and gives the outputs PyTorch's own fine-tuning gave (ft_q_out.safetensors).
Exits 1 on any difference above the tolerance, printing each check's largest difference.
"""
import os
import sys

import torch
from safetensors.torch import load_file

d = sys.argv[1]
failed = 0


def check(name, got, want, tol):
    global failed
    diff = (got - want).abs().max().item()
    ok = got.shape == want.shape and diff <= tol
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name}: shape {tuple(got.shape)}, largest difference {diff:.3g} (tolerance {tol:g})")


seq = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
seq.load_state_dict(load_file(os.path.join(d, "qtrained.safetensors")), strict=True)
o = load_file(os.path.join(d, "qtrained_out.safetensors"))
with torch.no_grad():
    check("q-trained sequential in PyTorch", seq(o["x"]), o["y"], 0.0)

ft = torch.jit.load(os.path.join(d, "ft_q.pt"))
ft.eval()
want = load_file(os.path.join(d, "ft_q_out.safetensors"))["y"]
with torch.no_grad():
    check("q fine-tuned TorchScript module in PyTorch", ft(o["x"]), want, 0.0)
sys.exit(1 if failed else 0)
