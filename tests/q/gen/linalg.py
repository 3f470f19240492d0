"""Expected values for tests/q/ktorch_linalg.q, computed with PyTorch (the torch of the ktorch
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/linalg.py > tests/q/data/linalg_expected.q`.
Writes the inputs as `.i.name` and the expected results as `.e.name`, all as q literals;
complex results as (real;imag) stacked first (ktorch's default conversion), several results as
a q list."""
import torch

torch.set_default_dtype(torch.float32)
D = torch.float64
out = []


def num(x):
    """A float in q's notation without exponents (q reads 1e-05 but not every suffixed form)."""
    r = repr(float(x))
    if "e" in r:
        r = ("%.20f" % x).rstrip("0")
        r = r + "0" if r.endswith(".") else r
    return r


def lit(t):
    """A tensor (or list/tuple of tensors) as a q literal."""
    if isinstance(t, (list, tuple)):
        if len(t) == 1:
            return "enlist " + lit(t[0])
        return "(" + ";".join(lit(x) for x in t) + ")"
    if t.is_complex():
        return lit(torch.stack([t.real, t.imag]))
    if t.dim() >= 2:
        rows = [lit(r) for r in t]
        return ("enlist " + rows[0]) if len(rows) == 1 else "(" + ";".join(rows) + ")"
    k = t.dtype
    v = t.tolist() if t.dim() == 1 else [t.item()]
    if k == torch.bool:
        s = "".join("1" if b else "0" for b in v) + "b"
        return ("enlist " + s if len(v) == 1 else s) if t.dim() else s
    if k in (torch.float32, torch.float64):
        suf = "e" if k == torch.float32 else "f"
        if not v:
            return "`real$()" if suf == "e" else "`float$()"
        s = " ".join(num(x) for x in v) + suf
    elif k == torch.int32:
        if not v:
            return "`int$()"
        s = " ".join(str(x) for x in v) + "i"
    elif k == torch.int64:
        if not v:
            return "`long$()"
        s = " ".join(str(x) for x in v)
    else:
        raise ValueError(k)
    return ("enlist " + s) if (t.dim() == 1 and len(v) == 1) else s


def inp(name, t):
    out.append(f".i.{name}:{lit(t)}")
    return t


def exp(name, t):
    out.append(f".e.{name}:{lit(t)}")


# inputs
A = inp("A", torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=D))  # symmetric positive definite
G = inp("G", torch.tensor([[7., 1, 1], [3, 1, 2], [1, 3, 2]], dtype=D))  # general, eigenvalues 8 3 -1
B = inp("B", torch.tensor([[1., 2], [3, 4], [5, 6]], dtype=D))
C = inp("C", torch.tensor([[1., 0, 2], [-1, 3, 1]], dtype=D))  # 2x3
Y = inp("Y", torch.arange(12, dtype=D).reshape(2, 2, 3) / 4)
Z = inp("Z", torch.arange(12, dtype=D).reshape(2, 3, 2) / 3 - 1)
u = inp("u", torch.tensor([1., 2, 3], dtype=D))
w = inp("w", torch.tensor([4., -5, 6], dtype=D))
v2 = inp("v2", torch.tensor([1., 2], dtype=D))
s = inp("s", torch.tensor([0., 1, 2, 3, 4], dtype=D))
S = inp("S", torch.tensor([[0., 1, 2, 3], [1, 0, -1, 2], [2, 2, 0, 1]], dtype=D))
U = inp("U", torch.triu(A))  # upper triangular

# matrix products
exp("bmm", torch.bmm(Y, Z))
exp("dot", torch.dot(u, w))
exp("outer", torch.outer(u, w))
exp("matmul", torch.matmul(G, u))
exp("mm", torch.mm(G, B))
exp("mmt", torch.mm(C, G.t()))
exp("mtm", torch.mm(B.t(), G))
exp("mv", torch.mv(G, u))
tau = inp("tau", torch.tensor([1.5, 0.5], dtype=D))
exp("householder", torch.linalg.householder_product(B, tau))
exp("multidot", torch.linalg.multi_dot([C, G, B]))
exp("power", torch.linalg.matrix_power(G, 3))
exp("powerneg", torch.linalg.matrix_power(A, -1))
exp("Cross", torch.linalg.cross(u, w))
exp("Cross0", torch.linalg.cross(torch.stack([u, w, u]), torch.stack([w, u, u]), dim=0))
exp("addbmm", torch.addbmm(B[:2, :], Y, Z, beta=2, alpha=0.5))
exp("addmm", torch.addmm(B, G, B))
exp("addmm2", torch.addmm(B, G, B, beta=0.5))
exp("addmv", torch.addmv(u, G, w, beta=2, alpha=3))
exp("addr", torch.addr(G, u, w))
exp("baddbmm", torch.baddbmm(torch.ones(2, 2, 2, dtype=D), Y, Z, beta=-1, alpha=2))
# properties
exp("det", torch.det(G))
exp("logdet", torch.logdet(A))
exp("slogdet", list(torch.linalg.slogdet(G)))
exp("mrank", torch.linalg.matrix_rank(G))
exp("mrank1", torch.linalg.matrix_rank(G, atol=3.5, rtol=0.0))
exp("pinverse", torch.linalg.pinv(C))
exp("pinverseh", torch.linalg.pinv(A, hermitian=True))
# decompositions
exp("chol", torch.linalg.cholesky(A))
exp("cholu", torch.linalg.cholesky(A, upper=True))
exp("cholx", list(torch.linalg.cholesky_ex(A)))
exp("cholxbad", list(torch.linalg.cholesky_ex(G))[1])
L = torch.linalg.cholesky(A)
exp("cholinverse", torch.cholesky_inverse(L))
exp("cholsolve", torch.cholesky_solve(B, L))
exp("eig", list(torch.linalg.eig(G)))
exp("eigvals", torch.linalg.eigvals(G))
exp("eigh", list(torch.linalg.eigh(A)))
exp("eighu", list(torch.linalg.eigh(A, UPLO="U")))
exp("eigvalsh", torch.linalg.eigvalsh(A))
exp("qr", list(torch.linalg.qr(B)))
exp("qrc", list(torch.linalg.qr(B, mode="complete")))
exp("lu", list(torch.linalg.lu_factor(G)))
exp("lux", list(torch.linalg.lu_factor_ex(G)))
LU, P = torch.linalg.lu_factor(G)
exp("lun", list(torch.lu_unpack(LU, P)))
exp("lusolve", torch.linalg.lu_solve(LU, P, B))
exp("svd", list(torch.linalg.svd(C)))
exp("svdr", list(torch.linalg.svd(C, full_matrices=False)))
exp("svdvals", torch.linalg.svdvals(C))
# solvers
exp("solve", torch.linalg.solve(G, B))
exp("solvel", torch.linalg.solve(G, C, left=False))
exp("trisolve", torch.linalg.solve_triangular(U, B, upper=True))
exp("trisolvel", torch.linalg.solve_triangular(U, C, upper=True, left=False))
exp("lstsq", list(torch.linalg.lstsq(G, B)))
exp("lstsqd", list(torch.linalg.lstsq(G, B, driver="gelsd")))
exp("inverse", torch.linalg.inv(G))
# spectral
sf = s.float()
exp("fft", torch.fft.fft(s))
exp("fft3", torch.fft.fft(s, 3))
exp("fftf", torch.fft.fft(s, 4, -1, "forward"))
exp("ifft", torch.fft.ifft(s))
exp("rfft", torch.fft.rfft(s))
exp("irfft", torch.fft.irfft(torch.fft.rfft(s), 5))
exp("hfft", torch.fft.hfft(torch.fft.ifft(s), 5))
exp("ihfft", torch.fft.ihfft(s))
exp("irfftr", torch.fft.irfft(s))
exp("hfftr", torch.fft.hfft(s))
exp("irfft2r", torch.fft.irfft2(S))
exp("hfft2r", torch.fft.hfft2(S))
exp("irfftnr", torch.fft.irfftn(S))
exp("hfftnr", torch.fft.hfftn(S))
exp("fft2", torch.fft.fft2(S))
exp("fft2o", torch.fft.fft2(S, (2, 4), (0, 1), "ortho"))
exp("ifft2", torch.fft.ifft2(S))
exp("rfft2", torch.fft.rfft2(S))
exp("irfft2", torch.fft.irfft2(torch.fft.rfft2(S), (3, 4)))
exp("hfft2", torch.fft.hfft2(torch.fft.ihfft2(S), (3, 4)))
exp("ihfft2", torch.fft.ihfft2(S))
exp("fftn", torch.fft.fftn(S))
exp("fftn1", torch.fft.fftn(S, [4], [0]))
exp("ifftn", torch.fft.ifftn(S))
exp("rfftn", torch.fft.rfftn(S))
exp("irfftn", torch.fft.irfftn(torch.fft.rfftn(S), (3, 4)))
exp("hfftn", torch.fft.hfftn(torch.fft.ihfftn(S), (3, 4)))
exp("ihfftn", torch.fft.ihfftn(S))
exp("fftshift", torch.fft.fftshift(S))
exp("fftshift1", torch.fft.fftshift(S, 1))
exp("ifftshift", torch.fft.ifftshift(S))
exp("fftfreq", torch.fft.fftfreq(5))
exp("fftfreq2", torch.fft.fftfreq(5, 2, dtype=D))
exp("rfftfreq", torch.fft.rfftfreq(5))
exp("rfftfreq2", torch.fft.rfftfreq(6, 0.5))
exp("bartlett", torch.bartlett_window(11))
exp("bartlett0", torch.bartlett_window(11, False, dtype=D))
exp("blackman", torch.blackman_window(7))
exp("blackman0", torch.blackman_window(7, False, dtype=D))
exp("hann", torch.hann_window(8))
exp("hann0", torch.hann_window(8, False, dtype=D))
exp("hamming", torch.hamming_window(9))
exp("hamming1", torch.hamming_window(9, False, 0.5))
exp("hamming2", torch.hamming_window(9, True, 0.6, 0.3, dtype=D))
exp("kaiser", torch.kaiser_window(10))
exp("kaiser1", torch.kaiser_window(10, False))
exp("kaiser2", torch.kaiser_window(10, True, 5.0, dtype=D))

print("/ generated by tests/q/gen/linalg.py: inputs (.i) and PyTorch's results (.e)")
print("\n".join(out))
