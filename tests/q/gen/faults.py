"""Expected values for tests/q/ktorch_faults.q: a linear layer (2 in, 3 out) trained by SGD (lr
0.1, cross entropy, batches of 4 in order) on 12 samples, as a model whose training fails in its
3rd batch: the parameters after the two batches that ran, then after a full epoch from there,
and that epoch's mean loss. Float32, as the model runs.
Run `$VIRTUAL_ENV/bin/python tests/q/gen/faults.py > tests/q/data/faults_expected.q`.
Writes `.i.X`, `.i.Y` (data), `.p.W0`, `.p.B0` (initial parameters), `.e.out0` (the layer's
output for X at the start), `.e.W2 .e.B2` (after 2 batches), `.e.W5 .e.B5`, `.e.loss5` (after
the next epoch of 3 batches, and its mean batch loss)."""
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
import torch
from qlit import q, out, put, inp, exp

torch.manual_seed(10)
X = inp("X", torch.randn(12, 2))
Y = inp("Y", torch.tensor([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2]))
lin = torch.nn.Linear(2, 3)
with torch.no_grad():
    lin.weight.copy_(torch.randn(3, 2))
    lin.bias.copy_(torch.randn(3))
put("p", "W0", q(lin.weight.detach()))
put("p", "B0", q(lin.bias.detach()))
exp("out0", lin(X))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
def batch(i):
    opt.zero_grad()
    l = torch.nn.functional.cross_entropy(lin(X[4 * i:4 * i + 4]), Y[4 * i:4 * i + 4])
    l.backward()
    opt.step()
    return l.detach()
for i in range(2): batch(i)
exp("W2", lin.weight); exp("B2", lin.bias)
losses = [batch(i) for i in range(3)]
exp("W5", lin.weight); exp("B5", lin.bias)
exp("loss5", torch.stack(losses).mean())
print("\n".join(out))
