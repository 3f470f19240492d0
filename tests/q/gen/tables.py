"""Expected values for tests/q/ktorch_tables.q (tables in and out, scoring, training from a
table's columns), computed with PyTorch (torch==2.11.0 of the virtualenv): run
`$VIRTUAL_ENV/bin/python tests/q/gen/tables.py > tests/q/data/tables_expected.q`.

- `.e.promote`: torch.result_type of two 1-d tensors of every pair of the dtypes q columns make
  (q's type chars b x c h i j e f: bool uint8 int8 int16 int32 int64 float32 float64), as
  ktorch's dtype names: what `tensor` of a two-column table must give.
- `.d.x`: a table's feature columns (floats, longs, reals, booleans) as PyTorch sees them in
  float32 (`.i.x`); `.p.<act>` the parameters of Sequential(Linear(4,6), act, Linear(6,2)) for
  each activation, `.e.<act>` its output on `.i.x` (evaluation mode, no gradients).
- `.p.reg`/`.e.reg*`: Linear(3,1) trained by SGD (lr 0.1, batches of 4) with mse on the table's
  columns `a b c` against `y` (rows x 1), one epoch: the mean batch loss and the parameters.
- `.p.cls`/`.e.cls*`: Linear(3,3) trained with cross entropy against the long column `k`, one
  epoch of two batches: the loss and the parameters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(33)

def q(v):
    """A q literal: float32 as reals (e), float64 as floats (f), integers as longs."""
    t = torch.as_tensor(v)
    suffix = "e" if t.dtype == torch.float32 else "f"
    if t.dim() == 0:
        x = t.item()
        if t.dtype.is_floating_point: return repr(float(x)) + suffix
        return str(int(x))
    if t.dim() == 1:
        if t.numel() == 1: return "enlist " + q(t[0])
        if t.dtype.is_floating_point: return " ".join(repr(float(x)) for x in t.tolist()) + suffix
        return " ".join(str(int(x)) for x in t.tolist())
    if len(t) == 1: return "enlist " + q(t[0])
    return "(" + ";".join(q(r) for r in t) + ")"

def qdict(d):
    k, v = list(d.keys()), list(d.values())
    return "`" + "`".join(k) + "!(" + ";".join(q(x) for x in v) + ")"

out = []
def put(name, s): out.append(f"{name}:{s}")

# promotion
dtypes = {"b": torch.bool, "x": torch.uint8, "c": torch.int8, "h": torch.int16, "i": torch.int32,
          "j": torch.int64, "e": torch.float32, "f": torch.float64}
names = {torch.bool: "bool", torch.uint8: "byte", torch.int8: "char", torch.int16: "short",
         torch.int32: "int", torch.int64: "long", torch.float32: "float", torch.float64: "double"}
rows = []
for a, da in dtypes.items():
    for b, db in dtypes.items():
        r = torch.result_type(torch.zeros(2, dtype=da), torch.zeros(2, dtype=db))
        rows.append(f'("{a}{b}";`{names[r]})')
put(".e.promote", "(" + ";".join(rows) + ")")

# a table of features: floats, longs, reals, booleans (5 rows)
a = [0.5, -1.25, 2.0, 0.75, -0.3]
b = [1, -2, 3, 0, 4]
c = [0.1, 0.2, -0.7, 1.5, -1.1]
d = [1, 0, 1, 1, 0]
put(".d.x", "([]a:" + " ".join(repr(v) for v in a) + "f;b:" + " ".join(str(v) for v in b)
    + ";c:" + " ".join(repr(v) for v in c) + "e;d:" + "".join(str(v) for v in d) + "b)")
x = torch.stack([torch.tensor(a, dtype=torch.float64).float(), torch.tensor(b).float(),
                 torch.tensor(c, dtype=torch.float32), torch.tensor(d).float()], 1)
put(".i.x", q(x))

acts = {
    "relu": nn.ReLU(), "sigmoid": nn.Sigmoid(), "tanh": nn.Tanh(), "silu": nn.SiLU(),
    "elu": nn.ELU(0.5), "selu": nn.SELU(), "leakyrelu": nn.LeakyReLU(0.2), "relu6": nn.ReLU6(),
    "hardtanh": nn.Hardtanh(-0.5, 2.0), "softmax": nn.Softmax(1), "logsoftmax": nn.LogSoftmax(-1),
    "gelu": nn.GELU(), "drop": nn.Dropout(0.5),
}
for name, act in acts.items():
    net = nn.Sequential(nn.Linear(4, 6), act, nn.Linear(6, 2)).eval()
    put(f".p.{name}", qdict({k: p.detach() for k, p in net.named_parameters()}))
    with torch.no_grad():
        put(f".e.{name}", q(net(x)))
# one output: a row's dictionary gives an atom
one = nn.Linear(4, 1)
put(".p.one", qdict({k: p.detach() for k, p in one.named_parameters()}))
with torch.no_grad():
    put(".e.one", q(one(x)[:, 0]))

# regression from columns a b c against y (rows x 1)
t = {"a": [0.5, 1.0, -0.5, 2.0, 1.5, -1.0, 0.25, 0.8],
     "b": [1, 2, 3, 4, 5, 6, 7, 8],
     "c": [0.3, -0.2, 0.1, 0.9, -0.4, 0.5, -0.6, 0.0],
     "y": [1.0, 2.0, 0.5, 3.0, 2.5, 0.0, 1.2, 1.8],
     "k": [0, 1, 2, 1, 0, 2, 1, 0]}
put(".d.train", "([]a:" + " ".join(repr(v) for v in t["a"]) + "f;b:" + " ".join(str(v) for v in t["b"])
    + ";c:" + " ".join(repr(v) for v in t["c"]) + "e;y:" + " ".join(repr(v) for v in t["y"])
    + "f;k:" + " ".join(str(v) for v in t["k"]) + ")")
X = torch.stack([torch.tensor(t["a"], dtype=torch.float64).float(), torch.tensor(t["b"]).float(),
                 torch.tensor(t["c"], dtype=torch.float32)], 1)
Y = torch.tensor(t["y"], dtype=torch.float64).float()[:, None]
K = torch.tensor(t["k"])

reg = nn.Linear(3, 1)
put(".p.reg", qdict({k: p.detach() for k, p in reg.named_parameters()}))
o = torch.optim.SGD(reg.parameters(), lr=0.1)
losses = []
for i in range(0, 8, 4):
    o.zero_grad()
    l = F.mse_loss(reg(X[i:i + 4]), Y[i:i + 4])
    l.backward(); o.step(); losses.append(l.item())
put(".e.regloss", q(torch.tensor(losses, dtype=torch.float32).mean()))
put(".e.regP", qdict({k: p.detach() for k, p in reg.named_parameters()}))
with torch.no_grad():
    put(".e.regout", q(reg(X)[:, 0]))

cls = nn.Linear(3, 3)
put(".p.cls", qdict({k: p.detach() for k, p in cls.named_parameters()}))
o = torch.optim.SGD(cls.parameters(), lr=0.1)
losses = []
for i in range(0, 8, 4):
    o.zero_grad()
    l = F.cross_entropy(cls(X[i:i + 4]), K[i:i + 4])
    l.backward(); o.step(); losses.append(l.item())
put(".e.clsloss", q(torch.tensor(losses, dtype=torch.float32).mean()))
put(".e.clsP", qdict({k: p.detach() for k, p in cls.named_parameters()}))

print(f"/ generated by tests/q/gen/tables.py (torch {torch.__version__}); do not edit")
print("\n".join(out))
