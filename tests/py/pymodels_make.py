"""Reference files for tests/pymodels.rs (issue 23): models and weights made by PyTorch, with
the outputs PyTorch computes for them, written as a q script (refs.q) for tests/pymodels/*.q.

usage: python pymodels_make.py DIR    (DIR: where every file goes)

Values are written exactly: a float32 value printed with repr() of its double is read back by q
as the same double, then cast to real ("e"$), which is exact.
"""
import hashlib
import os
import pickle
import shutil
import sys
import zipfile
from typing import Dict, Tuple

import torch
from torch import nn, Tensor
from safetensors.torch import save_file

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
lines = []


def q(name, t):
    """A tensor as q: ("e"$ or "f"$ or "j"$) of a flat vector reshaped to its sizes."""
    t = t.detach().cpu().contiguous()
    cast = {torch.float32: '"e"$', torch.float64: '"f"$', torch.int64: '"j"$'}[t.dtype]
    flat = t.reshape(-1).tolist()
    if t.dtype == torch.int64:
        vec = " ".join(str(v) for v in flat)
    else:
        vec = " ".join(repr(float(v)) for v in flat)
    if len(flat) == 1:
        vec = "enlist " + vec
    dims = list(t.shape)
    body = f"{cast}{vec}" if vec.startswith("enlist") is False else f"{cast}({vec})"
    if len(dims) == 0:
        lines.append(f"{name}:first {body}")
    elif len(dims) == 1:
        lines.append(f"{name}:{body}")
    else:
        lines.append(f"{name}:({';'.join(map(str, dims))})#{body}")


def path(f):
    return os.path.join(out, f)


# --- a scoring model: linear, batch norm, relu, linear (the TorchScript round trip and fine-tuning)
class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 16)
        self.bn = nn.BatchNorm1d(16)
        self.l2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.l2(torch.relu(self.bn(self.l1(x))))


scorer = Scorer()
# a few training steps in PyTorch first, so that batch norm's statistics are not the defaults
x = torch.randn(32, 4)
y = (x[:, :1] * 2 - x[:, 1:2] + 0.5 * x[:, 2:3] * x[:, 3:4]).contiguous()
o = torch.optim.SGD(scorer.parameters(), lr=0.05)
for _ in range(3):
    o.zero_grad()
    nn.functional.mse_loss(scorer(x), y).backward()
    o.step()
scorer.eval()
script = torch.jit.script(scorer)
script.save(path("scorer.pt"))
q(".r.x", x)
q(".r.y", y)
with torch.no_grad():
    q(".r.eval", scorer(x))
    scorer.train()
    q(".r.train", scorer(x))  # training mode: batch statistics (and the running ones updated)
    scorer.eval()
    # the module after that forward: reload the saved state for what follows
scorer = torch.jit.load(path("scorer.pt"))
def syms(names):
    return "`$(" + ";".join(f'"{n}"' for n in names) + ")"


lines.append(".r.parmnames:" + syms(n for n, _ in scorer.named_parameters()))
lines.append(".r.buffernames:" + syms(n for n, _ in scorer.named_buffers()))

# fine-tuning in PyTorch of the loaded TorchScript module: SGD with momentum, MSE, N full steps
ft = torch.jit.load(path("scorer.pt"))
ft.train()
opt = torch.optim.SGD(ft.parameters(), lr=0.05, momentum=0.9)
losses = []
for _ in range(5):
    opt.zero_grad()
    l = nn.functional.mse_loss(ft(x), y)
    l.backward()
    opt.step()
    losses.append(l.detach())
q(".r.ftloss", torch.stack(losses))
for n, p in ft.named_parameters():
    q(f".r.ft.{n.replace('.', '_')}", p)
for n, b in ft.named_buffers():
    if b.dtype == torch.float32:
        q(f".r.ftbuf.{n.replace('.', '_')}", b)
ft.eval()
with torch.no_grad():
    q(".r.fteval", ft(x))

# Adam as well (its state: first and second moments, bias correction)
fa = torch.jit.load(path("scorer.pt"))
fa.train()
opt = torch.optim.Adam(fa.parameters(), lr=0.01)
for _ in range(5):
    opt.zero_grad()
    nn.functional.mse_loss(fa(x), y).backward()
    opt.step()
fa.eval()
with torch.no_grad():
    q(".r.adameval", fa(x))


# --- several inputs, tuple and dictionary outputs
class Multi(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 2)
        self.b = nn.Linear(5, 2)

    def forward(self, x, z) -> Tuple[Tensor, Tensor]:
        return self.a(x) + self.b(z), torch.sigmoid(self.a(x))


class Stats(nn.Module):
    def forward(self, x) -> Dict[str, Tensor]:
        return {"mean": x.mean(0), "max": x.amax(0), "n": torch.tensor(x.shape[0])}


multi = torch.jit.script(Multi().eval())
multi.save(path("multi.pt"))
mx, mz = torch.randn(6, 3), torch.randn(6, 5)
q(".r.mx", mx)
q(".r.mz", mz)
with torch.no_grad():
    a, b = multi(mx, mz)
q(".r.ma", a)
q(".r.mb", b)
torch.jit.script(Stats()).save(path("stats.pt"))
q(".r.smean", mx.mean(0))
q(".r.smax", mx.amax(0))

# --- a state dict saved by torch.save, for a ktorch sequential of the same names
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
torch.save(seq.state_dict(), path("seq.pt"))
save_file(seq.state_dict(), path("seq.safetensors"))
with torch.no_grad():
    q(".r.seq", seq(x))
# dtypes: each storage type of torch.save and safetensors
many = {"f64": torch.randn(3, dtype=torch.float64), "i64": torch.arange(5), "i32": torch.arange(4, dtype=torch.int32),
        "bool": torch.tensor([True, False, True]), "u8": torch.arange(3, dtype=torch.uint8),
        "f16": torch.randn(2).half(), "bf16": torch.randn(2).bfloat16(), "view": torch.arange(12.0).reshape(3, 4)[:, 1:3]}
torch.save(many, path("dtypes.pt"))
save_file({k: v.contiguous() for k, v in many.items()}, path("dtypes.safetensors"))
q(".r.f64", many["f64"])
lines.append(".r.f16:" + " ".join(repr(float(v)) for v in many["f16"].float().tolist()))
lines.append(".r.bf16:" + " ".join(repr(float(v)) for v in many["bf16"].float().tolist()))
q(".r.view", many["view"])

# --- bad files
data = open(path("scorer.pt"), "rb").read()
open(path("bad_truncated.pt"), "wb").write(data[: len(data) // 2])
data = open(path("seq.pt"), "rb").read()
open(path("bad_truncated_sd.pt"), "wb").write(data[: len(data) - 200])
data = open(path("seq.safetensors"), "rb").read()
open(path("bad_truncated.safetensors"), "wb").write(data[: len(data) - 10])
open(path("bad_header.safetensors"), "wb").write((20).to_bytes(8, "little") + b'{"a": not json here}')
open(path("bad_text.pt"), "w").write("this is not a model\n")


class Evil:
    def __reduce__(self):
        return (os.system, ("echo this pickle ran code",))


# a torch.save-shaped archive whose pickle calls os.system (never unpickled by Python here)
with zipfile.ZipFile(path("bad_code.pt"), "w") as z:
    z.writestr("bad_code/data.pkl", pickle.dumps({"w": Evil()}, protocol=2))
    z.writestr("bad_code/byteorder", "little")
    z.writestr("bad_code/version", "3\n")
sd = seq.state_dict()
sd["extra.weight"] = torch.zeros(2)
torch.save(sd, path("bad_names.pt"))
sd = seq.state_dict()
sd["0.weight"] = torch.zeros(8, 5)
torch.save(sd, path("bad_shape.pt"))
save_file(sd, path("bad_shape.safetensors"))

# --- an AOTInductor package of the scoring model (batch 1 to 1024): compiling takes about a
# minute, so the package is cached by the model's weights and torch's version
eager = Scorer()
eager.load_state_dict(torch.jit.load(path("scorer.pt")).state_dict())
eager.eval()
h = hashlib.sha256(torch.__version__.encode())
for k, v in eager.state_dict().items():
    h.update(k.encode() + bytes(v.contiguous().view(-1).view(torch.uint8).tolist()))
cache = os.path.join(os.path.expanduser("~/.cache/ktorch/pymodels"), f"scorer-{h.hexdigest()[:16]}.pt2")
if os.environ.get("KTORCH_SKIP_AOTI") != "1":
    if not os.path.exists(cache):
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        # export makes a dynamic size range start at 2 (sizes 0 and 1 are special to it): the
        # package's input check refuses a batch of 1, which roundtrip.q checks is a q error
        ep = torch.export.export(eager, (x[:2],), dynamic_shapes={"x": {0: torch.export.Dim("batch", min=2, max=1024)}})
        torch._inductor.aoti_compile_and_package(ep, package_path=cache[:-4] + ".tmp.pt2")
        os.replace(cache[:-4] + ".tmp.pt2", cache)
    shutil.copy(cache, path("scorer.pt2"))
with torch.no_grad():
    q(".r.aoti", eager(x))

open(path("refs.q"), "w").write("\n".join(lines) + "\n")
print("pymodels refs written to", out)
