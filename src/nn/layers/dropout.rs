//! Dropout beyond `drop` (ktorch's knn/drop.cpp): whole channels (drop2d, drop3d), alpha
//! dropout for SELU networks (adrop, fadrop) and ktorch's droppath (whole samples). Each is the
//! identity outside training.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{flag, float, layer, Layer, Run};
use crate::nn::Module;

const DROP: &[super::Opt] = &[float("p", 0.5), flag("inplace", false)];

pub static LAYERS: &[Layer] = &[
    Layer {
        init: p_init,
        ..layer("drop2d", "torch.nn.Dropout2d", DROP, |m, r, x| {
            feature(m, r, x, 4)
        })
    },
    Layer {
        init: p_init,
        ..layer("drop3d", "torch.nn.Dropout3d", DROP, |m, r, x| {
            feature(m, r, x, 5)
        })
    },
    Layer {
        init: p_init,
        ..layer("adrop", "torch.nn.AlphaDropout", DROP, |m, r, x| {
            let p = m.float("p");
            Ok(if m.flag("inplace") {
                x.shallow_clone().f_alpha_dropout_(p, r.training)?
            } else {
                x.f_alpha_dropout(p, r.training)?
            })
        })
    },
    Layer {
        init: p_init,
        ..layer("fadrop", "torch.nn.FeatureAlphaDropout", DROP, |m, r, x| {
            let p = m.float("p");
            Ok(if m.flag("inplace") {
                x.shallow_clone().f_feature_alpha_dropout_(p, r.training)?
            } else {
                x.f_feature_alpha_dropout(p, r.training)?
            })
        })
    },
    Layer {
        init: droppath_init,
        ..layer("droppath", "knn.DropPath", &[float("p", 0.0)], droppath)
    },
];

fn p_init(m: &mut Module) -> Result<()> {
    let p = m.float("p");
    if !(0.0..=1.0).contains(&p) {
        bail!(
            "{}: dropout probability has to be between 0 and 1, but got {p}",
            m.layer.name
        );
    }
    Ok(())
}

/// Channel dropout as libtorch's `_dropoutNd_helper`: an input of `batched` dimensions is a
/// batch; one fewer is a single sample, given a batch dimension for the call.
fn feature(m: &Module, r: &Run, x: &Tensor, batched: usize) -> Result<Tensor> {
    let p = m.float("p");
    let single = x.dim() + 1 == batched;
    let input = if single {
        x.f_unsqueeze(0)?
    } else {
        x.shallow_clone()
    };
    if m.flag("inplace") {
        let _ = input.shallow_clone().f_feature_dropout_(p, r.training)?;
        return Ok(x.shallow_clone());
    }
    let y = input.f_feature_dropout(p, r.training)?;
    Ok(if single { y.f_squeeze_dim(0)? } else { y })
}

fn droppath_init(m: &mut Module) -> Result<()> {
    let p = m.float("p");
    if !(0.0..1.0).contains(&p) {
        bail!("droppath: probability has to be at least 0 and less than 1, but got {p}");
    }
    Ok(())
}

/// ktorch's DropPath: in training, each sample (along dimension 0) is zeroed with probability
/// p, the rest scaled by 1/(1-p).
fn droppath(m: &Module, r: &Run, x: &Tensor) -> Result<Tensor> {
    let p = m.float("p");
    if p == 0.0 || !r.training {
        return Ok(x.shallow_clone());
    }
    let keep = 1.0 - p;
    let mut shape = vec![1i64; x.dim()];
    if let Some(n) = shape.first_mut() {
        *n = x.size()[0];
    }
    let mask = Tensor::f_rand(&shape[..], (x.kind(), x.device()))?
        .f_add_scalar(keep)?
        .f_floor()?;
    Ok(x.f_div_scalar(keep)?.f_mul(&mask)?)
}
