"""Expected values for tests/q/ktorch_amp.q, computed with PyTorch (torch==2.11.0 of the
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/amp.py > tests/q/data/amp_expected.q`.
Gradient scaling (torch.amp.GradScaler on the CPU, the same ATen kernels as on CUDA) through
overflows: an initial scale of 2^120 makes the scaled gradients inf, so the first steps are
skipped and the scale backs off (factor 2^-4), then grows (factor 2^6, every 2 clean steps) until
it overflows again. For each step: the loss, the scale after `update`, the growth tracker and
whether the step was skipped; the parameters after the last step.
Case `sgd`: SGD with momentum (torch.optim's single-tensor rule; GradScaler reads the found-inf
flag back), the step as ktorch's `run` makes it. Case `adam`: Adam through the fused kernel
(fused=True: the kernel takes the found-inf flag and skips the update itself), the loop
written by hand with clipping: scale(l).backward(), unscale_, clip_grad_norm_, step, update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)

from qlit import exp, inp, out, parms, put, q, qdict  # noqa: F401

INIT, GROWTH, BACKOFF, INTERVAL, STEPS = 2.0**120, 2.0**6, 2.0**-4, 2, 12
x = inp("x", torch.randn(8, 3) * 100)
y = inp("y", torch.randn(8, 2) * 100)

def case(name, make_opt, clip):
    m = nn.Linear(3, 2)
    parms(name, m)
    o = make_opt(m.parameters())
    s = torch.amp.GradScaler("cpu", init_scale=INIT, growth_factor=GROWTH, backoff_factor=BACKOFF, growth_interval=INTERVAL)
    losses, scales, trackers, skipped = [], [], [], []
    for _ in range(STEPS):
        o.zero_grad(set_to_none=True)
        l = F.mse_loss(m(x), y)
        s.scale(l).backward()
        if clip:
            s.unscale_(o)
            nn.utils.clip_grad_norm_(m.parameters(), clip)
        before = s.get_scale()
        s.step(o)
        s.update()
        losses.append(l.item()); scales.append(s.get_scale()); trackers.append(s._growth_tracker.item())
        skipped.append(s.get_scale() < before)
    put("e", name + "L", q(torch.tensor(losses, dtype=torch.float64)))
    put("e", name + "S", q(torch.tensor(scales, dtype=torch.float64)))
    put("e", name + "T", q(torch.tensor(trackers)))
    put("e", name + "K", q(torch.tensor(skipped)))
    put("e", name + "P", qdict({k: p.detach() for k, p in m.named_parameters()}))

case("sgd", lambda p: torch.optim.SGD(p, lr=1e-5, momentum=0.9, foreach=False), 0)
case("adam", lambda p: torch.optim.Adam(p, lr=0.1, fused=True), 50.0)
print("\n".join(out).replace("e+", "e"))
