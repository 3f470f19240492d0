"""Shared by the generators of tests/q/data/*_expected.q files for module tests (nn_rnn.py,
nn_transformer.py): q literals for tensors and dictionaries, and the `out` lines a generator
prints (`.p.name` parameters, `.i.name` inputs, `.e.name` expected outputs)."""
import torch

def q(v):
    """A q literal for a tensor: floats as 9h, longs as 7h, booleans as 1h, nested by rows."""
    t = torch.as_tensor(v)
    if t.dim() == 0:
        x = t.item()
        if t.dtype == torch.bool: return "1b" if x else "0b"
        if t.dtype.is_floating_point: return repr(float(x)) + "f"
        return str(int(x))
    if t.dim() == 1:
        if t.numel() == 1: return "enlist " + q(t[0])
        if t.dtype == torch.bool: return "".join("1" if x else "0" for x in t.tolist()) + "b"
        if t.dtype.is_floating_point: return " ".join(repr(float(x)) for x in t.tolist()) + "f"
        return " ".join(str(int(x)) for x in t.tolist())
    if len(t) == 1: return "enlist " + q(t[0])
    return "(" + ";".join(q(r) for r in t) + ")"

def qdict(d):
    """A q dictionary of names to values."""
    k, v = list(d.keys()), list(d.values())
    if len(k) == 1: return f"(enlist`{k[0]})!enlist {q(v[0])}"
    return "`" + "`".join(k) + "!(" + ";".join(q(x) for x in v) + ")"

out = []
def put(ns, name, s): out.append(f".{ns}.{name}:{s}")
def parms(name, m): put("p", name, qdict({k: p.detach() for k, p in m.named_parameters()}))
def inp(name, v): put("i", name, q(v)); return torch.as_tensor(v)
def exp(name, v):
    if isinstance(v, (tuple, list)):
        put("e", name, "(" + ";".join(q(x.detach()) for x in v) + ")")
    else:
        put("e", name, q(v.detach()))

def rand(*s): return torch.randn(*s)
