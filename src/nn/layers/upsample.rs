//! Upsample and interpolate (ktorch's knn/upsample.h): resize by output size or scale factor,
//! with PyTorch's `F.interpolate` rules (upsample is interpolate with fewer modes and no
//! `rescale`).
use anyhow::{bail, Result};
use tch::Tensor;

use super::{opt, sym, Def, Layer, Run, Ty};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: check,
        ..super::layer(
            "upsample",
            "torch.nn.Upsample",
            &[
                opt("size", Ty::Size(0), Def::Null),
                opt("scale", Ty::Floats(0), Def::Null),
                sym(
                    "mode",
                    &["nearest", "linear", "bilinear", "bicubic", "trilinear"],
                    "nearest",
                ),
                opt("align", Ty::Bool, Def::Null),
            ],
            interpolate,
        )
    },
    Layer {
        init: check,
        ..super::layer(
            "interpolate",
            "torch.nn.functional.interpolate",
            &[
                opt("size", Ty::Size(0), Def::Null),
                opt("scale", Ty::Floats(0), Def::Null),
                sym(
                    "mode",
                    &[
                        "nearest",
                        "nearestexact",
                        "linear",
                        "bilinear",
                        "bicubic",
                        "trilinear",
                        "area",
                    ],
                    "nearest",
                ),
                opt("align", Ty::Bool, Def::Null),
                opt("rescale", Ty::Bool, Def::Null),
            ],
            interpolate,
        )
    },
];

fn has(m: &Module, o: &str) -> bool {
    m.layer.opts.iter().any(|x| x.name == o)
}

fn check(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    match (
        m.is_none("size") || m.longs("size").is_empty(),
        m.is_none("scale") || m.floats("scale").is_empty(),
    ) {
        (true, true) => bail!("{name}: no output size or scale factor given"),
        (false, false) => bail!("{name}: both output size and scale factor given"),
        _ => {}
    }
    if m.longs("size").iter().any(|&j| j <= 0) {
        bail!(
            "{name}: output size must be positive, given {:?}",
            m.longs("size")
        );
    }
    if m.floats("scale").iter().any(|&f| f <= 0.0) {
        bail!(
            "{name}: scale factor must be positive, given {:?}",
            m.floats("scale")
        );
    }
    let interpolating = matches!(
        m.sym("mode"),
        "linear" | "bilinear" | "bicubic" | "trilinear"
    );
    if !interpolating && !m.is_none("align") {
        bail!("{name}: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear");
    }
    if has(m, "rescale") && m.flag("rescale") && !m.is_none("size") {
        bail!("{name}: recompute_scale_factor is not meaningful with an explicit size");
    }
    Ok(())
}

/// One value per spatial dimension: a single value is repeated, else the count must match.
fn per_dim<T: Copy>(name: &str, what: &str, v: &[T], n: usize) -> Result<Vec<T>> {
    match v.len() {
        1 => Ok(vec![v[0]; n]),
        k if k == n => Ok(v.to_vec()),
        k => bail!("{name}: input with {n} spatial dimension(s), but {what} of {k}"),
    }
}

/// PyTorch's `F.interpolate`: the output size from the size or from the scale (floor of input
/// size times scale), the scales passed on to the kernel unless recomputed.
fn interpolate(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let name = m.layer.name;
    let s = x.size();
    if !(3..=5).contains(&s.len()) {
        bail!(
            "{name}: expected 3-d, 4-d or 5-d input, given {}-d",
            s.len()
        );
    }
    let n = s.len() - 2;
    let mode = m.sym("mode");
    let (size, scales): (Vec<i64>, Vec<Option<f64>>) = if !m.is_none("size") {
        (
            per_dim(name, "output size", m.longs("size"), n)?,
            vec![None; n],
        )
    } else {
        let f = per_dim(name, "scale factor", m.floats("scale"), n)?;
        let out = f
            .iter()
            .zip(&s[2..])
            .map(|(f, &d)| (d as f64 * f) as i64)
            .collect();
        let recompute = mode == "area" || (has(m, "rescale") && m.flag("rescale"));
        (
            out,
            f.into_iter().map(|f| (!recompute).then_some(f)).collect(),
        )
    };
    let align = m.flag("align");
    let wrong = || -> Result<Tensor> {
        bail!(
            "{name}: mode `{mode} not implemented for {}-d input",
            s.len()
        )
    };
    Ok(match (mode, n) {
        ("nearest", 1) => x.f_upsample_nearest1d(&size, scales[0])?,
        ("nearest", 2) => x.f_upsample_nearest2d(&size, scales[0], scales[1])?,
        ("nearest", _) => x.f_upsample_nearest3d(&size, scales[0], scales[1], scales[2])?,
        ("nearestexact", 1) => x.f_internal_upsample_nearest_exact1d(&size, scales[0])?,
        ("nearestexact", 2) => {
            x.f_internal_upsample_nearest_exact2d(&size, scales[0], scales[1])?
        }
        ("nearestexact", _) => {
            x.f_internal_upsample_nearest_exact3d(&size, scales[0], scales[1], scales[2])?
        }
        ("area", 1) => x.f_adaptive_avg_pool1d(&size)?,
        ("area", 2) => x.f_adaptive_avg_pool2d(&size)?,
        ("area", _) => x.f_adaptive_avg_pool3d(&size)?,
        ("linear", 1) => x.f_upsample_linear1d(&size, align, scales[0])?,
        ("bilinear", 2) => x.f_upsample_bilinear2d(&size, align, scales[0], scales[1])?,
        ("bicubic", 2) => x.f_upsample_bicubic2d(&size, align, scales[0], scales[1])?,
        ("trilinear", 3) => {
            x.f_upsample_trilinear3d(&size, align, scales[0], scales[1], scales[2])?
        }
        _ => return wrong(),
    })
}
