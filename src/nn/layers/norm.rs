//! Normalization (ktorch's knn/norm.cpp; PyTorch's BatchNorm, InstanceNorm, GroupNorm,
//! LayerNorm, LocalResponseNorm, CrossMapLRN2d, and ktorch's `normalize` layer, PyTorch's
//! functional normalize). Batch and instance norm share ktorch's options
//! `(in;eps;momentum;affine;track)`; a null momentum (`0n`) is PyTorch's `momentum=None`, a
//! cumulative average of the batch statistics.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::{flag, float, layer, long, long_or, size, Layer, Run};
use crate::nn::Module;

const BATCH: &[super::Opt] = &[
    long("in"),
    float("eps", 1e-5),
    float("momentum", 0.1),
    flag("affine", true),
    flag("track", true),
];
const INSTANCE: &[super::Opt] = &[
    long("in"),
    float("eps", 1e-5),
    float("momentum", 0.1),
    flag("affine", false),
    flag("track", false),
];
const LOCAL: &[super::Opt] = &[
    long("size"),
    float("alpha", 1e-4),
    float("beta", 0.75),
    float("k", 1.0),
];

/// Layer norm as the `layernorm` module, `selfattention`'s norm and the transformer layers'
/// norms compute it: ATen's, or for x on CUDA with `setting`fusedln` on (the default), the same
/// forward with the backward fused into one pass over x and dy, and with `setting`lncast` on,
/// under autocast, its output in autocast's type (src/cxx/fused_ln.cpp).
pub(crate) fn layer_norm(
    x: &Tensor,
    shape: &[i64],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let how = fusion();
    if (how.kernels || how.lowcast) && x.device().is_cuda() {
        return crate::cxx::layer_norm::fused(x, shape, w, b, eps, how);
    }
    Ok(x.f_layer_norm(shape, w, b, eps, true)?)
}

/// Layer norm for a `residual` block that also adds x at its end (setting`lnres, CUDA): `(y,
/// x')` with x' the x to add, whose gradient meets layer norm's in one backward pass
/// (cxx::layer_norm::fused_res). None where that does not apply: layer norm and the sum as usual.
pub(crate) fn layer_norm_res(
    x: &Tensor,
    shape: &[i64],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Option<(Tensor, Tensor)>> {
    if !(crate::session::setting::lnres() && x.device().is_cuda()) {
        return Ok(None);
    }
    crate::cxx::layer_norm::fused_res(x, shape, w, b, eps, fusion())
}

/// How the session's settings ask layer norm to be computed on CUDA (fusedln, lncast).
fn fusion() -> crate::cxx::layer_norm::Fusion {
    use crate::session::setting;
    crate::cxx::layer_norm::Fusion {
        kernels: setting::fusedln(),
        lowcast: setting::lncast(),
    }
}

pub static LAYERS: &[Layer] = &[
    Layer {
        init: stats_init,
        ..layer("batchnorm1d", "torch.nn.BatchNorm1d", BATCH, |m, r, x| {
            batchnorm(m, r, x, 2)
        })
    },
    Layer {
        init: stats_init,
        ..layer("batchnorm2d", "torch.nn.BatchNorm2d", BATCH, |m, r, x| {
            batchnorm(m, r, x, 4)
        })
    },
    Layer {
        init: stats_init,
        ..layer("batchnorm3d", "torch.nn.BatchNorm3d", BATCH, |m, r, x| {
            batchnorm(m, r, x, 5)
        })
    },
    Layer {
        init: stats_init,
        ..layer(
            "instancenorm1d",
            "torch.nn.InstanceNorm1d",
            INSTANCE,
            |m, r, x| instancenorm(m, r, x, 3),
        )
    },
    Layer {
        init: stats_init,
        ..layer(
            "instancenorm2d",
            "torch.nn.InstanceNorm2d",
            INSTANCE,
            |m, r, x| instancenorm(m, r, x, 4),
        )
    },
    Layer {
        init: stats_init,
        ..layer(
            "instancenorm3d",
            "torch.nn.InstanceNorm3d",
            INSTANCE,
            |m, r, x| instancenorm(m, r, x, 5),
        )
    },
    Layer {
        init: groupnorm_init,
        ..layer(
            "groupnorm",
            "torch.nn.GroupNorm",
            &[
                long("groups"),
                long("channels"),
                float("eps", 1e-5),
                flag("affine", true),
            ],
            |m, _, x| {
                Ok(x.f_group_norm(
                    m.long("groups"),
                    m.parm("weight").ok(),
                    m.parm("bias").ok(),
                    m.float("eps"),
                    true,
                )?)
            },
        )
    },
    Layer {
        init: layernorm_init,
        ..layer(
            "layernorm",
            "torch.nn.LayerNorm",
            &[size("shape", 0), float("eps", 1e-5), flag("affine", true)],
            |m, _, x| {
                layer_norm(
                    x,
                    m.longs("shape"),
                    m.parm("weight").ok(),
                    m.parm("bias").ok(),
                    m.float("eps"),
                )
            },
        )
    },
    Layer {
        init: local_init,
        ..layer(
            "localnorm",
            "torch.nn.LocalResponseNorm",
            LOCAL,
            |m, _, x| local(m, x, false),
        )
    },
    Layer {
        init: local_init,
        ..layer(
            "crossmap2d",
            "torch.nn.CrossMapLRN2d",
            &[
                long("size"),
                float("alpha", 1e-4),
                float("beta", 0.75),
                long_or("k", 1),
            ],
            |m, _, x| local(m, x, true),
        )
    },
    layer(
        "normalize",
        "torch.nn.functional.normalize",
        &[float("p", 2.0), long_or("dim", 1), float("eps", 1e-12)],
        normalize,
    ),
];

fn ones(n: &[i64]) -> Result<Tensor> {
    super::filled(n, 1.0)
}
fn zeros(n: &[i64]) -> Result<Tensor> {
    super::filled(n, 0.0)
}
fn buffer(n: &[i64], v: f64, kind: Kind) -> Result<Tensor> {
    Ok(Tensor::f_full(n, v, (kind, tch::Device::Cpu))?)
}

/// Batch and instance norm: weight and bias with `affine`, running statistics with `track`
/// (PyTorch's `_NormBase`: running_mean 0, running_var 1, num_batches_tracked 0).
fn stats_init(m: &mut Module) -> Result<()> {
    let n = m.long("in");
    if n < 1 {
        bail!(
            "{}: number of input features must be positive, given {n}",
            m.layer.name
        );
    }
    if m.flag("affine") {
        m.add_parm("weight", ones(&[n])?);
        m.add_parm("bias", zeros(&[n])?);
    }
    if m.flag("track") {
        let k = crate::tensor::options::default_kind();
        m.add_buffer("running_mean", buffer(&[n], 0.0, k)?);
        m.add_buffer("running_var", buffer(&[n], 1.0, k)?);
        m.add_buffer("num_batches_tracked", buffer(&[], 0.0, Kind::Int64)?);
    }
    Ok(())
}

/// The running mean and variance, when tracked.
fn running(m: &Module) -> (Option<&Tensor>, Option<&Tensor>) {
    (m.buffer("running_mean").ok(), m.buffer("running_var").ok())
}

/// Batch norm as PyTorch's `_BatchNorm.forward`: in training (or without running statistics)
/// normalize by the batch's statistics and, if tracked, update the running ones in place with
/// `momentum` (null: the cumulative average, 1 / batches seen).
/// `dims`: the one count of input dimensions expected, or 2 for batchnorm1d's 2 or 3.
fn batchnorm(m: &Module, r: &Run, x: &Tensor, dims: i64) -> Result<Tensor> {
    let d = x.dim() as i64;
    if d != dims && !(dims == 2 && d == 3) {
        let want = if dims == 2 {
            "2D or 3D".to_string()
        } else {
            format!("{dims}D")
        };
        bail!("{}: expected {want} input (got {d}D input)", m.layer.name);
    }
    let momentum = if m.cumulative() {
        f64::NAN
    } else {
        m.float("momentum")
    };
    let mut factor = if momentum.is_nan() { 0.0 } else { momentum };
    let track = m.flag("track");
    if r.training && track {
        let n = m.buffer("num_batches_tracked")?;
        let _ = tch::no_grad(|| n.shallow_clone().f_add_scalar_(1))?;
        if momentum.is_nan() {
            factor = 1.0 / n.f_double_value(&[])?;
        }
    }
    let (mean, var) = running(m);
    Ok(x.f_batch_norm(
        m.parm("weight").ok(),
        m.parm("bias").ok(),
        mean,
        var,
        r.training || !track,
        factor,
        m.float("eps"),
        true,
    )?)
}

/// Instance norm as PyTorch's `_InstanceNorm.forward`: inputs without a batch dimension get
/// one for the call; batch statistics in training or when running ones are not tracked.
fn instancenorm(m: &Module, r: &Run, x: &Tensor, batched: i64) -> Result<Tensor> {
    let d = x.dim() as i64;
    if d != batched && d != batched - 1 {
        bail!(
            "{}: expected {}D or {batched}D input (got {d}D input)",
            m.layer.name,
            batched - 1
        );
    }
    let c = x.size()[(d - batched + 1) as usize];
    let n = m.long("in");
    if m.flag("affine") && c != n {
        bail!(
            "{}: expected input's size at dim={} to match num_features ({n}), but got: {c}",
            m.layer.name,
            d - batched + 1
        );
    }
    let momentum = m.float("momentum");
    let input = if d < batched {
        x.f_unsqueeze(0)?
    } else {
        x.shallow_clone()
    };
    let (mean, var) = running(m);
    let y = input.f_instance_norm(
        m.parm("weight").ok(),
        m.parm("bias").ok(),
        mean,
        var,
        r.training || !m.flag("track"),
        if momentum.is_nan() { 0.0 } else { momentum },
        m.float("eps"),
        true,
    )?;
    Ok(if d < batched { y.f_squeeze_dim(0)? } else { y })
}

fn groupnorm_init(m: &mut Module) -> Result<()> {
    let (g, c) = (m.long("groups"), m.long("channels"));
    if g < 1 || c < 1 {
        bail!("groupnorm: groups and channels must be positive, given {g} and {c}");
    }
    if c % g != 0 {
        bail!("groupnorm: number of channels ({c}) must be divisible by number of groups ({g})");
    }
    if m.flag("affine") {
        m.add_parm("weight", ones(&[c])?);
        m.add_parm("bias", zeros(&[c])?);
    }
    Ok(())
}

fn layernorm_init(m: &mut Module) -> Result<()> {
    let s = m.longs("shape").to_vec();
    if s.is_empty() || s.iter().any(|&n| n < 1) {
        bail!("layernorm: normalized shape must be one or more positive sizes, given {s:?}");
    }
    if m.flag("affine") {
        m.add_parm("weight", ones(&s)?);
        m.add_parm("bias", zeros(&s)?);
    }
    Ok(())
}

fn local_init(m: &mut Module) -> Result<()> {
    let n = m.long("size");
    if n < 1 {
        bail!(
            "{}: size (the number of neighbouring channels) must be positive, given {n}",
            m.layer.name
        );
    }
    Ok(())
}

fn local(m: &Module, x: &Tensor, cross: bool) -> Result<Tensor> {
    super::cxx::lrn(
        cross,
        x,
        m.long("size"),
        m.float("alpha"),
        m.float("beta"),
        m.float("k"),
    )
}

/// PyTorch's functional normalize: x / max(‖x‖ₚ along dim, eps).
fn normalize(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let norm = x
        .f_norm_scalaropt_dim(m.float("p"), [m.long("dim")], true)?
        .f_clamp_min(m.float("eps"))?;
    Ok(x.f_div(&norm.f_expand_as(x)?)?)
}
