//! LAMB as ktorch defines it (opt.rst, "lamb"): Adam's moments on the gradient divided by the
//! global gradient norm (`globalnorm`), optionally bias corrected (`unbiased`), plus weight decay,
//! then scaled by the trust ratio |w|/|update| (clipped to trustmin..trustmax with `trustclip`).
//! The gradients themselves are left as they are (ktorch divides them in place).
use anyhow::Result;
use tch::Tensor;

use super::Optimizer;

pub fn step(o: &mut Optimizer) -> Result<()> {
    // the global norm is an optimizer-wide setting: the first group's
    let global = !o.groups.is_empty() && o.settings(0).flag("globalnorm");
    let given = o.global_sq.take();
    let gnorm = if let (true, Some(sq)) = (global, &given) {
        Some(sq.f_sqrt()?)
    } else if global {
        let mut sq: Option<Tensor> = None;
        for t in o.parameters() {
            let g = t.grad();
            if g.defined() {
                let s = g.f_pow_tensor_scalar(2)?.f_sum(g.kind())?;
                sq = Some(match sq {
                    Some(a) => a.f_add(&s)?,
                    None => s,
                });
            }
        }
        sq.map(|s| s.f_sqrt()).transpose()?
    } else {
        None
    };
    o.each(|s, p, grad| {
        let (lr, b1, b2, eps, decay) = (
            s.float("lr"),
            s.float("beta1"),
            s.float("beta2"),
            s.float("eps"),
            s.float("decay"),
        );
        let step = p.count_step()?;
        let m = p.buffer("exp_avg", |t| Ok(t.f_zeros_like()?))?;
        let v = p.buffer("exp_avg_sq", |t| Ok(t.f_zeros_like()?))?;
        let g = match &gnorm {
            Some(n) => grad.f_div(n)?,
            None => grad.shallow_clone(),
        };
        let _ = m
            .shallow_clone()
            .f_mul_scalar_(b1)?
            .f_add_(&g.f_mul_scalar(1.0 - b1)?)?;
        let _ = v
            .shallow_clone()
            .f_mul_scalar_(b2)?
            .f_addcmul_(&g, &g.f_mul_scalar(1.0 - b2)?)?;
        let mut upd = if s.flag("unbiased") {
            let num = m.f_div_scalar(1.0 - b1.powf(step))?;
            num.f_div(
                &v.f_sqrt()?
                    .f_div_scalar((1.0 - b2.powf(step)).sqrt())?
                    .f_add_scalar(eps)?,
            )?
        } else {
            m.f_div(&v.f_sqrt()?.f_add_scalar(eps)?)?
        };
        if decay != 0.0 {
            upd = upd.f_add(&p.t.f_mul_scalar(decay)?)?;
        }
        let wn = p.t.f_norm()?;
        let un = upd.f_norm()?;
        let both = wn.f_gt(0.0)?.f_logical_and(&un.f_gt(0.0)?)?;
        let mut trust = wn.f_div(&un)?.f_where_self(&both, &wn.f_ones_like()?)?;
        if s.flag("trustclip") {
            trust = trust.f_clip(s.float("trustmin"), s.float("trustmax"))?;
        }
        let _ =
            p.t.shallow_clone()
                .f_sub_(&upd.f_mul(&trust)?.f_mul_scalar(lr)?)?;
        Ok(())
    })
}
