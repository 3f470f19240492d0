//! Attention (ktorch's knn/attention.cpp): `attention` (PyTorch's MultiheadAttention, sequence
//! first as libtorch's C++ module: (length; batch; dim)) and `selfattention` (ktorch's own
//! knn::SelfAttention, batch first, with an optional layer norm on its input).
//!
//! Their parts are child modules as libtorch and ktorch register them (`out_proj`; `norm`, `in`,
//! `drop`, `out`), read by the forward under PyTorch's dotted names (`out_proj.weight`); the
//! transformer layers reuse `attend` with their own prefix (`self_attn.`).
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::{
    filled, flag, float, long, long_null, many, part, settle, uniform, Layer, Out, Run, Val,
};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: attention_init,
        ..many(
            "attention",
            "torch.nn.MultiheadAttention",
            &[
                long("dim"),
                long("heads"),
                float("dropout", 0.0),
                flag("bias", true),
                flag("addbias", false),
                flag("addzero", false),
                long_null("kdim"),
                long_null("vdim"),
            ],
            (3, 6),
            attention,
        )
    },
    Layer {
        init: selfattention_init,
        ..many(
            "selfattention",
            "knn.SelfAttention",
            &[
                long("dim"),
                long("heads"),
                float("dropout", 0.0),
                flag("norm", false),
            ],
            (1, 3),
            selfattention,
        )
    },
];

/// Xavier (Glorot) uniform for a 2-d weight: U(-a, a), a = √(6/(fan_in+fan_out)).
fn xavier(rows: i64, cols: i64) -> Result<Tensor> {
    uniform(&[rows, cols], (6.0 / (rows + cols) as f64).sqrt())
}

pub fn check_dropout(name: &str, p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        bail!("{name}: dropout probability has to be between 0 and 1, but got {p}");
    }
    Ok(())
}

/// MultiheadAttention's parameters under `prefix`, initialised as PyTorch does: the input
/// projection Xavier uniform (one matrix when key and value sizes are the model's, else three),
/// biases zero, the output projection as a Linear layer, extra key/value biases Xavier normal.
pub fn attention_parms(
    m: &mut Module,
    prefix: &str,
    dim: i64,
    kv: (i64, i64),
    bias: bool,
    addbias: bool,
) -> Result<()> {
    let p = |s: &str| format!("{prefix}{s}");
    if kv == (dim, dim) {
        m.add_parm(&p("in_proj_weight"), xavier(3 * dim, dim)?);
    } else {
        m.add_parm(&p("q_proj_weight"), xavier(dim, dim)?);
        m.add_parm(&p("k_proj_weight"), xavier(dim, kv.0)?);
        m.add_parm(&p("v_proj_weight"), xavier(dim, kv.1)?);
    }
    if bias {
        m.add_parm(&p("in_proj_bias"), filled(&[3 * dim], 0.0)?);
    }
    if addbias {
        let std = (1.0 / dim as f64).sqrt();
        m.add_parm(&p("bias_k"), super::embed::normal(&[1, 1, dim], std)?);
        m.add_parm(&p("bias_v"), super::embed::normal(&[1, 1, dim], std)?);
    }
    m.add_parm(
        &p("out_proj.weight"),
        uniform(&[dim, dim], 1.0 / (dim as f64).sqrt())?,
    );
    if bias {
        m.add_parm(&p("out_proj.bias"), filled(&[dim], 0.0)?);
    }
    Ok(())
}

fn attention_init(m: &mut Module) -> Result<()> {
    let (dim, heads) = (m.long("dim"), m.long("heads"));
    if dim <= 0 {
        bail!("attention: positive embedding dimension required");
    }
    if heads <= 0 {
        bail!("attention: positive number of heads required");
    }
    if dim % heads != 0 {
        bail!("attention: embedding dimension of {dim} not divisible by {heads} heads");
    }
    check_dropout("attention", m.float("dropout"))?;
    let kv = (
        m.long_opt("kdim").unwrap_or(dim),
        m.long_opt("vdim").unwrap_or(dim),
    );
    if kv.0 <= 0 || kv.1 <= 0 {
        bail!("attention: positive key and value dimensions required");
    }
    let (b, ab) = (m.flag("bias"), m.flag("addbias"));
    // `out_proj` a child Linear, as libtorch's MultiheadAttention registers it
    m.children.push((
        "out_proj".into(),
        part(
            "out_proj",
            "linear",
            &[
                ("in", Val::Long(dim)),
                ("out", Val::Long(dim)),
                ("bias", Val::Bool(b)),
            ],
        )?,
    ));
    attention_parms(m, "", dim, kv, b, ab)?;
    settle(m);
    Ok(())
}

/// How one attention call runs.
pub struct Attend<'a> {
    pub prefix: &'a str,
    pub heads: i64,
    pub dropout: f64,
    pub addzero: bool,
    pub training: bool,
    pub weights: bool,
}

/// A mask as an additive float mask: a boolean mask is -inf where true (PyTorch's
/// `_canonical_mask`); an empty tensor is no mask.
fn additive(mask: Option<&Tensor>, kind: Kind) -> Result<Option<Tensor>> {
    let Some(t) = mask.filter(|t| t.defined() && t.numel() > 0) else {
        return Ok(None);
    };
    Ok(Some(if t.kind() == Kind::Bool {
        Tensor::f_zeros(t.size(), (kind, t.device()))?.f_masked_fill(t, f64::NEG_INFINITY)?
    } else {
        t.f_to_kind(kind)?
    }))
}

/// PyTorch's `multi_head_attention_forward`, sequence first: query (L,N,E), key and value
/// (S,N,kdim/vdim), an optional key padding mask (N,S) and attention mask (L,S) or (N*heads,L,S).
/// Unbatched inputs (2-d) are run as a batch of one. Gives the output and, when asked, the
/// attention weights averaged over heads, (N,L,S).
pub fn attend(
    m: &Module,
    a: &Attend,
    (query, key, value): (&Tensor, &Tensor, &Tensor),
    padmask: Option<&Tensor>,
    mask: Option<&Tensor>,
) -> Result<(Tensor, Option<Tensor>)> {
    let name = m.layer.name;
    let batched = query.dim() == 3;
    if !batched && query.dim() != 2 {
        bail!(
            "{name}: query should be 2-d or 3-d, given {}-d",
            query.dim()
        );
    }
    if key.dim() != query.dim() || value.dim() != query.dim() {
        bail!("{name}: query, key and value should all be 2-d or all 3-d");
    }
    let one = |t: &Tensor| {
        if batched {
            Ok(t.shallow_clone())
        } else {
            t.f_unsqueeze(1)
        }
    };
    let (query, key, value) = (one(query)?, one(key)?, one(value)?);
    let mask_given = mask;
    let padding = padmask.is_some_and(|t| t.defined() && t.numel() > 0);
    let padmask = match padmask.filter(|t| t.defined() && t.numel() > 0) {
        Some(t) if !batched => Some(t.f_unsqueeze(0)?),
        t => t.map(|t| t.shallow_clone()),
    };
    let p = |s: &str| m.parm(&format!("{}{s}", a.prefix)).ok();
    let (l, n, e) = (query.size()[0], query.size()[1], query.size()[2]);
    let h = a.heads;
    let hd = e / h;
    let kind = query.kind();
    let b = p("in_proj_bias").map(|b| b.f_chunk(3, 0)).transpose()?;
    let bias = |i: usize| b.as_ref().map(|b| &b[i]);
    let (q, k, v) = match p("in_proj_weight") {
        Some(w) => {
            let w = w.f_chunk(3, 0)?;
            (
                query.f_linear(&w[0], bias(0))?,
                key.f_linear(&w[1], bias(1))?,
                value.f_linear(&w[2], bias(2))?,
            )
        }
        None => {
            let w = |s: &str| {
                p(s).ok_or_else(|| anyhow::anyhow!("{name}: no parameter `{}{s}", a.prefix))
            };
            (
                query.f_linear(w("q_proj_weight")?, bias(0))?,
                key.f_linear(w("k_proj_weight")?, bias(1))?,
                value.f_linear(w("v_proj_weight")?, bias(2))?,
            )
        }
    };
    let mut mask = additive(mask, kind)?;
    if let Some(t) = &mask {
        if t.dim() == 2 {
            mask = Some(t.f_unsqueeze(0)?);
        } else if t.dim() != 3 {
            bail!(
                "{name}: attention mask should be 2-d or 3-d, given {}-d",
                t.dim()
            );
        }
    }
    let mut padmask = additive(padmask.as_ref(), kind)?;
    let pad1 = |t: Option<Tensor>| t.map(|t| t.f_constant_pad_nd([0, 1])).transpose();
    let (mut k, mut v) = (k, v);
    if let (Some(bk), Some(bv)) = (p("bias_k"), p("bias_v")) {
        k = Tensor::f_cat(&[k, bk.f_repeat([1, n, 1])?], 0)?;
        v = Tensor::f_cat(&[v, bv.f_repeat([1, n, 1])?], 0)?;
        mask = pad1(mask)?;
        padmask = pad1(padmask)?;
    }
    let heads = |t: &Tensor| -> Result<Tensor> {
        Ok(t.f_contiguous()?
            .f_view([t.size()[0], n * h, hd])?
            .f_transpose(0, 1)?)
    };
    let q = heads(&q)?;
    let mut k = heads(&k)?;
    let mut v = heads(&v)?;
    if a.addzero {
        let z = Tensor::f_zeros([n * h, 1, hd], (kind, q.device()))?;
        k = Tensor::f_cat(&[&k, &z], 1)?;
        v = Tensor::f_cat(&[&v, &z], 1)?;
        mask = pad1(mask)?;
        padmask = pad1(padmask)?;
    }
    let s = k.size()[1];
    if let Some(pm) = padmask {
        if pm.size() != [n, s] {
            bail!(
                "{name}: expected key padding mask of shape [{n}, {s}], given {:?}",
                pm.size()
            );
        }
        let pm = pm
            .f_view([n, 1, 1, s])?
            .f_expand([n, h, 1, s], false)?
            .f_reshape([n * h, 1, s])?;
        mask = Some(match mask {
            Some(t) => t.f_add(&pm)?,
            None => pm,
        });
    }
    let (out, w) = if crate::session::setting::sdpa() && !a.weights {
        // libtorch's fused kernels (sdpa.rs); the causal one when the mask given is causal and
        // nothing was added to it (key padding, bias_k/bias_v, addzero)
        let plain = !a.addzero && p("bias_k").is_none() && !padding;
        let causal = plain
            && l == s
            && match mask_given.filter(|t| t.defined() && t.numel() > 0) {
                Some(t) => super::sdpa::is_causal(t, true)?,
                None => false,
            };
        let four = |t: &Tensor, r: i64| t.f_view([n, h, r, t.size()[2]]);
        // (1 or N*heads, L or 1, S) as (1 or N, heads, L or 1, S): broadcast by SDPA
        let mask = match &mask {
            Some(t) if t.size()[0] == 1 => Some(t.f_view([1, 1, t.size()[1], s])?),
            Some(t) => Some(t.f_view([n, h, t.size()[1], s])?),
            None => None,
        };
        let dropout = if a.training { a.dropout } else { 0.0 };
        let o = super::sdpa::attend(
            &four(&q, l)?,
            &four(&k, s)?,
            &four(&v, s)?,
            mask.as_ref(),
            causal,
            dropout,
        )?;
        (o.f_permute([2, 0, 1, 3])?, None)
    } else {
        let w = weights_of(&q, &k, mask.as_ref(), hd)?;
        let wd = if a.dropout > 0.0 {
            w.f_dropout(a.dropout, a.training)?
        } else {
            w.shallow_clone()
        };
        (wd.f_bmm(&v)?.f_transpose(0, 1)?, Some(w))
    };
    let out = out.f_contiguous()?.f_view([l * n, e])?;
    let ow = p("out_proj.weight")
        .ok_or_else(|| anyhow::anyhow!("{name}: no parameter `{}out_proj.weight", a.prefix))?;
    let mut out = out.f_linear(ow, p("out_proj.bias"))?.f_view([l, n, e])?;
    let mut weights = match w.filter(|_| a.weights) {
        Some(w) => Some(w.f_view([n, h, l, s])?.f_mean_dim(
            [1i64].as_slice(),
            false,
            None::<Kind>,
        )?),
        None => None,
    };
    if !batched {
        out = out.f_squeeze_dim(1)?;
        weights = weights.map(|w| w.f_squeeze_dim(0)).transpose()?;
    }
    Ok((out, weights))
}

/// Softmax of the scaled scores of q (B,L,hd) against k (B,S,hd), with an additive mask.
fn weights_of(q: &Tensor, k: &Tensor, mask: Option<&Tensor>, hd: i64) -> Result<Tensor> {
    let q = q.f_mul_scalar((1.0 / hd as f64).sqrt())?;
    let kt = k.f_transpose(-2, -1)?;
    Ok(match mask {
        Some(t) => t.f_baddbmm(&q, &kt, 1.0, 1.0)?,
        None => q.f_bmm(&kt)?,
    }
    .f_softmax(-1, None::<Kind>)?)
}

/// `(q;k;v)`, `(q;k;v;padmask)`, `(q;k;v;padmask;needweights)`, `(q;k;v;padmask;needweights;mask)`
/// as libtorch's forward: output and attention weights, or the output alone when weights are not
/// needed (libtorch's second result is then undefined). An empty tensor stands for no mask.
fn attention(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let need = match x.get(4) {
        Some(t) if t.numel() != 1 => {
            bail!(
                "attention: need-weights flag expected as a single boolean, given {} values",
                t.numel()
            )
        }
        Some(t) => t.f_double_value(&[])? != 0.0,
        None => true,
    };
    let a = Attend {
        prefix: "",
        heads: m.long("heads"),
        dropout: m.float("dropout"),
        addzero: m.flag("addzero"),
        training: run.training,
        weights: need,
    };
    let (y, w) = attend(m, &a, (&x[0], &x[1], &x[2]), x.get(3), x.get(5))?;
    Ok(match w {
        Some(w) => Out::Tensors(vec![y, w]),
        None => Out::Tensor(y),
    })
}

/// ktorch's SelfAttention: an optional layer norm, then `in` (dim → 3 dim, no bias with the
/// norm), heads, dropout on the attention weights, `out` (dim → dim).
fn selfattention_init(m: &mut Module) -> Result<()> {
    let (dim, heads) = (m.long("dim"), m.long("heads"));
    if dim <= 0 {
        bail!("selfattention: positive embedding dimension required");
    }
    if heads <= 0 {
        bail!("selfattention: positive number of heads required");
    }
    if dim % heads != 0 || heads >= dim {
        bail!("selfattention: model dimension of {dim} not divisible by {heads} heads");
    }
    check_dropout("selfattention", m.float("dropout"))?;
    // its parts as child modules, as knn/attention.cpp registers them
    let norm = m.flag("norm");
    let mut v = vec![];
    if norm {
        v.push(part(
            "norm",
            "layernorm",
            &[("shape", Val::Longs(vec![dim]))],
        )?);
    }
    v.push(part(
        "in",
        "linear",
        &[
            ("in", Val::Long(dim)),
            ("out", Val::Long(3 * dim)),
            ("bias", Val::Bool(!norm)),
        ],
    )?);
    v.push(part(
        "drop",
        "drop",
        &[("p", Val::Float(m.float("dropout")))],
    )?);
    v.push(part(
        "out",
        "linear",
        &[("in", Val::Long(dim)), ("out", Val::Long(dim))],
    )?);
    m.children = v
        .into_iter()
        .map(|c| (c.name.clone().unwrap_or_default(), c))
        .collect();
    Ok(())
}

/// `(x)`, `(x;mask)`: x is (batch; length; dim); the mask is added to the attention scores (its
/// top-left corner when larger). A padding mask (third input) is not implemented, as in ktorch.
fn selfattention(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    check_inputs(x)?;
    let y = if m.flag("norm") {
        let (w, b) = norm_parms(m)?;
        super::norm::layer_norm(&x[0], &[x[0].size()[2]], Some(w), Some(b), 1e-5)?
    } else {
        x[0].shallow_clone()
    };
    self_attend(m, run, x, &y)
}

fn check_inputs(x: &[Tensor]) -> Result<()> {
    if x.get(2).is_some_and(|t| t.defined() && t.numel() > 0) {
        bail!("selfattention: padding mask not implemented");
    }
    let d = x[0].dim();
    if d != 3 {
        bail!("selfattention: input expected as (batch; length; dim), given {d}-d");
    }
    Ok(())
}

/// The weight and bias of `selfattention`'s own layer norm (option `norm`: eps 1e-5 over the
/// last dimension).
pub(super) fn norm_parms(m: &Module) -> Result<(&Tensor, &Tensor)> {
    Ok((m.parm("norm.weight")?, m.parm("norm.bias")?))
}

/// `selfattention` of inputs x whose layer norm (option `norm`), or x itself, is y: a `residual`
/// block that computes the norm itself (setting`lnres) continues here.
pub(super) fn attend_normed(m: &Module, run: &Run, x: &[Tensor], y: &Tensor) -> Result<Out> {
    check_inputs(x)?;
    self_attend(m, run, x, y)
}

fn self_attend(m: &Module, run: &Run, x: &[Tensor], y: &Tensor) -> Result<Out> {
    let s = x[0].size();
    let h = m.long("heads");
    let hd = s[2] / h;
    // q, k and v as views of the projection, split on its last dimension: the same strides
    // as taking them from a (3, batch, heads, length, head) permutation, but their gradients
    // are concatenated (one copy) where selecting from the permutation writes each into a
    // zeroed tensor of all three and adds them, then copies the sum back to the projection's
    // layout (five passes over three times the activations: 3 ms of a 21 ms GPT step)
    use crate::nn::precast;
    let c = y.f_linear(
        &precast::parm(m, "in.weight")?,
        precast::parm_opt(m, "in.bias"),
    )?;
    let heads = |t: &Tensor| t.f_view([s[0], s[1], h, hd])?.f_transpose(1, 2);
    let (q, k, v) = match c.f_split(s[2], -1)?.as_slice() {
        [q, k, v] => (heads(q)?, heads(k)?, heads(v)?),
        _ => bail!(
            "selfattention: projection of {} columns, expected {}",
            c.size()[2],
            3 * s[2]
        ),
    };
    let n = s[1];
    // the mask's top-left corner when it is larger than the scores
    let mask = match x.get(1).filter(|t| t.defined() && t.numel() > 0) {
        Some(mask) if mask.size().last() == Some(&n) => Some(mask.shallow_clone()),
        Some(mask) => Some(mask.f_narrow(0, 0, n)?.f_narrow(1, 0, n)?),
        None => None,
    };
    let a = if crate::session::setting::sdpa() {
        // libtorch's fused kernels (sdpa.rs): the mask is added to the scores as here, so a
        // boolean one is passed as numbers (true adds 1), not as SDPA's keep/drop mask
        let causal = match &mask {
            Some(t) => super::sdpa::is_causal(t, false)?,
            None => false,
        };
        let dropout = if run.training {
            m.float("dropout")
        } else {
            0.0
        };
        super::sdpa::attend(&q, &k, &v, mask.as_ref(), causal, dropout)?
    } else {
        let mut a = q
            .f_matmul(&k.f_transpose(-2, -1)?)?
            .f_mul_scalar(1.0 / (hd as f64).sqrt())?;
        if let Some(mask) = &mask {
            a = a.f_add(mask)?;
        }
        a.f_softmax(-1, None::<Kind>)?
            .f_dropout(m.float("dropout"), run.training)?
            .f_matmul(&v)?
    };
    // a view when the kernel wrote (batch, length, heads, head) as cuDNN's does; else a copy
    let y = a.f_transpose(1, 2)?.f_reshape(s.as_slice())?;
    Ok(Out::Tensor(y.f_linear(
        &precast::parm(m, "out.weight")?,
        precast::parm_opt(m, "out.bias"),
    )?))
}
