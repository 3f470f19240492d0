"""Where a ktorch training step leaves the GPU idle: from the events of ktorch's `profile`
(written by bench/gpt/gpt.q as `name device start_us duration_us`), the GPU's busy time (the
union of its kernels, copies and fills) against the wall time from the first to the last GPU
event, and each idle stretch split by what the host was in meanwhile: a `ktorch::name` range (a
q call into ktorch) or none (q's own code between calls).

    python bench/gpt/profile_gaps.py EVENTS.tsv STEPS
"""
import collections
import sys

gpu, ranges = [], []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) != 4:
        continue
    n, d, s, u = f[0], f[1], float(f[2]), float(f[3])
    if d == "cuda":
        gpu.append((s, s + u))
    elif n.startswith("ktorch::"):
        ranges.append((s, s + u, n))
steps = int(sys.argv[2])
gpu.sort()
busy, idle = [], []
for a, b in gpu:
    if busy and a <= busy[-1][1]:
        busy[-1][1] = max(busy[-1][1], b)
    else:
        if busy:
            idle.append((busy[-1][1], a))
        busy.append([a, b])
if not busy:
    print("no GPU events in this profile (a run on the CPU)")
    sys.exit(0)
wall = busy[-1][1] - busy[0][0]
btime = sum(b - a for a, b in busy)
print(f"GPU span {wall/steps/1e3:.2f} ms a step, busy {btime/steps/1e3:.2f} ms, idle {(wall-btime)/steps/1e3:.2f} ms ({(wall-btime)/wall:.0%})")
by = collections.Counter()
for a, b in idle:
    # the outermost ktorch range overlapping each part of the gap; the rest is q's own code
    covered = 0.0
    for s, e, n in ranges:
        o = min(b, e) - max(a, s)
        if o > 0:
            by[n] += o
            covered += o
    by["(q code between ktorch calls)"] += max(0.0, (b - a) - covered)
print("GPU idle a step, by what the host was in (ranges may nest: a call inside another counts in both):")
for n, t in by.most_common(15):
    print(f"  {t/steps/1e3:7.3f} ms  {n}")
