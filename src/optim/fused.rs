//! Optimizer steps through ATen's fused kernels (src/cxx/speed.cpp: `_fused_adam_`,
//! `_fused_adamw_`, `_fused_sgd_`), as torch.optim's `fused=True`: one launch updates every
//! parameter of a group that shares a device and a type, where the single-tensor rules of
//! adam.rs and sgd.rs launch about ten kernels a parameter. Same rules, same state: `exp_avg`,
//! `exp_avg_sq`, `max_exp_avg_sq`, `momentum_buffer`; the step count is a float32 scalar on
//! the parameter's device (as PyTorch's fused state), so nothing waits for the GPU. Used when
//! `setting`fused` is on (the default) for float, half and bfloat16 parameters on CUDA; the
//! kernels exist on the CPU too, used there only with `setting`fusedcpu` on (off by default:
//! the CPU kernel rounds differently in the last bit; the tests compare both there).
use anyhow::{bail, Result};
use tch::{Device, Kind, Tensor};

use super::{Optimizer, Parm, Settings};
use crate::cxx::fused::{self as kernel, AdamHyper, SgdHyper};

/// GradScaler's tensors for a fused step: the scale (the kernels unscale the gradients) and the
/// found-inf flag (the kernels skip the update where it is set).
pub struct Scaled<'a> {
    /// None when the gradients are unscaled already (GradScaler's `unscale_` before the step)
    pub scale: Option<&'a Tensor>,
    pub inf: &'a Tensor,
}

impl Scaled<'_> {
    fn device(&self) -> Device {
        self.inf.device()
    }
    fn kernel(&self) -> kernel::Scale<'_> {
        Some((self.scale, self.inf))
    }
}

/// Whether every parameter with a gradient of `o` takes a fused kernel that reads GradScaler's
/// found-inf flag on device `d` (adam, adamw, sgd): then a scaled step needs no wait.
pub fn takes_found_inf(o: &Optimizer, d: Device) -> bool {
    if !matches!(o.kind.name, "adam" | "adamw" | "sgd") {
        return false;
    }
    o.groups.iter().all(|g| {
        let momentum = o.kind.name == "sgd"
            && Settings {
                kind: o.kind,
                vals: &g.opts,
            }
            .float("momentum")
                != 0.0;
        let have = g
            .parms
            .iter()
            .filter(|p| p.t.grad().defined() && p.has("momentum_buffer"))
            .count();
        let with = g.parms.iter().filter(|p| p.t.grad().defined()).count();
        // sgd with momentum only once every buffer exists: a first step the kernel skips would
        // leave the buffers it is given unset (torch.optim's fused SGD makes them empty and
        // reads them next step); before that the flag is read back and the step made or not
        (!momentum || have == with)
            && g.parms.iter().all(|p| {
                !p.t.grad().defined()
                    || (p.t.device() == d && use_fused(d, p.t.kind()) && !p.t.grad().is_sparse())
            })
    })
}

/// Whether a bucket of parameters on `device` of type `kind` takes the fused kernel.
fn use_fused(device: Device, kind: Kind) -> bool {
    crate::session::setting::fused()
        && (device.is_cuda() || crate::session::setting::fusedcpu())
        && matches!(kind, Kind::Float | Kind::Half | Kind::BFloat16)
}

/// A group's parameters that have gradients, by (device, type): indices into `parms`, with
/// their gradients.
fn buckets(name: &str, parms: &[Parm]) -> Result<Vec<(Device, Kind, Vec<(usize, Tensor)>)>> {
    let mut out: Vec<(Device, Kind, Vec<(usize, Tensor)>)> = vec![];
    for (i, p) in parms.iter().enumerate() {
        let g = p.t.grad();
        if !g.defined() {
            continue;
        }
        if g.is_sparse() {
            bail!("{name}: sparse gradients not implemented");
        }
        let (d, k) = (p.t.device(), p.t.kind());
        match out.iter_mut().find(|b| b.0 == d && b.1 == k) {
            Some(b) => b.2.push((i, g)),
            None => out.push((d, k, vec![(i, g)])),
        }
    }
    Ok(out)
}

/// The step count as the fused kernels want it: a float32 scalar on the parameter's device.
fn device_step(p: &mut Parm) -> Result<Tensor> {
    let d = p.t.device();
    let s = match p.get("step") {
        Some(s) if s.device() == d && s.kind() == Kind::Float => return Ok(s.shallow_clone()),
        Some(s) => s.f_to_kind(Kind::Float)?.f_to_device(d)?,
        None => Tensor::f_zeros([], (Kind::Float, d))?,
    };
    p.set("step", s.shallow_clone());
    Ok(s)
}

fn zeros(p: &Tensor) -> Result<Tensor> {
    Ok(p.f_zeros_like()?)
}

/// Adam (decoupled false) or AdamW: fused buckets through the kernel, the others through
/// `single` (adam.rs's rule for one parameter).
pub fn adam(
    o: &mut Optimizer,
    decoupled: bool,
    scaled: Option<&Scaled>,
    single: impl Fn(&Settings, &mut Parm, &Tensor) -> Result<()>,
) -> Result<()> {
    let kind = o.kind;
    for g in &mut o.groups {
        let s = Settings {
            kind,
            vals: &g.opts,
        };
        for (d, k, b) in buckets(kind.name, &g.parms)? {
            if !use_fused(d, k) || scaled.is_some_and(|c| c.device() != d) {
                for (i, grad) in &b {
                    single(&s, &mut g.parms[*i], grad)?;
                }
                continue;
            }
            let ams = s.flag("amsgrad");
            let (mut p, mut gr, mut m, mut v, mut x, mut st) =
                (vec![], vec![], vec![], vec![], vec![], vec![]);
            for (i, grad) in b {
                let q = &mut g.parms[i];
                p.push(q.t.shallow_clone());
                gr.push(grad);
                // made in torch.optim's order: step, exp_avg, exp_avg_sq, max_exp_avg_sq
                st.push(device_step(q)?);
                m.push(q.buffer("exp_avg", zeros)?);
                v.push(q.buffer("exp_avg_sq", zeros)?);
                if ams {
                    x.push(q.buffer("max_exp_avg_sq", zeros)?);
                }
            }
            let h = AdamHyper {
                lr: s.float("lr"),
                beta1: s.float("beta1"),
                beta2: s.float("beta2"),
                decay: s.float("decay"),
                eps: s.float("eps"),
                amsgrad: ams,
                decoupled,
            };
            kernel::fused_adam(
                &p,
                &gr,
                &m,
                &v,
                &x,
                &st,
                &h,
                scaled.and_then(|c| c.kernel()),
            )?;
        }
    }
    Ok(())
}

/// SGD: fused buckets through the kernel (momentum buffers made on the first step as the
/// kernel's first-step rule sets them: the gradient with decay), the others through `single`.
pub fn sgd(
    o: &mut Optimizer,
    scaled: Option<&Scaled>,
    single: impl Fn(&Settings, &mut Parm, &Tensor) -> Result<()>,
) -> Result<()> {
    let kind = o.kind;
    for g in &mut o.groups {
        let s = Settings {
            kind,
            vals: &g.opts,
        };
        let momentum = s.float("momentum");
        for (d, k, b) in buckets(kind.name, &g.parms)? {
            let have = b
                .iter()
                .filter(|(i, _)| g.parms[*i].has("momentum_buffer"))
                .count();
            // a bucket where some parameters have a buffer and others not is left to the rule
            let mixed = momentum != 0.0 && have != 0 && have != b.len();
            if !use_fused(d, k) || mixed || scaled.is_some_and(|c| c.device() != d) {
                for (i, grad) in &b {
                    single(&s, &mut g.parms[*i], grad)?;
                }
                continue;
            }
            let first = momentum != 0.0 && have == 0;
            let (mut p, mut gr, mut buf) = (vec![], vec![], vec![]);
            for (i, grad) in b {
                let q = &mut g.parms[i];
                p.push(q.t.shallow_clone());
                if momentum != 0.0 {
                    buf.push(q.buffer("momentum_buffer", |t| Ok(t.f_empty_like()?))?);
                }
                gr.push(grad);
            }
            let h = SgdHyper {
                decay: s.float("decay"),
                momentum,
                lr: s.float("lr"),
                dampening: s.float("dampening"),
                nesterov: s.flag("nesterov"),
                first,
            };
            let buf = (momentum != 0.0).then_some(&buf[..]);
            kernel::fused_sgd(&p, &gr, buf, &h, scaled.and_then(|c| c.kernel()))?;
        }
    }
    Ok(())
}

/// clip_grad_norm_'s multi-tensor path over gradients of one device and type (model/run.rs's
/// `clip_norm` chooses it for CUDA): the total norm, gradients scaled in place.
pub fn clip_norm(grads: &[Tensor], max: f64, p: f64) -> Result<Tensor> {
    kernel::clip_norm(grads, max, p)
}
