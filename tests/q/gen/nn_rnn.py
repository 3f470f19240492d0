"""Expected values for tests/q/ktorch_nn_rnn.q, computed with PyTorch (torch==2.11.0 of the
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/nn_rnn.py > tests/q/data/nn_rnn_expected.q`.
For each case: the module's parameters (`.p.name`, a dictionary of PyTorch's names to values,
set in q through `module state`), inputs (`.i.name`) and outputs (`.e.name`, a list when the
module gives several). Weights and inputs are single precision in PyTorch, written as doubles."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)

from qlit import exp, inp, out, parms, put, q, qdict, rand  # noqa: F401

with torch.no_grad():
    # recurrent layers: (output; hidden) or (output; hidden; cell)
    m = nn.RNN(3, 4); parms("rnn", m)
    x = inp("rnn", rand(5, 2, 3)); h = inp("rnnh", rand(1, 2, 4))
    y, hn = m(x); exp("rnn", (y, hn))
    y, hn = m(x, h); exp("rnnh", (y, hn))
    m = nn.RNN(3, 4, 2, nonlinearity="relu", batch_first=True, bidirectional=True); parms("rnn2", m)
    x = inp("rnn2", rand(2, 5, 3)); y, hn = m(x); exp("rnn2", (y, hn))
    m = nn.GRU(3, 4, 2); parms("gru", m)
    x = inp("gru", rand(5, 2, 3)); h = inp("gruh", rand(2, 2, 4))
    y, hn = m(x, h); exp("gru", (y, hn))
    m = nn.LSTM(3, 4, bias=False, bidirectional=True); parms("lstm", m)
    x = inp("lstm", rand(5, 2, 3)); h = inp("lstmh", rand(2, 2, 4)); c = inp("lstmc", rand(2, 2, 4))
    y, (hn, cn) = m(x, (h, c)); exp("lstm", (y, hn, cn))
    x = inp("lstm1", rand(5, 3)); y, (hn, cn) = m(x); exp("lstm1", (y, hn, cn))

    # embeddings
    m = nn.Embedding(10, 3, padding_idx=1); parms("embed", m)
    x = inp("embed", torch.tensor([[1, 2, 4], [4, 3, 9]])); exp("embed", m(x))
    m = nn.Embedding(10, 3, max_norm=1.0); parms("embednorm", m)
    exp("embednorm", m(x)); exp("embednormw", m.weight)
    m = nn.EmbeddingBag(10, 3, mode="sum"); parms("bag", m)
    x = inp("bag", torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])); o = inp("bago", torch.tensor([0, 4]))
    w = inp("bagw", rand(8)); exp("bag", m(x, o)); exp("bagw", m(x, o, per_sample_weights=w))
    m.mode = "mean"; exp("bagmean", m(torch.tensor([[1, 2, 4], [4, 3, 9]])))
    m.mode = "max"; exp("bagmax", m(x, o))
    pos = rand(1, 6, 3); put("p", "embedpos", qdict({"pos": pos}))
    x = inp("pos", torch.tensor([[1, 2, 4, 0], [4, 3, 9, 1]])); exp("embedpos", pos[:, :4])
    tok = nn.Embedding(10, 3); put("p", "embedseq", qdict({"tok.weight": tok.weight, "pos.pos": pos}))
    exp("embedseq", tok(x) + pos[:, :4])

    # bilinear, module and functional
    m = nn.Bilinear(3, 2, 4); parms("bilinear", m)
    x = inp("bilinear1", rand(5, 3)); y = inp("bilinear2", rand(5, 2)); exp("bilinear", m(x, y))

    # multihead attention, sequence first: (output; weights averaged over heads)
    m = nn.MultiheadAttention(4, 2); parms("attn", m)
    qy = inp("attnq", rand(3, 2, 4)); k = inp("attnk", rand(5, 2, 4)); v = inp("attnv", rand(5, 2, 4))
    exp("attn", m(qy, k, v))
    exp("attn1", m(qy[:, 0], k[:, 0], v[:, 0]))
    pm = inp("attnpm", torch.tensor([[False, False, False, True, True], [False] * 5]))
    am = inp("attnam", torch.triu(torch.full((3, 5), float("-inf")), 1).nan_to_num(neginf=-1e9))
    exp("attnmask", m(qy, k, v, key_padding_mask=pm, attn_mask=am))
    m = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, kdim=3, vdim=5)
    for p in m.parameters(): p.uniform_(-0.5, 0.5)
    parms("attn2", m)
    k = inp("attn2k", rand(5, 2, 3)); v = inp("attn2v", rand(5, 2, 5))
    exp("attn2", m(qy, k, v))

    # ktorch's self attention (knn::SelfAttention), as attention.cpp computes it, with the norm
    d, hh = 4, 2
    norm = nn.LayerNorm(d); lin = nn.Linear(d, 3 * d, bias=False); lout = nn.Linear(d, d)
    for p in norm.parameters(): p.uniform_(-1, 1)
    put("p", "selfattn", qdict({"norm.weight": norm.weight, "norm.bias": norm.bias,
                                "in.weight": lin.weight, "out.weight": lout.weight, "out.bias": lout.bias}))
    x = inp("selfattn", rand(2, 3, d)); s = x.shape; hd = d // hh
    c = lin(norm(x)).reshape(s[0], s[1], 3, hh, hd).permute(2, 0, 3, 1, 4)
    a = torch.matmul(c[0], c[1].transpose(-2, -1)) * (1 / math.sqrt(hd))
    mask = inp("selfmask", torch.triu(torch.full((4, 4), -1e9), 1))
    def sa(a): return lout(torch.matmul(torch.softmax(a, -1), c[2]).transpose(1, 2).contiguous().view(s))
    exp("selfattn", sa(a)); exp("selfmask", sa(a + mask[:3, :3]))
    # its gradients (input and every parameter) for an upstream gradient g, with the mask
    with torch.enable_grad():
        ps = [norm.weight, norm.bias, lin.weight, lout.weight, lout.bias]
        xg = x.clone().requires_grad_(True); g = inp("selfg", rand(2, 3, d))
        c = lin(norm(xg)).reshape(s[0], s[1], 3, hh, hd).permute(2, 0, 3, 1, 4)
        a = torch.matmul(c[0], c[1].transpose(-2, -1)) * (1 / math.sqrt(hd)) + mask[:3, :3]
        y = lout(torch.matmul(torch.softmax(a, -1), c[2]).transpose(1, 2).contiguous().view(s))
        gs = torch.autograd.grad(y, [xg] + ps, g)
    exp("selfgrad", gs)

    # transformer layers (no dropout, evaluation)
    m = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0).eval(); parms("enc", m)
    x = inp("enc", rand(3, 2, 4)); exp("enc", m(x))
    sm = inp("encmask", torch.triu(torch.full((3, 3), -1e9), 1))
    pm = inp("encpm", torch.tensor([[False, False, True], [False, False, False]]))
    exp("encmask", m(x, src_mask=sm, src_key_padding_mask=pm))
    m = nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0, activation="gelu").eval(); parms("dec", m)
    mem = inp("mem", rand(5, 2, 4)); exp("dec", m(x, mem))

print("/ generated by tests/q/gen/nn_rnn.py (torch " + torch.__version__ + "); do not edit")
print("\n".join(out))
