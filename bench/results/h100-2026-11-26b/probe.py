"""Where the GPT step's copies come from (H100): PyTorch best-eager step of bench/gpt/gpt.py under
torch.profiler with shapes; prints ops by self CUDA time grouped by input shape."""
import sys, os, importlib.util, torch
spec = importlib.util.spec_from_file_location("gpt", os.path.join(os.path.dirname(__file__), "gpt.py"))
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
import torch.nn.functional as F
dev = torch.device("cuda")
torch.backends.cuda.matmul.allow_tf32 = True
m, o = g.make("bf16", dev)
x = torch.randint(0, g.V, (g.W, g.N + 1), device=dev)
def step():
    with torch.autocast("cuda", torch.bfloat16):
        l = F.cross_entropy(m(x[:, :-1]), x[:, 1:].reshape(-1))
    l.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, foreach=True)
    o.step(); o.zero_grad(set_to_none=True)
for _ in range(5): step()
torch.cuda.synchronize()
from torch.profiler import profile, ProfilerActivity
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, with_stack=True) as p:
    for _ in range(3): step()
    torch.cuda.synchronize()
ka = p.key_averages(group_by_input_shape=True)
print(ka.table(sort_by="self_cuda_time_total", row_limit=45, max_name_column_width=40, max_shapes_column_width=70))
ks = p.key_averages(group_by_stack_n=6)
rows = [e for e in ks if e.key in ("aten::copy_", "aten::clone", "aten::contiguous")]
rows.sort(key=lambda e: -e.self_device_time_total)
for e in rows[:12]:
    print(f"{e.key} calls {e.count} self cuda {e.self_device_time_total/3:.0f} us/step")
    for s in e.stack[:6]: print("    ", s)
