//! Pooling (ktorch's knn/pool.h): max, average, adaptive max and average, power-average and
//! fractional max pooling. Options in ktorch's order; a stride left unset is the kernel size,
//! as in PyTorch.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{flag, float_req, floats_null, layer, long_null, size, size_null, size_or, Layer, Run};
use crate::nn::Module;

/// maxpool: size, stride, pad, dilate, ceiling.
macro_rules! max_opts {
    ($n:expr) => {
        &[
            size("size", $n),
            size_null("stride", $n),
            size_or("pad", $n, &[0]),
            size_or("dilate", $n, &[1]),
            flag("ceiling", false),
        ]
    };
}

/// avgpool: size, stride, pad, ceiling, countpad, divisor.
macro_rules! avg_opts {
    ($n:expr) => {
        &[
            size("size", $n),
            size_null("stride", $n),
            size_or("pad", $n, &[0]),
            flag("ceiling", false),
            flag("countpad", true),
            long_null("divisor"),
        ]
    };
}

/// lppool: p, size, stride, ceiling.
macro_rules! lp_opts {
    ($n:expr) => {
        &[
            float_req("p"),
            size("size", $n),
            size_null("stride", $n),
            flag("ceiling", false),
        ]
    };
}

/// fmaxpool: size, outsize, ratio (one of outsize and ratio).
macro_rules! frac_opts {
    ($n:expr) => {
        &[
            size("size", $n),
            size_null("outsize", $n),
            floats_null("ratio", $n),
        ]
    };
}

pub static LAYERS: &[Layer] = &[
    Layer {
        init: window_init,
        ..layer("maxpool1d", "torch.nn.MaxPool1d", max_opts!(1), maxpool)
    },
    Layer {
        init: window_init,
        ..layer("maxpool2d", "torch.nn.MaxPool2d", max_opts!(2), maxpool)
    },
    Layer {
        init: window_init,
        ..layer("maxpool3d", "torch.nn.MaxPool3d", max_opts!(3), maxpool)
    },
    Layer {
        init: window_init,
        ..layer("avgpool1d", "torch.nn.AvgPool1d", avg_opts!(1), avgpool)
    },
    Layer {
        init: window_init,
        ..layer("avgpool2d", "torch.nn.AvgPool2d", avg_opts!(2), avgpool)
    },
    Layer {
        init: window_init,
        ..layer("avgpool3d", "torch.nn.AvgPool3d", avg_opts!(3), avgpool)
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptmax1d",
            "torch.nn.AdaptiveMaxPool1d",
            &[size("size", 1)],
            adaptmax,
        )
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptmax2d",
            "torch.nn.AdaptiveMaxPool2d",
            &[size("size", 2)],
            adaptmax,
        )
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptmax3d",
            "torch.nn.AdaptiveMaxPool3d",
            &[size("size", 3)],
            adaptmax,
        )
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptavg1d",
            "torch.nn.AdaptiveAvgPool1d",
            &[size("size", 1)],
            adaptavg,
        )
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptavg2d",
            "torch.nn.AdaptiveAvgPool2d",
            &[size("size", 2)],
            adaptavg,
        )
    },
    Layer {
        init: adapt_init,
        ..layer(
            "adaptavg3d",
            "torch.nn.AdaptiveAvgPool3d",
            &[size("size", 3)],
            adaptavg,
        )
    },
    Layer {
        init: window_init,
        ..layer("lppool1d", "torch.nn.LPPool1d", lp_opts!(1), lppool)
    },
    Layer {
        init: window_init,
        ..layer("lppool2d", "torch.nn.LPPool2d", lp_opts!(2), lppool)
    },
    Layer {
        init: frac_init,
        ..layer(
            "fmaxpool2d",
            "torch.nn.FractionalMaxPool2d",
            frac_opts!(2),
            fmaxpool,
        )
    },
    Layer {
        init: frac_init,
        ..layer(
            "fmaxpool3d",
            "torch.nn.FractionalMaxPool3d",
            frac_opts!(3),
            fmaxpool,
        )
    },
];

/// Window sizes positive, padding not negative and at most half the kernel (PyTorch's check,
/// made here so a bad definition fails when made, not at the first forward).
fn window_init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    let k = m.longs("size");
    if k.iter().any(|&x| x <= 0) {
        bail!("{name}: kernel size must be positive, given {k:?}");
    }
    if m.longs("stride").iter().any(|&x| x <= 0) {
        bail!(
            "{name}: stride must be positive, given {:?}",
            m.longs("stride")
        );
    }
    let has = |o: &str| m.layer.opts.iter().any(|x| x.name == o);
    if has("dilate") && m.longs("dilate").iter().any(|&x| x <= 0) {
        bail!(
            "{name}: dilation must be positive, given {:?}",
            m.longs("dilate")
        );
    }
    if has("pad") {
        let p = m.longs("pad");
        if p.iter().zip(k).any(|(&p, &k)| p < 0 || p > k / 2) {
            bail!("{name}: pad should be non-negative and at most half of kernel size, given pad={p:?}, size={k:?}");
        }
    }
    if has("divisor") && m.long_opt("divisor").is_some_and(|d| d == 0) {
        bail!("{name}: divisor must be not zero");
    }
    if has("p") && m.float("p") == 0.0 {
        bail!("{name}: power must be non-zero");
    }
    Ok(())
}

/// The stride: the kernel size when unset.
fn stride(m: &Module) -> &[i64] {
    if m.is_none("stride") {
        m.longs("size")
    } else {
        m.longs("stride")
    }
}

fn maxpool(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let (k, s, p, d, c) = (
        m.longs("size"),
        stride(m),
        m.longs("pad"),
        m.longs("dilate"),
        m.flag("ceiling"),
    );
    Ok(match k.len() {
        1 => x.f_max_pool1d(k, s, p, d, c)?,
        2 => x.f_max_pool2d(k, s, p, d, c)?,
        _ => x.f_max_pool3d(k, s, p, d, c)?,
    })
}

fn avgpool(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let (k, s, p) = (m.longs("size"), stride(m), m.longs("pad"));
    let (c, n, d) = (m.flag("ceiling"), m.flag("countpad"), m.long_opt("divisor"));
    Ok(match k.len() {
        // PyTorch's avg_pool1d has no divisor
        1 if d.is_some() => bail!(
            "{}: divisor not available for 1-d average pooling",
            m.layer.name
        ),
        1 => x.f_avg_pool1d(k, s, p, c, n)?,
        2 => x.f_avg_pool2d(k, s, p, c, n, d)?,
        _ => x.f_avg_pool3d(k, s, p, c, n, d)?,
    })
}

/// Output sizes positive, or null for "as the input" (2 and 3-d, PyTorch's None).
fn adapt_init(m: &mut Module) -> Result<()> {
    let v = m.longs("size");
    let one = v.len() == 1;
    if v.iter().any(|&j| {
        if one {
            j < 0 || j == i64::MIN
        } else {
            j < 0 && j != i64::MIN
        }
    }) {
        bail!(
            "{}: output size must be non-negative, given {v:?}",
            m.layer.name
        );
    }
    if v.iter().all(|&j| j == i64::MIN) {
        bail!("{}: no output size", m.layer.name);
    }
    Ok(())
}

/// Output size with nulls taken from the input's trailing dimensions.
fn adapt_size(m: &Module, x: &Tensor) -> Result<Vec<i64>> {
    let v = m.longs("size");
    let s = x.size();
    if s.len() < v.len() {
        bail!(
            "{}: input of {} dimension(s) for output size of {}",
            m.layer.name,
            s.len(),
            v.len()
        );
    }
    let tail = &s[s.len() - v.len()..];
    Ok(v.iter()
        .zip(tail)
        .map(|(&j, &d)| if j == i64::MIN { d } else { j })
        .collect())
}

fn adaptmax(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let s = adapt_size(m, x)?;
    Ok(match s.len() {
        1 => x.f_adaptive_max_pool1d(&s)?.0,
        2 => x.f_adaptive_max_pool2d(&s)?.0,
        _ => x.f_adaptive_max_pool3d(&s)?.0,
    })
}

fn adaptavg(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let s = adapt_size(m, x)?;
    Ok(match s.len() {
        1 => x.f_adaptive_avg_pool1d(&s)?,
        2 => x.f_adaptive_avg_pool2d(&s)?,
        _ => x.f_adaptive_avg_pool3d(&s)?,
    })
}

/// PyTorch's lp_pool: the mean of x^p over each window, times the window's size, to the 1/p.
fn lppool(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let (p, k, s, c) = (m.float("p"), m.longs("size"), stride(m), m.flag("ceiling"));
    let zero = vec![0i64; k.len()];
    let y = x.f_pow_tensor_scalar(p)?;
    let out = match k.len() {
        1 => y.f_avg_pool1d(k, s, &zero, c, true)?,
        _ => y.f_avg_pool2d(k, s, &zero, c, true, None)?,
    };
    let n: i64 = k.iter().product();
    Ok(out
        .f_sign()?
        .f_mul(&out.f_abs()?.f_relu()?)?
        .f_mul_scalar(n)?
        .f_pow_tensor_scalar(1.0 / p)?)
}

fn frac_init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    if m.longs("size").iter().any(|&x| x <= 0) {
        bail!(
            "{name}: kernel size must be positive, given {:?}",
            m.longs("size")
        );
    }
    match (m.is_none("outsize"), m.is_none("ratio")) {
        (true, true) => bail!("{name}: no output size or ratio given"),
        (false, false) => bail!("{name}: cannot specify both output size & output ratio"),
        _ => {}
    }
    if m.floats("ratio").iter().any(|&r| !(r > 0.0 && r < 1.0)) {
        bail!(
            "{name}: output ratio must be between 0 and 1, given {:?}",
            m.floats("ratio")
        );
    }
    if m.longs("outsize").iter().any(|&x| x <= 0) {
        bail!(
            "{name}: output size must be positive, given {:?}",
            m.longs("outsize")
        );
    }
    Ok(())
}

/// Fractional max pooling with samples drawn as PyTorch's functional form draws them
/// (`torch.rand(batch, channels, dims)` in the input's type), so a seed gives PyTorch's result.
fn fmaxpool(m: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let k = m.longs("size");
    let n = k.len();
    let s = x.size();
    if s.len() != n + 1 && s.len() != n + 2 {
        bail!(
            "{}: expected {}-d or {}-d input, given {}-d",
            m.layer.name,
            n + 1,
            n + 2,
            s.len()
        );
    }
    let out: Vec<i64> = if m.is_none("outsize") {
        let tail = &s[s.len() - n..];
        m.floats("ratio")
            .iter()
            .zip(tail)
            .map(|(r, &d)| (d as f64 * r) as i64)
            .collect()
    } else {
        m.longs("outsize").to_vec()
    };
    let batch = if s.len() == n + 1 { 1 } else { s[0] };
    let samples = Tensor::f_rand(
        [batch, s[s.len() - n - 1], n as i64],
        (x.kind(), x.device()),
    )?;
    Ok(if n == 2 {
        x.f_fractional_max_pool2d(k, &out, &samples)?.0
    } else {
        x.f_fractional_max_pool3d(k, &out, &samples)?.0
    })
}
