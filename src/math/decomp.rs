//! Matrix properties, decompositions, solvers and inverses (math-linalg.rst): det logdet slogdet
//! mrank chol cholx eig eigh eigvals eigvalsh qr lu lux lun svd svdvals solve trisolve cholsolve
//! lstsq lusolve inverse pinverse cholinverse. Arguments as ktorch reads them: the input (q data
//! or a tensor), optional flags/numbers/symbols read from the end, then an output tensor (one
//! result) or output vector (several results) last. Several results come back as a q list for
//! q data, a vector handle for a tensor.
use std::marker::PhantomData;

use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::forms::{self, inputs, several as multi, usage, Out, Usage};
use super::pointwise::UnaryArgs;
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

crate::qfn! {
    /// `det x`: the determinant of a matrix or batch.
    pub fn det(input: Input) -> KResult {
        result(input.t.f_det()?, input.handle)
    }

    /// `logdet x`: the log determinant of a matrix or batch.
    pub fn logdet(input: Input) -> KResult {
        result(input.t.f_logdet()?, input.handle)
    }

    /// `slogdet x`: sign and log of the absolute value of the determinant.
    pub fn slogdet(input: Input) -> KResult {
        multi(pair(input.t.f_slogdet()?), input.handle, None)
    }
}

/// `(input;atol;rtol;hermitian;output)`: atol and rtol floats (null: not given), hermitian a
/// flag; read from the back.
pub struct Tolerance {
    t: Tensor,
    h: bool,
    atol: Option<f64>,
    rtol: Option<f64>,
    herm: bool,
    out: Option<Tensor>,
}

impl FromQ for Tolerance {
    const TYPE: &'static str = "(input;atol;rtol;hermitian;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Tolerance>> {
        let usage = "up to 5, (input;atol;rtol;hermitian;output)";
        let (mut a, alone) = Args::of::<Input>(x, 5, usage)?;
        let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
        let herm = a.opt::<bool>(1)?.unwrap_or(false);
        let (atol, rtol) = match a.opt2::<Option<f64>, Option<f64>>(1)? {
            Some(p) => p,
            None => (a.opt::<Option<f64>>(1)?.flatten(), None),
        };
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Tolerance {
            t: ts.remove(0),
            h,
            atol,
            rtol,
            herm,
            out,
        }))
    }
}

crate::qfn! {
    /// `mrank x`, `mrank(x;atol;rtol;hermitian;output)`: the numerical rank.
    pub fn mrank(x: Tolerance) -> KResult {
        let (t, at, rt, herm) = (&x.t, x.atol, x.rtol, x.herm);
        one(
            x.out,
            x.h,
            || Ok(t.f_linalg_matrix_rank_atol_rtol_float(at, rt, herm)?),
            |o| Ok(t.f_linalg_matrix_rank_atol_rtol_float_out(o, at, rt, herm).map(drop)?),
        )
    }

    /// `pinverse x`, `pinverse(x;atol;rtol;hermitian;output)`: the pseudo-inverse.
    pub fn pinverse(x: Tolerance) -> KResult {
        let (t, at, rt, herm) = (&x.t, x.atol, x.rtol, x.herm);
        one(
            x.out,
            x.h,
            || Ok(t.f_linalg_pinv_atol_rtol_float(at, rt, herm)?),
            |o| Ok(t.f_linalg_pinv_atol_rtol_float_out(o, at, rt, herm).map(drop)?),
        )
    }
}

usage! {
    CholUsage = "1-3 args, a, (a;upper), (a;out) or (a;upper;out)";
    CholinverseUsage = "1-3 args, (x;upper;output)";
}

/// `x`, `(x;upper)`, `(x;output)` or `(x;upper;output)`, `U` the usage its errors say.
pub struct Upper<U> {
    t: Tensor,
    h: bool,
    upper: bool,
    out: Option<Tensor>,
    usage: PhantomData<U>,
}

impl<U: Usage> FromQ for Upper<U> {
    const TYPE: &'static str = U::USAGE;
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Upper<U>>> {
        let usage = U::USAGE;
        let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
        let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
        let upper = a.opt::<bool>(1)?.unwrap_or(false);
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Upper {
            t: ts.remove(0),
            h,
            upper,
            out,
            usage: PhantomData,
        }))
    }
}

/// `(x;flag;flag;output vector)`: two flags (the second false unless both are given) with the
/// first's default `D`, read from the back; `U` the usage its errors say.
pub struct Flags2<U, const D: bool> {
    t: Tensor,
    h: bool,
    a: bool,
    b: bool,
    out: Option<K>,
    usage: PhantomData<U>,
}

impl<U: Usage, const D: bool> FromQ for Flags2<U, D> {
    const TYPE: &'static str = U::USAGE;
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Flags2<U, D>>> {
        let usage = U::USAGE;
        let (mut a, alone) = Args::of::<Input>(x, 4, usage)?;
        let out = a.opt::<OutVector>(1)?.map(|o| o.0);
        let (f, g) = match a.opt2::<bool, bool>(1)? {
            Some(p) => p,
            None => (a.opt::<bool>(1)?.unwrap_or(D), false),
        };
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Flags2 {
            t: ts.remove(0),
            h,
            a: f,
            b: g,
            out,
            usage: PhantomData,
        }))
    }
}

usage! {
    CholxUsage = "1-4 arg(s), (x;upper;check;output)";
    LuxUsage = "1-4 arg(s), (x;pivot;check;output)";
}

crate::qfn! {
    /// `chol x`, `chol(x;upper)`, `chol(x;output)`, `chol(x;upper;output)`: Cholesky factors.
    pub fn chol(x: Upper<CholUsage>) -> KResult {
        let (t, upper) = (&x.t, x.upper);
        one(
            x.out,
            x.h,
            || Ok(t.f_linalg_cholesky(upper)?),
            |o| Ok(t.f_linalg_cholesky_out(o, upper).map(drop)?),
        )
    }

    /// `cholx(x;upper;check;output vector)`: Cholesky factors and error codes.
    pub fn cholx(x: Flags2<CholxUsage, false>) -> KResult {
        multi(pair(x.t.f_linalg_cholesky_ex(x.a, x.b)?), x.h, x.out)
    }

    /// `cholinverse(x;upper;output)`: the inverse from Cholesky factors.
    pub fn cholinverse(x: Upper<CholinverseUsage>) -> KResult {
        let (t, upper) = (&x.t, x.upper);
        one(
            x.out,
            x.h,
            || Ok(t.f_cholesky_inverse(upper)?),
            |o| Ok(t.f_cholesky_inverse_out(o, upper).map(drop)?),
        )
    }
}

/// `(a;b;flag;output)`: two inputs, a flag with default `D` and an output tensor, read from
/// the back (cholsolve's upper, false; solve's left, true); `U` the usage its errors say.
pub struct Pair<U, const D: bool> {
    a: Tensor,
    b: Tensor,
    h: bool,
    flag: bool,
    out: Option<Tensor>,
    usage: PhantomData<U>,
}

impl<U: Usage, const D: bool> FromQ for Pair<U, D> {
    const TYPE: &'static str = U::USAGE;
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Pair<U, D>>> {
        let usage = U::USAGE;
        let mut a = Args::list(x, 2, 4, usage)?;
        let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
        let flag = a.opt::<bool>(2)?.unwrap_or(D);
        let (mut ts, h) = inputs(&a, None, 2, usage)?;
        let b = ts.pop().expect("two");
        Ok(Some(Pair {
            a: ts.pop().expect("two"),
            b,
            h,
            flag,
            out,
            usage: PhantomData,
        }))
    }
}

usage! {
    CholsolveUsage = "2-4 args, (b;u;upper;output)";
    SolveUsage = "2-4 args, (a;b), (a;b;left), (a;b;out) or (a;b;left;out)";
}

crate::qfn! {
    /// `cholsolve(b;u;upper;output)`: solve with Cholesky factors `u`.
    pub fn cholsolve(x: Pair<CholsolveUsage, false>) -> KResult {
        let (b, u, upper) = (&x.a, &x.b, x.flag);
        one(
            x.out,
            x.h,
            || Ok(b.f_cholesky_solve(u, upper)?),
            |o| Ok(b.f_cholesky_solve_out(o, u, upper).map(drop)?),
        )
    }
}

/// eig (x;output vector), eigh (x;upper;output vector), eigvals (x;output), eigvalsh
/// (x;upper;output): `SYM` for the symmetric/Hermitian forms (an upper flag), `BOTH` for values
/// and vectors (an output vector, else an output tensor).
pub struct Eigen<const SYM: bool, const BOTH: bool> {
    t: Tensor,
    h: bool,
    uplo: &'static str,
    vout: Option<K>,
    out: Option<Tensor>,
}

impl<const SYM: bool, const BOTH: bool> FromQ for Eigen<SYM, BOTH> {
    const TYPE: &'static str = match (SYM, BOTH) {
        (true, true) => "(x;upper;output vector)",
        (true, false) => "(x;upper;output)",
        (false, true) => "(x;output vector)",
        (false, false) => "(x;output)",
    };
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Eigen<SYM, BOTH>>> {
        let m = if SYM { 3 } else { 2 };
        let usage = format!("1-{m} args, (x;{}output)", if SYM { "upper;" } else { "" });
        let (mut a, alone) = Args::of::<Input>(x, m, &usage)?;
        let (vout, out) = if BOTH {
            (a.opt::<OutVector>(1)?.map(|o| o.0), None)
        } else {
            (None, a.opt::<OutTensor>(1)?.map(|o| o.0))
        };
        let upper = if SYM {
            a.opt::<bool>(1)?.unwrap_or(false)
        } else {
            false
        };
        let (mut ts, h) = inputs(&a, alone, 1, &usage)?;
        Ok(Some(Eigen {
            t: ts.remove(0),
            h,
            uplo: if upper { "U" } else { "L" },
            vout,
            out,
        }))
    }
}

crate::qfn! {
    /// `eig x`, `eig(x;output vector)`: eigenvalues and eigenvectors.
    pub fn eig(x: Eigen<false, true>) -> KResult {
        multi(pair(x.t.f_linalg_eig()?), x.h, x.vout)
    }

    /// `eigh x`, `eigh(x;upper;output vector)`: those of a symmetric/Hermitian matrix.
    pub fn eigh(x: Eigen<true, true>) -> KResult {
        multi(pair(x.t.f_linalg_eigh(x.uplo)?), x.h, x.vout)
    }

    /// `eigvals x`, `eigvals(x;output)`: eigenvalues.
    pub fn eigvals(x: Eigen<false, false>) -> KResult {
        let t = &x.t;
        if !bool::try_from(t.f_isfinite()?.f_all()?)? {
            // linalg_eig checks this, linalg_eigvals does not: MKL's geev then rejects its
            // balancing step's input and went on to a segfault (ktorch-fuzz on the GPU machine)
            bail!("input tensor should not contain infs or NaNs");
        }
        one(
            x.out,
            x.h,
            || Ok(t.f_linalg_eigvals()?),
            |o| Ok(t.f_linalg_eigvals_out(o).map(drop)?),
        )
    }

    /// `eigvalsh x`, `eigvalsh(x;upper;output)`: eigenvalues of a symmetric/Hermitian matrix.
    pub fn eigvalsh(x: Eigen<true, false>) -> KResult {
        let (t, uplo) = (&x.t, x.uplo);
        one(
            x.out,
            x.h,
            || Ok(t.f_linalg_eigvalsh(uplo)?),
            |o| Ok(t.f_linalg_eigvalsh_out(o, uplo).map(drop)?),
        )
    }
}

/// `qr`'s arguments: `x` or `(x;mode;output vector)`, mode `reduced (default), `complete or `r.
pub struct Qr {
    t: Tensor,
    h: bool,
    mode: &'static str,
    out: Option<K>,
}

impl FromQ for Qr {
    const TYPE: &'static str = "(x;mode;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Qr>> {
        let usage = "1-3 args, (x;mode;output)";
        let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
        let out = a.opt::<OutVector>(1)?.map(|o| o.0);
        let mode = a.opt::<Sym>(1)?.map(|s| s.0).unwrap_or("reduced");
        if !["reduced", "complete", "r"].contains(&mode) {
            bail!("unrecognized qr mode: {mode}");
        }
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Qr {
            t: ts.remove(0),
            h,
            mode,
            out,
        }))
    }
}

/// `lu`'s arguments: `x` or `(x;pivot;output vector)`, pivot true unless given.
pub struct Lu {
    t: Tensor,
    h: bool,
    pivot: bool,
    out: Option<K>,
}

impl FromQ for Lu {
    const TYPE: &'static str = "(x;pivot;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Lu>> {
        let usage = "1-3 args, (x;pivot;output)";
        let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
        let out = a.opt::<OutVector>(1)?.map(|o| o.0);
        let pivot = a.opt::<bool>(1)?.unwrap_or(true);
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Lu {
            t: ts.remove(0),
            h,
            pivot,
            out,
        }))
    }
}

crate::qfn! {
    /// `qr(x;mode;output vector)`: Q and R.
    pub fn qr(x: Qr) -> KResult {
        multi(pair(Tensor::f_linalg_qr(&x.t, x.mode)?), x.h, x.out)
    }

    /// `lu(x;pivot;output vector)`: compact LU factorization and pivots.
    pub fn lu(x: Lu) -> KResult {
        multi(pair(Tensor::f_linalg_lu_factor(&x.t, x.pivot)?), x.h, x.out)
    }

    /// `lux(x;pivot;check;output vector)`: LU factorization, pivots and error codes.
    pub fn lux(x: Flags2<LuxUsage, true>) -> KResult {
        multi(triple(Tensor::f_linalg_lu_factor_ex(&x.t, x.a, x.b)?), x.h, x.out)
    }
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

/// `lun`'s arguments: `lun v` of an LU vector, `lun(lu;dataflag;pivotflag;output vector)` or
/// `lun(matrix;pivots;dataflag;pivotflag;output)`; the pivots are checked when the call runs.
pub struct Lun {
    m: Tensor,
    p: Tensor,
    h: bool,
    data: bool,
    pivots: bool,
    out: Option<K>,
}

/// lun's usage, its errors' words.
const LUN: &str =
    "(lu vector;dataflag;pivotflag;output) or (lu matrix;pivots;dataflag;pivotflag;output)";

impl FromQ for Lun {
    const TYPE: &'static str = "(lu;data;pivot;output) or (matrix;pivots;data;pivot;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Lun>> {
        let usage = LUN;
        if opargs::is_vector(x) {
            let (m, p, h) = lu_pair(x, usage)?;
            return Ok(Some(Lun {
                m,
                p,
                h,
                data: true,
                pivots: true,
                out: None,
            }));
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
        Ok(Some(Lun {
            m,
            p,
            h,
            data,
            pivots,
            out,
        }))
    }
}

/// `lusolve`'s arguments: `(b;lu;output)` or `(b;matrix;pivots;output)`; the pivots are
/// checked when the call runs.
pub struct LuSolve {
    b: Tensor,
    m: Tensor,
    p: Tensor,
    h: bool,
    out: Option<Tensor>,
}

impl FromQ for LuSolve {
    const TYPE: &'static str = "(b;lu;output) or (b;matrix;pivot;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<LuSolve>> {
        let usage = LuSolve::TYPE;
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
        Ok(Some(LuSolve { b, m, p, h, out }))
    }
}

crate::qfn! {
    /// `lun(lu;dataflag;pivotflag;output vector)` or `lun(matrix;pivots;..)`: unpack P, L and
    /// U from a compact LU factorization.
    pub fn lun(x: Lun) -> KResult {
        check_pivots(&x.m, &x.p)?;
        multi(triple(Tensor::f_lu_unpack(&x.m, &x.p, x.data, x.pivots)?), x.h, x.out)
    }

    /// `lusolve(b;lu;output)` or `lusolve(b;matrix;pivots;output)`: solve Ax=b from A's LU
    /// factorization.
    pub fn lusolve(x: LuSolve) -> KResult {
        let LuSolve { b, m, p, h, out } = x;
        check_pivots(&m, &p)?;
        one(
            out,
            h,
            || Ok(Tensor::f_linalg_lu_solve(&m, &p, &b, true, false)?),
            |o| Ok(Tensor::f_linalg_lu_solve_out(o, &m, &p, &b, true, false).map(drop)?),
        )
    }
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

/// `svd`'s arguments: `x` or `(x;full;driver;output vector)`, full true unless given.
pub struct Svd {
    t: Tensor,
    h: bool,
    full: bool,
    driver: Option<std::ffi::CString>,
    out: Option<K>,
}

impl FromQ for Svd {
    const TYPE: &'static str = "(x;full;driver;output vector)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Svd>> {
        let usage = "1-4 args, (x;full;driver;output vector)";
        let (mut a, alone) = Args::of::<Input>(x, 4, usage)?;
        let out = a.opt::<OutVector>(1)?.map(|o| o.0);
        let driver = driver(a.opt::<Sym>(1)?.map(|s| s.0), &SVD, "driver")?;
        let full = a.opt::<bool>(1)?.unwrap_or(true);
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Svd {
            t: ts.remove(0),
            h,
            full,
            driver,
            out,
        }))
    }
}

/// `svdvals`'s arguments: `x` or `(x;driver;output)`.
pub struct Svdvals {
    t: Tensor,
    h: bool,
    driver: Option<std::ffi::CString>,
    out: Option<Tensor>,
}

impl FromQ for Svdvals {
    const TYPE: &'static str = "(x;driver;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Svdvals>> {
        let usage = "1-3 args, (x;driver;output)";
        let (mut a, alone) = Args::of::<Input>(x, 3, usage)?;
        let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
        let driver = driver(a.opt::<Sym>(1)?.map(|s| s.0), &SVD, "driver")?;
        let (mut ts, h) = inputs(&a, alone, 1, usage)?;
        Ok(Some(Svdvals {
            t: ts.remove(0),
            h,
            driver,
            out,
        }))
    }
}

/// `lstsq`'s arguments: `(a;b;rcond;method;output vector)`, rcond a float (null: none).
pub struct Lstsq {
    a: Tensor,
    b: Tensor,
    h: bool,
    rcond: Option<f64>,
    driver: Option<std::ffi::CString>,
    out: Option<K>,
}

impl FromQ for Lstsq {
    const TYPE: &'static str = "(a;b;rcond;method;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Lstsq>> {
        let usage = "2-5 args, (a;b;rcond;method;output)";
        let mut a = Args::list(x, 2, 5, usage)?;
        let out = a.opt::<OutVector>(2)?.map(|o| o.0);
        let driver = driver(
            a.opt::<Sym>(2)?.map(|s| s.0),
            &["gels", "gelsd", "gelss", "gelsy"],
            "driver",
        )?;
        let rcond = a.opt::<Option<f64>>(2)?.flatten();
        let (mut ts, h) = inputs(&a, None, 2, usage)?;
        let b = ts.pop().expect("two");
        Ok(Some(Lstsq {
            a: ts.pop().expect("two"),
            b,
            h,
            rcond,
            driver,
            out,
        }))
    }
}

/// `trisolve`'s arguments: `(a;b;upper;left;unitriangular;output)`, upper required.
pub struct Trisolve {
    a: Tensor,
    b: Tensor,
    h: bool,
    upper: bool,
    left: bool,
    unit: bool,
    out: Option<Tensor>,
}

impl FromQ for Trisolve {
    const TYPE: &'static str = "(a;b;upper;left;unitriangular;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Trisolve>> {
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
        let (mut ts, h) = forms::tensors(&[a.at(0), a.at(1)])?;
        let b = ts.pop().expect("two");
        Ok(Some(Trisolve {
            a: ts.pop().expect("two"),
            b,
            h,
            upper,
            left,
            unit,
            out,
        }))
    }
}

crate::qfn! {
    /// `svd(x;full;driver;output vector)`: U, S and Vh (full true by default).
    pub fn svd(x: Svd) -> KResult {
        let v = shim::svd(&x.t, x.full, x.driver.as_deref())?;
        multi(v.into(), x.h, x.out)
    }

    /// `svdvals(x;driver;output)`: the singular values.
    pub fn svdvals(x: Svdvals) -> KResult {
        match shim::svdvals(x.out.as_ref(), &x.t, x.driver.as_deref())? {
            Some(v) => result(v, x.h),
            None => Ok(make::null()),
        }
    }

    /// `lstsq(a;b;rcond;method;output vector)`: solution, residuals, rank and singular values.
    pub fn lstsq(x: Lstsq) -> KResult {
        for t in [&x.a, &x.b] {
            // MKL's least-squares drivers reject a NaN input as a bad parameter (libtorch then
            // fails an internal assert): say what is wrong instead
            if t.is_floating_point() && !bool::try_from(t.f_isfinite()?.f_all()?)? {
                bail!("input tensors should not contain infs or NaNs");
            }
        }
        let v = shim::lstsq(&x.a, &x.b, x.rcond, x.driver.as_deref())?;
        multi(v.into(), x.h, x.out)
    }

    /// `solve(a;b)`, `solve(a;b;left)`, `solve(a;b;output)`, `solve(a;b;left;output)`: x in
    /// ax=b (xa=b when left is false).
    pub fn solve(x: Pair<SolveUsage, true>) -> KResult {
        let (a, b, left) = (&x.a, &x.b, x.flag);
        one(
            x.out,
            x.h,
            || Ok(Tensor::f_linalg_solve(a, b, left)?),
            |o| Ok(Tensor::f_linalg_solve_out(o, a, b, left).map(drop)?),
        )
    }

    /// `trisolve(a;b;upper;left;unitriangular;output)`: triangular solve, upper required.
    pub fn trisolve(x: Trisolve) -> KResult {
        let (a, b, (upper, left, unit)) = (&x.a, &x.b, (x.upper, x.left, x.unit));
        one(
            x.out,
            x.h,
            || Ok(a.f_linalg_solve_triangular(b, upper, left, unit)?),
            |o| Ok(a.f_linalg_solve_triangular_out(o, b, upper, left, unit).map(drop)?),
        )
    }

    /// `inverse x`, `inverse(x;output)`: the inverse of square matrices (no in-place form).
    pub fn inverse(x: UnaryArgs) -> KResult {
        let UnaryArgs {
            input: Input { t, handle: h },
            out,
        } = x;
        match &out {
            Out::New => result(t.f_inverse()?, h),
            Out::Into(o) => {
                let _ = t.f_inverse_out(o)?;
                Ok(make::null())
            }
            Out::InPlace => bail!("no in-place method"),
        }
    }
}
