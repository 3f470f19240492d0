"""Expected values for tests/q/ktorch_async.q: a small network (linear 4->8, relu, linear 8->3)
with fixed float32 parameters, its output on fixed inputs, and one full-batch training pass
(cross entropy, SGD lr .1): the loss and the parameters after the step, with torch==2.11.0.
Run `$VIRTUAL_ENV/bin/python tests/q/gen/async.py > tests/q/data/async_expected.q`."""
import torch

torch.manual_seed(11)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
X = torch.randn(6, 4)
Y = torch.tensor([0, 2, 1, 1, 0, 2])

def q(v):
    t = torch.as_tensor(v)
    if t.dim() == 0: return repr(float(t.item())) + "e"
    if t.dim() == 1: return " ".join(repr(float(x)) for x in t.tolist()) + "e"
    return "(" + ";".join(q(r) for r in t) + ")"

names = ["0.weight", "0.bias", "2.weight", "2.bias"]
parms = dict(net.named_parameters())
out = [".a.names:`" + "`".join(names),
       ".a.parms:(" + ";".join(q(parms[n].detach()) for n in names) + ")",
       f".a.X:{q(X)}", ".a.Y:" + " ".join(str(int(y)) for y in Y)]
with torch.no_grad():
    out.append(f".a.out:{q(net(X))}")
opt = torch.optim.SGD(net.parameters(), lr=0.1)
opt.zero_grad()
loss = torch.nn.functional.cross_entropy(net(X), Y)
loss.backward()
opt.step()
out.append(f".a.loss:{q(loss.detach())}")
out.append(".a.after:(" + ";".join(q(parms[n].detach()) for n in names) + ")")
print("\n".join(out))
