"""Expected values for tests/q/ktorch_lbfgs.q: torch.optim.LBFGS (torch==2.11.0 of the virtualenv)
on small regressions in double precision, three steps each with the closure zero_grad, forward,
mse, backward (what a model's `backstep` does).
Run `$VIRTUAL_ENV/bin/python tests/q/gen/lbfgs.py > tests/q/data/lbfgs_expected.q`.
Writes the data (`.d.X`, `.d.Y` for a linear 3->1 model, `.d.X2`, `.d.Y2` for a small tanh net),
the starting parameters (`.p.lin`, `.p.net`: each module's parameters by name, values a single float
holds exactly), and for each case
`L[`case]` (the loss each step returns) and `P[`case]` (all parameters after each step,
flattened); a comment per case gives the history length and the count of zoom steps in the line
search, to show what the case exercises."""
import torch
import torch.optim.lbfgs as lb

torch.manual_seed(11)
D = torch.float64
X = torch.randn(16, 3, dtype=D)
Y = X @ torch.tensor([[1.5], [-2.0], [0.5]], dtype=D) + 0.3 + 0.1 * torch.randn(16, 1, dtype=D)
X2 = torch.randn(16, 3, dtype=D)
Y2 = torch.sin(X2.sum(1, keepdim=True))

lin = torch.nn.Linear(3, 1).double()
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)).double()
# starting parameters that single floats hold exactly (a module gets them as reals, then doubles)
LIN = {k: v.detach().float().double() for k, v in lin.state_dict().items()}
NET = {k: v.detach().float().double() for k, v in net.state_dict().items()}

def q(v):
    t = torch.as_tensor(v, dtype=D)
    if t.dim() == 0:
        return repr(float(t.item())) + "f"
    if t.dim() == 1:
        s = " ".join(repr(float(x)) for x in t.tolist()) + "f"
        return ("enlist " + s) if t.numel() == 1 else ("`float$()" if t.numel() == 0 else s)
    if t.size(0) == 0:
        return "()"
    if t.size(0) == 1:
        return "enlist " + q(t[0])
    return "(" + ";".join(q(r) for r in t) + ")"

def qdict(d):
    return "(`" + "`".join(d) + ")!(" + ";".join(q(v) for v in d.values()) + ")"

out = ["L:(`symbol$())!()", "P:(`symbol$())!()",
       f".d.X:{q(X)}", f".d.Y:{q(Y)}", f".d.X2:{q(X2)}", f".d.Y2:{q(Y2)}",
       f".p.lin:{qdict(LIN)}", f".p.net:{qdict(NET)}"]

# count the line search's zoom phase (cubic interpolation without bounds), to be sure it is tested
zooms = [0]
cubic = lb._cubic_interpolate
def counted(*a, bounds=None):
    if bounds is None:
        zooms[0] += 1
    return cubic(*a, bounds=bounds)
lb._cubic_interpolate = counted

def run(case, model, start, x, y, **kw):
    model.load_state_dict(start)
    o = torch.optim.LBFGS(model.parameters(), **kw)
    losses, parms = [], []
    def closure():
        o.zero_grad()
        l = torch.nn.functional.mse_loss(model(x), y)
        l.backward()
        return l
    z = zooms[0]
    for _ in range(3):
        losses.append(o.step(closure).item())
        parms.append(torch.cat([p.detach().reshape(-1) for p in model.parameters()]))
    out.append(f"L[`{case}]:{q(torch.tensor(losses, dtype=D))}")
    out.append(f"P[`{case}]:{q(torch.stack(parms))}")
    s = o.state[next(iter(model.parameters()))]
    out.append(f"/ {case}: history {len(s['old_dirs'])}, zoom steps {zooms[0] - z}")

run("lin", lin, LIN, X, Y)
run("linh", lin, LIN, X, Y, lr=0.5, max_iter=4, history_size=2)
run("linw", lin, LIN, X, Y, max_iter=5, history_size=2, line_search_fn="strong_wolfe")
run("net", net, NET, X2, Y2, max_iter=5, history_size=3)
run("netw", net, NET, X2, Y2, lr=2.0, max_iter=8, max_eval=12, history_size=3, line_search_fn="strong_wolfe")
print("\n".join(out))
