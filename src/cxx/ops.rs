//! Tensor operations of the C++ shim that tch does not wrap: decompositions and the addmm family
//! (src/cxx/linalg.cpp), activations and LRN (src/cxx/nn_act.cpp), each a safe function on
//! tch's `Tensor`. The invariant of cxx/tensor.rs holds for every `unsafe` block here (borrowed
//! tensors in, out-slots on the calling frame, each made tensor owned once by `made`); a driver
//! name is a `CStr` borrowed for the call, or null for libtorch's default.
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CStr;

use anyhow::Result;
use libc::{c_char, c_int, c_long, c_void};
use tch::Tensor;

use super::check;
use super::tensor::{made, making, ptr};

fn cstr(d: Option<&CStr>) -> *const c_char {
    d.map_or(std::ptr::null(), |c| c.as_ptr())
}

fn optional(t: Option<&Tensor>) -> *mut c_void {
    t.map_or(std::ptr::null_mut(), ptr)
}

/// Tensors made into `r` by a call that answered `rc`.
fn all<const N: usize>(rc: c_int, r: [*mut c_void; N]) -> Result<[Tensor; N]> {
    check(rc)?;
    Ok(r.map(made))
}

/// `torch.linalg.svd(a, full_matrices=full, driver=driver)`: U, S, Vh.
pub fn svd(a: &Tensor, full: bool, driver: Option<&CStr>) -> Result<[Tensor; 3]> {
    let mut r = [std::ptr::null_mut(); 3];
    let rc = unsafe { super::ktorch_svd(ptr(a), full as c_int, cstr(driver), r.as_mut_ptr()) };
    all(rc, r)
}

/// `torch.linalg.svdvals(a, driver=driver)`: into `out` (None back), or a new tensor.
pub fn svdvals(out: Option<&Tensor>, a: &Tensor, driver: Option<&CStr>) -> Result<Option<Tensor>> {
    let mut r = [std::ptr::null_mut(); 1];
    let rc = unsafe { super::ktorch_svdvals(optional(out), ptr(a), cstr(driver), r.as_mut_ptr()) };
    check(rc)?;
    Ok(out.is_none().then(|| made(r[0])))
}

/// `torch.linalg.lstsq(a, b, rcond, driver)`: solution, residuals, rank, singular values.
pub fn lstsq(
    a: &Tensor,
    b: &Tensor,
    rcond: Option<f64>,
    driver: Option<&CStr>,
) -> Result<[Tensor; 4]> {
    let mut r = [std::ptr::null_mut(); 4];
    let rc = unsafe {
        super::ktorch_lstsq(
            ptr(a),
            ptr(b),
            rcond.is_some() as c_int,
            rcond.unwrap_or(0.0),
            cstr(driver),
            r.as_mut_ptr(),
        )
    };
    all(rc, r)
}

/// A scalar as the shim takes it: (1 for a float, the float, the integer).
pub type Scalar = (c_int, f64, c_long);

/// addmm and its family (`mode`, linalg.cpp): into `out` (None back), or a new tensor.
pub fn addmm(
    mode: c_int,
    out: Option<&Tensor>,
    xyz: [&Tensor; 3],
    beta: Scalar,
    alpha: Scalar,
) -> Result<Option<Tensor>> {
    let mut r = std::ptr::null_mut();
    let rc = unsafe {
        super::ktorch_addmm(
            mode,
            optional(out),
            ptr(xyz[0]),
            ptr(xyz[1]),
            ptr(xyz[2]),
            beta.0,
            beta.1,
            beta.2,
            alpha.0,
            alpha.1,
            alpha.2,
            &mut r,
        )
    };
    check(rc)?;
    Ok(out.is_none().then(|| made(r)))
}

/// Activation `op` (nn_act.cpp's code) of `x` with options `a` and `b`, in place (the same
/// tensor back) when asked.
pub fn act(op: c_int, x: &Tensor, a: f64, b: f64, training: bool, inplace: bool) -> Result<Tensor> {
    making(|r| unsafe {
        super::ktorch_act(op, ptr(x), a, b, training as c_int, inplace as c_int, r)
    })
}

/// Local response norm (`cross` false) or libtorch's CrossMapLRN2d (`cross` true).
pub fn lrn(cross: bool, x: &Tensor, size: i64, alpha: f64, beta: f64, k: f64) -> Result<Tensor> {
    making(|r| unsafe {
        super::ktorch_lrn(cross as c_int, ptr(x), size as c_long, alpha, beta, k, r)
    })
}
