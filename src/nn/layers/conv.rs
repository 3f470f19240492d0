//! Convolutions (ktorch's knn/conv.h): conv1d..3d and convtranspose1d..3d, with PyTorch's
//! options, order of positional options and initialisation.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{flag, layer, long, long_or, opt, size, size_or, sym, uniform, Def, Layer, Run, Ty};
use crate::nn::{Module, Val};

const PADMODES: &[&str] = &["zeros", "reflect", "replicate", "circular"];

/// A convolution's options (ktorch's `conv`): in, out, size, stride, pad (sizes, or `same or
/// `valid), dilate, groups, bias, padmode.
macro_rules! conv_opts {
    ($n:expr) => {
        &[
            long("in"),
            long("out"),
            size("size", $n),
            size_or("stride", $n, &[1]),
            opt(
                "pad",
                Ty::SizeOrSym($n, &["same", "valid"]),
                Def::Longs(&[0]),
            ),
            size_or("dilate", $n, &[1]),
            long_or("groups", 1),
            flag("bias", true),
            sym("padmode", PADMODES, "zeros"),
        ]
    };
}

/// A transposed convolution's options (ktorch's `convtran`, whose order follows PyTorch's
/// arguments): in, out, size, stride, pad, outpad, groups, bias, dilate, padmode.
macro_rules! convtran_opts {
    ($n:expr) => {
        &[
            long("in"),
            long("out"),
            size("size", $n),
            size_or("stride", $n, &[1]),
            size_or("pad", $n, &[0]),
            size_or("outpad", $n, &[0]),
            long_or("groups", 1),
            flag("bias", true),
            size_or("dilate", $n, &[1]),
            sym("padmode", &["zeros"], "zeros"),
        ]
    };
}

pub static LAYERS: &[Layer] = &[
    Layer {
        init: conv_init,
        ..layer("conv1d", "torch.nn.Conv1d", conv_opts!(1), conv)
    },
    Layer {
        init: conv_init,
        ..layer("conv2d", "torch.nn.Conv2d", conv_opts!(2), conv)
    },
    Layer {
        init: conv_init,
        ..layer("conv3d", "torch.nn.Conv3d", conv_opts!(3), conv)
    },
    Layer {
        init: conv_init,
        ..layer(
            "convtranspose1d",
            "torch.nn.ConvTranspose1d",
            convtran_opts!(1),
            convtran,
        )
    },
    Layer {
        init: conv_init,
        ..layer(
            "convtranspose2d",
            "torch.nn.ConvTranspose2d",
            convtran_opts!(2),
            convtran,
        )
    },
    Layer {
        init: conv_init,
        ..layer(
            "convtranspose3d",
            "torch.nn.ConvTranspose3d",
            convtran_opts!(3),
            convtran,
        )
    },
];

fn transposed(m: &Module) -> bool {
    m.layer.name.starts_with("convtranspose")
}

/// Check the options as PyTorch's `_ConvNd` does, then make the weight ([out, in/groups, k..],
/// transposed [in, out/groups, k..]) and bias: kaiming uniform with a=√5 comes to
/// U(-1/√fan_in, 1/√fan_in) with fan_in = weight.size(1) * kernel elements, the bias's bound.
fn conv_init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    let (i, o, g) = (m.long("in"), m.long("out"), m.long("groups"));
    if i <= 0 || o <= 0 {
        bail!("{name}: positive input and output channels required, given in={i}, out={o}");
    }
    if g <= 0 {
        bail!("{name}: groups must be a positive integer, given {g}");
    }
    if i % g != 0 {
        bail!("{name}: in_channels must be divisible by groups");
    }
    if o % g != 0 {
        bail!("{name}: out_channels must be divisible by groups");
    }
    let k = m.longs("size").to_vec();
    for (opt, v, least) in [
        ("size", &k[..], 1),
        ("stride", m.longs("stride"), 1),
        ("dilate", m.longs("dilate"), 1),
    ] {
        if v.iter().any(|&x| x < least) {
            bail!("{name}: {opt} must be positive, given {v:?}");
        }
    }
    match m.opt("pad") {
        Val::Longs(p) if p.iter().any(|&x| x < 0) => {
            bail!("{name}: padding must be non-negative, given {p:?}")
        }
        Val::Sym("same") if m.longs("stride").iter().any(|&s| s != 1) => {
            bail!("{name}: padding='same' is not supported for strided convolutions")
        }
        _ => {}
    }
    let mut shape = if transposed(m) {
        if m.longs("outpad").iter().any(|&x| x < 0) {
            bail!("{name}: output padding must be non-negative");
        }
        vec![i, o / g]
    } else {
        vec![o, i / g]
    };
    shape.extend(&k);
    let bound = 1.0 / ((shape[1] * k.iter().product::<i64>()) as f64).sqrt();
    m.add_parm("weight", uniform(&shape, bound)?);
    if m.flag("bias") {
        m.add_parm("bias", uniform(&[o], bound)?);
    }
    Ok(())
}

fn conv(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let (w, b) = (m.parm("weight")?, m.parm("bias").ok());
    let (stride, dilate, g) = (m.longs("stride"), m.longs("dilate"), m.long("groups"));
    let n = stride.len();
    let mode = m.sym("padmode");
    // sizes for each side of each dimension, last dimension first (F.pad's order)
    let pad = match m.opt("pad") {
        Val::Longs(p) => p.clone(),
        _ => vec![],
    };
    if mode != "zeros" {
        // PyTorch pads first with the mode, then convolves without padding
        let sides: Vec<i64> = match m.opt("pad") {
            Val::Sym("same") => (0..n)
                .rev()
                .flat_map(|d| {
                    let total = dilate[d] * (m.longs("size")[d] - 1);
                    [total / 2, total - total / 2]
                })
                .collect(),
            Val::Sym(_) => vec![0; 2 * n],
            _ => pad.iter().rev().flat_map(|&p| [p, p]).collect(),
        };
        let y = x.f_pad(&sides, mode, None::<f64>)?;
        let zero = vec![0i64; n];
        return Ok(match n {
            1 => y.f_conv1d(w, b, stride, &zero, dilate, g)?,
            2 => y.f_conv2d(w, b, stride, &zero, dilate, g)?,
            _ => y.f_conv3d(w, b, stride, &zero, dilate, g)?,
        });
    }
    Ok(match (m.opt("pad"), n) {
        (Val::Sym(s), 1) => x.f_conv1d_padding(w, b, stride, s, dilate, g)?,
        (Val::Sym(s), 2) => x.f_conv2d_padding(w, b, stride, s, dilate, g)?,
        (Val::Sym(s), _) => x.f_conv3d_padding(w, b, stride, s, dilate, g)?,
        (_, 1) => x.f_conv1d(w, b, stride, &pad, dilate, g)?,
        (_, 2) => x.f_conv2d(w, b, stride, &pad, dilate, g)?,
        _ => x.f_conv3d(w, b, stride, &pad, dilate, g)?,
    })
}

fn convtran(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let (w, b) = (m.parm("weight")?, m.parm("bias").ok());
    let (s, p, o) = (m.longs("stride"), m.longs("pad"), m.longs("outpad"));
    let (g, d) = (m.long("groups"), m.longs("dilate"));
    Ok(match s.len() {
        1 => x.f_conv_transpose1d(w, b, s, p, o, g, d)?,
        2 => x.f_conv_transpose2d(w, b, s, p, o, g, d)?,
        _ => x.f_conv_transpose3d(w, b, s, p, o, g, d)?,
    })
}
