//! Embeddings (ktorch's knn/embed.cpp) and the bilinear layer (knn/linear.cpp): `embed`
//! (PyTorch's Embedding), `embedbag` (EmbeddingBag), `embedpos` (ktorch's learned position
//! embedding), `embedseq` (token plus position embedding), `bilinear`.
//!
//! `embedseq` holds PyTorch-style submodule parameters flat, named as ktorch's children name them
//! (`tok.weight`, `pos.pos`), so its state reads as ktorch's.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{flag, float, float_null, layer, long, long_null, many, sym, uniform, Layer, Out, Run};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: embed_init,
        ..layer(
            "embed",
            "torch.nn.Embedding",
            &[
                long("rows"),
                long("cols"),
                long_null("padindex"),
                float_null("maxnorm"),
                float("p", 2.0),
                flag("scale", false),
                flag("sparse", false),
            ],
            embed,
        )
    },
    Layer {
        init: embed_init,
        ..many(
            "embedbag",
            "torch.nn.EmbeddingBag",
            &[
                long("rows"),
                long("cols"),
                float_null("maxnorm"),
                float("p", 2.0),
                flag("scale", false),
                sym("mode", &["sum", "mean", "max"], "mean"),
                flag("sparse", false),
                long_null("padindex"),
                flag("lastoffset", false),
            ],
            (1, 3),
            embedbag,
        )
    },
    Layer {
        init: embedpos_init,
        ..layer(
            "embedpos",
            "knn.EmbedPosition",
            &[long("rows"), long("cols")],
            |m, _, x| position(m.parm("pos")?, x, true),
        )
    },
    Layer {
        init: embedseq_init,
        ..layer(
            "embedseq",
            "knn.EmbedSequence",
            &[long("rows"), long("cols"), long("length")],
            |m, _, x| {
                let w = m.parm("tok.weight")?;
                rows_within(x, w.size()[0])?;
                let tok = Tensor::f_embedding(w, x, -1, false, false)?;
                Ok(tok.f_add(&position(m.parm("pos.pos")?, x, false)?)?)
            },
        )
    },
    Layer {
        init: bilinear_init,
        ..many(
            "bilinear",
            "torch.nn.Bilinear",
            &[long("in1"), long("in2"), long("out"), flag("bias", true)],
            (2, 2),
            |m, _, x| {
                Ok(Out::Tensor(Tensor::f_bilinear(
                    &x[0],
                    &x[1],
                    m.parm("weight")?,
                    m.parm("bias").ok(),
                )?))
            },
        )
    },
];

/// A new leaf parameter from N(0, std²), requiring gradients.
pub fn normal(size: &[i64], std: f64) -> Result<Tensor> {
    let t = Tensor::f_randn(
        size,
        (crate::tensor::options::default_kind(), tch::Device::Cpu),
    )?
    .f_mul_scalar(std)?;
    Ok(t.f_set_requires_grad(true)?)
}

/// The padding index as a row (a negative index counts from the end), checked against the rows.
fn padding(m: &Module) -> Result<Option<i64>> {
    let rows = m.long("rows");
    match m.long_opt("padindex") {
        None => Ok(None),
        Some(i) if i >= rows || i < -rows => bail!(
            "{}: padding index {i} must be within the number of rows, {rows}",
            m.layer.name
        ),
        Some(i) if i < 0 => Ok(Some(rows + i)),
        Some(i) => Ok(Some(i)),
    }
}

fn positive(m: &Module, opts: &[&str]) -> Result<()> {
    for o in opts {
        if m.long(o) <= 0 {
            bail!(
                "{}: positive {o} required, given {}",
                m.layer.name,
                m.long(o)
            );
        }
    }
    Ok(())
}

/// PyTorch's Embedding/EmbeddingBag initialisation: N(0,1), the padding row zero.
fn embed_init(m: &mut Module) -> Result<()> {
    positive(m, &["rows", "cols"])?;
    let pad = padding(m)?;
    let w = normal(&[m.long("rows"), m.long("cols")], 1.0)?;
    if let Some(i) = pad {
        let _ = tch::no_grad(|| w.get(i).f_fill_(0.0))?;
    }
    m.add_parm("weight", w);
    Ok(())
}

/// With a maximum norm, rows looked up are renormalised in place first, as PyTorch does.
fn renorm(m: &Module, w: &Tensor, x: &Tensor) -> Result<()> {
    if let Some(n) = m.float_opt("maxnorm") {
        let x = x.f_contiguous()?;
        let _ = tch::no_grad(|| w.shallow_clone().f_embedding_renorm_(&x, n, m.float("p")))?;
    }
    Ok(())
}

/// On CUDA a row index out of range is a device-side assert, which ends the process's CUDA
/// context: indices are checked first, on the host where their range is known (q data sent in
/// this call) or the data was checked before (`run`), else on the device (one wait for the GPU).
/// Not on the CPU, where libtorch's own check is an error, nor while a CUDA graph records.
fn rows_within(x: &Tensor, rows: i64) -> Result<()> {
    if let Some(v) = crate::tensor::known::cuda_outside(x, 0, rows, None)? {
        bail!("index {v} is out of range for an embedding of {rows} rows");
    }
    Ok(())
}

fn embed(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let w = m.parm("weight")?;
    rows_within(x, w.size()[0])?;
    renorm(m, w, x)?;
    let pad = padding(m)?.unwrap_or(-1);
    Ok(Tensor::f_embedding(
        w,
        x,
        pad,
        m.flag("scale"),
        m.flag("sparse"),
    )?)
}

/// EmbeddingBag's forward: `(x)` with a 2-d input (each row a bag), `(x;offsets)` with a 1-d
/// input, `(x;offsets;weights)` with per-sample weights (mode `sum only).
fn embedbag(m: &Module, _: &Run, x: &[Tensor]) -> Result<Out> {
    let name = m.layer.name;
    let w = m.parm("weight")?;
    let mode = m.sym("mode");
    rows_within(&x[0], w.size()[0])?;
    let psw = x.get(2).filter(|t| t.defined() && t.numel() > 0);
    if psw.is_some() && mode != "sum" {
        bail!("{name}: per-sample weights only supported with mode `sum, not `{mode}");
    }
    let (input, offsets, psw) = match x[0].dim() {
        2 => {
            if x.get(1).is_some_and(|t| t.defined() && t.numel() > 0) {
                bail!("{name}: if input is 2-d, offsets must be empty");
            }
            let n = x[0].size()[1];
            let offsets = Tensor::f_arange_start_step(
                0i64,
                x[0].numel() as i64,
                n.max(1),
                (tch::Kind::Int64, x[0].device()),
            )?;
            let psw = psw.map(|t| t.f_reshape([-1])).transpose()?;
            (x[0].f_reshape([-1])?, offsets, psw)
        }
        1 => {
            let Some(o) = x.get(1) else {
                bail!("{name}: offsets required for 1-d input")
            };
            if o.dim() != 1 {
                bail!(
                    "{name}: offsets has to be a 1-d tensor, given {}-d",
                    o.dim()
                );
            }
            (
                x[0].shallow_clone(),
                o.shallow_clone(),
                psw.map(|t| t.shallow_clone()),
            )
        }
        d => bail!("{name}: input has to be 1-d or 2-d, but got {d}-d"),
    };
    renorm(m, w, &input)?;
    let mode = match mode {
        "sum" => 0,
        "mean" => 1,
        _ => 2,
    };
    let (y, _, _, _) = Tensor::f_embedding_bag_padding_idx(
        w,
        &input,
        &offsets,
        m.flag("scale"),
        mode,
        m.flag("sparse"),
        psw.as_ref(),
        m.flag("lastoffset"),
        // unset is None: libtorch wraps a -1 to the last row
        padding(m)?,
    )?;
    Ok(Out::Tensor(y))
}

/// The first n positions of a (1, rows, cols) position embedding, n the input's last size.
/// `embedpos` slices as knn/embed.cpp does, `pos.index({Slice(), Slice(None,x.size(-1)), Slice()})`:
/// a slice past the end stops at the last row, so an input whose last size exceeds the rows gets
/// them all (mnist/cct.q adds its 49 positions to tokens of shape (batch, 49, 128)). Inside
/// `embedseq` the positions are added to the tokens, which a longer sequence cannot broadcast
/// with: that is refused here, by name.
fn position(pos: &Tensor, x: &Tensor, clamp: bool) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(1);
    let rows = pos.size()[1];
    if clamp {
        return Ok(pos.f_narrow(1, 0, n.min(rows))?);
    }
    if n > rows {
        bail!("sequence length of {n} exceeds the {rows} rows of the position embedding");
    }
    Ok(pos.f_narrow(1, 0, n)?)
}

fn embedpos_init(m: &mut Module) -> Result<()> {
    positive(m, &["rows", "cols"])?;
    let (r, c) = (m.long("rows"), m.long("cols"));
    m.add_parm("pos", super::filled(&[1, r, c], 0.0)?);
    Ok(())
}

fn embedseq_init(m: &mut Module) -> Result<()> {
    positive(m, &["rows", "cols", "length"])?;
    let (r, c, n) = (m.long("rows"), m.long("cols"), m.long("length"));
    m.add_parm("tok.weight", normal(&[r, c], 1.0)?);
    m.add_parm("pos.pos", super::filled(&[1, n, c], 0.0)?);
    Ok(())
}

/// PyTorch's Bilinear initialisation: U(-1/√in1, 1/√in1) for weight and bias.
fn bilinear_init(m: &mut Module) -> Result<()> {
    let (a, b, n) = (m.long("in1"), m.long("in2"), m.long("out"));
    if a <= 0 || b <= 0 {
        bail!("bilinear: positive input sizes required");
    }
    if n <= 0 {
        bail!("bilinear: positive output size required");
    }
    let bound = 1.0 / (a as f64).sqrt();
    m.add_parm("weight", uniform(&[n, a, b], bound)?);
    if m.flag("bias") {
        m.add_parm("bias", uniform(&[n], bound)?);
    }
    Ok(())
}
