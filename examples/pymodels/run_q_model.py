"""Python half of the reverse direction in examples/pymodels/score.q: a model trained in q
(saved by savesafe with PyTorch's parameter names) loaded into a PyTorch module and run.

usage: python run_q_model.py DIR   (reads qmodel.safetensors and qmodel_io.safetensors)
"""
import os
import sys

import torch
from torch import nn
from safetensors.torch import load_file

d = sys.argv[1]
m = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
m.load_state_dict(load_file(os.path.join(d, "qmodel.safetensors")))  # strict: every name matches
m.eval()
io = load_file(os.path.join(d, "qmodel_io.safetensors"))
with torch.no_grad():
    y = m(io["x"])
diff = (y - io["y"]).abs().max().item()
print("PyTorch: q-trained model loaded; first predictions", [round(v, 5) for v in y[:4, 0].tolist()])
print(f"PyTorch: largest difference from q's predictions {diff:.3g}")
sys.exit(0 if diff <= 1e-6 else 1)
