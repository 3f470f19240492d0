//! Gradients, as ktorch: `backward x` back-propagates from tensor `x` (a scalar, or with a
//! gradient `backward(x;g)`), keeping the graph for another pass with `` `retain ``, or building
//! it for higher derivatives with `` `create ``: `backward(x;`retain)`, `backward(x;g;`create)`.
//! `grad x` the gradient accumulated in a leaf tensor as q data (null when there is none yet);
//! `zerograd x` zeroes and `nograd x` drops the gradients of a tensor, vector or dictionary.
use std::ffi::c_void;

use anyhow::{anyhow, bail};
use tch::Tensor;

use super::{convert, options::Options};
use crate::cxx::{
    ktorch_add_alpha_, ktorch_addcdiv_value_, ktorch_addcmul_value_, ktorch_backward,
    ktorch_reset_grad,
};
use crate::k::{make, read, KResult, K};
use crate::registry;

/// `t += value * a * b` in place, one kernel.
pub fn addcmul_(t: &Tensor, a: &Tensor, b: &Tensor, value: f64) -> anyhow::Result<()> {
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    crate::cxx::check(unsafe {
        ktorch_addcmul_value_(
            t.as_ptr() as *mut c_void,
            a.as_ptr() as *const c_void,
            b.as_ptr() as *const c_void,
            value,
        )
    })?;
    Ok(())
}

/// `t += value * a / b` in place, one kernel.
pub fn addcdiv_(t: &Tensor, a: &Tensor, b: &Tensor, value: f64) -> anyhow::Result<()> {
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    crate::cxx::check(unsafe {
        ktorch_addcdiv_value_(
            t.as_ptr() as *mut c_void,
            a.as_ptr() as *const c_void,
            b.as_ptr() as *const c_void,
            value,
        )
    })?;
    Ok(())
}

/// `t += alpha * other` in place, one kernel (ATen's `add_(other, alpha)`).
pub fn add_alpha_(t: &Tensor, other: &Tensor, alpha: f64) -> anyhow::Result<()> {
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    crate::cxx::check(unsafe {
        ktorch_add_alpha_(
            t.as_ptr() as *mut c_void,
            other.as_ptr() as *const c_void,
            alpha,
        )
    })?;
    Ok(())
}

/// ktorch's graph symbols: (retain_graph, create_graph).
fn graph_flags(s: &str) -> anyhow::Result<(bool, bool)> {
    Ok(match s {
        "free" => (false, false),
        "retain" => (true, false),
        "create" => (true, true),
        "createfree" => (false, true),
        _ => {
            bail!("unrecognized backward option `{s}, expecting `free`retain`create or `createfree")
        }
    })
}

/// `backward` of a tensor (a model's: dispatch/train.rs).
pub fn backward(x: K) -> KResult {
    let (h, rest) = if registry::is_handle(x) {
        (x, &[][..])
    } else {
        let items = read::items(&x).filter(|v| !v.is_empty()).ok_or_else(|| {
            anyhow!(
                "expects tensor, (tensor;gradient), (tensor;`retain) or (tensor;gradient;`retain)"
            )
        })?;
        (items[0], &items[1..])
    };
    let t = registry::tensor(h)?;
    let (rest, (retain, create)) = match rest.split_last() {
        Some((s, r)) if read::symbol(*s).is_some() => {
            (r, graph_flags(read::symbol(*s).unwrap_or(""))?)
        }
        _ => (rest, (false, false)),
    };
    let g = match rest {
        [] => None,
        [g] => {
            let (g, _) = super::arg(*g)?;
            let g = Options { kind: Some(t.kind()), device: Some(t.device()), ..Options::default() }.apply(g)?;
            // A scalar gradient stands for every element, as in ktorch.
            Some(if g.dim() == 0 && t.dim() > 0 { g.f_expand_as(&t)?.f_contiguous()? } else { g })
        }
        _ => bail!("unexpected arg(s), expecting (t;s), (t;g) or (t;g;s) with t-tensor, g-tensor, s-sym, e.g. `retain"),
    };
    if !t.defined() {
        bail!("tensor is undefined");
    }
    if !t.requires_grad() {
        bail!("tensor does not require gradients");
    }
    let gp = g
        .as_ref()
        .map_or(std::ptr::null_mut(), |g| g.as_ptr() as *mut c_void);
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    if unsafe { ktorch_backward(t.as_ptr() as *mut c_void, gp, retain as i32, create as i32) } != 0
    {
        return Err(crate::cxx::last_error());
    }
    Ok(make::null())
}

pub fn grad(x: K) -> KResult {
    let t = registry::tensor(x)?;
    let g = t.f_grad()?;
    if !g.defined() {
        return Ok(make::null());
    }
    convert::to_q(&g)
}

fn reset(x: K, none: bool) -> KResult {
    reset_grads(&registry::grad_tensors(x)?, none)?;
    Ok(make::null())
}

/// Zero the gradients of `ts` (`none`: drop them, as PyTorch's `zero_grad(set_to_none=True)`).
pub fn reset_grads<T: std::borrow::Borrow<Tensor>>(ts: &[T], none: bool) -> anyhow::Result<()> {
    for t in ts.iter().map(|t| t.borrow()).filter(|t| t.defined()) {
        // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
        crate::cxx::check(unsafe { ktorch_reset_grad(t.as_ptr() as *mut c_void, none as i32) })?;
    }
    Ok(())
}

/// Backward from a scalar loss, libtorch's errors caught in the shim.
pub fn backward_of(t: &Tensor) -> anyhow::Result<()> {
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    crate::cxx::check(unsafe {
        ktorch_backward(t.as_ptr() as *mut c_void, std::ptr::null_mut(), 0, 0)
    })?;
    Ok(())
}

pub fn zerograd(x: K) -> KResult {
    reset(x, false)
}

pub fn nograd(x: K) -> KResult {
    reset(x, true)
}
