"""Expected values for tests/q/ktorch_train.q, computed with PyTorch (torch==2.11.0 of the
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/train.py > tests/q/data/train_expected.q`.
Training beside PyTorch, the same weights, data and settings: the loss of each step and the
parameters after the last. `.p.name` parameters (PyTorch's full names), `.i.name` inputs,
`.e.name` expected values (`.e.name` a list of the step losses, `.e.nameP` the final parameters)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)

from qlit import exp, inp, out, parms, put, q, qdict, rand  # noqa: F401

def final(name, m): put("e", name + "P", qdict({k: p.detach() for k, p in m.named_parameters()}))

def steps(name, m, o, x, y, n=3, f=None):
    """n steps of optimizer o on mse(first output of m(*x), y): the losses, then the parameters."""
    ls = []
    for _ in range(n):
        o.zero_grad()
        z = m(*x)
        if f: z = f(z)
        l = F.mse_loss(z, y); l.backward(); o.step(); ls.append(l.item())
    put("e", name, q(torch.tensor(ls, dtype=torch.float64)))
    final(name, m)

def fill(m):
    with torch.no_grad():
        for p in m.parameters(): p.copy_(rand(p.shape))

# encoder, decoder, transformer containers: SGD on the mean squared error
m = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), 2, norm=nn.LayerNorm(4), enable_nested_tensor=False)
fill(m); parms("enc", m)
x = inp("src", rand(5, 2, 4)); y = inp("y", rand(5, 2, 4))
steps("enc", m, torch.optim.SGD(m.parameters(), lr=0.1), (x,), y)

m = nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0), 2)
fill(m); parms("dec", m)
t = inp("tgt", rand(3, 2, 4)); yt = inp("yt", rand(3, 2, 4))
steps("dec", m, torch.optim.SGD(m.parameters(), lr=0.1), (t, x), yt)

m = nn.Transformer(4, 2, 1, 1, 8, dropout=0.0)
fill(m); parms("tfm", m)
steps("tfm", m, torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9), (x, t), yt)

# a group added with some options takes the others from the optimizer's defaults
m = nn.Sequential(); m.add_module("a", nn.Linear(3, 4)); m.add_module("r", nn.ReLU()); m.add_module("b", nn.Linear(4, 2))
fill(m); parms("grp", m)
x = inp("gx", rand(6, 3)); y = inp("gy", rand(6, 2))
o = torch.optim.SGD(m.a.parameters(), lr=0.1, momentum=0.9, dampening=0.1)
o.add_param_group({"params": [m.b.weight], "lr": 0.01})
o.add_param_group({"params": [m.b.bias], "lr": 0.05, "momentum": 0.5})
put("e", "grpopt", q(torch.tensor([[g["lr"], g["momentum"], g["dampening"]] for g in o.param_groups], dtype=torch.float64)))
steps("grp", m, o, (x,), y)

# a model's learning rate read and set between steps: 2 steps at .1, then 2 at .02
m2 = nn.Sequential(); m2.add_module("a", nn.Linear(3, 4)); m2.add_module("r", nn.ReLU()); m2.add_module("b", nn.Linear(4, 2))
fill(m2); parms("lr", m2)
o = torch.optim.Adam(m2.parameters(), lr=0.1)
ls = []
for i in range(4):
    if i == 2:
        for g in o.param_groups: g["lr"] = 0.02
    o.zero_grad(); l = F.mse_loss(m2(x), y); l.backward(); o.step(); ls.append(l.item())
put("e", "lr", q(torch.tensor(ls, dtype=torch.float64))); final("lr", m2)

# modules giving several tensors: an lstm's (output;hidden;cell), trained on its output
m = nn.LSTM(3, 4, 2)
fill(m); parms("lstm", m)
x = inp("lx", rand(6, 2, 3)); y = inp("ly", rand(6, 2, 4))
steps("lstm", m, torch.optim.SGD(m.parameters(), lr=0.1), (x,), y, f=lambda z: z[0])

# recur with the hidden setting: `run` over batches of 2 time steps, each batch after the first
# starting from the previous batch's hidden and cell state, detached (recur's default)
m = nn.LSTM(3, 4)
fill(m); put("p", "recur", qdict({"lstm." + k: p.detach() for k, p in m.named_parameters()}))
o = torch.optim.SGD(m.parameters(), lr=0.1)
for e in range(2):
    h = None; ls = []
    for b in range(3):
        xb, yb = x[2 * b:2 * b + 2], y[2 * b:2 * b + 2]
        o.zero_grad()
        z, (hn, cn) = m(xb, h) if h else m(xb)
        l = F.mse_loss(z, yb); l.backward(); o.step(); ls.append(l.item())
        h = (hn.detach(), cn.detach())
    put("e", "recur" + str(e), q(torch.tensor(sum(ls) / len(ls), dtype=torch.float64)))
put("e", "recurP", qdict({"lstm." + k: p.detach() for k, p in m.named_parameters()}))

# loss modules: bcelogits (with pos weight, with batch weights), pairwise, similar
a = inp("la", rand(4, 3)); b = inp("lb", rand(4, 3)); t = inp("lt", torch.randint(0, 2, (4, 3)).float())
w = inp("lw", torch.rand(3)); bw = inp("lbw", torch.rand(4, 3))
exp("bcelogits", nn.BCEWithLogitsLoss()(a, t))
exp("bcelogitsw", nn.BCEWithLogitsLoss(pos_weight=w, reduction="sum")(a, t))
exp("bcelogitsb", nn.BCEWithLogitsLoss(weight=bw)(a, t))
exp("pairwise", nn.PairwiseDistance()(a, b))
exp("pairwise3", nn.PairwiseDistance(p=3, eps=1e-3, keepdim=True)(a, b))
exp("similar", nn.CosineSimilarity()(a, b))
exp("similar0", nn.CosineSimilarity(dim=0, eps=1e-4)(a, b))

# nbeats as ktorch's time/nbeats.q builds it (smaller): blocks of an MLP and a fork into a
# backcast and a forecast branch; each block takes x to x - backcast and adds its forecast.
# AdamW with decay .1, batches of 10 in order; the learning rate times .95 after each epoch.
class Fork(nn.Module):
    def __init__(s, u, b, f, t):
        super().__init__()
        s.bc = nn.Sequential(); s.bc.add_module("theta", nn.Linear(u, t, bias=False)); s.bc.add_module("1", nn.ReLU()); s.bc.add_module("backcast", nn.Linear(t, b))
        s.fc = nn.Sequential(); s.fc.add_module("theta", nn.Linear(u, t, bias=False)); s.fc.add_module("1", nn.ReLU()); s.fc.add_module("forecast", nn.Linear(t, f))
    def forward(s, x): return s.bc(x), s.fc(x)

def block(u, b, f, t):
    return nn.Sequential(nn.Linear(b, u), nn.ReLU(), nn.Linear(u, u), nn.ReLU(), Fork(u, b, f, t))

class NBeats(nn.ModuleList):
    def forward(s, x):
        y = None
        for q in s:
            bc, fc = q(x); x = x - bc; y = fc if y is None else y + fc
        return y

m = NBeats([block(8, 6, 2, t) for t in (3, 3, 4, 4)])
fill(m)
for p in m.parameters():
    with torch.no_grad(): p.mul_(0.3)
parms("nbeats", m)
s = torch.sin(torch.arange(60) * 0.5) * 0.4 + 0.5 + 0.01 * torch.arange(60)
w = torch.stack([s[i:i + 8] for i in range(50)])
x, y = inp("nbx", w[:40, :6]), inp("nby", w[:40, 6:])
X, Y = inp("nbX", w[40:, :6]), inp("nbY", w[40:, 6:])
o = torch.optim.AdamW(m.parameters(), weight_decay=0.1)
for e in range(3):
    ls = []
    for b in range(4):
        o.zero_grad(); l = F.mse_loss(m(x[10 * b:10 * b + 10]), y[10 * b:10 * b + 10]); l.backward(); o.step(); ls.append(l.item())
    for g in o.param_groups: g["lr"] = 0.95 * g["lr"]
    put("e", "nb" + str(e), q(torch.tensor(ls, dtype=torch.float64)))
with torch.no_grad(): exp("nbtest", F.mse_loss(m(X), Y))
final("nbeats", m)

print("/ generated by tests/q/gen/train.py (torch " + torch.__version__ + "); do not edit")
print("\n".join(out))
