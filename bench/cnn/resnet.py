"""GPU section of `make bench` (issue 21): a wide ResNet (WRN-16-4) on CIFAR-shaped data, trained
by ktorch (qhost running bench/cnn/resnet.q: `run m`, one call an epoch) beside the same net in
PyTorch eager (nn.Sequential of the same blocks, SGD momentum .9, the standard loop over the same
batches of data already on the GPU, batch losses kept as tensors and their mean read once per
epoch, as `run` does). Random images: only throughput is measured.

    python bench/cnn/resnet.py [--qhost PATH] [--epochs N] [--warmup N] [--rounds N] [--batch B]
                               [--images N] [--configs fp32,tf32,bf16,bf16cl,fp16cl]

Configurations: fp32, tf32, bf16 (autocast, TF32), bf16cl (bf16, channels-last images and
weights), fp16cl (autocast fp16 + GradScaler, channels-last). Rounds interleave every
configuration; the figure is the median over rounds. Prints images/s, model TFLOP/s (3 x the
forward's multiply-adds x 2 of the convolutions and the linear layer) and the fraction of the bf16
matmul peak measured here, then the target line: ktorch bf16 channels-last >= 1.0x PyTorch's.
"""
import argparse
import os
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F
from torch import nn

N, B, WIDEN, R = 5120, 128, 4, 32
if os.environ.get("SMALL"):
    N, B, WIDEN, R = 64, 16, 1, 8


class Residual(nn.Module):
    """ktorch's residual: q1(x) + x, or q1(x) + q2(x)."""

    def __init__(s, q1, q2=None):
        super().__init__()
        s.q1, s.q2 = q1, q2

    def forward(s, x):
        return s.q1(x) + (s.q2(x) if s.q2 is not None else x)


def blk(i, o, st):
    q1 = nn.Sequential(nn.BatchNorm2d(i), nn.ReLU(), nn.Conv2d(i, o, 3, st, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(), nn.Conv2d(o, o, 3, 1, 1, bias=False))
    return Residual(q1) if i == o and st == 1 else Residual(q1, nn.Sequential(nn.Conv2d(i, o, 1, st, 0, bias=False)))


def make(dev):
    torch.manual_seed(42)
    W = [16, 16 * WIDEN, 32 * WIDEN, 64 * WIDEN]
    return nn.Sequential(
        nn.Conv2d(3, W[0], 3, 1, 1, bias=False),
        blk(W[0], W[1], 1), blk(W[1], W[1], 1), blk(W[1], W[2], 2), blk(W[2], W[2], 1), blk(W[2], W[3], 2), blk(W[3], W[3], 1),
        nn.BatchNorm2d(W[3]), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(W[3], 10),
    ).to(dev)


def flops_per_image():
    """Training FLOPs of one image: 3 x 2 x the forward's multiply-adds (convolutions, linear)."""
    m, macs = make("cpu"), [0]

    def hook(mod, inp, out):
        if isinstance(mod, nn.Conv2d):
            macs[0] += out.numel() * mod.in_channels // mod.groups * mod.kernel_size[0] * mod.kernel_size[1]
        elif isinstance(mod, nn.Linear):
            macs[0] += out.numel() * mod.in_features

    for mod in m.modules():
        if isinstance(mod, (nn.Conv2d, nn.Linear)):
            mod.register_forward_hook(hook)
    with torch.no_grad():
        m(torch.randn(1, 3, R, R))
    return 6 * macs[0]


# PyTorch rows beside the plain eager loop (issue 31: the peer at its best): "fused" = SGD's fused
# CUDA kernel (fused=True) instead of its default foreach; "compile" = torch.compile(model) (default
# mode) and "compilero" = mode "reduce-overhead" (CUDA graphs), both with the fused SGD.
VARIANTS = ("eager", "fused", "compile", "compilero")


def torch_run(cfg, dev, epochs, warmup, variant="eager"):
    """Seconds for `epochs` epochs after `warmup`, the last epoch's mean loss, and the warm-up's
    seconds (compilation included for the compiled variants)."""
    torch.backends.cuda.matmul.allow_tf32 = cfg != "fp32"
    torch.backends.cudnn.allow_tf32 = cfg != "fp32"
    torch.backends.cudnn.benchmark = True
    cl = cfg.endswith("cl")
    m = make(dev)
    g = torch.Generator(device=dev).manual_seed(7)
    x = torch.randn(N, 3, R, R, device=dev, generator=g)
    y = torch.randint(0, 10, (N,), device=dev, generator=g)
    if cl:
        m = m.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, fused=variant != "eager")
    f = m
    if variant.startswith("compile"):
        f = torch.compile(m, mode="reduce-overhead" if variant == "compilero" else None)
    half = {"bf16": torch.bfloat16, "bf16cl": torch.bfloat16, "fp16cl": torch.float16}.get(cfg)
    scaler = torch.amp.GradScaler("cuda") if cfg == "fp16cl" else None
    m.train()

    def epoch():
        ls = []
        for i in range(0, N, B):
            xb, yb = x[i:i + B], y[i:i + B]
            o.zero_grad(set_to_none=True)
            with torch.autocast("cuda", half or torch.float32, enabled=half is not None):
                l = F.cross_entropy(f(xb), yb)
            if scaler:
                scaler.scale(l).backward()
                scaler.step(o)
                scaler.update()
            else:
                l.backward()
                o.step()
            ls.append(l.detach())
        return torch.stack(ls).mean().item()

    tw = time.perf_counter()
    for _ in range(warmup):
        epoch()
    torch.cuda.synchronize(dev)
    t0 = time.perf_counter()
    for _ in range(epochs):
        l = epoch()
    torch.cuda.synchronize(dev)
    return time.perf_counter() - t0, l, t0 - tw


def ktorch_run(qhost, cfg, dev, epochs, warmup):
    cmd = [qhost, os.path.join(os.path.dirname(os.path.abspath(__file__)), "resnet.q"), dev, cfg, str(epochs), str(warmup), str(B), str(N)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    line = [l for l in r.stdout.splitlines() if l.startswith("resnet ")]
    if r.returncode != 0 or not line:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stdout[-500:]} {r.stderr[-500:]}")
    f = line[-1].split()
    return float(f[3]), float(f[5])


def peak(dev):
    """Measured bf16 matmul rate (TFLOP/s): an 8192^3 product, median of 20 timed by events."""
    n = 8192
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    for _ in range(5):
        a @ b
    ts = []
    for _ in range(20):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        a @ b
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / 1e3)
    return 2 * n**3 / statistics.median(ts) / 1e12


def main():
    global N, B
    ap = argparse.ArgumentParser()
    ap.add_argument("--qhost", default="target/release/qhost")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--peak", type=float, default=0.0, help="bf16 matmul peak in TFLOP/s (measured by gpt.py); 0: measure")
    ap.add_argument("--configs", default="fp32,tf32,bf16,bf16cl,fp16cl")
    ap.add_argument("--batch", type=int, default=B)
    ap.add_argument("--images", type=int, default=N)
    ap.add_argument("--peers", default="eager", help="PyTorch variants to run, from " + ",".join(VARIANTS) + " (extra ones for bf16cl only)")
    a = ap.parse_args()
    N, B = a.images, a.batch
    dev = torch.device(a.device)
    torch.set_num_threads(1)
    cfgs = a.configs.split(",")
    pk = a.peak or peak(dev)
    fl = flops_per_image()
    name = torch.cuda.get_device_name(dev)
    print(f"WRN-16-{WIDEN} on {N} CIFAR-shaped images, batch {B}, SGD momentum .9; {fl/1e9:.2f} GFLOP an image (training); {name}; PyTorch {torch.__version__}; bf16 peak {pk:.0f} TFLOP/s", flush=True)
    times = {}
    for r in range(a.rounds):
        for c in cfgs:
            try:
                s, l = ktorch_run(a.qhost, c, a.device, a.epochs, a.warmup)
                times.setdefault(("ktorch", c), []).append(s)
                print(f"  round {r}: ktorch {c} {a.epochs*N/s:,.0f} images/s (loss {l:.3f})", flush=True)
            except RuntimeError as e:
                print(f"  round {r}: ktorch {c} failed: {e}", flush=True)
            for v in a.peers.split(","):
                if v != "eager" and c != "bf16cl":
                    continue
                key = c if v == "eager" else f"{c}-{v}"
                s, l, w = torch_run(c, dev, a.epochs, a.warmup, v)
                times.setdefault(("torch", key), []).append(s)
                print(f"  round {r}: PyTorch {key} {a.epochs*N/s:,.0f} images/s (loss {l:.3f}; warm-up {w:.1f} s)", flush=True)
                torch._dynamo.reset()
                torch.cuda.empty_cache()
    rate = {k: a.epochs * N / statistics.median(v) for k, v in times.items()}
    label = {"fp32": "fp32", "tf32": "fp32 + TF32", "bf16": "bf16 autocast + TF32", "bf16cl": "bf16 autocast, channels-last", "fp16cl": "fp16 autocast + GradScaler, channels-last"}
    print()
    print("| side | precision | images/s | TFLOP/s | of bf16 peak | ktorch / PyTorch |")
    print("|---|---|---|---|---|---|")
    for c in cfgs:
        for side in ("ktorch", "torch"):
            it = rate.get((side, c))
            if it is None:
                continue
            tf = it * fl / 1e12
            vs = f"{rate[('ktorch', c)] / rate[('torch', c)]:.2f}x" if side == "ktorch" and ("torch", c) in rate else ""
            print(f"| {'ktorch (qhost, run m)' if side == 'ktorch' else 'PyTorch eager'} | {label[c]} | {it:,.0f} | {tf:.1f} | {tf/pk:.1%} | {vs} |")
    vlabel = {"fused": "PyTorch best eager (fused SGD)", "compile": "torch.compile default, fused SGD", "compilero": "torch.compile reduce-overhead, fused SGD"}
    for v in a.peers.split(","):
        it = rate.get(("torch", f"bf16cl-{v}"))
        if v != "eager" and it:
            tf = it * fl / 1e12
            print(f"| {vlabel[v]} | {label['bf16cl']} | {it:,.0f} | {tf:.1f} | {tf/pk:.1%} | |")
    print()
    k, t = rate.get(("ktorch", "bf16cl")), rate.get(("torch", "bf16cl"))
    if k and t:
        print(f"{'PASS' if k / t >= 1.0 else 'FAIL'} wide ResNet bf16 channels-last, ktorch vs PyTorch eager: {k/t:.2f}x (target >= 1.0x)")
    else:
        print("NOT RUN wide ResNet bf16 channels-last")
    # issue 31: against PyTorch's fastest eager row (plain or fused SGD), and torch.compile's best
    best = max((rate.get(("torch", c)) or 0 for c in ("bf16cl", "bf16cl-fused")), default=0)
    if k and best:
        print(f"{'PASS' if k / best >= 1.0 else 'FAIL'} ISSUE 31: wide ResNet bf16 channels-last, ktorch vs PyTorch best eager: {k/best:.2f}x (target >= 1.0x)")
    comp = max((rate.get(("torch", c)) or 0 for c in ("bf16cl-compile", "bf16cl-compilero")), default=0)
    if k and comp:
        print(f"INFO ISSUE 31: wide ResNet bf16 channels-last, ktorch vs torch.compile best mode: {k/comp:.2f}x")


if __name__ == "__main__":
    main()
