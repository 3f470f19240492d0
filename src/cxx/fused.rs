//! Multi-tensor kernels of src/cxx/speed.cpp, as safe functions on tch's `Tensor`: the fused
//! optimizer steps (`_fused_adam_`, `_fused_adamw_`, `_fused_sgd_`) and clip_grad_norm_'s
//! multi-tensor path (for src/optim/fused.rs), GradScaler's unscale and scale update (for
//! src/model/scaler.rs). The invariant of cxx/tensor.rs holds for every `unsafe` block here:
//! tensors borrowed for the whole call, out-slots on the calling frame, each made tensor owned
//! once by `made`, every C++ exception caught in the shim (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use libc::{c_int, c_long, c_void};
use tch::Tensor;

use super::check;
use super::tensor::{made, ptr};

fn ptrs(ts: &[Tensor]) -> Vec<*mut c_void> {
    ts.iter().map(ptr).collect()
}

fn optional(t: Option<&Tensor>) -> *mut c_void {
    t.map_or(std::ptr::null_mut(), ptr)
}

/// GradScaler's tensors as a fused step takes them: the scale (None: gradients unscaled
/// already) and the found-inf flag; None for an unscaled step.
pub type Scale<'a> = Option<(Option<&'a Tensor>, &'a Tensor)>;

fn scale_ptrs(s: Scale) -> (*mut c_void, *mut c_void) {
    match s {
        Some((scale, inf)) => (optional(scale), ptr(inf)),
        None => (std::ptr::null_mut(), std::ptr::null_mut()),
    }
}

/// Adam's hyperparameters for `fused_adam`.
pub struct AdamHyper {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub decay: f64,
    pub eps: f64,
    pub amsgrad: bool,
    /// AdamW's decoupled weight decay.
    pub decoupled: bool,
}

/// One fused Adam (AdamW) step over parameters `p` with gradients `g`, moments `m` and `v`,
/// maxima `vmax` (empty unless amsgrad) and float32 step counts `step`, all of one device and
/// type.
#[allow(clippy::too_many_arguments)]
pub fn fused_adam(
    p: &[Tensor],
    g: &[Tensor],
    m: &[Tensor],
    v: &[Tensor],
    vmax: &[Tensor],
    step: &[Tensor],
    h: &AdamHyper,
    scale: Scale,
) -> Result<()> {
    let (sc, inf) = scale_ptrs(scale);
    let (pp, gp, mp, vp, xp, sp) = (ptrs(p), ptrs(g), ptrs(m), ptrs(v), ptrs(vmax), ptrs(step));
    check(unsafe {
        super::ktorch_fused_adam(
            h.decoupled as c_int,
            p.len() as c_int,
            pp.as_ptr(),
            gp.as_ptr(),
            mp.as_ptr(),
            vp.as_ptr(),
            xp.as_ptr(),
            sp.as_ptr(),
            h.lr,
            h.beta1,
            h.beta2,
            h.decay,
            h.eps,
            h.amsgrad as c_int,
            sc,
            inf,
        )
    })
}

/// SGD's hyperparameters for `fused_sgd`.
pub struct SgdHyper {
    pub decay: f64,
    pub momentum: f64,
    pub lr: f64,
    pub dampening: f64,
    pub nesterov: bool,
    /// The momentum buffers' first step (set from the gradient).
    pub first: bool,
}

/// One fused SGD step over parameters `p` with gradients `g` and momentum buffers `buf` (None
/// without momentum), all of one device and type.
pub fn fused_sgd(
    p: &[Tensor],
    g: &[Tensor],
    buf: Option<&[Tensor]>,
    h: &SgdHyper,
    scale: Scale,
) -> Result<()> {
    let (sc, inf) = scale_ptrs(scale);
    let (pp, gp) = (ptrs(p), ptrs(g));
    let bp = buf.map(ptrs);
    check(unsafe {
        super::ktorch_fused_sgd(
            p.len() as c_int,
            pp.as_ptr(),
            gp.as_ptr(),
            bp.as_ref().map_or(std::ptr::null(), |b| b.as_ptr()),
            h.decay,
            h.momentum,
            h.lr,
            h.dampening,
            h.nesterov as c_int,
            h.first as c_int,
            sc,
            inf,
        )
    })
}

/// clip_grad_norm_'s multi-tensor path over gradients of one device and type: the total norm,
/// gradients scaled in place.
pub fn clip_norm(grads: &[Tensor], max: f64, p: f64) -> Result<Tensor> {
    let gp = ptrs(grads);
    let mut total = std::ptr::null_mut();
    check(unsafe { super::ktorch_clip_norm(gp.len() as c_int, gp.as_ptr(), max, p, &mut total) })?;
    Ok(made(total))
}

/// GradScaler's `_amp_foreach_non_finite_check_and_unscale_`: gradients `g` (one device and
/// type) multiplied by `inv` in place, `found` set where one is inf or nan.
pub fn amp_unscale(g: &[Tensor], found: &Tensor, inv: &Tensor) -> Result<()> {
    let gp = ptrs(g);
    check(unsafe {
        super::ktorch_amp_unscale(gp.len() as c_int, gp.as_ptr(), ptr(found), ptr(inv))
    })
}

/// GradScaler's `_amp_update_scale_`: the new scale and growth tracker, in place.
pub fn amp_update(
    scale: &Tensor,
    tracker: &Tensor,
    found: &Tensor,
    growth: f64,
    backoff: f64,
    interval: i64,
) -> Result<()> {
    check(unsafe {
        super::ktorch_amp_update(
            ptr(scale),
            ptr(tracker),
            ptr(found),
            growth,
            backoff,
            interval as c_long,
        )
    })
}
