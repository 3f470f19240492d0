"""Kernel by kernel: two profiles of the same number of training steps (ktorch's `profile` rows
written by bench/gpt/gpt.q, torch.profiler's key_averages written by gpt.py --profile), as
`name device calls total_us` lines. Prints the GPU time per step of each side, then the kernels
whose time per step differs most, with calls per step on each side.

    python bench/gpt/profile_compare.py KTORCH.tsv TORCH.tsv STEPS
"""
import sys


def load(path):
    rows = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) == 4 and f[1] == "cuda":
            n, c, t = f[0], int(f[2]), float(f[3])
            a = rows.setdefault(n, [0, 0.0])
            a[0] += c
            a[1] += t
    return rows


def short(n, w=90):
    return n if len(n) <= w else n[: w - 3] + "..."


k, t, steps = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
kt, tt = sum(v[1] for v in k.values()) / steps / 1e3, sum(v[1] for v in t.values()) / steps / 1e3
print(f"GPU kernel time per step: ktorch {kt:.2f} ms, PyTorch {tt:.2f} ms, difference {kt - tt:+.2f} ms")
print(f"kernels launched per step: ktorch {sum(v[0] for v in k.values()) / steps:.0f}, PyTorch {sum(v[0] for v in t.values()) / steps:.0f}")
names = set(k) | set(t)
diff = sorted(names, key=lambda n: -abs(k.get(n, [0, 0])[1] - t.get(n, [0, 0])[1]))
print(f"{'ms/step ktorch':>14} {'PyTorch':>8} {'diff':>7} {'calls/step k':>12} {'PyTorch':>8}  kernel")
for n in diff[:40]:
    a, b = k.get(n, [0, 0.0]), t.get(n, [0, 0.0])
    print(f"{a[1]/steps/1e3:14.3f} {b[1]/steps/1e3:8.3f} {(a[1]-b[1])/steps/1e3:+7.3f} {a[0]/steps:12.1f} {b[0]/steps:8.1f}  {short(n)}")
