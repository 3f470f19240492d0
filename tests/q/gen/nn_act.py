"""Expected values for tests/q/ktorch_nn_act.q (activations, normalization, distances), computed
with PyTorch (torch==2.11.0 of the virtualenv): run
`$VIRTUAL_ENV/bin/python tests/q/gen/nn_act.py > tests/q/data/nn_act_expected.q`.
Writes inputs (`.i.name`), weights and buffers set in modules from q (`.w.name`), ktorch
definitions of the modules (`.d.name`, `.d.name2` with options) and outputs (`.e.name`). Doubles stay doubles
(9h), single precision (the modules' parameters, their inputs and outputs) is written as reals
(8h), longs as longs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

def q(v):
    """A q literal for a tensor, nested by rows."""
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
    return "(" + ";".join(q(r) for r in t) + ")"

out = []
def put(ns, name, v): out.append(f".{ns}.{name}:{v if isinstance(v, str) else q(v)}")
def inp(name, v): put("i", name, v); return v
def exp(name, v): put("e", name, v.detach())
def weights(name, **kw):
    for k, v in kw.items(): put("w", name + "_" + k, v)

d = torch.double
x = inp("x", torch.tensor([[-2.0, -0.75, -0.25, 0.0], [0.3, 0.5, 1.5, 3.0],
                           [-1.2, 0.8, -0.4, 2.2], [1.0, -3.0, 0.6, -0.1]], dtype=d))

# activations: default module, then one with options (its ktorch definition in .d)
acts = [
    ("celu", nn.CELU(), "(`celu;0.5)", nn.CELU(alpha=0.5)),
    ("elu", nn.ELU(), "(`elu;0.5)", nn.ELU(alpha=0.5)),
    ("glu", nn.GLU(), "(`glu;0)", nn.GLU(dim=0)),
    ("hardshrink", nn.Hardshrink(), "(`hardshrink;1.0)", nn.Hardshrink(1.0)),
    ("hardtanh", nn.Hardtanh(), "(`hardtanh;-0.5;2.0)", nn.Hardtanh(-0.5, 2.0)),
    ("leakyrelu", nn.LeakyReLU(), "(`leakyrelu;0.2)", nn.LeakyReLU(0.2)),
    ("logsigmoid", nn.LogSigmoid(), None, None),
    ("mish", nn.Mish(), None, None),
    ("relu6", nn.ReLU6(), None, None),
    ("rrelu", nn.RReLU().eval(), "(`rrelu;0.1;0.3)", nn.RReLU(0.1, 0.3).eval()),
    ("selu", nn.SELU(), None, None),
    ("silu", nn.SiLU(), None, None),
    ("softmin:(`softmin;1)", nn.Softmin(dim=1), "(`softmin;0)", nn.Softmin(dim=0)),
    ("softplus", nn.Softplus(), "(`softplus;2;1)", nn.Softplus(beta=2, threshold=1)),
    ("softshrink", nn.Softshrink(), "(`softshrink;1.0)", nn.Softshrink(1.0)),
    ("softsign", nn.Softsign(), None, None),
    ("tanhshrink", nn.Tanhshrink(), None, None),
    ("threshold:(`threshold;0.5;-1.0)", nn.Threshold(0.5, -1.0), "(`threshold;0.1;20)", nn.Threshold(0.1, 20.0)),
]
names = []
names2 = []
for name, m, d2, m2 in acts:
    name, _, d1 = name.partition(":")
    names.append(name)
    put("d", name, "enlist" + d1 if d1 else "`" + name)
    exp(name, m(x))
    if d2:
        names2.append(name)
        put("d", name + "2", "enlist" + d2)
        exp(name + "2", m2(x))
put("n", "acts", "`" + "`".join(names))
put("n", "acts2", "`" + "`".join(names2))

x3 = inp("x3", torch.arange(-6, 6, dtype=d).reshape(3, 2, 2) / 4)
exp("softmax2d", nn.Softmax2d()(x3))

xf = inp("xf", x.float())
pw = torch.tensor([0.1, 0.2, -0.3, 0.5])
weights("prelu", weight=pw)
p = nn.PReLU(4)
with torch.no_grad(): p.weight.copy_(pw)
exp("prelu", p(xf))
exp("prelu1", nn.PReLU()(xf))

# batch norm: weights and running statistics set, evaluation, then one training step
X = inp("X", torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-0.3, 2.5, 1.0], [0.8, 1.2, 0.1]]))
bw, bb = torch.tensor([1.5, 0.5, -1.0]), torch.tensor([0.1, 0.2, -0.3])
rm, rv = torch.tensor([0.5, -0.2, 1.0]), torch.tensor([2.0, 0.5, 1.5])
weights("bn", weight=bw, bias=bb, running_mean=rm, running_var=rv)
def bn1(momentum=0.1):
    b = nn.BatchNorm1d(3, momentum=momentum)
    with torch.no_grad():
        b.weight.copy_(bw); b.bias.copy_(bb); b.running_mean.copy_(rm); b.running_var.copy_(rv)
        b.num_batches_tracked.fill_(5)
    return b
b = bn1().eval()
exp("bn_eval", b(X))
b.train()
exp("bn_train", b(X))
exp("bn_mean", b.running_mean); exp("bn_var", b.running_var)
b = bn1(None).train()
exp("bncum_train", b(X))
exp("bncum_mean", b.running_mean); exp("bncum_var", b.running_var)
b = nn.BatchNorm1d(3, affine=False, track_running_stats=False).eval()
exp("bnbatch", b(X))
X4 = inp("X4", torch.arange(24, dtype=torch.float32).reshape(2, 3, 2, 2).sin())
b = nn.BatchNorm2d(3, momentum=0.5).train()
exp("bn2d_train", b(X4))
exp("bn2d_mean", b.running_mean); exp("bn2d_var", b.running_var)
b.eval()
exp("bn2d_eval", b(X4))
X5 = inp("X5", torch.arange(32, dtype=torch.float32).reshape(2, 2, 2, 2, 2).cos())
exp("bn3d_train", nn.BatchNorm3d(2).train()(X5))

# instance norm
X3 = inp("X3", torch.arange(24, dtype=torch.float32).reshape(2, 3, 4).sin() * 2)
exp("in1d", nn.InstanceNorm1d(3)(X3))
exp("in1d_single", nn.InstanceNorm1d(3)(X3[0]))
iw, ib = torch.tensor([0.5, 1.0, 2.0]), torch.tensor([0.0, -0.5, 0.25])
weights("in", weight=iw, bias=ib, running_mean=torch.tensor([0.1, 0.2, 0.3]), running_var=torch.tensor([1.0, 2.0, 0.5]))
i = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
with torch.no_grad():
    i.weight.copy_(iw); i.bias.copy_(ib)
    i.running_mean.copy_(torch.tensor([0.1, 0.2, 0.3])); i.running_var.copy_(torch.tensor([1.0, 2.0, 0.5]))
i.eval(); exp("in_eval", i(X3))
i.train(); exp("in_train", i(X3))
exp("in_mean", i.running_mean); exp("in_var", i.running_var)
exp("in2d", nn.InstanceNorm2d(3)(X4))
exp("in3d", nn.InstanceNorm3d(2)(X5))

# group and layer norm
G = inp("G", torch.arange(24, dtype=torch.float32).reshape(2, 4, 3).cos() * 3)
gw, gb = torch.tensor([1.0, 0.5, -1.0, 2.0]), torch.tensor([0.1, 0.0, -0.1, 0.2])
weights("gn", weight=gw, bias=gb)
g = nn.GroupNorm(2, 4)
with torch.no_grad(): g.weight.copy_(gw); g.bias.copy_(gb)
exp("gn", g(G))
exp("gn_plain", nn.GroupNorm(4, 4, eps=1e-3, affine=False)(G))
lw, lb = torch.tensor([1.0, 2.0, 0.5]), torch.tensor([0.0, 0.1, 0.2])
weights("ln", weight=lw, bias=lb)
l = nn.LayerNorm(3)
with torch.no_grad(): l.weight.copy_(lw); l.bias.copy_(lb)
exp("ln", l(G))
exp("ln2", nn.LayerNorm([4, 3], elementwise_affine=False)(G))

# local response norms
exp("lrn", nn.LocalResponseNorm(2)(G))
exp("lrn2", nn.LocalResponseNorm(3, alpha=0.01, beta=0.5, k=2.0)(G))
C = inp("C", torch.arange(40, dtype=torch.float32).reshape(2, 5, 2, 2).sin() * 4)
exp("crossmap", nn.CrossMapLRN2d(3, alpha=0.01)(C))

# normalize, distances
exp("normalize", F.normalize(x))
exp("normalize2", F.normalize(x, p=1.0, dim=0))
y = inp("y", torch.tensor([[1.0, 0.5, -0.5, 2.0], [0.0, 0.0, 1.0, 1.0],
                           [-1.0, 2.0, 0.5, 0.3], [2.0, -2.0, 0.1, 0.0]], dtype=d))
exp("pairwise", nn.PairwiseDistance()(x, y))
exp("pairwise2", nn.PairwiseDistance(p=1.0, eps=0.0, keepdim=True)(x, y))
exp("similar", nn.CosineSimilarity()(x, y))
exp("similar2", nn.CosineSimilarity(dim=0)(x, y))
exp("pdist", F.pdist(x))
exp("pdist1", F.pdist(x, p=1.0))

print(f"/ generated by tests/q/gen/nn_act.py with torch {torch.__version__.split('+')[0]}: do not edit")
print("\n".join(out))
