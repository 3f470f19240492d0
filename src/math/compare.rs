//! Comparisons (math-compare.rst): elementwise `eq ge gt le lt ne` (q number allowed as `y`,
//! output tensor or `[]` in place), `fmax fmin maximum minimum` (output tensor), tolerance
//! checks `close`/`allclose`, `equal`, and the special-value tests `finite inf nan neginf
//! posinf`. One table line per function, through `pointwise`'s `binary!` mechanism.
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

use super::pointwise::{binary, inputs, values, R};
use crate::k::from::Number as Num;
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::tensor::opargs::{self, Input};
use crate::tensor::result;

binary! {
    eq: f_eq_tensor, f_eq_tensor_out, f_eq_tensor_ | f_eq, f_eq_;
    ge: f_ge_tensor, f_ge_tensor_out, f_ge_tensor_ | f_ge, f_ge_;
    gt: f_gt_tensor, f_gt_tensor_out, f_gt_tensor_ | f_gt, f_gt_;
    le: f_le_tensor, f_le_tensor_out, f_le_tensor_ | f_le, f_le_;
    lt: f_lt_tensor, f_lt_tensor_out, f_lt_tensor_ | f_lt, f_lt_;
    ne: f_ne_tensor, f_ne_tensor_out, f_ne_tensor_ | f_ne, f_ne_;
    fmax: f_fmax, f_fmax_out, -;
    fmin: f_fmin, f_fmin_out, -;
    maximum: f_maximum, f_maximum_out, -;
    minimum: f_minimum, f_minimum_out, -;
}

/// `name: f;` makes a special-value test: an array or tensor in, booleans out.
macro_rules! special {
    ($($name:ident: $f:ident;)*) => {$(
        crate::qfn! {
            pub fn $name(x: Input) -> KResult {
                special(x, |t| t.$f())
            }
        }
    )*};
}

fn special(x: Input, f: fn(&Tensor) -> R) -> KResult {
    result(f(&x.t)?, x.handle)
}

special! {
    finite: f_isfinite;
    inf: f_isinf;
    nan: f_isnan;
    neginf: f_isneginf;
    posinf: f_isposinf;
}

/// A float atom (ktorch reads tolerances as q floats only).
fn float(x: K) -> Option<f64> {
    match (read::ktype(x), Num::of(x)) {
        (-9, Some(Num::Float(f))) => Some(f),
        _ => None,
    }
}

/// The inputs and tolerances of `close`/`allclose`: `(x;y)`, `(x;y;nanflag)`, `(x;y;rtol)`,
/// `(x;y;rtol;atol)`, `(x;y;rtol;atol;nanflag)`, or a simple list `x y [rtol [atol]]`; whether
/// an input was a handle, the tolerances and the nan flag.
pub struct Tolerance {
    a: Tensor,
    b: Tensor,
    handle: bool,
    rtol: f64,
    atol: f64,
    nan: bool,
}

impl FromQ for Tolerance {
    const TYPE: &'static str =
        "(x;y), (x;y;nan equal), (x;y;rel tol), (x;y;rel tol;abs tol), or (x;y;rel;abs;nan equal)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Tolerance>> {
        tolerance(x).map(|(a, b, handle, rtol, atol, nan)| {
            Some(Tolerance {
                a,
                b,
                handle,
                rtol,
                atol,
                nan,
            })
        })
    }
}

/// The inputs and tolerances of `close`/`allclose`: `(x;y)`, `(x;y;nanflag)`, `(x;y;rtol)`,
/// `(x;y;rtol;atol)`, `(x;y;rtol;atol;nanflag)`, or a simple list `x y [rtol [atol]]`.
fn tolerance(x: K) -> Result<(Tensor, Tensor, bool, f64, f64, bool)> {
    let (mut rtol, mut atol, mut nan) = (1e-5, 1e-8, false);
    let t = read::ktype(x);
    if t < 0 {
        bail!("not implemented for {}", opargs::describe(x));
    }
    if t > 0 {
        let mut v = values(x, 2..=4)?;
        if v.len() > 2 && v[0].kind() != Kind::Double {
            bail!(
                "unable to derive a pair of values to compare from inputs of size {}",
                v.len()
            );
        }
        if v.len() > 3 {
            atol = v.pop().expect("4").f_double_value(&[])?;
        }
        if v.len() > 2 {
            rtol = v.pop().expect("3").f_double_value(&[])?;
        }
        let b = v.pop().expect("2");
        return Ok((v.pop().expect("1"), b, false, rtol, atol, nan));
    }
    let usage = "expected (x;y), (x;y;nan equal), (x;y;rel tol), (x;y;rel tol;abs tol), or (x;y;rel;abs;nan equal)";
    let v = from::list(&x).ok_or_else(|| anyhow!("{usage}"))?;
    let mut n = v.len();
    if n > 2 {
        if let Some(b) = bool::of(v[n - 1]) {
            nan = b;
            n -= 1;
        }
    }
    match n {
        2 => {}
        3 | 4 => {
            rtol = float(v[2]).ok_or_else(|| anyhow!("{usage}"))?;
            if n == 4 {
                atol = float(v[3]).ok_or_else(|| anyhow!("{usage}"))?;
            }
        }
        _ => bail!("{usage}"),
    }
    let (mut ts, h) = inputs(&v[..2])?;
    let b = ts.pop().expect("two inputs");
    Ok((ts.pop().expect("two inputs"), b, h, rtol, atol, nan))
}

/// The two inputs of `equal`: a simple list of two values, or `(x;y)` (arrays or tensors).
pub struct Compared(Tensor, Tensor);

impl FromQ for Compared {
    const TYPE: &'static str = "two input arrays/tensors to compare";
    /// Every value is the pair or an error.
    fn read(x: K) -> Result<Option<Compared>> {
        let (a, b) = if read::ktype(x) > 0 {
            let mut v = values(x, 2..=2)?;
            let b = v.pop().expect("2");
            (v.pop().expect("1"), b)
        } else {
            match from::list(&x) {
                Some(v) if v.len() == 2 => {
                    let (mut ts, _) = inputs(v)?;
                    let b = ts.pop().expect("2");
                    (ts.pop().expect("1"), b)
                }
                _ => bail!("expected two input arrays/tensors to compare"),
            }
        };
        Ok(Some(Compared(a, b)))
    }
}

crate::qfn! {
    /// `close(x;y;..)`: true where the elements are within tolerance, `|x-y| <= atol + rtol*|y|`.
    pub fn close(x: Tolerance) -> KResult {
        result(x.a.f_isclose(&x.b, x.rtol, x.atol, x.nan)?, x.handle)
    }

    /// `allclose(x;y;..)`: a boolean atom, true if every element is within tolerance.
    pub fn allclose(x: Tolerance) -> Result<bool> {
        Ok(x.a.f_allclose(&x.b, x.rtol, x.atol, x.nan)?)
    }

    /// `equal(x;y)`: a boolean atom, true if both have the same size and elements.
    pub fn equal(x: Compared) -> Result<bool> {
        Ok(x.0.f_equal(&x.1)?)
    }
}
