//! Calls into src/cxx/nn_act.cpp: activations whose scalar options tch's generated functions
//! leave out (elu's alpha, leaky_relu's slope, ...), and libtorch's local response norms, which
//! are C++ API functions rather than ATen operators.
use crate::cxx::{ktorch_act, ktorch_lrn};
use anyhow::Result;
use tch::Tensor;

/// The activations of the shim, with their one or two scalar options (`a`, `b`).
#[derive(Clone, Copy)]
pub enum Act {
    Elu,
    Celu,
    LeakyRelu,
    Hardshrink,
    Softshrink,
    Hardtanh,
    Softplus,
    /// rrelu: random slopes in training, their mean otherwise.
    Rrelu {
        training: bool,
    },
}

/// Activation `op` of `x` with options `a` and `b`, in place (same tensor back) when asked.
pub fn act(op: Act, x: &Tensor, a: f64, b: f64, inplace: bool) -> Result<Tensor> {
    let (code, training) = match op {
        Act::Elu => (0, false),
        Act::Celu => (1, false),
        Act::LeakyRelu => (2, false),
        Act::Hardshrink => (3, false),
        Act::Softshrink => (4, false),
        Act::Hardtanh => (5, false),
        Act::Softplus => (6, false),
        Act::Rrelu { training } => (7, training),
    };
    let mut r = std::ptr::null_mut();
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    let rc = unsafe {
        ktorch_act(
            code,
            x.as_ptr() as *mut libc::c_void,
            a,
            b,
            training as libc::c_int,
            inplace as libc::c_int,
            &mut r,
        )
    };
    crate::cxx::check(rc)?;
    // SAFETY: the pointer is an at::Tensor the shim allocated for us (its call succeeded); the Tensor owns it from here and frees it once.
    Ok(unsafe { Tensor::from_ptr(r as *mut _) })
}

/// Local response norm (`cross` false) or libtorch's CrossMapLRN2d (`cross` true, k whole).
pub fn lrn(cross: bool, x: &Tensor, size: i64, alpha: f64, beta: f64, k: f64) -> Result<Tensor> {
    let mut r = std::ptr::null_mut();
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
    let rc = unsafe {
        ktorch_lrn(
            cross as libc::c_int,
            x.as_ptr() as *mut libc::c_void,
            size as libc::c_long,
            alpha,
            beta,
            k,
            &mut r,
        )
    };
    crate::cxx::check(rc)?;
    // SAFETY: the pointer is an at::Tensor the shim allocated for us (its call succeeded); the Tensor owns it from here and frees it once.
    Ok(unsafe { Tensor::from_ptr(r as *mut _) })
}
