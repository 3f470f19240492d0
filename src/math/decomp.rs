//! Matrix properties, decompositions, solvers and inverses (math-linalg.rst): det logdet slogdet
//! mrank chol cholx eig eigh eigvals eigvalsh qr lu lux lun svd svdvals solve trisolve cholsolve
//! lstsq lusolve inverse pinverse cholinverse. Arguments as ktorch reads them: the input (q data
//! or a tensor), optional flags/numbers/symbols read from the end, then an output tensor (one
//! result) or output vector (several results) last. Several results come back as a q list for
//! q data, a vector handle for a tensor.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::forms::{self, inputs, several as multi, Out};
use crate::cxx::ops as shim;
use crate::k::from::{self, Args, FromQ, Sym};
use crate::k::{make, KResult, K};
use crate::tensor::opargs::{self, Input, OutTensor, OutVector};
use crate::tensor::result;

/// A single result into an output tensor (null) or as a new value.
fn one(
    out: Option<Tensor>,
    h: bool,
    new: impl FnOnce() -> Result<Tensor>,
    into: impl FnOnce(&Tensor) -> Result<()>,
) -> KResult {
    match out {
        Some(o) => {
            into(&o)?;
            Ok(make::null())
        }
        None => result(new()?, h),
    }
}

fn pair((a, b): (Tensor, Tensor)) -> Vec<Tensor> {
    vec![a, b]
}
fn triple((a, b, c): (Tensor, Tensor, Tensor)) -> Vec<Tensor> {
    vec![a, b, c]
}

/// `det x`, `logdet x`: the (log) determinant of a matrix or batch; `slogdet x`: sign and log of
/// the absolute value of the determinant.
pub fn det(x: K) -> KResult {
    let Input { t, handle: h } = Input::from_q(x, "input")?;
    result(t.f_det()?, h)
}
pub fn logdet(x: K) -> KResult {
    let Input { t, handle: h } = Input::from_q(x, "input")?;
    result(t.f_logdet()?, h)
}
pub fn slogdet(x: K) -> KResult {
    let Input { t, handle: h } = Input::from_q(x, "input")?;
    multi(pair(t.f_slogdet()?), h, None)
}

/// `(input;atol;rtol;hermitian;output)`: atol and rtol floats (null: not given), hermitian a flag.
fn tolerance(x: K, rank: bool) -> KResult {
    let usage = "up to 5, (input;atol;rtol;hermitian;output)";
    let (mut a, alone) = Args::of::<Input>(x, 5, usage)?;
    let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
    let herm = a.opt::<bool>(1)?.unwrap_or(false);
    let (at, rt) = match a.opt2::<Option<f64>, Option<f64>>(1)? {
        Some(p) => p,
        None => (a.opt::<Option<f64>>(1)?.flatten(), None),
    };
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    let t = &ts[0];
    one(
        out,
        h,
        || {
            Ok(if rank {
                t.f_linalg_matrix_rank_atol_rtol_float(at, rt, herm)?
            } else {
                t.f_linalg_pinv_atol_rtol_float(at, rt, herm)?
            })
        },
        |o| {
            if rank {
                let _ = t.f_linalg_matrix_rank_atol_rtol_float_out(o, at, rt, herm)?;
            } else {
                let _ = t.f_linalg_pinv_atol_rtol_float_out(o, at, rt, herm)?;
            }
            Ok(())
        },
    )
}
pub fn mrank(x: K) -> KResult {
    tolerance(x, true)
}
pub fn pinverse(x: K) -> KResult {
    tolerance(x, false)
}

/// `chol x`, `chol(x;upper)`, `chol(x;output)`, `chol(x;upper;output)`: Cholesky factors.
pub fn chol(x: K) -> KResult {
    let usage = "1-3 args, a, (a;upper), (a;out) or (a;upper;out)";
    let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
    let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
    let upper = a.opt::<bool>(1)?.unwrap_or(false);
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    one(
        out,
        h,
        || Ok(ts[0].f_linalg_cholesky(upper)?),
        |o| Ok(ts[0].f_linalg_cholesky_out(o, upper).map(drop)?),
    )
}

/// `cholx(x;upper;check;output vector)`: Cholesky factors and error codes.
pub fn cholx(x: K) -> KResult {
    let usage = "1-4 arg(s), (x;upper;check;output)";
    let (mut a, alone) = Args::of::<Input>(x, 4, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let (upper, check) = match a.opt2::<bool, bool>(1)? {
        Some(p) => p,
        None => (a.opt::<bool>(1)?.unwrap_or(false), false),
    };
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    multi(pair(ts[0].f_linalg_cholesky_ex(upper, check)?), h, out)
}

/// `cholinverse(x;upper;output)`: the inverse from Cholesky factors.
pub fn cholinverse(x: K) -> KResult {
    let usage = "1-3 args, (x;upper;output)";
    let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
    let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
    let upper = a.opt::<bool>(1)?.unwrap_or(false);
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    one(
        out,
        h,
        || Ok(ts[0].f_cholesky_inverse(upper)?),
        |o| Ok(ts[0].f_cholesky_inverse_out(o, upper).map(drop)?),
    )
}

/// `cholsolve(b;u;upper;output)`: solve with Cholesky factors `u`.
pub fn cholsolve(x: K) -> KResult {
    let usage = "2-4 args, (b;u;upper;output)";
    let mut a = Args::list(x, 2, 4, usage)?;
    let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
    let upper = a.opt::<bool>(2)?.unwrap_or(false);
    let (ts, h) = inputs(&a, None, 2, usage)?;
    one(
        out,
        h,
        || Ok(ts[0].f_cholesky_solve(&ts[1], upper)?),
        |o| Ok(ts[0].f_cholesky_solve_out(o, &ts[1], upper).map(drop)?),
    )
}

/// eig (x;output vector), eigh (x;upper;output vector), eigvals (x;output), eigvalsh
/// (x;upper;output): `sym` for the symmetric/Hermitian forms, `both` for values and vectors.
fn eigen(x: K, sym: bool, both: bool) -> KResult {
    let m = if sym { 3 } else { 2 };
    let usage = format!("1-{m} args, (x;{}output)", if sym { "upper;" } else { "" });
    let (mut a, alone) = Args::of::<Input>(x, m, &usage)?;
    let (vout, out) = if both {
        (a.opt::<OutVector>(1)?.map(|o| o.0), None)
    } else {
        (None, a.opt::<OutTensor>(1)?.map(|o| o.0))
    };
    let upper = if sym {
        a.opt::<bool>(1)?.unwrap_or(false)
    } else {
        false
    };
    let (ts, h) = inputs(&a, alone, 1, &usage)?;
    let (t, uplo) = (&ts[0], if upper { "U" } else { "L" });
    if !both && !sym && !bool::try_from(t.f_isfinite()?.f_all()?)? {
        // linalg_eig checks this, linalg_eigvals does not: MKL's geev then rejects its
        // balancing step's input and went on to a segfault (ktorch-fuzz on the GPU machine)
        bail!("input tensor should not contain infs or NaNs");
    }
    match (both, sym) {
        (true, true) => multi(pair(t.f_linalg_eigh(uplo)?), h, vout),
        (true, false) => multi(pair(t.f_linalg_eig()?), h, vout),
        (false, true) => one(
            out,
            h,
            || Ok(t.f_linalg_eigvalsh(uplo)?),
            |o| Ok(t.f_linalg_eigvalsh_out(o, uplo).map(drop)?),
        ),
        (false, false) => one(
            out,
            h,
            || Ok(t.f_linalg_eigvals()?),
            |o| Ok(t.f_linalg_eigvals_out(o).map(drop)?),
        ),
    }
}
pub fn eig(x: K) -> KResult {
    eigen(x, false, true)
}
pub fn eigh(x: K) -> KResult {
    eigen(x, true, true)
}
pub fn eigvals(x: K) -> KResult {
    eigen(x, false, false)
}
pub fn eigvalsh(x: K) -> KResult {
    eigen(x, true, false)
}

/// `qr(x;mode;output vector)`, mode `reduced (default), `complete or `r.
pub fn qr(x: K) -> KResult {
    let usage = "1-3 args, (x;mode;output)";
    let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let mode = a.opt::<Sym>(1)?.map(|s| s.0).unwrap_or("reduced");
    if !["reduced", "complete", "r"].contains(&mode) {
        bail!("unrecognized qr mode: {mode}");
    }
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    multi(pair(Tensor::f_linalg_qr(&ts[0], mode)?), h, out)
}

/// `lu(x;pivot;output vector)`: compact LU factorization and pivots.
pub fn lu(x: K) -> KResult {
    let usage = "1-3 args, (x;pivot;output)";
    let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let pivot = a.opt::<bool>(1)?.unwrap_or(true);
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    multi(pair(Tensor::f_linalg_lu_factor(&ts[0], pivot)?), h, out)
}

/// `lux(x;pivot;check;output vector)`: LU factorization, pivots and error codes.
pub fn lux(x: K) -> KResult {
    let usage = "1-4 arg(s), (x;pivot;check;output)";
    let (mut a, alone) = Args::of::<Input>(x, 4, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let (pivot, check) = match a.opt2::<bool, bool>(1)? {
        Some(p) => p,
        None => (a.opt::<bool>(1)?.unwrap_or(true), false),
    };
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    multi(
        triple(Tensor::f_linalg_lu_factor_ex(&ts[0], pivot, check)?),
        h,
        out,
    )
}

/// The LU matrix and pivots given as one argument: a vector of at least 2 tensors, or a q list
/// or argument list of two.
/// lu_unpack and lu_solve index rows by the pivots without checking them: a short pivot list or
/// one out of range reads and writes outside the matrix (a segfault found by ktorch-fuzz). The
/// pivots must be as `lu` makes them: int, one per min(rows, cols), each in 1..rows.
fn check_pivots(m: &Tensor, p: &Tensor) -> Result<()> {
    let (ms, ps) = (m.size(), p.size());
    if ms.len() < 2 {
        bail!(
            "LU matrix must have at least 2 dimensions, given {}",
            ms.len()
        );
    }
    let (r, c) = (ms[ms.len() - 2], ms[ms.len() - 1]);
    let want: Vec<i64> = ms[..ms.len() - 2]
        .iter()
        .copied()
        .chain([r.min(c)])
        .collect();
    if ps != want {
        bail!(
            "pivots of size {ps:?} do not fit an LU matrix of size {ms:?}: expected size {want:?}"
        );
    }
    if p.kind() != tch::Kind::Int {
        bail!(
            "pivots must be int, as lu makes them, given {}",
            crate::tensor::options::kind_name(p.kind())
        );
    }
    if p.numel() > 0 {
        let lo = p.f_min()?.f_int64_value(&[])?;
        let hi = p.f_max()?.f_int64_value(&[])?;
        if lo < 1 || hi > r {
            bail!("pivots must be in 1..{r}, given values from {lo} to {hi}");
        }
    }
    Ok(())
}

fn lu_pair(x: K, usage: &str) -> Result<(Tensor, Tensor, bool)> {
    if opargs::is_vector(x) {
        let v = opargs::vector(x)?;
        if v.len() < 2 {
            bail!(
                "LU vector has {} element(s), but 2 required (LU matrix & pivots)",
                v.len()
            );
        }
        return Ok((v[0].shallow_clone(), v[1].shallow_clone(), true));
    }
    match from::list(&x) {
        Some(v) if v.len() == 2 => {
            let (mut ts, h) = forms::tensors(v)?;
            let p = ts.pop().expect("two");
            Ok((ts.pop().expect("two"), p, h))
        }
        _ => bail!("unrecognized LU input, expected {usage}"),
    }
}

/// `lun(lu;dataflag;pivotflag;output vector)` or `lun(matrix;pivots;dataflag;pivotflag;output)`:
/// unpack P, L and U from a compact LU factorization.
pub fn lun(x: K) -> KResult {
    let usage =
        "(lu vector;dataflag;pivotflag;output) or (lu matrix;pivots;dataflag;pivotflag;output)";
    if opargs::is_vector(x) {
        let (m, p, h) = lu_pair(x, usage)?;
        check_pivots(&m, &p)?;
        return multi(triple(Tensor::f_lu_unpack(&m, &p, true, true)?), h, None);
    }
    let mut a = Args::list(x, 1, 5, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let (data, pivots) = match a.opt2::<bool, bool>(1)? {
        Some(p) => p,
        None => (a.opt::<bool>(1)?.unwrap_or(true), true),
    };
    let (m, p, h) = match a.left() {
        1 => lu_pair(a.at(0), usage)?,
        2 => {
            let (mut ts, h) = forms::tensors(&[a.at(0), a.at(1)])?;
            let p = ts.pop().expect("two");
            (ts.pop().expect("two"), p, h)
        }
        n => bail!("unrecognized inputs, expected a single input vector or 2 arrays/tensors, but {n} inputs given"),
    };
    check_pivots(&m, &p)?;
    multi(triple(Tensor::f_lu_unpack(&m, &p, data, pivots)?), h, out)
}

/// `lusolve(b;lu;output)` or `lusolve(b;matrix;pivots;output)`: solve Ax=b from A's LU
/// factorization.
pub fn lusolve(x: K) -> KResult {
    let usage = "(b;lu;output) or (b;matrix;pivot;output)";
    let a = Args::list(x, 2, 4, usage)?;
    let (n, y) = (a.given(), a.at(1));
    let (b, m, p, h, out) = if opargs::is_tensor(y) || opargs::array(y).is_some() {
        if n < 3 {
            bail!("expected (b;matrix;pivot) or (b;matrix;pivot;output), but given {n} args");
        }
        let out = match n {
            4 => Some(
                OutTensor::read(a.at(3))?
                    .ok_or_else(|| {
                        anyhow!(
                            "4th arg of output tensor expected, given {}",
                            opargs::describe(a.at(3))
                        )
                    })?
                    .0,
            ),
            _ => None,
        };
        let (mut ts, h) = forms::tensors(&[a.at(0), a.at(1), a.at(2)])?;
        let p = ts.pop().expect("three");
        let m = ts.pop().expect("three");
        (ts.pop().expect("three"), m, p, h, out)
    } else {
        if n > 3 {
            bail!("expected (b;lu) or (b;lu;output), but given {n} args");
        }
        let out = match n {
            3 => Some(
                OutTensor::read(a.at(2))?
                    .ok_or_else(|| {
                        anyhow!(
                            "3rd arg of output tensor expected, given {}",
                            opargs::describe(a.at(2))
                        )
                    })?
                    .0,
            ),
            _ => None,
        };
        let (m, p, hl) = lu_pair(y, usage)?;
        let Input { t: b, handle: hb } = Input::from_q(a.at(0), "b")?;
        (b, m, p, hl || hb, out)
    };
    check_pivots(&m, &p)?;
    one(
        out,
        h,
        || Ok(Tensor::f_linalg_lu_solve(&m, &p, &b, true, false)?),
        |o| Ok(Tensor::f_linalg_lu_solve_out(o, &m, &p, &b, true, false).map(drop)?),
    )
}

/// A driver name checked against `names`; a null symbol is no driver.
fn driver(s: Option<&str>, names: &[&str], what: &str) -> Result<Option<std::ffi::CString>> {
    match s {
        None | Some("") => Ok(None),
        Some(s) if names.contains(&s) => Ok(Some(std::ffi::CString::new(s)?)),
        Some(s) => bail!("unrecognized {what} `{s}"),
    }
}

const SVD: [&str; 3] = ["gesvd", "gesvda", "gesvdj"];

/// `svd(x;full;driver;output vector)`: U, S and Vh (full true by default).
pub fn svd(x: K) -> KResult {
    let usage = "1-4 args, (x;full;driver;output vector)";
    let (mut a, alone) = Args::of::<Input>(x, 4, usage)?;
    let out = a.opt::<OutVector>(1)?.map(|o| o.0);
    let d = driver(a.opt::<Sym>(1)?.map(|s| s.0), &SVD, "driver")?;
    let full = a.opt::<bool>(1)?.unwrap_or(true);
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    let v = shim::svd(&ts[0], full, d.as_deref())?;
    multi(v.into(), h, out)
}

/// `svdvals(x;driver;output)`: the singular values.
pub fn svdvals(x: K) -> KResult {
    let usage = "1-3 args, (x;driver;output)";
    let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
    let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
    let d = driver(a.opt::<Sym>(1)?.map(|s| s.0), &SVD, "driver")?;
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    match shim::svdvals(out.as_ref(), &ts[0], d.as_deref())? {
        Some(v) => result(v, h),
        None => Ok(make::null()),
    }
}

/// `lstsq(a;b;rcond;method;output vector)`: solution, residuals, rank and singular values.
pub fn lstsq(x: K) -> KResult {
    let usage = "2-5 args, (a;b;rcond;method;output)";
    let mut a = Args::list(x, 2, 5, usage)?;
    let out = a.opt::<OutVector>(2)?.map(|o| o.0);
    let d = driver(
        a.opt::<Sym>(2)?.map(|s| s.0),
        &["gels", "gelsd", "gelss", "gelsy"],
        "driver",
    )?;
    let rcond = a.opt::<Option<f64>>(2)?.flatten();
    let (ts, h) = inputs(&a, None, 2, usage)?;
    for t in &ts[..2] {
        // MKL's least-squares drivers reject a NaN input as a bad parameter (libtorch then
        // fails an internal assert): say what is wrong instead
        if t.is_floating_point() && !bool::try_from(t.f_isfinite()?.f_all()?)? {
            bail!("input tensors should not contain infs or NaNs");
        }
    }
    let v = shim::lstsq(&ts[0], &ts[1], rcond, d.as_deref())?;
    multi(v.into(), h, out)
}

/// `solve(a;b)`, `solve(a;b;left)`, `solve(a;b;output)`, `solve(a;b;left;output)`: x in ax=b
/// (xa=b when left is false).
pub fn solve(x: K) -> KResult {
    let usage = "2-4 args, (a;b), (a;b;left), (a;b;out) or (a;b;left;out)";
    let mut a = Args::list(x, 2, 4, usage)?;
    let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
    let left = a.opt::<bool>(2)?.unwrap_or(true);
    let (ts, h) = inputs(&a, None, 2, usage)?;
    one(
        out,
        h,
        || Ok(Tensor::f_linalg_solve(&ts[0], &ts[1], left)?),
        |o| Ok(Tensor::f_linalg_solve_out(o, &ts[0], &ts[1], left).map(drop)?),
    )
}

/// `trisolve(a;b;upper;left;unitriangular;output)`: triangular solve, upper required.
pub fn trisolve(x: K) -> KResult {
    let usage = "3-6 args, (a;b;upper;left;unitriangular;output)";
    let mut a = Args::list(x, 3, 6, usage)?;
    let upper = bool::of(a.at(2)).ok_or_else(|| {
        anyhow!(
            "3rd arg of upper triangular flag expected, given {}",
            opargs::describe(a.at(2))
        )
    })?;
    let out = a.opt::<OutTensor>(3)?.map(|o| o.0);
    let (left, unit) = match a.opt2::<bool, bool>(3)? {
        Some(p) => p,
        None => (a.opt::<bool>(3)?.unwrap_or(true), false),
    };
    a.rest(3, usage)?;
    let (ts, h) = forms::tensors(&[a.at(0), a.at(1)])?;
    one(
        out,
        h,
        || Ok(ts[0].f_linalg_solve_triangular(&ts[1], upper, left, unit)?),
        |o| {
            Ok(ts[0]
                .f_linalg_solve_triangular_out(o, &ts[1], upper, left, unit)
                .map(drop)?)
        },
    )
}

/// `inverse x`, `inverse(x;output)`: the inverse of square matrices (no in-place form).
pub fn inverse(x: K) -> KResult {
    let (Input { t, handle: h }, out) = forms::unary(x)?;
    match &out {
        Out::New => result(t.f_inverse()?, h),
        Out::Into(o) => {
            let _ = t.f_inverse_out(o)?;
            Ok(make::null())
        }
        Out::InPlace => bail!("no in-place method"),
    }
}
