"""Python half of examples/pymodels/score.q: a scoring model trained in PyTorch, saved for q.

A trade-signal scorer: from four features of a row (return over the last minute, over five
minutes, volume ratio, spread in ticks) it predicts the next minute's return. The data are
synthetic (a known function plus noise), so the fit can be checked. Writes, into DIR:
  scorer.pt           the trained module as TorchScript (q: loadscript)
  scorer.safetensors  its state dict (q: loadsafe into a module of the same layers)
  features.safetensors, pytorch_pred.safetensors   a test batch and PyTorch's predictions

usage: python train_scorer.py DIR
"""
import os
import sys

import torch
from torch import nn
from safetensors.torch import save_file

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(42)


def data(n):
    x = torch.randn(n, 4)
    y = 0.6 * x[:, 0:1] - 0.3 * x[:, 1:2] + 0.2 * x[:, 2:3] * x[:, 3:4] + 0.05 * torch.randn(n, 1)
    return x, y


scorer = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
x, y = data(4096)
opt = torch.optim.Adam(scorer.parameters(), lr=0.01)
for epoch in range(200):
    opt.zero_grad()
    loss = nn.functional.mse_loss(scorer(x), y)
    loss.backward()
    opt.step()
print(f"PyTorch: trained 200 full-batch Adam steps, mse {loss.item():.5f}")
scorer.eval()
torch.jit.script(scorer).save(os.path.join(out, "scorer.pt"))
save_file(scorer.state_dict(), os.path.join(out, "scorer.safetensors"))
xt, yt = data(10)
with torch.no_grad():
    save_file({"x": xt}, os.path.join(out, "features.safetensors"))
    save_file({"y": scorer(xt)}, os.path.join(out, "pytorch_pred.safetensors"))
print("PyTorch: wrote scorer.pt, scorer.safetensors and a test batch to", out)
