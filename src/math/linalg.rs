//! Matrix products (math-linalg.rst, "Matrix products"): one line per function in the tables.
//! - `blas2!`: two inputs and an optional output tensor, `f(x;y)`, `f(x;y;output)`: bmm dot
//!   householder matmul mm mmt mtm mv outer.
//! - `addmat!`: `beta*x + alpha*f(y;z)`, `f(x;y;z)`, `f(x;y;z;beta)`, `f(x;y;z;beta;alpha)`, each
//!   with an optional output tensor: addbmm addmm addmv addr baddbmm (through the C++ shim, since
//!   tch has no beta/alpha forms).
//! - `Cross(x;y;dim;output)`, `power(matrix;n;output)`, `multidot` of a list or vector.
use anyhow::{anyhow, bail, Result};
use tch::{TchError, Tensor};

use super::forms::{self, inputs};
use crate::k::from::{self, Args, FromQ, Number as Num};
use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, Input, OutTensor};
use crate::tensor::result;

type R = Result<Tensor, TchError>;

/// `f(x;y)` or `f(x;y;output)`.
fn blas2(x: K, f: fn(&Tensor, &Tensor) -> R, into: fn(&Tensor, &Tensor, &Tensor) -> R) -> KResult {
    let mut a = Args::list(x, 2, 3, "(x;y;output)")?;
    let out = a.opt::<OutTensor>(2)?;
    let (ts, h) = inputs(&a, None, 2, "(x;y) or (x;y;output)")?;
    match out {
        Some(OutTensor(o)) => {
            let _ = into(&ts[0], &ts[1], &o)?;
            Ok(make::null())
        }
        None => result(f(&ts[0], &ts[1])?, h),
    }
}

macro_rules! blas2 {
    ($($name:ident: |$a:ident, $b:ident| $f:expr, |$o:ident| $into:expr;)*) => {$(
        pub fn $name(x: K) -> KResult {
            blas2(x, |$a, $b| $f, |$a, $b, $o| $into)
        }
    )*};
}

blas2! {
    bmm:         |a, b| a.f_bmm(b),                        |o| a.f_bmm_out(o, b);
    dot:         |a, b| a.f_dot(b),                        |o| a.f_dot_out(o, b);
    householder: |a, b| a.f_linalg_householder_product(b), |o| a.f_linalg_householder_product_out(o, b);
    matmul:      |a, b| a.f_matmul(b),                     |o| a.f_matmul_out(o, b);
    mm:          |a, b| a.f_mm(b),                         |o| a.f_mm_out(o, b);
    mmt:         |a, b| a.f_mm(&b.f_tr()?),                |o| a.f_mm_out(o, &b.f_tr()?);
    mtm:         |a, b| a.f_tr()?.f_mm(b),                 |o| a.f_tr()?.f_mm_out(o, b);
    mv:          |a, b| a.f_mv(b),                         |o| a.f_mv_out(o, b);
    outer:       |a, b| a.f_outer(b),                      |o| a.f_outer_out(o, b);
}

/// A number as the shim's (is float, float, integer).
fn scalar(n: Num) -> (libc::c_int, f64, libc::c_long) {
    match n {
        Num::Int(j) => (0, 0.0, j as libc::c_long),
        Num::Float(f) => (1, f, 0),
    }
}

/// `(x;y;z;beta;alpha;output)`, beta and alpha optional numbers (default 1).
fn addmat(x: K, mode: i32) -> KResult {
    let usage = "(x;y;z;beta;alpha;output)";
    let mut a = Args::list(x, 3, 6, usage)?;
    let o = a.opt::<OutTensor>(3)?.map(|o| o.0);
    let (beta, alpha) = match a.opt2::<Num, Num>(3)? {
        Some((b, al)) => (b, al),
        None => (a.opt::<Num>(3)?.unwrap_or(Num::Int(1)), Num::Int(1)),
    };
    let (ts, h) = inputs(&a, None, 3, usage)?;
    let ((bf, bd, bj), (af, ad, aj)) = (scalar(beta), scalar(alpha));
    let xyz = [&ts[0], &ts[1], &ts[2]];
    match crate::cxx::ops::addmm(mode, o.as_ref(), xyz, (bf, bd, bj), (af, ad, aj))? {
        Some(r) => result(r, h),
        None => Ok(make::null()),
    }
}

pub fn addbmm(x: K) -> KResult {
    addmat(x, 0)
}
pub fn addmm(x: K) -> KResult {
    addmat(x, 1)
}
pub fn addmv(x: K) -> KResult {
    addmat(x, 2)
}
pub fn addr(x: K) -> KResult {
    addmat(x, 3)
}
pub fn baddbmm(x: K) -> KResult {
    addmat(x, 4)
}

/// `Cross(x;y)`, `Cross(x;y;dim)`, with an optional output tensor; dim defaults to -1.
pub fn cross(x: K) -> KResult {
    let usage = "(x;y;dim;output)";
    let mut a = Args::list(x, 2, 4, usage)?;
    let out = a.opt::<OutTensor>(2)?;
    let dim = a.opt::<i64>(2)?.unwrap_or(-1);
    let (ts, h) = inputs(&a, None, 2, usage)?;
    match out {
        Some(OutTensor(o)) => {
            let _ = ts[0].f_cross_out(&o, &ts[1], dim)?;
            Ok(make::null())
        }
        None => result(ts[0].f_cross(&ts[1], dim)?, h),
    }
}

/// `power(matrix;n)`, `power(matrix;n;output)`: the n-th power of square matrices.
pub fn power(x: K) -> KResult {
    let usage = "(matrix;n) or (matrix;n;output)";
    let mut a = Args::list(x, 2, 3, usage)?;
    let out = a.opt::<OutTensor>(2)?;
    let n = a
        .opt::<i64>(1)?
        .ok_or_else(|| anyhow!("2nd argument of long integer n-th power expected"))?;
    if n == i64::MIN {
        // libtorch negates n for a negative power: -0N overflows and its loop never ends
        bail!("n-th power: n is null (0N)");
    }
    let (ts, h) = inputs(&a, None, 1, usage)?;
    match out {
        Some(OutTensor(o)) => {
            let _ = ts[0].f_matrix_power_out(&o, n)?;
            Ok(make::null())
        }
        None => result(ts[0].f_matrix_power(n)?, h),
    }
}

/// `multidot(x;y;..)` of arrays and tensors, or `multidot v` of a vector: the product of the
/// matrices, in the cheapest order.
pub fn multidot(x: K) -> KResult {
    let (ts, h) = matrices(x)?;
    result(Tensor::f_linalg_multi_dot(&ts)?, h)
}

/// The tensors of a tensor, a vector, one q array or a list of arrays and tensors.
fn matrices(x: K) -> Result<(Vec<Tensor>, bool)> {
    match registry::class_of(x) {
        Some(registry::Class::Tensor) => return Ok((vec![registry::tensor(x)?], true)),
        Some(registry::Class::Vector) => return Ok((opargs::vector(x)?, true)),
        Some(c) => bail!("unexpected arg, {c}"),
        None if registry::is_handle(x) => bail!("stale pointer"),
        None => {}
    }
    if read::ktype(x) != 0 {
        return Ok((vec![Input::from_q(x, "input")?.t], false));
    }
    let v = from::list(&x).unwrap_or(&[]);
    for (i, y) in v.iter().enumerate() {
        if registry::is_handle(*y) && !opargs::is_tensor(*y) {
            bail!("arg[{i}] unexpected, given {}", opargs::describe(*y));
        }
    }
    forms::tensors(v)
}
