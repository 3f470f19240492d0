//! Adagrad as torch.optim.Adagrad: the sum of squared gradients (started at `init`), a learning
//! rate decayed by step, weight decay added to the gradient.
use anyhow::Result;

use super::Optimizer;

pub fn step(o: &mut Optimizer) -> Result<()> {
    o.each(|s, p, grad| {
        let (lr, lrdecay, decay, init, eps) = (
            s.float("lr"),
            s.float("lrdecay"),
            s.float("decay"),
            s.float("init"),
            s.float("eps"),
        );
        let step = p.count_step()?;
        let sum = p.buffer("sum", |t| Ok(t.f_full_like(init)?))?;
        let g = if decay != 0.0 {
            grad.f_add(&p.t.f_mul_scalar(decay)?)?
        } else {
            grad.shallow_clone()
        };
        let clr = lr / (1.0 + (step - 1.0) * lrdecay);
        let _ = sum.shallow_clone().f_addcmul_(&g, &g)?;
        let std = sum.f_sqrt()?.f_add_scalar(eps)?;
        let _ =
            p.t.shallow_clone()
                .f_addcdiv_(&g.f_mul_scalar(-clr)?, &std)?;
        Ok(())
    })
}
