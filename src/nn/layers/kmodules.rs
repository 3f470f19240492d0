//! ktorch's own modules of kmodules.rst that wrap a PyTorch function (knn/fns.cpp, onehot.cpp,
//! reshape.cpp, select.cpp, squeeze.cpp) and the image transforms of knn/transform.cpp
//! (`randomcrop`, `randomflip`, `zscore`). The `transform` container is in `seqs`.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::{
    flag, float, layer, long, long_or, many, opt, size, size_or, sym, Def, Layer, Out, Ty,
};
use crate::nn::{Module, Run};

pub static LAYERS: &[Layer] = &[
    many(
        "cat",
        "torch.cat",
        &[long_or("dim", 0)],
        (2, 2),
        |m, _, x| Ok(Out::Tensor(Tensor::f_cat(&[&x[0], &x[1]], m.long("dim"))?)),
    ),
    layer(
        "expand",
        "torch.Tensor.expand",
        &[size("size", 0)],
        |m, _, x| Ok(x.f_expand(m.longs("size"), false)?),
    ),
    many("matmul", "torch.matmul", &[], (2, 2), |_, _, x| {
        Ok(Out::Tensor(x[0].f_matmul(&x[1])?))
    }),
    many("mul", "torch.mul", &[], (2, 2), |_, _, x| {
        Ok(Out::Tensor(x[0].f_mul(&x[1])?))
    }),
    Layer {
        init: onehot_init,
        ..layer(
            "onehot",
            "torch.nn.functional.one_hot",
            &[
                long_or("classes", -1),
                opt("dtype", Ty::Sym(&[]), Def::Null),
            ],
            onehot,
        )
    },
    layer("permute", "torch.permute", &[size("size", 0)], |m, _, x| {
        Ok(x.f_permute(m.longs("size"))?)
    }),
    Layer {
        init: randomcrop_init,
        ..layer(
            "randomcrop",
            "torchvision.transforms",
            &[
                size("size", 2),
                size_or("pad", 4, &[0]),
                sym(
                    "padmode",
                    &["constant", "reflect", "replicate", "circular"],
                    "constant",
                ),
                float("value", 0.0),
            ],
            randomcrop,
        )
    },
    Layer {
        init: randomflip_init,
        ..layer(
            "randomflip",
            "torchvision.transforms",
            &[float("p", 0.5), long_or("dim", -1)],
            randomflip,
        )
    },
    layer("reshape", "torch.reshape", &[size("size", 0)], |m, _, x| {
        Ok(x.f_reshape(m.longs("size"))?)
    }),
    layer(
        "select",
        "torch.Tensor.select",
        &[long("dim"), long("ind")],
        |m, _, x| Ok(x.f_select(m.long("dim"), m.long("ind"))?),
    ),
    Layer {
        init: indexselect_init,
        ..layer(
            "indexselect",
            "torch.index_select",
            &[long("dim"), size("ind", 0)],
            |m, _, x| {
                // the module's indices are its options, on the host: checked there (a CUDA
                // index out of range is a device-side assert)
                crate::tensor::known::check_select_host(x, m.long("dim"), m.longs("ind"))?;
                Ok(x.f_index_select(m.long("dim"), m.buffer("ind")?)?)
            },
        )
    },
    layer(
        "squeeze",
        "torch.squeeze",
        &[super::long_null("dim"), flag("inplace", false)],
        |m, _, x| {
            Ok(match (m.long_opt("dim"), m.flag("inplace")) {
                (Some(d), false) => x.f_squeeze_dim(d)?,
                (Some(d), true) => x.shallow_clone().f_squeeze_dim_(d)?,
                (None, false) => x.f_squeeze()?,
                (None, true) => x.shallow_clone().f_squeeze_()?,
            })
        },
    ),
    layer(
        "unsqueeze",
        "torch.unsqueeze",
        &[long("dim"), flag("inplace", false)],
        |m, _, x| {
            let d = m.long("dim");
            Ok(if m.flag("inplace") {
                x.shallow_clone().f_unsqueeze_(d)?
            } else {
                x.f_unsqueeze(d)?
            })
        },
    ),
    layer(
        "transpose",
        "knn.Transpose",
        &[long_or("dim0", -2), long_or("dim1", -1)],
        |m, _, x| Ok(x.f_transpose(m.long("dim0"), m.long("dim1"))?),
    ),
    Layer {
        init: zscore_init,
        ..layer(
            "zscore",
            "torchvision.transforms",
            &[
                opt("mean", Ty::Floats(0), Def::Required),
                opt("std", Ty::Floats(0), Def::Required),
                flag("inplace", false),
            ],
            zscore,
        )
    },
];

/// The data type of a onehot result: the option's, else float (as ktorch).
fn onehot_kind(m: &Module) -> Result<Kind> {
    if m.is_none("dtype") {
        return Ok(Kind::Float);
    }
    let s = m.sym("dtype");
    crate::tensor::options::kind_from_name(s)
        .ok_or_else(|| anyhow::anyhow!("onehot: unrecognized data type `{s}"))
}

fn onehot_init(m: &mut Module) -> Result<()> {
    if m.long("classes") < -1 {
        bail!("onehot: number of classes must be nonnegative or set to -1 to derive from input");
    }
    onehot_kind(m).map(|_| ())
}

fn onehot(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let classes = m.long("classes");
    // on CUDA libtorch leaves the range to its scatter kernel's device-side assert
    let hi = if classes < 0 { i64::MAX } else { classes };
    if let Some(v) = crate::tensor::known::cuda_outside(x, 0, hi, None)? {
        match classes {
            -1 => bail!("onehot: class values must be nonnegative, given {v}"),
            _ => bail!("onehot: class value {v} is not below the {classes} classes"),
        }
    }
    Ok(x.f_one_hot(classes)?.f_to_kind(onehot_kind(m)?)?)
}

fn indexselect_init(m: &mut Module) -> Result<()> {
    let ind = Tensor::f_from_slice(m.longs("ind"))?;
    m.add_buffer("ind", ind);
    Ok(())
}

fn randomcrop_init(m: &mut Module) -> Result<()> {
    if m.longs("size").iter().any(|&n| n <= 0) {
        bail!(
            "randomcrop: positive crop size(s) required, given {:?}",
            m.longs("size")
        );
    }
    if m.longs("pad").iter().any(|&n| n < 0) {
        bail!(
            "randomcrop: nonnegative padding required, given {:?}",
            m.longs("pad")
        );
    }
    Ok(())
}

/// Pad (left, right, top, bottom), then crop rows x cols at a random top left corner, one
/// corner per image for a 4-dimensional batch (knn/transform.cpp's `rcrop`).
fn randomcrop(m: &Module, _: &Run, t: &Tensor) -> Result<Tensor> {
    let (h, w) = (m.longs("size")[0], m.longs("size")[1]);
    let d = t.dim();
    if !(2..5).contains(&d) {
        bail!("randomcrop: not implemented for {d}-dim tensor");
    }
    let pad = m.longs("pad");
    let p = if pad.iter().all(|&n| n == 0) {
        t.shallow_clone()
    } else {
        let mode = m.sym("padmode");
        let value = (mode == "constant").then(|| m.float("value"));
        t.f_pad(pad, mode, value)?
    };
    let (r, c) = (p.size()[d - 2], p.size()[d - 1]);
    if r == h && c == w {
        return Ok(p);
    }
    let (ny, nx) = (r - h + 1, c - w + 1);
    if ny <= 0 || nx <= 0 {
        bail!("randomcrop: size {h}x{w}, exceeds tensor dim(s) {r}x{c}");
    }
    let n = if d < 4 { 1 } else { t.size()[0] };
    let opts = (Kind::Int64, tch::Device::Cpu);
    let ys = Vec::<i64>::try_from(Tensor::f_randint(ny, [n], opts)?)?;
    let xs = Vec::<i64>::try_from(Tensor::f_randint(nx, [n], opts)?)?;
    let crop = |p: &Tensor, y: i64, x: i64| -> Result<Tensor> {
        let k = p.dim() as i64;
        Ok(p.f_narrow(k - 2, y, h)?.f_narrow(k - 1, x, w)?)
    };
    if n <= 1 {
        return crop(&p, ys[0], xs[0]);
    }
    let v = (0..n)
        .map(|i| crop(&p.f_select(0, i)?, ys[i as usize], xs[i as usize]))
        .collect::<Result<Vec<_>>>()?;
    Ok(Tensor::f_stack(&v, 0)?)
}

fn randomflip_init(m: &mut Module) -> Result<()> {
    let p = m.float("p");
    if !(0.0..=1.0).contains(&p) {
        bail!("randomflip: probability has to be between 0 and 1, but got {p}");
    }
    Ok(())
}

/// Flip along `dim` with probability p, each image of a 4-dimensional batch on its own
/// (knn/transform.cpp's `rflip`).
fn randomflip(m: &Module, _: &Run, t: &Tensor) -> Result<Tensor> {
    let d = t.dim();
    if !(2..5).contains(&d) {
        bail!("randomflip: not implemented for {d}-dim tensor");
    }
    let n = if d < 4 { 1 } else { t.size()[0] };
    let u = Vec::<f64>::try_from(Tensor::f_rand([n], (Kind::Double, tch::Device::Cpu))?)?;
    let flip: Vec<i64> = (0..n).filter(|&i| u[i as usize] < m.float("p")).collect();
    let dim = m.long("dim");
    if flip.is_empty() {
        return Ok(t.shallow_clone());
    }
    if n == 1 {
        return Ok(t.f_flip([dim])?);
    }
    let mut r = t.f_empty_like()?;
    r.f_copy_(t)?;
    for i in flip {
        let mut row = r.f_select(0, i)?;
        row.f_copy_(&t.f_select(0, i)?.f_flip([dim])?)?;
    }
    Ok(r)
}

/// Mean and standard deviation as buffers: a single value as a scalar (it broadcasts across any
/// input), several as a list, one per channel of a channel x rows x cols image.
fn zscore_init(m: &mut Module) -> Result<()> {
    let kind = crate::tensor::options::default_kind();
    let stat = |v: &[f64]| -> Result<Tensor> {
        let t = Tensor::f_from_slice(v)?.f_to_kind(kind)?;
        Ok(if v.len() == 1 { t.f_reshape([])? } else { t })
    };
    let (mean, std) = (stat(m.floats("mean"))?, stat(m.floats("std"))?);
    m.add_buffer("mean", mean);
    m.add_buffer("stddev", std);
    Ok(())
}

fn zscore(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let chan = |t: &Tensor| -> Result<Tensor> {
        Ok(if t.dim() == 1 {
            t.f_view([-1, 1, 1])?
        } else {
            t.shallow_clone()
        })
    };
    let (mean, std) = (chan(m.buffer("mean")?)?, chan(m.buffer("stddev")?)?);
    Ok(if m.flag("inplace") {
        x.shallow_clone().f_sub_(&mean)?.f_div_(&std)?
    } else {
        x.f_sub(&mean)?.f_div(&std)?
    })
}
