//! Padding (ktorch's knn/pad.h): the general `pad` (sizes, mode, value), constant pads of 1-3
//! dimensions, reflection, replication and zero pads; and fold/unfold (knn/fold.cpp), which
//! gather sliding blocks into columns and back.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{float, layer, size, size_or, sym, Layer, Run};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: pad_init,
        ..layer(
            "pad",
            "torch.nn.functional.pad",
            &[
                size("pad", 0),
                sym(
                    "mode",
                    &["constant", "reflect", "replicate", "circular"],
                    "constant",
                ),
                float("value", 0.0),
            ],
            |m, _, x| Ok(x.f_pad(m.longs("pad"), m.sym("mode"), m.float("value"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "pad1d",
            "torch.nn.ConstantPad1d",
            &[size("pad", 2), float("value", 0.0)],
            constant,
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "pad2d",
            "torch.nn.ConstantPad2d",
            &[size("pad", 4), float("value", 0.0)],
            constant,
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "pad3d",
            "torch.nn.ConstantPad3d",
            &[size("pad", 6), float("value", 0.0)],
            constant,
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "reflect1d",
            "torch.nn.ReflectionPad1d",
            &[size("pad", 2)],
            |m, _, x| Ok(x.f_reflection_pad1d(m.longs("pad"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "reflect2d",
            "torch.nn.ReflectionPad2d",
            &[size("pad", 4)],
            |m, _, x| Ok(x.f_reflection_pad2d(m.longs("pad"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "replicate1d",
            "torch.nn.ReplicationPad1d",
            &[size("pad", 2)],
            |m, _, x| Ok(x.f_replication_pad1d(m.longs("pad"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "replicate2d",
            "torch.nn.ReplicationPad2d",
            &[size("pad", 4)],
            |m, _, x| Ok(x.f_replication_pad2d(m.longs("pad"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "replicate3d",
            "torch.nn.ReplicationPad3d",
            &[size("pad", 6)],
            |m, _, x| Ok(x.f_replication_pad3d(m.longs("pad"))?),
        )
    },
    Layer {
        init: pad_init,
        ..layer(
            "zeropad2d",
            "torch.nn.ZeroPad2d",
            &[size("pad", 4)],
            |m, _, x| Ok(x.f_pad(m.longs("pad"), "constant", None::<f64>)?),
        )
    },
    Layer {
        init: fold_init,
        ..layer(
            "fold",
            "torch.nn.Fold",
            &[
                size("out", 2),
                size("size", 2),
                size_or("dilate", 2, &[1]),
                size_or("pad", 2, &[0]),
                size_or("stride", 2, &[1]),
            ],
            |m, _, x| {
                Ok(x.f_col2im(
                    m.longs("out"),
                    m.longs("size"),
                    m.longs("dilate"),
                    m.longs("pad"),
                    m.longs("stride"),
                )?)
            },
        )
    },
    Layer {
        init: fold_init,
        ..layer(
            "unfold",
            "torch.nn.Unfold",
            &[
                size("size", 2),
                size_or("dilate", 2, &[1]),
                size_or("pad", 2, &[0]),
                size_or("stride", 2, &[1]),
            ],
            |m, _, x| {
                Ok(x.f_im2col(
                    m.longs("size"),
                    m.longs("dilate"),
                    m.longs("pad"),
                    m.longs("stride"),
                )?)
            },
        )
    },
];

/// The general pad takes pairs of sizes (left,right, then top,bottom, ..).
fn pad_init(m: &mut Module) -> Result<()> {
    let n = m.longs("pad").len();
    if n == 0 || n % 2 == 1 {
        bail!(
            "{}: {n} pad size(s) given, expected pairs for left,right or left,right,top,bottom.. etc",
            m.layer.name
        );
    }
    Ok(())
}

fn constant(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    Ok(x.f_pad(m.longs("pad"), "constant", m.float("value"))?)
}

fn fold_init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    for (o, least) in [("size", 1), ("dilate", 1), ("pad", 0), ("stride", 1)] {
        let v = m.longs(o);
        if v.iter().any(|&x| x < least) {
            let what = if least == 0 {
                "non-negative"
            } else {
                "positive"
            };
            bail!("{name}: {o} must be {what}, given {v:?}");
        }
    }
    if m.layer.opts.iter().any(|o| o.name == "out") && m.longs("out").iter().any(|&x| x <= 0) {
        bail!(
            "{name}: output size must be positive, given {:?}",
            m.longs("out")
        );
    }
    Ok(())
}
