//! SGD as torch.optim.SGD (`_single_tensor_sgd`): weight decay added to the gradient, momentum
//! buffer started as the first gradient, dampening, Nesterov.
use anyhow::Result;

use super::Optimizer;
use crate::tensor::autograd::add_alpha_;

/// Fused kernels where they apply (fused.rs), this rule for the other parameters.
pub fn step(o: &mut Optimizer) -> Result<()> {
    let inf = o.found_inf.take();
    let scaled = inf
        .as_ref()
        .map(|inf| super::fused::Scaled { scale: None, inf });
    super::fused::sgd(o, scaled.as_ref(), |s, p, grad| {
        let (lr, momentum, dampening, decay) = (
            s.float("lr"),
            s.float("momentum"),
            s.float("dampening"),
            s.float("decay"),
        );
        let mut g = if decay != 0.0 {
            grad.f_add(&p.t.f_mul_scalar(decay)?)?
        } else {
            grad.shallow_clone()
        };
        if momentum != 0.0 {
            let buf = if p.has("momentum_buffer") {
                let b = p.buffer("momentum_buffer", |_| unreachable!())?;
                let _ = b.shallow_clone().f_mul_scalar_(momentum)?;
                add_alpha_(&b, &g, 1.0 - dampening)?;
                b
            } else {
                p.buffer("momentum_buffer", |_| {
                    Ok(crate::tensor::detach::detached_copy(&g)?)
                })?
            };
            g = if s.flag("nesterov") {
                g.f_add(&buf.f_mul_scalar(momentum)?)?
            } else {
                buf
            };
        }
        add_alpha_(&p.t, &g, -lr)?;
        Ok(())
    })
}
