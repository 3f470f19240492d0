//! Adam and AdamW as torch.optim's single-tensor algorithms: AdamW decays the weights directly
//! (p *= 1 - lr*decay), Adam adds decay*p to the gradient; then bias-corrected moments, amsgrad
//! keeping the running maximum of the second moment.
use anyhow::Result;

use super::{Optimizer, Parm, Settings};
use crate::tensor::autograd::{addcdiv_, addcmul_};
use tch::Tensor;

/// Fused kernels where they apply (fused.rs), this file's rule for the other parameters.
pub fn adam(o: &mut Optimizer) -> Result<()> {
    let inf = o.found_inf.take();
    let scaled = inf
        .as_ref()
        .map(|inf| super::fused::Scaled { scale: None, inf });
    super::fused::adam(o, false, scaled.as_ref(), |s, p, grad| {
        update(s, p, grad, false)
    })
}

pub fn adamw(o: &mut Optimizer) -> Result<()> {
    let inf = o.found_inf.take();
    let scaled = inf
        .as_ref()
        .map(|inf| super::fused::Scaled { scale: None, inf });
    super::fused::adam(o, true, scaled.as_ref(), |s, p, grad| {
        update(s, p, grad, true)
    })
}

fn zeros(p: &Tensor) -> Result<Tensor> {
    Ok(p.f_zeros_like()?)
}

fn update(s: &Settings, p: &mut Parm, grad: &Tensor, decoupled: bool) -> Result<()> {
    let (lr, b1, b2, eps, decay) = (
        s.float("lr"),
        s.float("beta1"),
        s.float("beta2"),
        s.float("eps"),
        s.float("decay"),
    );
    let step = p.count_step()?;
    let m = p.buffer("exp_avg", zeros)?;
    let v = p.buffer("exp_avg_sq", zeros)?;
    let vmax = if s.flag("amsgrad") {
        Some(p.buffer("max_exp_avg_sq", zeros)?)
    } else {
        None
    };
    let mut w = p.t.shallow_clone();
    let g = if decoupled {
        if decay != 0.0 {
            let _ = w.f_mul_scalar_(1.0 - lr * decay)?;
        }
        grad.shallow_clone()
    } else if decay != 0.0 {
        grad.f_add(&w.f_mul_scalar(decay)?)?
    } else {
        grad.shallow_clone()
    };
    let _ = m.shallow_clone().f_lerp_(&g, 1.0 - b1)?;
    let _ = v.shallow_clone().f_mul_scalar_(b2)?;
    addcmul_(&v, &g, &g, 1.0 - b2)?;
    let bc1 = 1.0 - b1.powf(step);
    let bc2 = 1.0 - b2.powf(step);
    let second = match vmax {
        Some(x) => {
            x.shallow_clone().f_copy_(&x.f_maximum(&v)?)?;
            x
        }
        None => v,
    };
    let denom = second
        .f_sqrt()?
        .f_div_scalar(bc2.sqrt())?
        .f_add_scalar_(eps)?;
    addcdiv_(&w, &m, &denom, -lr / bc1)?;
    Ok(())
}
