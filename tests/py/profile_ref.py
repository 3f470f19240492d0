"""torch.profiler on the CPU over the operations tests/profile/profile.q runs through ktorch's
`profile`: prints one line per aten operator, `name<TAB>calls<TAB>shapes`, from
key_averages(group_by_input_shape=True), for tests/profile.rs to compare."""
import torch
from torch.profiler import ProfilerActivity, profile

x = torch.full((64, 32), 0.5)
w = torch.full((32, 16), 0.25)
b = torch.ones(16)
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as p:
    for _ in range(3):
        y = torch.mm(x, w)
        z = torch.add(y, b)
    r = torch.relu(z)
for e in p.key_averages(group_by_input_shape=True):
    if e.key.startswith("aten::"):
        print(f"{e.key}\t{e.count}\t{e.input_shapes}")
