"""Expected values for tests/q/ktorch_optim.q: the first three updates of each optimizer with
torch.optim (torch==2.11.0 of the virtualenv) on the same parameters and gradients; LAMB, which
PyTorch lacks, by an independent transcription of ktorch's rule (opt.rst, kopt/lamb.cpp).
Run `$VIRTUAL_ENV/bin/python tests/q/gen/optim.py > tests/q/data/optim_expected.q`.
Writes the parameters (`.p.W`, `.p.B`), gradients per step (`.p.GW`, `.p.GB`), and for each case
the parameters after each step (`E[`case]` = (W1;B1;W2;B2;W3;B3)) and the buffers of W after
the last step (`S[`case]`, a dictionary). All doubles."""
import torch

torch.manual_seed(7)
W = torch.randn(2, 3, dtype=torch.float64)
B = torch.randn(2, dtype=torch.float64)
GW = [torch.randn(2, 3, dtype=torch.float64) for _ in range(3)]
GB = [torch.randn(2, dtype=torch.float64) for _ in range(3)]

def q(v):
    t = torch.as_tensor(v)
    if t.dim() == 0: return repr(float(t.item())) + "f"
    if t.dim() == 1:
        s = " ".join(repr(float(x)) for x in t.tolist()) + "f"
        return ("enlist " + s) if t.numel() == 1 else s
    return "(" + ";".join(q(r) for r in t) + ")"

out = ["E:(`symbol$())!()", "S:(`symbol$())!()", f".p.W:{q(W)}", f".p.B:{q(B)}", ".p.GW:(" + ";".join(q(g) for g in GW) + ")", ".p.GB:(" + ";".join(q(g) for g in GB) + ")"]

def run(case, make):
    w, b = W.clone().requires_grad_(True), B.clone().requires_grad_(True)
    o = make([w, b])
    steps = []
    for i in range(3):
        o.zero_grad()
        w.grad, b.grad = GW[i].clone(), GB[i].clone()
        o.step()
        steps += [w.detach().clone(), b.detach().clone()]
    out.append(f"E[`{case}]:(" + ";".join(q(s) for s in steps) + ")")
    st = o.state[w]
    keys = [k for k in st if torch.is_tensor(st[k])]
    vals = [st[k] for k in keys]
    if len(keys) > 1:
        out.append(f"S[`{case}]:(`{'`'.join(keys)})!(" + ";".join(q(v) for v in vals) + ")")
    elif keys:
        out.append(f"S[`{case}]:(enlist`{keys[0]})!enlist {q(vals[0])}")

O = torch.optim
run("sgd", lambda p: O.SGD(p, lr=0.1))
run("sgdm", lambda p: O.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01))
run("nesterov", lambda p: O.SGD(p, lr=0.1, momentum=0.9, nesterov=True))
run("adam", lambda p: O.Adam(p, lr=0.01))
run("adamd", lambda p: O.Adam(p, lr=0.01, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1, amsgrad=True))
run("adamw", lambda p: O.AdamW(p, lr=0.01))
run("adamwa", lambda p: O.AdamW(p, lr=0.01, weight_decay=0.1, amsgrad=True))
run("adagrad", lambda p: O.Adagrad(p, lr=0.1))
run("adagradd", lambda p: O.Adagrad(p, lr=0.1, lr_decay=0.1, weight_decay=0.01, initial_accumulator_value=0.5, eps=1e-8))
run("rmsprop", lambda p: O.RMSprop(p, lr=0.01))
run("rmspropc", lambda p: O.RMSprop(p, lr=0.01, alpha=0.9, weight_decay=0.01, momentum=0.5, centered=True))

# LAMB (ktorch's rule) on doubles, written out here from the formula
def lamb(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, decay=0.0, unbiased=True, globalnorm=True, trustclip=True, tmin=0.0, tmax=1.0):
    p = [W.clone(), B.clone()]
    m = [torch.zeros_like(x) for x in p]; v = [torch.zeros_like(x) for x in p]
    steps = []
    for i in range(3):
        g = [GW[i].clone(), GB[i].clone()]
        if globalnorm:
            n = torch.sqrt(sum((x ** 2).sum() for x in g))
            g = [x / n for x in g]
        for j in range(2):
            m[j] = m[j] * b1 + (1 - b1) * g[j]
            v[j] = v[j] * b2 + (1 - b2) * g[j] * g[j]
            s = i + 1
            if unbiased:
                u = (m[j] / (1 - b1 ** s)) / ((v[j].sqrt() / (1 - b2 ** s) ** 0.5) + eps)
            else:
                u = m[j] / (v[j].sqrt() + eps)
            if decay: u = u + decay * p[j]
            wn, un = p[j].norm(), u.norm()
            t = wn / un if (wn > 0 and un > 0) else torch.tensor(1.0, dtype=torch.float64)
            if trustclip: t = t.clamp(tmin, tmax)
            p[j] = p[j] - lr * t * u
        steps += [p[0].clone(), p[1].clone()]
    return steps

for case, kw in [("lamb", {}), ("lambd", dict(lr=0.01, decay=0.01, unbiased=False, globalnorm=False, trustclip=False))]:
    out.append(f"E[`{case}]:(" + ";".join(q(s) for s in lamb(**kw)) + ")")

print("\n".join(out))
