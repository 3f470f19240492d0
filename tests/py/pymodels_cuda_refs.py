"""CUDA references for the pymodels check on the device machine: TorchScript modules run by
PyTorch on CUDA, their outputs written as q (refs.q). usage: python3 cuda_refs.py DIR"""
import os, sys
from typing import Tuple
import torch
from torch import nn, Tensor
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
torch.manual_seed(0)
lines = []
def q(name, t):
    t = t.detach().cpu().contiguous(); flat = t.reshape(-1).tolist()
    v = " ".join(repr(float(x)) for x in flat)
    lines.append(f'{name}:({";".join(map(str, t.shape))})#"e"${v}' if t.dim() > 1 else f'{name}:"e"${v}')
class Scorer(nn.Module):
    def __init__(s):
        super().__init__(); s.l1 = nn.Linear(4, 16); s.bn = nn.BatchNorm1d(16); s.l2 = nn.Linear(16, 1)
    def forward(s, x): return s.l2(torch.relu(s.bn(s.l1(x))))
class Multi(nn.Module):
    def __init__(s):
        super().__init__(); s.a = nn.Linear(3, 2); s.b = nn.Linear(5, 2)
    def forward(s, x, z) -> Tuple[Tensor, Tensor]: return s.a(x) + s.b(z), torch.sigmoid(s.a(x))
m = Scorer().eval(); torch.jit.script(m).save(f"{d}/scorer.pt")
x = torch.randn(32, 4); y = x[:, :1] * 2 - x[:, 1:2]
q(".c.x", x); q(".c.y", y)
with torch.no_grad():
    q(".c.eager", m.cuda()(x.cuda()))
    s = torch.jit.load(f"{d}/scorer.pt", map_location="cuda").eval()
    for i in range(3): r = s(x.cuda())   # as ktorch calls it repeatedly (the profiling executor)
    q(".c.script1", s(x.cuda()))
ft = torch.jit.load(f"{d}/scorer.pt", map_location="cuda"); ft.train()
o = torch.optim.SGD(ft.parameters(), lr=0.05, momentum=0.9); ls = []
for _ in range(5):
    o.zero_grad(); l = nn.functional.mse_loss(ft(x.cuda()), y.cuda()); l.backward(); o.step(); ls.append(l.detach())
q(".c.ftloss", torch.stack(ls)); ft.eval()
with torch.no_grad(): q(".c.fteval", ft(x.cuda()))
mm = Multi().eval(); torch.jit.script(mm).save(f"{d}/multi.pt")
mx, mz = torch.randn(6, 3), torch.randn(6, 5); q(".c.mx", mx); q(".c.mz", mz)
with torch.no_grad():
    a, b = mm.cuda()(mx.cuda(), mz.cuda()); q(".c.ma", a); q(".c.mb", b)
try:
    ep = torch.export.export(m, (x[:2].cuda(),), dynamic_shapes={"x": {0: torch.export.Dim("b", min=2, max=1024)}})
    torch._inductor.aoti_compile_and_package(ep, package_path=f"{d}/scorer_cuda.pt2")
    lines.append(".c.aoti:1b")
except Exception as e:
    print("aoti compile failed:", repr(e)[:300]); lines.append(".c.aoti:0b")
open(f"{d}/refs.q", "w").write("\n".join(lines) + "\n")
print("refs written; torch", torch.__version__, torch.cuda.get_device_name(0))
