"""Expected values for tests/q/ktorch_pointwise.q from PyTorch, for functions q has no word
for (digamma, erf, lgamma, round half to even, fmod, ...). Writes tests/q/data/pointwise_expected.q
as q literals: a dictionary `.pe` of name -> expected value (float64 computations).

Run from the repository root: $VIRTUAL_ENV/bin/python tests/q/gen/pointwise.py
"""
import math
import torch

torch.set_default_dtype(torch.float32)


def q(v):
    """A q literal for a float64 tensor (0-d, 1-d or 2-d)."""
    if v.dim() == 0:
        return atom(v.item())
    if v.dim() == 1:
        items = " ".join(atom(a, suffix=False) for a in v.tolist())
        return ("enlist " if len(v) == 1 else "") + items + "f"
    return "(" + ";".join(q(r) for r in v) + ")"


def atom(a, suffix=True):
    if math.isnan(a):
        return "0n"
    if math.isinf(a):
        return "0w" if a > 0 else "-0w"
    s = repr(float(a))
    if s.endswith(".0"):
        s = s[:-2]
    return s + ("f" if suffix else "")


X = torch.tensor([0.25, 0.5, 1.5, 2.75], dtype=torch.float64)      # positive inputs
U = torch.tensor([-0.9, -0.25, 0.0, 0.5, 0.75], dtype=torch.float64)  # inside (-1,1)
R = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, -0.6], dtype=torch.float64)
A = torch.tensor([5.5, -5.5, 7.0, -7.0], dtype=torch.float64)
B = torch.tensor([2.0, 2.0, -3.0, -3.0], dtype=torch.float64)
M = torch.tensor([[1.5, 2.25], [3.0, 4.5]], dtype=torch.float64)

expected = {
    "digamma": torch.digamma(X),
    "erf": torch.erf(U),
    "erfc": torch.erfc(U),
    "erfinv": torch.erfinv(U),
    "lgamma": torch.lgamma(X),
    "round": torch.round(R),
    "atan2": torch.atan2(A, B),
    "fmod": torch.fmod(A, B),
    "remainder": torch.remainder(A, B),
    "mvlgamma": torch.mvlgamma(M, 2),
    "mvlgamma3": torch.mvlgamma(M + 1, 3),
}

lines = [
    "/ Expected values from PyTorch " + torch.__version__ + ", written by tests/q/gen/pointwise.py: do not edit.",
    "/ Inputs: X " + q(X) + "; U " + q(U) + "; R " + q(R) + "; A " + q(A) + "; B " + q(B) + "; M " + q(M),
    ".pe.X:" + q(X),
    ".pe.U:" + q(U),
    ".pe.R:" + q(R),
    ".pe.A:" + q(A),
    ".pe.B:" + q(B),
    ".pe.M:" + q(M),
]
lines += [".pe." + k + ":" + q(v) for k, v in expected.items()]
with open("tests/q/data/pointwise_expected.q", "w") as f:
    f.write("\n".join(lines) + "\n")
