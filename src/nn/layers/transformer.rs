//! Transformer layers (ktorch's knn/transformer.cpp): `encoderlayer` and `decoderlayer`, as
//! libtorch's C++ TransformerEncoderLayer/TransformerDecoderLayer: sequence first, the norm after
//! each residual sum (PyTorch's defaults, `norm_first=False`), layer norm eps 1e-5. Options as
//! ktorch: in (model dimension), heads, dim (feedforward size, 2048), dropout (0.1), fn (`relu or
//! `gelu). Their parts are child modules as in libtorch (`self_attn`, `linear1`, `norm1`, ...),
//! so the parameter names are PyTorch's (`self_attn.in_proj_weight`, `linear1.weight`); the
//! forward reads them by those names.
use anyhow::{bail, Result};
use tch::Tensor;

use super::attention::{attend, check_dropout, Attend};
use super::{float, long, long_or, many, part, sym, Layer, Opt, Out, Run, Val};
use crate::nn::Module;

const OPTS: &[Opt] = &[
    long("in"),
    long("heads"),
    long_or("dim", 2048),
    float("dropout", 0.1),
    sym("fn", &["relu", "gelu"], "relu"),
];

pub static LAYERS: &[Layer] = &[
    Layer {
        init: encoder_init,
        ..many(
            "encoderlayer",
            "torch.nn.TransformerEncoderLayer",
            OPTS,
            (1, 3),
            encoderlayer,
        )
    },
    Layer {
        init: decoder_init,
        ..many(
            "decoderlayer",
            "torch.nn.TransformerDecoderLayer",
            OPTS,
            (2, 6),
            decoderlayer,
        )
    },
];

fn check(m: &Module) -> Result<(i64, i64)> {
    let name = m.layer.name;
    let (d, h, f) = (m.long("in"), m.long("heads"), m.long("dim"));
    if d <= 0 {
        bail!("{name}: positive number of input features required");
    }
    if h <= 0 {
        bail!("{name}: positive number of heads required");
    }
    if d % h != 0 {
        bail!("{name}: model dimension of {d} not divisible by {h} heads");
    }
    if f <= 0 {
        bail!("{name}: positive feedforward dimension required");
    }
    check_dropout(name, m.float("dropout"))?;
    Ok((d, f))
}

/// The layer's parts as libtorch's TransformerEncoderLayer/TransformerDecoderLayer register
/// them (children, so `names`, `children` and `child` reach them as in ktorch): `self_attn`
/// (and the decoder's `multihead_attn`), `linear1`, `dropout`, `linear2`, the norms, then a
/// dropout after each residual block. Each part initialises as its own layer does (PyTorch's
/// defaults: Linear's U(±1/√in), LayerNorm's ones and zeros, MultiheadAttention's).
fn parts(m: &mut Module, attn: &[&str], n: usize) -> Result<()> {
    let (d, f) = check(m)?;
    let (h, p) = (m.long("heads"), m.float("dropout"));
    let mut v = vec![];
    for a in attn {
        v.push(part(
            a,
            "attention",
            &[
                ("dim", Val::Long(d)),
                ("heads", Val::Long(h)),
                ("dropout", Val::Float(p)),
            ],
        )?);
    }
    v.push(part(
        "linear1",
        "linear",
        &[("in", Val::Long(d)), ("out", Val::Long(f))],
    )?);
    v.push(part("dropout", "drop", &[("p", Val::Float(p))])?);
    v.push(part(
        "linear2",
        "linear",
        &[("in", Val::Long(f)), ("out", Val::Long(d))],
    )?);
    for i in 1..=n {
        v.push(part(
            &format!("norm{i}"),
            "layernorm",
            &[("shape", Val::Longs(vec![d]))],
        )?);
    }
    for i in 1..=n {
        v.push(part(
            &format!("dropout{i}"),
            "drop",
            &[("p", Val::Float(p))],
        )?);
    }
    m.children = v
        .into_iter()
        .map(|c| (c.name.clone().unwrap_or_default(), c))
        .collect();
    Ok(())
}

fn encoder_init(m: &mut Module) -> Result<()> {
    parts(m, &["self_attn"], 2)
}

fn decoder_init(m: &mut Module) -> Result<()> {
    parts(m, &["self_attn", "multihead_attn"], 3)
}

/// Layer norm `normi` of x.
fn norm(m: &Module, i: usize, x: &Tensor) -> Result<Tensor> {
    let d = m.long("in");
    super::norm::layer_norm(
        x,
        &[d],
        Some(m.parm(&format!("norm{i}.weight"))?),
        Some(m.parm(&format!("norm{i}.bias"))?),
        1e-5,
    )
}

fn drop(m: &Module, run: &Run, x: &Tensor) -> Result<Tensor> {
    Ok(x.f_dropout(m.float("dropout"), run.training)?)
}

/// Attention of the block under `prefix` (no weights needed).
fn block(
    m: &Module,
    run: &Run,
    prefix: &str,
    qkv: (&Tensor, &Tensor, &Tensor),
    mask: Option<&Tensor>,
    padmask: Option<&Tensor>,
) -> Result<Tensor> {
    let a = Attend {
        prefix,
        heads: m.long("heads"),
        dropout: m.float("dropout"),
        addzero: false,
        training: run.training,
        weights: false,
    };
    Ok(attend(m, &a, qkv, padmask, mask)?.0)
}

/// linear2(dropout(fn(linear1 x))).
fn feedforward(m: &Module, run: &Run, x: &Tensor) -> Result<Tensor> {
    use crate::nn::precast::parm;
    let y = x.f_linear(&parm(m, "linear1.weight")?, Some(parm(m, "linear1.bias")?))?;
    let y = match m.sym("fn") {
        "gelu" => y.f_gelu("none")?,
        _ => y.f_relu()?,
    };
    Ok(drop(m, run, &y)?.f_linear(&parm(m, "linear2.weight")?, Some(parm(m, "linear2.bias")?))?)
}

/// `(src)`, `(src;mask)`, `(src;mask;padmask)`.
fn encoderlayer(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let s = &x[0];
    let a = block(m, run, "self_attn.", (s, s, s), x.get(1), x.get(2))?;
    let y = norm(m, 1, &s.f_add(&drop(m, run, &a)?)?)?;
    let f = feedforward(m, run, &y)?;
    Ok(Out::Tensor(norm(m, 2, &y.f_add(&drop(m, run, &f)?)?)?))
}

/// `(tgt;memory)`, then optionally tgt mask, memory mask, tgt padding mask, memory padding mask.
fn decoderlayer(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let (t, mem) = (&x[0], &x[1]);
    let a = block(m, run, "self_attn.", (t, t, t), x.get(2), x.get(4))?;
    let y = norm(m, 1, &t.f_add(&drop(m, run, &a)?)?)?;
    let a = block(
        m,
        run,
        "multihead_attn.",
        (&y, mem, mem),
        x.get(3),
        x.get(5),
    )?;
    let y = norm(m, 2, &y.f_add(&drop(m, run, &a)?)?)?;
    let f = feedforward(m, run, &y)?;
    Ok(Out::Tensor(norm(m, 3, &y.f_add(&drop(m, run, &f)?)?)?))
}
