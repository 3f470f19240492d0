//! RMSprop as torch.optim.RMSprop: running average of squared gradients (`alpha`), optionally
//! centered by the running average of gradients, optional momentum buffer.
use anyhow::Result;

use super::Optimizer;

pub fn step(o: &mut Optimizer) -> Result<()> {
    o.each(|s, p, grad| {
        let (lr, alpha, eps, decay, momentum) = (
            s.float("lr"),
            s.float("alpha"),
            s.float("eps"),
            s.float("decay"),
            s.float("momentum"),
        );
        p.count_step()?;
        let sq = p.buffer("square_avg", |t| Ok(t.f_zeros_like()?))?;
        let g = if decay != 0.0 {
            grad.f_add(&p.t.f_mul_scalar(decay)?)?
        } else {
            grad.shallow_clone()
        };
        let _ = sq
            .shallow_clone()
            .f_mul_scalar_(alpha)?
            .f_addcmul_(&g, &g.f_mul_scalar(1.0 - alpha)?)?;
        // buffers made in PyTorch's order: step, square_avg, momentum_buffer, grad_avg
        if momentum > 0.0 {
            let _ = p.buffer("momentum_buffer", |t| Ok(t.f_zeros_like()?))?;
        }
        let avg = if s.flag("centered") {
            let ga = p.buffer("grad_avg", |t| Ok(t.f_zeros_like()?))?;
            let _ = ga.shallow_clone().f_lerp_(&g, 1.0 - alpha)?;
            sq.f_sub(&ga.f_mul(&ga)?)?.f_sqrt()?.f_add_scalar(eps)?
        } else {
            sq.f_sqrt()?.f_add_scalar(eps)?
        };
        let mut w = p.t.shallow_clone();
        if momentum > 0.0 {
            let buf = p.buffer("momentum_buffer", |t| Ok(t.f_zeros_like()?))?;
            let _ = buf
                .shallow_clone()
                .f_mul_scalar_(momentum)?
                .f_addcdiv_(&g, &avg)?;
            let _ = w.f_sub_(&buf.f_mul_scalar(lr)?)?;
        } else {
            let _ = w.f_addcdiv_(&g.f_mul_scalar(-lr)?, &avg)?;
        }
        Ok(())
    })
}
