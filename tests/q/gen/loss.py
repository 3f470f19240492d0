"""Expected values for tests/q/ktorch_loss.q, computed with PyTorch (torch==2.11.0 of the
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/loss.py > tests/q/data/loss_expected.q`.
Writes the inputs (`.i.name`), each loss with its defaults and with a non-default option
(`.e.name`), and the gradients of the input after backward (`.g.name`). All doubles."""
import torch
import torch.nn.functional as F

def q(v):
    """A q literal for a tensor: floats as 9h, longs as 7h, nested by rows."""
    t = torch.as_tensor(v)
    if t.dim() == 0:
        x = t.item()
        if t.dtype.is_floating_point: return repr(float(x)) + "f"
        return str(int(x))
    if t.dim() == 1:
        if t.numel() == 1: return "enlist " + q(t[0])
        if t.dtype.is_floating_point: return " ".join(repr(float(x)) for x in t.tolist()) + "f"
        return " ".join(str(int(x)) for x in t.tolist())
    return "(" + ";".join(q(r) for r in t) + ")"

out = []
def put(ns, name, v): out.append(f".{ns}.{name}:{q(v)}")
def inp(name, v): put("i", name, v); return torch.as_tensor(v)
def exp(name, v): put("e", name, v.detach())
def grad(name, f, x, *rest):
    """gradient of f(x,*rest) with respect to x"""
    x = x.clone().requires_grad_(True)
    f(x, *rest).backward()
    put("g", name, x.grad)

d = torch.double
x = inp("x", torch.tensor([0.5, 2.0, 5.0, 1.5, -0.25], dtype=d))
y = inp("y", torch.tensor([1.0, 2.0, 3.0, -1.0, 0.5], dtype=d))
for n, f in [("mse", F.mse_loss), ("l1", F.l1_loss), ("smoothl1", F.smooth_l1_loss), ("huber", F.huber_loss)]:
    exp(n, f(x, y)); exp(n + "none", f(x, y, reduction="none")); exp(n + "sum", f(x, y, reduction="sum"))
    grad(n, f, x, y)
exp("smoothl1beta", F.smooth_l1_loss(x, y, beta=0.5)); grad("smoothl1beta", lambda a, b: F.smooth_l1_loss(a, b, beta=0.5, reduction="sum"), x, y)
exp("huberdelta", F.huber_loss(x, y, delta=0.5)); grad("huberdelta", lambda a, b: F.huber_loss(a, b, delta=0.5, reduction="sum"), x, y)

X = inp("X", torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.1, -0.3, 2.2, 0.7], [1.5, 1.5, -0.5, 0.0]], dtype=d))
Y = inp("Y", torch.tensor([1, 0, 3]))
W = inp("W", torch.tensor([0.25, 0.25, 0.12, 0.38], dtype=d))
exp("ce", F.cross_entropy(X, Y)); grad("ce", F.cross_entropy, X, Y)
exp("ceopt", F.cross_entropy(X, Y, weight=W, label_smoothing=0.1, reduction="sum"))
exp("ceignore", F.cross_entropy(X, Y, ignore_index=0, reduction="none"))
grad("ceopt", lambda a, b: F.cross_entropy(a, b, weight=W, label_smoothing=0.1, reduction="sum"), X, Y)
L = inp("L", F.log_softmax(X, 1))
exp("nll", F.nll_loss(L, Y)); grad("nll", F.nll_loss, L, Y)
exp("nllopt", F.nll_loss(L, Y, weight=W, ignore_index=3))
grad("nllopt", lambda a, b: F.nll_loss(a, b, weight=W, ignore_index=3), L, Y)

p = inp("p", torch.tensor([0.1, 0.9, 0.5, 0.3], dtype=d))
t = inp("t", torch.tensor([0.0, 1.0, 1.0, 0.0], dtype=d))
w = inp("w", torch.tensor([1.0, 1.1, 0.5, 2.0], dtype=d))
exp("bce", F.binary_cross_entropy(p, t)); grad("bce", F.binary_cross_entropy, p, t)
exp("bcew", F.binary_cross_entropy(p, t, weight=w, reduction="none"))
grad("bcew", lambda a, b: F.binary_cross_entropy(a, b, weight=w, reduction="sum"), p, t)
Z = inp("Z", torch.tensor([[1.5, -0.5, 0.2], [0.3, 2.0, -1.0]], dtype=d))
T = inp("T", torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], dtype=d))
PW = inp("PW", torch.tensor([0.25, 0.5, 2.0], dtype=d))
BW = inp("BW", torch.tensor([[0.1, 0.1, 0.1], [2.0, 2.0, 2.0]], dtype=d))
exp("bcelogit1", F.binary_cross_entropy_with_logits(Z, T))
exp("bcelogit1w", F.binary_cross_entropy_with_logits(Z, T, pos_weight=PW, reduction="none"))
exp("bcelogit2", F.binary_cross_entropy_with_logits(Z, T, weight=BW))
exp("bcelogit2w", F.binary_cross_entropy_with_logits(Z, T, weight=BW, pos_weight=PW, reduction="sum"))

K = inp("K", torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], dtype=d))   # target probabilities
LK = inp("LK", F.log_softmax(Z, 1))
exp("kl", F.kl_div(LK, K, reduction="mean")); grad("kl", lambda a, b: F.kl_div(a, b, reduction="mean"), LK, K)
exp("klbatch", F.kl_div(LK, K, reduction="batchmean")); exp("klnone", F.kl_div(LK, K, reduction="none"))
grad("klbatch", lambda a, b: F.kl_div(a, b, reduction="batchmean"), LK, K)

h = inp("h", torch.tensor([0.3, 1.2, -0.4, 2.0], dtype=d))
hy = inp("hy", torch.tensor([1.0, -1.0, -1.0, 1.0], dtype=d))
exp("hinge", F.hinge_embedding_loss(h, hy)); exp("hingeopt", F.hinge_embedding_loss(h, hy, margin=0.5, reduction="none"))
exp("softmargin", F.soft_margin_loss(h, hy)); exp("softmarginsum", F.soft_margin_loss(h, hy, reduction="sum"))
A = inp("A", torch.tensor([[1.0, 0.0, 2.0, 1.0], [0.5, 0.5, -1.0, 2.0], [0.0, 1.0, 1.0, 1.0]], dtype=d))
B = inp("B", torch.tensor([[0.5, 1.0, 2.0, -1.0], [1.0, 0.0, 1.0, 0.0], [2.0, 1.0, 0.0, 1.0]], dtype=d))
N_ = inp("N", torch.tensor([[0.0, 0.0, 1.0, 1.0], [0.5, 1.5, -1.0, 1.0], [1.0, 1.0, 1.0, 0.0]], dtype=d))
cy = inp("cy", torch.tensor([1.0, -1.0, 1.0], dtype=d))
exp("cosineloss", F.cosine_embedding_loss(A, B, cy)); exp("cosinelossopt", F.cosine_embedding_loss(A, B, cy, margin=0.2, reduction="none"))
m1 = inp("m1", torch.tensor([0.5, 1.0, -0.3], dtype=d)); m2 = inp("m2", torch.tensor([0.4, 1.5, 0.0], dtype=d))
exp("margin", F.margin_ranking_loss(m1, m2, cy)); exp("marginopt", F.margin_ranking_loss(m1, m2, cy, margin=0.5, reduction="sum"))
exp("triplet", F.triplet_margin_loss(A, B, N_))
exp("tripletopt", F.triplet_margin_loss(A, B, N_, margin=0.5, p=1.0, swap=True, reduction="none"))
ML = inp("ML", torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2]]))
exp("multilabel", F.multilabel_margin_loss(X, ML)); exp("multilabelnone", F.multilabel_margin_loss(X, ML, reduction="none"))
exp("multimargin", F.multi_margin_loss(X, Y)); grad("multimargin", F.multi_margin_loss, X, Y)
exp("multimarginopt", F.multi_margin_loss(X, Y, p=2, margin=0.5, weight=W, reduction="none"))
grad("multimarginopt", lambda a, b: F.multi_margin_loss(a, b, p=2, margin=0.5, weight=W, reduction="sum"), X, Y)
exp("multimargin1", F.multi_margin_loss(X[0], Y[0]))
MS = inp("MS", torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]], dtype=d))
exp("multisoft", F.multilabel_soft_margin_loss(X, MS)); grad("multisoft", F.multilabel_soft_margin_loss, X, MS)
exp("multisoftopt", F.multilabel_soft_margin_loss(X, MS, weight=W, reduction="none"))
pc = inp("pc", torch.tensor([2.0, 0.0, 1.0, 4.0], dtype=d)); pr = inp("pr", torch.tensor([1.5, 0.5, 2.0, 3.0], dtype=d))
exp("poissonloss", F.poisson_nll_loss(h, pc))
exp("poissonlossopt", F.poisson_nll_loss(pr, pc, log_input=False, full=True, reduction="none"))

# ctc: log-probabilities (T=5, N=2, C=4), targets (N, S=2), lengths
torch.manual_seed(3)
LP = inp("LP", F.log_softmax(torch.randn(5, 2, 4, dtype=d), 2))
CT = inp("CT", torch.tensor([[1, 2], [3, 3]]))
IL = inp("IL", torch.tensor([5, 4])); TL = inp("TL", torch.tensor([2, 2]))
exp("ctc", F.ctc_loss(LP, CT, IL, TL))
exp("ctcsum", F.ctc_loss(LP, CT, IL, TL, blank=0, reduction="sum"))
exp("ctcnone", F.ctc_loss(LP, CT, IL, TL, reduction="none"))
print("/ generated by tests/q/gen/loss.py with torch " + torch.__version__.split("+")[0] + ": do not edit")
print("\n".join(out))
